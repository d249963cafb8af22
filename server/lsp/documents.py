"""Open documents: text, version, LSP line breaks, and code point <-> client unit conversion.

pygls' own TextDocument splits lines with str.splitlines (which also breaks on \\x0b, \\x0c, \\x1c-\\x1e,
\\x85, \\u2028, \\u2029) and mutates positions while converting them; the LSP breaks lines only at
\\r\\n, \\r and \\n. This store uses the engine's LineIndex so that server positions, engine positions
and client positions all agree, whatever bytes the editor sends.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from skillgrade.analyzers.document import LineIndex

UTF8, UTF16, UTF32 = "utf-8", "utf-16", "utf-32"


def _units(ch: str, encoding: str) -> int:
    o = ord(ch)
    if encoding == UTF16:
        return 2 if o > 0xFFFF else 1
    if encoding == UTF8:
        return 1 if o < 0x80 else 2 if o < 0x800 else 3 if o < 0x10000 else 4
    return 1


@dataclass(frozen=True, slots=True)
class Codec:
    """Converts columns of one line between code points (the engine's unit) and client units."""

    encoding: str = UTF16

    def to_client(self, line: str, col: int) -> int:
        col = max(0, min(col, len(line)))
        if self.encoding == UTF32:
            return col
        head = line[:col]
        if head.isascii():
            return col
        if self.encoding == UTF16:
            return col + sum(1 for ch in head if ord(ch) > 0xFFFF)
        return len(head.encode("utf-8", "surrogatepass"))

    def from_client(self, line: str, units: int) -> int:
        """Code point column for a client column; past the end: the line's end; inside a character: after it."""
        if units <= 0:
            return 0
        if self.encoding == UTF32 or line.isascii():
            return min(units, len(line))
        count = 0
        for i, ch in enumerate(line):
            if count >= units:
                return i
            count += _units(ch, self.encoding)
        return len(line)


@dataclass(slots=True)
class OpenDoc:
    uri: str
    version: int
    text: str
    language_id: str = ""
    _index: LineIndex | None = field(default=None, repr=False)

    @property
    def index(self) -> LineIndex:
        if self._index is None:
            self._index = LineIndex(self.text)
        return self._index

    @property
    def lines(self) -> list[str]:
        return self.index.lines

    def offset(self, line: int, units: int, codec: Codec) -> int:
        """Offset (code points) of a client position; positions past the end clamp to it (LSP rules)."""
        idx = self.index
        if line < 0:
            return 0
        if line >= len(idx.lines):
            return len(self.text)
        return idx.starts[line] + codec.from_client(idx.lines[line], units)

    def apply_change(self, rng: tuple[int, int, int, int] | None, new_text: str, codec: Codec) -> None:
        """Apply one content change: rng = (start line, start char, end line, end char) in client units."""
        if rng is None:
            self.text = new_text
        else:
            a = self.offset(rng[0], rng[1], codec)
            b = self.offset(rng[2], rng[3], codec)
            if b < a:
                a, b = b, a
            self.text = self.text[:a] + new_text + self.text[b:]
        self._index = None


class DocumentStore:
    """uri -> OpenDoc for the documents the client has open."""

    def __init__(self) -> None:
        self.docs: dict[str, OpenDoc] = {}

    def get(self, uri: str) -> OpenDoc | None:
        return self.docs.get(uri)

    def open(self, uri: str, version: int, text: str, language_id: str = "") -> OpenDoc:
        doc = OpenDoc(uri, version, text, language_id)
        self.docs[uri] = doc
        return doc

    def close(self, uri: str) -> OpenDoc | None:
        return self.docs.pop(uri, None)

    def __iter__(self):
        return iter(list(self.docs.values()))
