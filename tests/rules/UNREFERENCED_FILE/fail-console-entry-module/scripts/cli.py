from . import report


def main() -> None:
    report.run()
