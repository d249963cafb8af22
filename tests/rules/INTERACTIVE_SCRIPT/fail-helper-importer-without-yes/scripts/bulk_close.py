from bulk_utils import confirm

if confirm(3):
    print("closed")

if __name__ == "__main__":
    pass
