"""Options for the rule fixture tests."""

from __future__ import annotations


def pytest_addoption(parser) -> None:
    parser.addoption(
        "--update-expected",
        action="store_true",
        default=False,
        help="rewrite tests/rules/*/fail-*/expected.txt from the current findings (review the diff!)",
    )
