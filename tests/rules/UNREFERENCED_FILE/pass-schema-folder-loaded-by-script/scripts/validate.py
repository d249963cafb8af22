import json
from pathlib import Path

SCHEMAS = Path(__file__).parent / "schemas"
TEMPLATE = Path("templates/page.html").read_text()


def load(name):
    return json.loads((SCHEMAS / f"{name}.json").read_text())
