"""CODE_BLOCK_INVALID: a python/json/yaml/toml block that does not parse."""

from __future__ import annotations

import ast
import functools
import json
import re
import sys
import warnings
from collections.abc import Iterator

import yaml

from ... import rx
from ...document import CodeBlock, SkillDocument
from ...findings import Finding, Pos, Range, Severity
from ...lazy_re import lazy_compile
from ...rule import RuleContext, rule
from ._helpers import fenced_frontmatter

# Snippets with elisions or template placeholders are illustrations, not programs.
# (no `^\s*#\s*\.\.\.` branch: `...` alone already matches it, and `^\s*` under re.M re-scanned every
# run of blank lines from each of its lines)
# `/* note */` needs the space after `/*`, so a glob such as "src/*/x/*/" is not read as a comment
# (`[What it does]`, `[your name]`: a prose field in square brackets, a capitalised word or "your" and more words; not
# a single word, `[BETA]`, nor a list comprehension's `[x for x in y]`)
_PLACEHOLDER = rx.compile(r"\.\.\.|…|<\w[^<>\n]{0,80}>|\[(?:[A-Z][a-z]+|your)(?: (?!(?:for|in|if|else|not|is|and|or)\b)[a-z]+){1,6}\]|:[ \t]*\{[A-Za-z_][\w .-]{0,60}\}|‹[^\n›>]{1,80}[›>]|\{\{|\{%|\$\{|\[\.\.\.\]|//|/\*\s[^\n]{0,200}?\*/")
# YAML that lists a value's alternatives: `type: "feature" | "bugfix"`
_YAML_ALTERNATIVES = lazy_compile(r":[ \t]+\"[^\"\n]{0,80}\"[ \t]*\|[ \t]*[\"\w]")
# JSON that lists a value's alternatives, TypeScript-style: `"type": "new" | "variant" | "existing"`
# or names a value's type (`"duration_ms": number`, `"tags": string[]`)
_ALTERNATIVES = rx.compile(r"\"[^\"\n]{0,80}\"[ \t]*\|[ \t]*[\"\w]"
                           r"|\"[ \t]*:[ \t]*(?:number|string|boolean|bool|object|array|integer|int|float|any|date"
                           r"|datetime)(?:\[\])?[ \t]*[,}\]\n|]")
# an API reference's signature in a `python` block: a call's closing parenthesis and its return type
# (`ov.single.CellVote(adata: AnnData) -> None`, `) → AnnData`), in a block with no `def`
# or a call whose first argument is annotated (`ov.single.MetaTiME(\n    adata: AnnData,`: no call is written so)
_SIGNATURE = lazy_compile(r"\)[ \t]*(?:->|→)[ \t]*[^\s:][^\n]*$"
                          r"|(?<![\w.])[A-Za-z_][\w.]*\([ \t]*\n?[ \t]*[A-Za-z_]\w*[ \t]*:[ \t]*[A-Za-z_\[]", re.M)
# (the call's name starts where no name character stands before it: else every letter of a 10^5-letter word
# started a scan to the word's end, quadratic: 3.7 s on fuzz seed 20's document 71980)
_DEF = lazy_compile(r"^[ \t]*(?:async[ \t]+)?def[ \t]", re.M)
# syntax newer than the oldest Python we run on: PEP 695 type parameters and `type` aliases (3.12)
_NEWER_PYTHON = lazy_compile(r"^[ \t]*(?:(?:async[ \t]+)?def|class)[ \t]+\w+\[|^[ \t]*type[ \t]+\w+[ \t]*[\[=]", re.M)
# a JSON value written as its shape in bare names: `[timestamp, event_type, data]`, `{id, name}` (one line, no
# quotes, no digits first: `[1, 2,]` and `{"a": 1,}` are values with an error)
_SHAPE = lazy_compile(r"[\[{][ \t]*[A-Za-z_][\w-]*(?:[ \t]*,[ \t]*[A-Za-z_][\w-]*){1,15}[ \t]*[\]}]")
# a type sketch in a `yaml` block, one type per line: `Person: { name, email?, tags[] }` (`?`: optional, `[]`: a list;
# a field may show its default: `{tables[], grain, confirmed: false}`)
_SKETCH_FIELD = r"[A-Za-z_][\w-]*(?:\?|\[\]|[ \t]*:[ \t]*[\w.-]{1,40})?"
_TYPE_SKETCH = lazy_compile(rf"[ \t]*[A-Za-z_][\w-]*[ \t]*:[ \t]*\{{[ \t]*{_SKETCH_FIELD}(?:[ \t]*,[ \t]*{_SKETCH_FIELD}){{0,40}}[ \t]*\}}(?:[ \t]*#[^\n]*)?[ \t]*")


# a value written as a variable's name, camelCase or snake_case (`defaultValue`, `max_tokens`), after `[`, `,` or `:`
# and before `,`, `]`, `}` or the line's end: a placeholder the reader fills in (not a bare word: `{"mode": fast}`)
_VARIABLE_VALUE = lazy_compile(r"([\[,:][ \t]*)([a-z][a-z0-9]*(?:[A-Z][a-z0-9]*)+|[a-z][a-z0-9]*(?:_[a-z0-9]+)+)"
                               r"(?=[ \t]*(?:[,\]}]|$))", re.M)


def _only_shapes_wrong(code: str) -> bool:
    """The JSON parses once each value written as its shape in bare names (`"bbox": [x1, y1, x2, y2]`) is a value."""
    if _SHAPE.search(code) is None:
        return False
    try:
        json.loads(_SHAPE.sub("null", code))
    except (ValueError, RecursionError):
        return False
    return True


# a value that is a bare glob (`globs: **/*.ts`, `- *.md`): YAML reads its `*` as an alias and fails
_BARE_GLOB = lazy_compile(r"^([ \t]*(?:-[ \t]+|[\w.-]{1,60}:[ \t]+))(\*[^\s#'\"]{0,200})[ \t]*$", re.M)


REPAIR_CHARS = 20_000  # a block re-parsed after a repair, at most (a rule's frontmatter is a few lines; PyYAML reads
# ~0.3 MB a second, and a second parse of a huge block would double its cost)


def _only_bare_globs_wrong(code: str) -> bool:
    """The YAML parses once each bare glob value (`globs: **/*.ts`, Cursor's own form) is quoted."""
    if "*" not in code or len(code) > REPAIR_CHARS:
        return False
    quoted, n = _BARE_GLOB.subn(lambda m: m.group(1) + '"' + m.group(2) + '"'
                                if "/" in m.group(2) or "." in m.group(2) or m.group(2).startswith("**")
                                else m.group(0), code)
    if not n or quoted == code:
        return False
    try:
        for _ in yaml.safe_load_all(quoted):
            pass
    except (yaml.YAMLError, RecursionError):
        return False
    return True


# the first line after a frontmatter block that starts a document's body: an AsciiDoc title (`= Title`) or a tag; a
# markdown heading (`# Title`) only under a document's frontmatter (`name`, `title`, `description`): in a YAML stream
# (Kubernetes manifests) `# …` is a comment
_BODY_START = lazy_compile(r"={1,6}[ \t]+\S|<[A-Za-z!]")
_MD_HEADING = lazy_compile(r"#{1,6}[ \t]+\S")
_DOC_KEYS = ("name", "title", "description")


def _frontmatter_file(code: str) -> tuple[int, str, str] | None:
    """A `yaml` block holding a whole file with YAML frontmatter (`---`, a mapping that parses, `---`, then a body that
    starts with a heading: an eidos `.adoc` spec, a plan or SKILL.md template): (the body's first line, its kind, the
    tag it wants), or None. The block is mis-tagged: its body is no YAML, and PyYAML's error there says nothing useful."""
    if not code.startswith("---") or len(code) > REPAIR_CHARS:
        return None  # (a block read a second time only up to REPAIR_CHARS, as the glob repair is)
    lines = code.splitlines()
    if not lines or lines[0].rstrip() != "---":
        return None
    end = next((i for i in range(1, len(lines)) if lines[i].rstrip() == "---"), None)
    if end is None:
        return None
    at = next((k for k in range(end + 1, len(lines)) if lines[k].strip()), None)
    if at is None:
        return None
    body = lines[at]
    heading = _MD_HEADING.match(body) is not None
    if _BODY_START.match(body) is None and not heading:
        return None
    try:
        data = yaml.safe_load("\n".join(lines[1:end]))
    except (yaml.YAMLError, RecursionError):
        return None
    if not isinstance(data, dict) or heading and not any(k in data for k in _DOC_KEYS):
        return None
    return (at, "a Markdown", "markdown") if heading or body.startswith("<") else (at, "an AsciiDoc", "asciidoc")


def _type_sketch(code: str) -> bool:
    """Every line (blank lines and `#` comments aside) names a type and its fields in bare names."""
    lines = [ln for ln in code.split("\n") if ln.strip() and not ln.lstrip().startswith("#")]
    return bool(lines) and all(len(ln) <= 400 and _TYPE_SKETCH.fullmatch(ln) for ln in lines)
_LANGS = {"python": "python", "py": "python", "python3": "python", "json": "json", "yaml": "yaml",
          "yml": "yaml", "toml": "toml"}


@functools.lru_cache(maxsize=2048)
def _decorator_excerpt(code: str) -> bool:
    """The block ends in a decorator (or several) without the function it decorates, after the imports or
    statements it needs or none: it parses once a stub function follows it."""
    at = code.rfind("\n@")
    if not (code.lstrip().startswith("@") or at >= 0) or any(
            ln.startswith(("def ", "async def ", "class ")) for ln in code[at + 1:].splitlines()):
        return False
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            ast.parse(code.rstrip() + "\ndef _decorated():\n    pass\n")
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return False
    return True


HEADER_LINES = 4  # statement headers a block may show without their body ("def f(x):" / "    for y in x:")


def _without_comment(line: str) -> str:
    """The line without its trailing comment (`if a == b:  # correct`), by Python's tokenizer: a `#` inside a
    string (`if s == "#":`) stays."""
    if "#" not in line:
        return line
    import io
    import tokenize

    try:
        for tok in tokenize.generate_tokens(io.StringIO(line.strip() + "\n").readline):
            if tok.type == tokenize.COMMENT:
                return line.strip()[:tok.start[1]]
    except (tokenize.TokenError, SyntaxError, IndentationError):
        pass
    return line


def _header_excerpt(code: str, err: SyntaxError) -> bool:
    """The block is statement headers without their body (`if "x" in p["name"]:` alone, the line to change in
    a file shown elsewhere; also a continuing clause, `elif mode == "fast":` or `except KeyError:`, shown without
    the statement it continues): the only error is the missing body (and opener), and a stub body makes it parse.
    (Statements and then a header without its body are a snippet cut short: still reported.)"""
    msg = err.msg or ""
    if not (msg.startswith("expected an indented block") or msg == "invalid syntax"):
        return False
    lines = [ln for ln in code.split("\n") if ln.strip() and not ln.lstrip().startswith("#")]
    if not lines or len(lines) > HEADER_LINES or not all(_without_comment(ln).rstrip().endswith(":") for ln in lines):
        return False
    first = lines[0]
    lead = first[: len(first) - len(first.lstrip())]
    word = first.lstrip().split(None, 1)[0].rstrip(":")
    opener = _OPENERS.get(word, "")
    if msg == "invalid syntax" and not opener:
        return False
    stub = (lead + opener + "\n" + lead + "    pass\n") if opener else ""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            ast.parse(stub + _stub_bodies(code))
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return False
    return True


# a function's signature alone on its line, no colon: `def test_scan_returns_true()`, `async def run(x) -> int`
_BARE_SIGNATURE = lazy_compile(r"[ \t]*(?:async[ \t]+)?def[ \t]+\w+[ \t]*\([^()\n]{0,200}\)(?:[ \t]*->[ \t]*[\w.\[\], |]{1,80})?[ \t]*")


def _bare_signatures(code: str) -> bool:
    """Every line (blank lines and `#` comments aside) is a `def` signature without its colon: a list of names or
    signatures shown as a pattern (`def test_write_stage_completed_stage_raises()`), not code to run."""
    lines = [ln for ln in code.split("\n") if ln.strip() and not ln.lstrip().startswith("#")]
    return bool(lines) and len(lines) <= 200 and all(len(ln) <= 300 and _BARE_SIGNATURE.fullmatch(ln) for ln in lines)


def _stub_bodies(code: str) -> str:
    """The block with `pass` under each header that has no deeper line after it: the last one (`def f(x):` /
    `    for y in x:`) and siblings alike (an interface's `def acquire() -> bool:` / `def release() -> None:`)."""
    lines = code.rstrip().split("\n")
    code_at = [k for k, ln in enumerate(lines) if ln.strip() and not ln.lstrip().startswith("#")]
    out: list[str] = []
    nxt = dict(zip(code_at, [*code_at[1:], None], strict=True))
    for k, ln in enumerate(lines):
        out.append(ln)
        if k in nxt:
            indent = ln[: len(ln) - len(ln.lstrip())]
            after = nxt[k]
            if after is None or len(lines[after]) - len(lines[after].lstrip()) <= len(indent):
                out.append(indent + "    pass")
    return "\n".join(out) + "\n"


_COMMENT_LINE = lazy_compile(r"^([ \t]*)#", re.M)


def _comment_bodies(code: str, err: SyntaxError) -> bool:
    """A header's body is only a comment that says what to do (`if not found:` then `    # stop, ask the user to rerun
    it`): pseudo-code in a `python` block, the step written in words where a statement would go. Each comment line
    standing for a `pass` makes the block parse (a comment that does not stand for a body still breaks it)."""
    if not (err.msg or "").startswith("expected an indented block") or "#" not in code:
        return False
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            ast.parse(_COMMENT_LINE.sub(r"\1pass  #", code))
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return False
    return True


# a `{name}` segment of a dotted module path (`vault_protocol.{slug}.tags`, `import {pkg}.cli`), which no Python
# (f-string aside) writes: attribute and module names are identifiers
_PATH_FIELD = rx.compile(r"(?<=[\w.])\.\{[A-Za-z_]\w{0,40}\}(?=[.\s(,]|$)|(?<=[ \t])\{[A-Za-z_]\w{0,40}\}(?=\.\w)", re.M)


def _path_placeholders(code: str) -> bool:
    """The block parses once each `{name}` segment of a dotted path is a name: a template whose module path the
    reader fills in (the skill's prose says `eth_defi/{slug}/tags.py`), not broken code."""
    if "{" not in code or _PATH_FIELD.search(code) is None:
        return False
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            ast.parse(_PATH_FIELD.sub(lambda m: m.group(0).replace("{", "_").replace("}", "_"), code))
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return False
    return True


# the statement a continuing clause shown alone continues
_OPENERS = {"elif": "if True:", "else": "if True:", "except": "try:", "finally": "try:"}


def _check(lang: str, code: str) -> tuple[int, int, str] | None:
    """(line, column, message) of the first error (0-based, relative to the block), or None."""
    if lang == "python":
        if re.search(r"^\s*(>>>|\$ |In \[\d+\])", code, re.M):
            return None  # an interactive session, not a file
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                ast.parse(code)
        except SyntaxError as e:
            if sys.version_info < (3, 12) and _NEWER_PYTHON.search(code):
                return None  # `class Box[T]:`, `type Alias = …` (3.12+): valid for a newer Python than ours
            if _decorator_excerpt(code):
                return None  # `@tool(name=…, schema=…)` alone: the decorator's form, shown without its function
            if _header_excerpt(code, e):
                return None  # `if "simpleperf" in process["name"]:` alone: the header to change, its body unchanged
            if _comment_bodies(code, e):
                return None  # `if not found:` then `# stop, tell the user to rerun analyze-api`: a step in words
            if _path_placeholders(code):
                return None  # `from eth_defi.vault_protocol.{slug}.tags import …`: the module named per protocol
            if _bare_signatures(code):
                return None  # `def test_write_stage_completed_stage_raises()` lines: names shown, not code
            return ((e.lineno or 1) - 1, max(0, (e.offset or 1) - 1), e.msg)
        except (ValueError, RecursionError, MemoryError) as e:
            return (0, 0, str(e))
    elif lang == "json":
        try:
            json.loads(code)
        except json.JSONDecodeError as e:
            if _member_fragment(code):
                return None  # `"dev": "vite"`: the members to add to an object (package.json's scripts)
            if _SHAPE.fullmatch(code.strip()) or _only_shapes_wrong(code):
                return None  # `[timestamp, event_type, data]`: a value's shape in field names, not a value (also
                # as a member's value: `"bbox": [x1, y1, x2, y2]`)
            if _json_lines(code):
                return None  # one JSON value per line
            if len(code) <= REPAIR_CHARS and _VARIABLE_VALUE.search(code) is not None:
                named = _VARIABLE_VALUE.sub(r"\1null", code)  # `["Gain", "Gain", defaultValue]`: a value named
                try:  # by a variable, filled in by the reader
                    json.loads(named)
                    return None
                except (json.JSONDecodeError, RecursionError):
                    if _member_fragment(named):
                        return None
            stripped = code.lstrip()
            head, _, body = stripped.partition("\n")
            if _REQUEST_LINE.match(head.strip()):  # `GET /index/_search` + its body: the body is what must parse
                if not body.strip():
                    return None
                try:
                    json.loads(body)
                    return None
                except json.JSONDecodeError as inner:
                    skipped = code[: len(code) - len(stripped)].count("\n") + 1  # the lines before the body
                    return (inner.lineno - 1 + skipped, inner.colno - 1, inner.msg)
                except RecursionError:
                    return (0, 0, "nested too deeply")
            if e.msg == "Extra data" and stripped.startswith("{") and code[e.pos:].lstrip().startswith(","):
                # a slice of a list with an error further on: report that error, not the first comma
                try:
                    json.loads("[" + code.rstrip().rstrip(",") + "]")
                except json.JSONDecodeError as inner:
                    return (inner.lineno - 1, inner.colno - 1 - (inner.lineno == 1), inner.msg)
                except RecursionError:
                    return (0, 0, "nested too deeply")
            return (e.lineno - 1, e.colno - 1, e.msg)
        except RecursionError:
            return (0, 0, "nested too deeply")
    elif lang == "yaml":
        try:
            for _ in yaml.safe_load_all(code):
                pass
        except (yaml.YAMLError, RecursionError) as e:
            if _yaml_lines(code):
                return None  # quoted values one per line, as JSON Lines are JSON
            if _type_sketch(code):
                return None  # `Person: { name, email?, tags[] }`: types sketched in bare names, not YAML data
            if _only_bare_globs_wrong(code):
                return None  # `globs: **/*.ts`: a Cursor rule's frontmatter, which Cursor itself writes unquoted
            whole = _frontmatter_file(code)
            if whole is not None:  # `---` / YAML / `---` / `= Title` …: a whole file, its frontmatter the only YAML
                at, kind, tag = whole
                return (at, 0, f"it holds a whole file, YAML frontmatter and then {kind} body, which is not YAML: "
                               f"tag the block `{tag}`")
            if isinstance(e, yaml.MarkedYAMLError):
                m = e.problem_mark
                return (m.line if m else 0, m.column if m else 0, (e.problem or "invalid YAML").strip())
            return (0, 0, str(e).splitlines()[0] if str(e) else "invalid YAML")
    elif lang == "toml":
        try:
            import tomllib  # (only for a toml block: 3 ms of start-up otherwise)

            tomllib.loads(code)
        except tomllib.TOMLDecodeError as e:
            if _toml_array_items(code, tomllib):
                return None  # `"idna>=3.15",` lines: entries to put in an array (`dependencies = [ … ]`)
            files = _toml_files(code)
            if files:  # `# api/pyproject.toml` … `# web/pyproject.toml` …: several files, each checked alone
                for first, part in files:
                    try:
                        tomllib.loads(part)
                    except tomllib.TOMLDecodeError as inner:
                        return _toml_error(inner, first)
                return None
            return _toml_error(e, 0)
    return None


# "# WRONG - colon in unquoted string", "# Bad:", "❌": the lines under it are the mistake being shown
_COUNTER = lazy_compile(r"\b(?:wrong|bad|incorrect|invalid|broken|avoid|don['’]t|do\s+not|never)\b|❌|✗|✘", re.I)


def _counter_example(code: str, line: int) -> bool:
    """The nearest `#` comment above the error's line (code lines may lie between), or a comment of the run of
    comments it ends (blank lines allowed), labels a counter-example (`# WRONG - …`, `# ❌ Bad`; `# WRONG:
    verbose noise` heading more comment lines): the block shows the mistake on purpose, beside the right form."""
    lines = code.split("\n")
    seen = 0
    for text in reversed(lines[:min(line, len(lines))]):
        stripped = text.strip()
        if not stripped:
            continue
        if not stripped.startswith(("#", "//")):
            if seen:
                return False  # (the run of comments ended without a label)
            continue
        if _COUNTER.search(stripped[:120]) is not None:
            return True
        seen += 1
        if seen >= LABEL_RUN:
            return False
    return False


LABEL_RUN = 12  # comment lines above an error looked at for a counter-example's label


YAML_LINES = 200  # values one per line read as a list of examples


def _yaml_lines(code: str) -> bool:
    """Values listed one per line (`"(now() - file.ctime).days"` then `"(date(due) - today()).days"`, with
    comments): each line is a YAML value of its own, as JSON Lines are JSON."""
    values = [ln for ln in code.split("\n") if ln.strip() and not ln.lstrip().startswith("#")]
    if not 2 <= len(values) <= YAML_LINES or not all(ln[:1] in "\"'" for ln in values):
        return False  # (a longer block is no list of examples: each line's parse costs ~30 us)
    try:
        for ln in values:
            yaml.safe_load(ln)
    except (yaml.YAMLError, RecursionError):
        return False
    return True


# a comment line that names a TOML file, alone on its line: `# services/api/pyproject.toml`, `# --- Cargo.toml ---`
_TOML_FILE_LABEL = lazy_compile(r"#[ \t]*(?:-{2,}[ \t]*)?(?:[\w.-]{1,80}/){0,8}[\w.-]{1,80}\.toml"
                                r"(?:[ \t]*\([^()\n]{0,80}\))?[ \t]*(?:-{2,})?[ \t]*:?")


def _toml_files(code: str) -> list[tuple[int, str]]:
    """The files of a `toml` block that shows several, each under a comment naming it (`# api/pyproject.toml`,
    then `# web/pyproject.toml`): (first line, text) of each, or [] when fewer than two files are labelled. Each
    is its own document: tables repeated across them (`[project]` twice) are no error."""
    lines = code.split("\n")
    starts = [i for i, ln in enumerate(lines) if len(ln) <= 300 and _TOML_FILE_LABEL.fullmatch(ln.strip())]
    if len(starts) < 2:
        return []
    bounds = [0, *starts[1:], len(lines)]  # (lines above the first label belong to the first file)
    return [(a, "\n".join(lines[a:b])) for a, b in zip(bounds, bounds[1:], strict=False)]


def _toml_error(e: Exception, first: int) -> tuple[int, int, str]:
    """(line, column, message) of a tomllib error in a part starting at block line `first`."""
    m = re.search(r"line (\d+), column (\d+)", str(e))
    msg = str(e).split(" (at ")[0]
    return (int(m.group(1)) - 1 + first, int(m.group(2)) - 1, msg) if m else (first, 0, msg)


def _toml_array_items(code: str, tomllib) -> bool:  # type: ignore[no-untyped-def]
    """Every line is an array's entry (a quoted string or inline table and a comma, comments allowed): an
    excerpt of `dependencies = [ … ]`, which parses inside one."""
    lines = [ln.strip() for ln in code.splitlines() if ln.strip() and not ln.strip().startswith("#")]
    if not lines or not all(ln.startswith(('"', "'", "{")) for ln in lines):
        return False
    try:
        tomllib.loads("x = [\n" + code + "\n]\n")
    except tomllib.TOMLDecodeError:
        return False
    return True


# an HTTP request line above a JSON body (Elasticsearch's console form: `GET /index/_search`)
_REQUEST_LINE = lazy_compile(r"(?:GET|POST|PUT|PATCH|DELETE|HEAD)[ \t]+\S{1,500}[ \t]*$")


def _json_lines(code: str) -> bool:
    """JSON Lines: two or more lines, each non-empty one a complete JSON value."""
    lines = code.strip().split("\n")
    if len(lines) < 2:
        return False
    try:
        for ln in lines:
            if ln.strip():
                json.loads(ln)
    except (json.JSONDecodeError, RecursionError):
        return False
    return True


def _member_fragment(code: str) -> bool:
    """An excerpt of a larger file: `"key": value[, …]` that parses as an object once wrapped in braces, or
    `{…}, {…}` / `value, value` that parses as an array once wrapped in brackets (a slice of a list)."""
    head = code.lstrip()
    if head.startswith('"'):
        try:  # (one trailing comma: `"uname *": "allow",`, a member cut from the middle of its object)
            json.loads("{" + code.rstrip().removesuffix(",") + "}")
            return True
        except (json.JSONDecodeError, RecursionError):
            pass
    if not head.startswith(("{", "[", '"')) or "," not in code:
        return False
    try:
        json.loads("[" + code.rstrip().rstrip(",") + "]")
    except (json.JSONDecodeError, RecursionError):
        return False
    return True


def invalid_blocks(doc: SkillDocument) -> Iterator[tuple[CodeBlock, tuple[int, int, str]]]:
    for b in doc.code_blocks:
        lang = _LANGS.get(b.language)
        if lang is None or not b.content.strip() or _PLACEHOLDER.search(b.content):
            continue
        if lang == "json" and _ALTERNATIVES.search(b.content):
            continue  # `"type": "new" | "variant"`, `"n": number`: a schema of allowed values, not a document
        if lang == "yaml" and _YAML_ALTERNATIVES.search(b.content):
            continue  # `type: "a" | "b"`: the same schema sketch in YAML
        if lang == "python" and _SIGNATURE.search(b.content) and not _DEF.search(b.content):
            continue  # `ov.single.CellVote(adata: AnnData) -> None`: an API's signature, shown without `def`
        try:
            err = _check(lang, b.content)
        except (RecursionError, MemoryError):  # e.g. tomllib on `a = [[[[…`: too deep to be an example
            err = (0, 0, "nested too deeply")
        if err is not None and not _counter_example(b.content, err[0]):
            yield b, err


@rule("CODE_BLOCK_INVALID", family="code", severity=Severity.WARNING)
def code_block_invalid(doc: SkillDocument, ctx: RuleContext) -> Iterator[Finding]:
    """A `python`, `json`, `yaml` or `toml` code block does not parse.

    ## What it does
    Parses blocks tagged python, json, yaml or toml and reports the first syntax error at its line.
    Blocks that are illustrations rather than programs are skipped: those containing `...`, `…`,
    `<placeholder>` (also dotted or described: `<storyboard.music.path>`, `<0-10>`, `<int|null>`,
    `<one line: why>`), a prose field in square brackets (`[What it does]`, `[your name]`; not `[BETA]`), `{{ template }}`, `${var}`, a value written as a variable's name (`["Gain", "Gain", defaultValue]`, `"limit":
    max_tokens`: camelCase or snake_case, in a block of at most 20,000 characters that parses with it as a value; not
    a bare word, `{"mode": fast}`), a bare `{field}`
    as a value (`"iteration": {current_iteration}`), `//` or `/* … */` comments, a JSON or YAML value written
    as its alternatives or its type (`"type": "new" | "variant"`, `type: "a" | "b"`, `"n": number`: a
    schema) or as its shape in bare names (`[timestamp, event_type, data]`, also as a member's value in an object that
    parses otherwise: `"bbox": [x1, y1, x2, y2]`; in a `yaml` block, types sketched
    one per line: `Person: { name, email?, tags[] }` (a field with its default too: `{tables[], confirmed: false}`), and a bare glob value, `globs: **/*.ts`, as Cursor writes its
    rules' frontmatter, in a block of at most 20,000 characters that parses once it is quoted), a Python decorator
    shown without its function (`@tool(name=…)`, also after its imports), a list of bare `def` signatures without their
    colon (`def test_scan_returns_true()` lines: names shown as a pattern; one such line among statements is reported),
    a block of statement headers without their body (a trailing comment aside: `if a == b:  # correct`; also a continuing clause alone: `elif mode == "fast":`, `except KeyError:`; and sibling headers, an interface's `def acquire() -> bool:` / `def release() -> None:`)
    (`if "simpleperf" in process["name"]:` alone: the line to change in a file shown elsewhere; statements
    followed by a header without its body are a snippet cut short, and are reported), a header whose body is only a
    comment saying what to do (`if not found:` then `    # stop and ask the user to rerun it`: a step in words, not
    code; a header with no body and no such comment is reported), interactive sessions (`>>>`), and an API reference's signatures in a `python` block with no `def`
    (`ov.single.CellVote(adata: AnnData) -> None`, a parameter list closed by `) → AnnData`, a call whose first
    argument is annotated: `ov.single.MetaTiME(adata: AnnData, …)`). A `{name}` segment of a dotted module path (`from eth_defi.vault_protocol.{slug}.tags import TAGS`: the module the
    reader names) is a placeholder when the block parses with it as a name. Python syntax newer than the Python skillgrade runs on
    (`class Box[T]:`, `type Alias = …`, 3.12) is not reported as an error on an older one.
    A `json` block of object members (`"dev": "vite"`, the lines to add to a file's object, also with the trailing
    comma of a member cut from the middle of its object: `"uname *": "allow",`) is an
    excerpt, checked as the object it belongs in; a request line above its body (`GET /index/_search`,
    the Elasticsearch console form) and JSON Lines (one value per line) are checked part by part; so is a
    slice of a list (`{"type": "rect"}, {"type":
    "text"}`: elements separated by commas), checked as the array it belongs in, and a `toml` block of
    array entries (`"idna>=3.15",` lines, for `dependencies = [ … ]`), a `toml` block of several files, each under a
    comment naming it (`# api/pyproject.toml` … `# web/pyproject.toml`: checked file by file, so a `[project]` table in
    each is no error), and a `yaml` block of quoted values
    one per line. A whole file with YAML frontmatter in a `yaml` block (`---`, a mapping that parses, `---`, then a body
    starting with a heading: `= Title` of an AsciiDoc spec, or `# Title` under a frontmatter with `name`, `title` or
    `description`; a block of at most 20,000 characters) is reported at the body's first line as what it is, a
    mis-tagged file (tag it `asciidoc` or `markdown`), not with PyYAML's error from inside the prose; in a YAML stream of manifests `# …` is a comment, and
    an error there is reported as usual. A fence on SKILL.md's first line around the skill's own frontmatter (```` ```yaml ````,
    `---`, `name: …`) is not a sample file: FRONTMATTER_MISSING reports it (remove the fence), and tagging it
    would leave the skill without frontmatter. An error right under a comment that labels a counter-example (`# WRONG - colon in
    unquoted string`, `# ❌ Bad`) is the mistake the block shows on purpose: not reported.

    ## Why is this bad?
    Models copy code from skills. A snippet that does not parse is copied with its error, and a JSON
    example that is not JSON teaches the wrong format.

    ## Example
    ````markdown
    ```json
    {"name": "pdf", "pages": [1, 2,]}
    ```
    ````

    Use instead:
    ````markdown
    ```json
    {"name": "pdf", "pages": [1, 2]}
    ```
    ````

    ## Fix
    Correct the code, or tag it `text` if it is not meant to run.
    """
    wrapper = 0 if not doc.frontmatter.present and fenced_frontmatter(doc.lines) is not None else -1
    for b, (line, col, msg) in invalid_blocks(doc):
        if b.start_line == wrapper:
            continue  # a fence on line 1 around the skill's own frontmatter: FRONTMATTER_MISSING says remove it
        abs_line = min(b.content_start_line + line, max(b.end_line - 1, b.start_line))
        text = doc.lines[abs_line] if abs_line < len(doc.lines) else ""
        col = min(col, len(text))
        rng = Range(Pos(abs_line, col), Pos(abs_line, max(col, len(text.rstrip()))))
        yield ctx.finding(rng, f"`{b.language}` block does not parse: {msg}")
