"""The Rule unit: a code, metadata, a docstring that is the documentation, and a check function."""

from __future__ import annotations

import inspect
import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from enum import Enum
from typing import TYPE_CHECKING, Any

from . import rx
from .findings import Finding, Fix, Range, Related, Severity
from .targets import ALL_TARGETS

if TYPE_CHECKING:
    from .config import Config
    from .document import SkillDocument
    from .workspace import Workspace

_CODE = rx.compile(r"^[A-Z][A-Z0-9_]+$")


class FixAvailability(Enum):
    NONE = "none"
    SOMETIMES = "sometimes"
    ALWAYS = "always"


@dataclass(slots=True)
class RuleContext:
    """What a rule may use besides the document: its own metadata, the config, the workspace index."""

    rule: Rule
    config: Config
    workspace: Workspace | None = None

    def finding(
        self,
        range: Range,
        message: str,
        fix: Fix | None = None,
        *,
        related: Iterable[Related] = (),
        tags: tuple[str, ...] = (),
        file: str | None = None,
    ) -> Finding:
        rule = self.rule  # (positional: a link run builds 10^5 findings)
        return Finding(rule.code, rule.severity, range, message, fix,
                       rule.anti_pattern and file is None,  # bundled files: not scored
                       tuple(related) if related else (), tags, file)


CheckFn = Callable[["SkillDocument", RuleContext], Iterator[Finding]]


@dataclass(frozen=True, slots=True)
class Rule:
    code: str
    family: str
    severity: Severity
    summary: str  # first line of the docstring
    doc: str  # the full documentation (markdown)
    check: CheckFn = field(repr=False, compare=False)
    fix: FixAvailability = FixAvailability.NONE
    anti_pattern: bool = False  # one of the methodology's anti-patterns (counts toward the penalty)
    workspace: bool = False  # needs the workspace index (cross-skill rules)
    source_file: str = ""
    targets: frozenset[str] = ALL_TARGETS  # where the rule applies (config `target`; analyzers/targets.py)

    def section(self, title: str) -> str:
        """The text of one `## title` section of the rule's documentation."""
        m = re.search(rf"^## {re.escape(title)}\s*\n(.*?)(?=^## |\Z)", self.doc, re.S | re.M)
        return m.group(1).strip() if m else ""


def rule(
    code: str,
    *,
    family: str,
    severity: Severity,
    fix: FixAvailability = FixAvailability.NONE,
    anti_pattern: bool = False,
    workspace: bool = False,
    targets: Iterable[str] = ALL_TARGETS,
) -> Callable[[CheckFn], Rule]:
    """Declare a rule; the function's docstring is its documentation page."""

    def wrap(fn: CheckFn) -> Rule:
        if not _CODE.match(code):
            raise ValueError(f"bad rule code {code!r}")
        wanted = frozenset(targets)
        if not wanted or not wanted <= ALL_TARGETS:
            raise ValueError(f"rule {code}: targets must be a non-empty subset of {sorted(ALL_TARGETS)}")
        doc = inspect.cleandoc(fn.__doc__ or "")
        if not doc:
            raise ValueError(f"rule {code} has no docstring")
        summary = doc.splitlines()[0].strip()
        try:
            src = inspect.getsourcefile(fn) or ""
        except TypeError:
            src = ""
        return Rule(
            code=code,
            family=family,
            severity=severity,
            summary=summary,
            doc=doc,
            check=fn,
            fix=fix,
            anti_pattern=anti_pattern,
            workspace=workspace,
            source_file=src,
            targets=wanted,
        )

    return wrap


def as_dict(r: Rule) -> dict[str, Any]:
    return {
        "code": r.code,
        "family": r.family,
        "severity": r.severity.label,
        "summary": r.summary,
        "fix": r.fix.value,
        "anti_pattern": r.anti_pattern,
        "targets": sorted(r.targets),
    }
