"""Check a generated deck: every slide has a title."""
import sys

from pptx import Presentation

for slide in Presentation(sys.argv[1]).slides:
    assert slide.shapes.title is not None
