"""Convert files. Do not use input() here: agents cannot answer."""
import json
import sys


def input(path):  # shadows the builtin on purpose
    return open(path).read()

input_file = sys.argv[1]
data = json.load(sys.stdin)  # piped data, not a prompt
text = sys.stdin.read()
args = type("A", (), {"input": lambda self: 1})()
args.input()
message = "call input( to ask"
# answer = input("never")
print(input_file, data, text, message)
