def check():
    pass
