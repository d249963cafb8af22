def confirm(n):
    answer = input(f"Change {n} issues? [y/N] ")
    return answer.lower() == "y"
