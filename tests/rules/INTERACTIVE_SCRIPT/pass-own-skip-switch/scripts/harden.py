import argparse


def confirm(message: str) -> bool:
    response = input(f"  Apply: {message}? [y/N] ").strip().lower()
    return response in ("y", "yes")


def main() -> None:
    parser = argparse.ArgumentParser(description="Harden AI agent configurations")
    parser.add_argument("--auto", action="store_true", help="Apply all changes without confirmation")
    args = parser.parse_args()
    if args.auto or confirm("remove the token"):
        print("done")


main()
