import os

if os.path.exists("config.txt"):
    with open("config.txt") as f:
        name = f.read()
else:
    name = input("Name: ")
print(name)
