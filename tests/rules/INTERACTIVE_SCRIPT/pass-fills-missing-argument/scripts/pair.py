import sys


def main():
    rest = sys.argv[1:]
    code = rest[0] if rest else None
    if not code:
        code = input("6-digit pairing code: ")
    print(code)


main()
