from helper import load

print(load())
