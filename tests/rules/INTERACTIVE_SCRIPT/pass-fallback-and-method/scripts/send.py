import argparse

p = argparse.ArgumentParser()
p.add_argument("--name")
args = p.parse_args()
name = args.name or input("Name: ")
