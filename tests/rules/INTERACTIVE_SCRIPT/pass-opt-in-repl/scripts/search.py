import argparse


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("query", nargs="*")
    ap.add_argument("--interactive", action="store_true")
    args = ap.parse_args()
    if args.interactive:
        while True:
            q = input("search> ")
            print(q)
    else:
        print(" ".join(args.query))


if __name__ == "__main__":
    main()
