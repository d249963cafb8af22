"""Positions, ranges, fixes and findings: the values every rule produces."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum, IntEnum


class Severity(IntEnum):
    """Finding severity; values match the LSP's DiagnosticSeverity."""

    ERROR = 1
    WARNING = 2
    INFO = 3
    HINT = 4

    @property
    def label(self) -> str:
        return self.name.lower()

    @classmethod
    def parse(cls, text: str) -> Severity:
        key = text.strip().upper()
        aliases = {"INFORMATION": "INFO", "WARN": "WARNING", "ERR": "ERROR"}
        return cls[aliases.get(key, key)]


# not frozen: a frozen dataclass sets each field through object.__setattr__, ~3x the cost of construction here, and a
# link-dense document builds hundreds of thousands; unsafe_hash keeps them hashable (nothing assigns to them)
@dataclass(slots=True, order=True, unsafe_hash=True)
class Pos:
    """0-based line and character, characters counted in code points."""

    line: int
    character: int


@dataclass(slots=True, order=True, unsafe_hash=True)
class Range:
    start: Pos
    end: Pos

    @classmethod
    def of(cls, line: int, start: int, end_line: int | None = None, end: int | None = None) -> Range:
        if end_line is None:
            end_line = line
        if end is None:
            end = start
        return cls(Pos(line, start), Pos(end_line, end))

    def contains(self, pos: Pos) -> bool:
        return self.start <= pos <= self.end

    def to_dict(self) -> dict:
        return {
            "start": {"line": self.start.line, "character": self.start.character},
            "end": {"line": self.end.line, "character": self.end.character},
        }

    @classmethod
    def from_dict(cls, data: dict) -> Range:
        s, e = data["start"], data["end"]
        return cls(Pos(int(s["line"]), int(s["character"])), Pos(int(e["line"]), int(e["character"])))


class Applicability(Enum):
    """How safe a fix is (ruff's meanings)."""

    SAFE = "safe"  # keeps the meaning; applied by --fix and source.fixAll
    UNSAFE = "unsafe"  # may change meaning; offered, applied only on request
    DISPLAY_ONLY = "display-only"  # a suggestion with placeholder text; never auto-applied


@dataclass(frozen=True, slots=True)
class Edit:
    """Replace `range` in the file at `path` (None: the SKILL.md itself) with `new_text`."""

    range: Range
    new_text: str
    path: str | None = None

    def to_dict(self) -> dict:
        d = {"range": self.range.to_dict(), "newText": self.new_text}
        if self.path is not None:
            d["path"] = self.path
        return d


@dataclass(frozen=True, slots=True)
class CreateFile:
    """Create a file (absolute path) with `content` unless it exists."""

    path: str
    content: str = ""

    def to_dict(self) -> dict:
        return {"create": self.path, "content": self.content}


@dataclass(frozen=True, slots=True)
class Fix:
    title: str
    edits: tuple[Edit, ...] = ()
    creates: tuple[CreateFile, ...] = ()
    applicability: Applicability = Applicability.SAFE

    @classmethod
    def safe(cls, title: str, *edits: Edit, creates: tuple[CreateFile, ...] = ()) -> Fix:
        return cls(title, tuple(edits), creates, Applicability.SAFE)

    @classmethod
    def unsafe(cls, title: str, *edits: Edit, creates: tuple[CreateFile, ...] = ()) -> Fix:
        return cls(title, tuple(edits), creates, Applicability.UNSAFE)

    @classmethod
    def suggestion(cls, title: str, *edits: Edit, creates: tuple[CreateFile, ...] = ()) -> Fix:
        return cls(title, tuple(edits), creates, Applicability.DISPLAY_ONLY)

    def to_dict(self) -> dict:
        return {
            "title": self.title,
            "applicability": self.applicability.value,
            "edits": [e.to_dict() for e in self.edits],
            "creates": [c.to_dict() for c in self.creates],
        }


@dataclass(frozen=True, slots=True)
class Related:
    """A location elsewhere that explains a finding (e.g. the other skill with the same name)."""

    path: str
    range: Range
    message: str


@dataclass(slots=True, unsafe_hash=True)
class Finding:
    """One finding. Not frozen (treat as immutable; change with dataclasses.replace): a frozen dataclass sets each
    field through object.__setattr__, which made building a link run's 130,000 findings a seventh of its time."""

    code: str
    severity: Severity
    range: Range
    message: str
    fix: Fix | None = None
    anti_pattern: bool = False
    related: tuple[Related, ...] = field(default=())
    tags: tuple[str, ...] = ()  # "unnecessary" / "deprecated" (LSP diagnostic tags)
    file: str | None = None  # a bundled file (posix path relative to the skill folder); None: SKILL.md

    def sort_key(self) -> tuple:
        return (self.file is not None, self.file or "", self.range.start.line, self.range.start.character,
                self.code, self.message)

    def to_dict(self) -> dict:
        d: dict = {
            "code": self.code,
            "severity": self.severity.label,
            "range": self.range.to_dict(),
            "message": self.message,
            "anti_pattern": self.anti_pattern,
            "fix": self.fix.to_dict() if self.fix else None,
        }
        if self.file is not None:
            d["file"] = self.file
        if self.related:
            d["related"] = [
                {"path": r.path, "range": r.range.to_dict(), "message": r.message} for r in self.related
            ]
        return d
