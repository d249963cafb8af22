import argparse
import sys

parser = argparse.ArgumentParser()
parser.add_argument("--no-color", action="store_true")
parser.parse_args()


def pick() -> str:
    try:
        return input("Pick: ")
    except KeyboardInterrupt:
        sys.exit(1)


print(pick())
