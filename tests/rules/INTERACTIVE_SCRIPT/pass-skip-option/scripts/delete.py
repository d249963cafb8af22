import argparse

p = argparse.ArgumentParser()
p.add_argument("--yes", "-y", action="store_true")
args = p.parse_args()
if not args.yes and input("Sure? ") != "y":
    raise SystemExit(1)
