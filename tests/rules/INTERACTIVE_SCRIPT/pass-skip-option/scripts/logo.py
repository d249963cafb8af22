import argparse

parser = argparse.ArgumentParser()
parser.add_argument("--logo")
parser.add_argument("--no-logo-prompt", action="store_true", help="Skip the logo question")
args = parser.parse_args()
if not args.logo and not args.no_logo_prompt:
    args.logo = input("Logo file (empty for none): ")
print(args.logo)
