def deep():
    return True
