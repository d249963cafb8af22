import argparse


def confirm(code: str) -> str:
    print(f"Type this code to confirm deletion: {code}")
    try:
        return input("Code: ").strip()
    except (EOFError, KeyboardInterrupt):
        return ""


parser = argparse.ArgumentParser()
parser.add_argument("--execute", action="store_true")
if parser.parse_args().execute and confirm("1234") != "1234":
    raise SystemExit(1)
