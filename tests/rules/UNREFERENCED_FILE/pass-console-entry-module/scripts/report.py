def run() -> None:
    print("report")
