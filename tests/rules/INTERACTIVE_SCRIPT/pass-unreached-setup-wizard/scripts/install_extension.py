import getpass

token = getpass.getpass("Extension token: ")
print(len(token))
