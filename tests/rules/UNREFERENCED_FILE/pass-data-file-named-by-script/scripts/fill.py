import json

with open('fields.json') as fh:
    FIELDS = json.load(fh)
