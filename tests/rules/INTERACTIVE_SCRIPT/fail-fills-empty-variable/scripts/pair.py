def main():
    code = None
    if not code:
        code = input("6-digit pairing code: ")
    print(code)


main()
