def check():
    return True
