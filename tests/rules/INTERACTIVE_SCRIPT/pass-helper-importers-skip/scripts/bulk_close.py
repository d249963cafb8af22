import argparse

from bulk_utils import confirm

p = argparse.ArgumentParser()
p.add_argument("--yes", "-y", action="store_true")
args = p.parse_args()
if not args.yes and not confirm(3):
    raise SystemExit(1)

if __name__ == "__main__":
    pass
