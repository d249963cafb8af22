import getpass

name = input("Project name: ")
password = getpass.getpass("Password: ")
print(name, len(password))
