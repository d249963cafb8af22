def load():
    return 1
