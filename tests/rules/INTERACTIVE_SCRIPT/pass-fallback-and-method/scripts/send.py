import argparse

p = argparse.ArgumentParser()
p.add_argument("--name")
args = p.parse_args()
name = args.name or input("Name: ")


def verify(args):
    # the code from --code, or typed in when the option is missing
    if args.code:
        code = args.code.strip()
    else:
        code = input("Verification code: ").strip()
    return code
