"""Bundled-file paths SKILL.md mentions outside links, and on-disk spellings of paths whose case is wrong.

Shared by MISSING_MENTIONED_FILE, LINK_CASE_MISMATCH, DEAD_LINK and ORPHAN_REFERENCE.
"""

from __future__ import annotations

import os
import re
from bisect import bisect_left
from dataclasses import dataclass
from pathlib import Path

from ... import rx
from ...codespan import code_spans
from ...document import SkillDocument
from ...findings import Pos, Range
from ...lazy_re import lazy_compile
from ...measures import exists_recorded, normalize, within
from ._classify import link_targets

# a path into one of the standard bundle folders; one character class after a fixed prefix: linear
_MENTION = rx.compile(r"(?:\./)?(?:references|scripts|assets)/[\w./-]*")
_BEFORE = frozenset("./-$}~@:%\\")  # a path that continues a longer path, a URL or a variable
_PLACEHOLDER_AFTER = frozenset("<{*[$%")  # references/<name>.md, scripts/{tool}.py, assets/*.png
# names that stand for any file: `references/filename.md` shows how a path is written
_GENERIC_NAMES = frozenset({"filename", "file_name", "file", "name", "example", "foo", "bar", "xxx", "your_file",
                            "your_script", "my_file", "my_script", "some_file", "something", "topic", "other"})
# a language or locale suffix: `_en`, `_zh`, `_zh_cn`, `_pt_br`
_LOCALE_SUFFIX = rx.compile(r"_[a-z]{2}(?:_[a-z]{2})?")


def _generic_stem(stem: str) -> bool:
    """A file name that stands for any file (`filename`, `your_file`, `xxxx`), also with a language suffix
    (`xxx_en`: the pattern of a translated file's name; `configuration_en` is a file)."""
    def generic(name: str) -> bool:
        return name in _GENERIC_NAMES or len(name) >= 3 and set(name) == {"x"}

    if generic(stem):
        return True
    for k in (1, 2):  # `xxx_en`, `your_file_zh_cn`
        parts = stem.rsplit("_", k)
        if len(parts) == k + 1 and _LOCALE_SUFFIX.fullmatch("_" + "_".join(parts[1:])) and generic(parts[0]):
            return True
    return False


# commands whose first path argument is a file they run or read (in fenced code blocks)
_RUNNERS = frozenset({
    "python", "python3", "py", "uv", "uvx", "pipx", "poetry", "bash", "sh", "zsh", "source", ".", "node",
    "deno", "bun", "npx", "tsx", "ts-node", "ruby", "perl", "php", "pwsh", "powershell", "cat", "less",
    "head", "tail", "open", "chmod", "exec", "Rscript", "lua", "go",
})
_PROMPTS = ("$ ", "> ", "% ", "# ")
MAX_MENTIONS = 2_000  # mentions collected per document; past that the text is data, not instructions
_OUTPUT_FLAGS = frozenset({"-o", "--out", "--output", "--output-dir", "--out-dir", "--dest", "--destination",
                           ">", ">>", "--save", "--write", "--to"})


@dataclass(frozen=True, slots=True)
class Mention:
    text: str  # the path as written
    rel: str  # normalised, relative to the skill folder
    range: Range
    where: str  # "prose" | "code" (an inline code span) | "command" (a command line in a code block)


def mentioned_files(doc: SkillDocument) -> list[Mention]:
    """`references/…`, `scripts/…`, `assets/…` file paths in SKILL.md's prose, inline code and command lines.

    Links (checked as links), folders (`scripts/`), paths with placeholders, paths that continue a
    longer path (`{baseDir}/scripts/x.py`, URLs) and fenced code other than command lines are left out.
    """
    if doc._mentions is None:
        doc._mentions = [] if doc.binary or doc.too_large else _mentioned_files(doc)
    return doc._mentions


# a file something else puts beside SKILL.md: "Your pipeline supplies `references/API.md` next to this SKILL.md",
# "supplied by the build", "injected at publish time", "… must include `references/API.md` (your publish/sync pipeline
# copies the API doc …)"
_SUPPLIED = rx.compile(r"\b(?:pipeline|build|installer|publisher|harness|host)\s+(?:supplies|provides|injects|adds|copies)"
                       r"\b|\b(?:supplied|injected|provided)\s+(?:by\s+the\s+(?:pipeline|build|installer|harness|host)"
                       r"|at\s+(?:build|publish|assembly|install)\b)", re.I)
_SUPPLIED_WORDS = ("suppl", "provide", "inject", "adds", "copies")  # (a line without one has no _SUPPLIED match)
SUPPLIED_SPAN = 200  # characters before and after a path looked at for its sentence


def supplied_files(doc: SkillDocument) -> frozenset[str]:
    """The bundle paths (mentioned or linked) whose own sentence says something else puts them there, before the path
    ("Your pipeline supplies `references/API.md` next to this SKILL.md") or after it ("… must include
    [`references/API.md`](references/API.md) (your publish/sync pipeline copies the API doc …)"): every mention and
    link of them means a file that is not kept in the source."""
    memo = doc._resolved
    key = ("supplied_files",)
    got = memo.get(key)
    if got is None:
        got = memo[key] = frozenset(_supplied_files(doc))
    return got


def _supplied_files(doc: SkillDocument) -> set[str]:
    out: set[str] = set()
    lines = doc.lines
    spans = [(m.rel, m.range.start.line, m.range.start.character, m.range.end.character) for m in mentioned_files(doc)]
    for t in link_targets(doc):
        if t.range.start.line == t.range.end.line and _has_mention(t.path):
            spans.append((normalize(t.path), t.range.start.line, t.range.start.character, t.range.end.character))
    said: dict[int, bool] = {}  # per line: says it anywhere (asked once: a line may hold 10^4 paths)
    for rel, ln, start, end in spans:
        if rel in out or ln >= len(lines):
            continue
        line = lines[ln]
        if ln not in said:
            low = line.lower()
            said[ln] = any(w in low for w in _SUPPLIED_WORDS) and _SUPPLIED.search(line) is not None
        if not said[ln]:
            continue
        after = line[end:end + SUPPLIED_SPAN]
        stop = min((i for i in (after.find(". "), after.find("; ")) if i >= 0), default=len(after))
        if _SUPPLIED.search(clause_before(line[max(0, start - SUPPLIED_SPAN):start])) or _SUPPLIED.search(after[:stop]):
            out.add(rel)
    return out


def clause_before(before: str) -> str:
    """The part of `before` (the text before a path) after its last ". " or "; ": the path's own sentence."""
    start = max(before.rfind(". "), before.rfind("; "))
    return before[start + 1:] if start >= 0 else before


def _has_mention(text: str) -> bool:
    return "references/" in text or "scripts/" in text or "assets/" in text


def link_spans_by_line(doc: SkillDocument) -> dict[int, list[tuple[int, int]]]:
    """line -> the (start, end) columns each markdown link (text and destination) covers on it."""
    spans: dict[int, list[tuple[int, int]]] = {}
    for link in doc.links:
        l1, c1, l2, c2 = link.full
        for ln in range(l1, l2 + 1):
            a = c1 if ln == l1 else 0
            b = c2 if ln == l2 else 1 << 30
            spans.setdefault(ln, []).append((a, b))
    return spans


_WORDS = ("references/", "scripts/", "assets/")


def _mentioned_files(doc: SkillDocument) -> list[Mention]:
    out: list[Mention] = []
    cand = doc.index.lines_with(_WORDS)  # the lines that may hold a mention: most lines are never looked at
    if not cand:
        return out
    link_spans = link_spans_by_line(doc)
    skip = doc.code_lines | doc.html_comment_lines
    for pl in doc.prose_with(_WORDS):
        if _has_mention(pl.text):
            _scan(pl.text, pl.line, "prose", link_spans.get(pl.line, ()), out)
    for ln in cand:
        line = doc.lines[ln]
        if ln < doc.body_start_line or "`" not in line or ln in skip:
            continue
        for i, j in code_spans(line):
            span = line[i:j]
            ticks = len(span) - len(span.lstrip("`"))
            inner_start, inner_end = i + ticks, j - ticks
            if inner_end > inner_start:
                # (the path in backticks as a link's text, [`references/x.md`](references/x.md): the link's)
                _scan(line[inner_start:inner_end], ln, "code", link_spans.get(ln, ()), out, offset=inner_start)
    for block in doc.code_blocks:
        if not block.fenced:
            continue
        k = bisect_left(cand, block.content_start_line)
        while k < len(cand) and cand[k] < block.end_line:
            _command_args(doc.lines[cand[k]], cand[k], out)
            k += 1
    out.sort(key=lambda m: (m.range.start, m.range.end))
    return out


def _scan(text: str, line: int, where: str, exclude, out: list[Mention], offset: int = 0) -> None:
    spans = sorted(exclude)  # link spans on this line, in order: one pointer walks them
    k = 0
    for m in _MENTION.finditer(text):
        if len(out) >= MAX_MENTIONS:
            return
        s, e = m.start(), m.end()
        if s > 0 and (text[s - 1].isalnum() or text[s - 1] in "_" or text[s - 1] in _BEFORE):
            continue
        while k < len(spans) and spans[k][1] <= s + offset:
            k += 1
        if k < len(spans) and spans[k][0] <= s + offset:
            continue  # inside a link
        if where == "code" and _is_output_arg(text, s):
            continue
        if where == "code" and s >= 2 and text.startswith("](", s - 2):
            continue  # `[text](references/x.md)` in inline code: link syntax shown, not a file named
        _add(text, s, e, line, where, out, offset)


# an ASCII extension with letters of another script glued to it (`x.md의`, `x.md을`, `x.mdを`): the path ends there
_EXT_THEN_WORD = lazy_compile(r"\.[A-Za-z0-9]{1,8}(?=[^\x00-\x7f/.]+$)")


def _add(text: str, s: int, e: int, line: int, where: str, out: list[Mention], offset: int) -> None:
    tok = text[s:e]
    if e < len(text) and text[e] in _PLACEHOLDER_AFTER:
        return
    while tok.endswith("."):  # a full stop after the path
        tok = tok[:-1]
    if not tok.isascii() and (m := _EXT_THEN_WORD.search(tok)) is not None:
        tok = tok[:m.end()]  # `references/cross-validation.md의 …`: a Korean particle glued to the extension
    if not tok or tok.endswith("/") or "..." in tok or "//" in tok:
        return
    last = tok.rsplit("/", 1)[-1]
    dot = last.rfind(".")
    if dot <= 0 or dot == len(last) - 1:
        return  # no file extension: a folder, or a name too vague to check
    if "_" in last[dot + 1:]:
        return  # `scripts/review.QODO_REVIEW_TRIGGER`, `scripts/run.main_loop`: a module's attribute, no extension
    if _generic_stem(last[:dot].lower().replace("-", "_")):
        return  # `references/filename.md`, `scripts/your_script.py`, `references/xxx_en.md`: how paths are written
    rel = normalize(tok)
    if rel.startswith(".."):
        return
    out.append(Mention(tok, rel, Range(Pos(line, offset + s), Pos(line, offset + s + len(tok))), where))


def _is_output_arg(text: str, s: int) -> bool:
    """The path follows an output flag or a redirection (`-o assets/out.png`, `> scripts/log.txt`)."""
    before = text[max(0, s - 64) : s].rstrip()  # a flag is a few characters before the path
    if before.endswith("="):
        before = before[:-1]
    word = before.rsplit(None, 1)[-1] if before.split() else ""
    return word in _OUTPUT_FLAGS or word.endswith(">")


def _command_args(line: str, ln: int, out: list[Mention]) -> None:
    """The first bundle path argument of a command line run by a known interpreter or reader."""
    if len(out) >= MAX_MENTIONS:
        return
    stripped = line.lstrip()
    indent = len(line) - len(stripped)
    for p in _PROMPTS:
        if stripped.startswith(p):
            stripped = stripped[len(p):]
            indent += len(p)
            break
    words = stripped.split()
    if not words:
        return
    k = 0
    while k < len(words) and "=" in words[k] and not words[k].startswith("-"):
        k += 1  # VAR=value before the command
    if k >= len(words) or words[k] not in _RUNNERS:
        return
    pos = indent
    for w in words[: k + 1]:
        pos = line.index(w, pos) + len(w)
    for w in words[k + 1 :]:
        at = line.index(w, pos)
        pos = at + len(w)
        if w.startswith("-") or w in ("run", "exec", "-m"):
            continue
        w_clean = w.strip("\"'")
        start = at + (len(w) - len(w.lstrip("\"'")))
        m = _MENTION.match(w_clean)
        if m is None:
            if w.startswith(("references/", "scripts/", "assets/", "./")) or "/" in w_clean:
                return  # another path first: the rest are its arguments
            continue
        _add(line, start, start + m.end(), ln, "command", out, 0)
        return


_COPIERS = frozenset({"cp", "mv", "ln", "install", "rsync", "scp"})  # last argument: the file they create
_MAKERS = frozenset({"touch"})  # every argument is a file they create
_REDIRECT = rx.compile(r"(?:^|[\s;&|])(?:\d?>>?|&>)\s*(\S+)")  # `> scripts/log.txt`, `2>> x`, `&> x`


def _command_words(line: str) -> list[str]:
    """The words of a shell command line, without a prompt (`$ `) and VAR=value prefixes."""
    stripped = line.strip()
    for p in _PROMPTS:
        if stripped.startswith(p):
            stripped = stripped[len(p):]
            break
    words = stripped.split()
    k = 0
    while k < len(words) and "=" in words[k] and not words[k].startswith("-"):
        k += 1
    return words[k:]


def _bundle_rel(word: str) -> str | None:
    w = word.strip("\"'")
    m = _MENTION.fullmatch(w)
    return normalize(m.group(0)) if m else None


def block_outputs(doc: SkillDocument) -> tuple[frozenset[str], frozenset[int]]:
    """What SKILL.md's command blocks say about paths that are not the skill's own files.

    Returns (created, away): `created` holds the bundle-folder paths a command in a fenced block
    creates (the destination of `cp` / `mv` / `ln` / `install`, a `touch`ed file, the target of a
    `>` redirection or of an output flag: `cp ~/.claude/skills/x/scripts/a.sh scripts/a.sh` copies the
    script *into the user's project*, so a later `chmod +x scripts/a.sh` names the copy, not a bundled
    file); `away` holds the lines of a block that follow a `cd` into another folder (`cd
    ~/.claude/skills/other-skill`), whose relative paths belong to that folder. A `cd` into the skill
    itself (its folder name, `$SKILL_DIR`, `${CLAUDE_SKILL_DIR}`, `{baseDir}`) keeps the paths the
    skill's own.
    """
    if doc._block_outputs is not None:
        return doc._block_outputs
    created: set[str] = set()
    away: set[int] = set()
    own = doc.skill_dir.name.lower() if doc.skill_dir is not None else ""
    for block in doc.code_blocks:
        if not block.fenced:
            continue
        elsewhere = False
        for ln in range(block.content_start_line, min(block.end_line, len(doc.lines))):
            line = doc.lines[ln]
            if elsewhere:
                away.add(ln)
            if len(line) > 2000:
                continue
            for part in re.split(r"&&|\|\||;", line):
                words = _command_words(part)
                if not words:
                    continue
                if words[0] == "cd" and len(words) > 1:
                    target = words[1].strip("\"'").rstrip("/").lower()
                    last = target.rsplit("/", 1)[-1]
                    if not (last == own or last in ("", ".", "~") or "skill_dir" in target
                            or "basedir" in target or "dirname" in target):
                        elsewhere = True
                    continue
                args = [w for w in words[1:] if not w.startswith("-")]
                if words[0] in _COPIERS and len(args) >= 2:
                    outs = [args[-1]]
                elif words[0] in _MAKERS:
                    outs = args
                else:
                    outs = [words[i + 1] for i in range(1, len(words) - 1) if words[i] in _OUTPUT_FLAGS]
                for w in outs:
                    rel = _bundle_rel(w)
                    if rel is not None:
                        created.add(rel)
            if ">" in line:
                for m in _REDIRECT.finditer(line):
                    rel = _bundle_rel(m.group(1))
                    if rel is not None:
                        created.add(rel)
    doc._block_outputs = (frozenset(created), frozenset(away))
    return doc._block_outputs


_PATHISH = rx.compile(r"[\w./-]+")
_BUNDLE_TOPS = frozenset({"references", "scripts", "assets"})


# top folders of a host project's layout: `pytest tests/`, `kubectl apply -f k8s/` name the user's project
_PROJECT_DIRS = frozenset({"src", "tests", "test", "lib", "app", "apps", "k8s", "charts", "helm", "packages",
                           "cmd", "internal", "pkg", "migrations", "deploy", "infra", "terraform", "frontend",
                           "backend", "server", "client", "web"})


def names_project_paths(doc: SkillDocument) -> bool:
    """SKILL.md names relative paths of a host project (`src/app.ts`, `.claude/agents/x.md`, `db/schema.sql`)
    that are not in the skill: a project skill, run from the repository root, whose `scripts/…` may be the
    repository's own."""
    return _project_path_in(doc, doc.body_start_line, len(doc.lines), folders=False)


def block_names_project_paths(doc: SkillDocument, line: int) -> bool:
    """The fenced code block holding `line` names a host project's paths that are not in the skill — a
    file (`src/app.py`) or a project-layout folder (`pytest tests/`, `kubectl apply -f k8s/`): its
    commands run in the user's project ("Common Commands"), so its `scripts/…` are the project's own."""
    for b in doc.code_blocks:
        if b.start_line <= line < b.end_line:
            return b.fenced and _project_path_in(doc, b.content_start_line, b.end_line, folders=True)
    return False


def _project_path_in(doc: SkillDocument, start: int, end: int, *, folders: bool) -> bool:
    lines = doc.lines
    for ln in range(start, min(end, len(lines))):
        line = lines[ln]
        if "/" not in line:
            continue
        for m in _PATHISH.finditer(line):
            tok = m.group().rstrip(".")
            s = m.start()
            if "/" not in tok or tok.startswith(("/", "../", "./")) or s > 0 and line[s - 1] in "~:@$}%\\":
                continue
            first, rest = tok.split("/", 1)
            if not first or first in _BUNDLE_TOPS or "." in first.lstrip("."):
                continue  # a bundle folder, or a domain (github.com/…)
            if first.strip(".") == "":
                continue
            if not rest:
                if folders and first in _PROJECT_DIRS and not doc.files.exists(first):
                    return True
                continue
            if not doc.files.exists(normalize(tok)):
                return True
    return False


# ---------------------------------------------------------------- case


def case_variant(doc: SkillDocument, rel: str) -> str | None:
    """The on-disk spelling of `rel` (relative to the skill folder) when it exists only with another case.

    Read from directory listings (`exists()` says yes on case-insensitive disks). None when the path
    exists exactly, does not exist in any case, or cannot be checked (outside the workspace).
    """
    if doc.skill_dir is None or not rel or rel == ".":
        return None
    memo = doc._resolved  # per document; a tuple key never meets resolve()'s string keys
    key = ("case", rel)
    if key not in memo:
        memo[key] = _case_variant(doc, rel)
    return memo[key]


def _case_variant(doc: SkillDocument, rel: str) -> str | None:
    cache = _listing_cache(doc)
    parts = rel.split("/")
    inside = parts[0] != ".."
    if inside and doc.files.root is not None and not doc.files.truncated:
        if doc.files.exists(rel):
            return None
        folded = folded_bundle(doc).get(rel.casefold())
        return folded
    base = doc.skill_dir
    root = doc.workspace_root
    got: list[str] = []
    cur = base
    for p in parts:
        if p in ("", "."):
            continue
        if p == "..":
            cur = cur.parent
            got.append("..")
            continue
        names = cache.get(str(cur))
        if names is None:
            if root is not None and not within(doc, cur, root):
                return None
            try:
                names = sorted(os.listdir(cur))
            except OSError:
                names = []
            cache[str(cur)] = names
        if p in names:
            got.append(p)
            cur = cur / p
            continue
        alts = [n for n in names if n.casefold() == p.casefold()]
        if len(alts) != 1:
            return None
        got.append(alts[0])
        cur = cur / alts[0]
    spelled = "/".join(got)
    return spelled if spelled != "/".join(x for x in parts if x not in ("", ".")) else None


def case_collision(doc: SkillDocument, rel: str) -> str | None:
    """An existing bundled path that `rel` or one of its folders would duplicate up to case (or None)."""
    if doc.files.root is None:
        return None
    folded = folded_bundle(doc)
    parts = rel.split("/")
    for i in range(1, len(parts) + 1):
        sub = "/".join(parts[:i])
        hit = folded.get(sub.casefold())
        if hit is not None and hit != sub:
            return hit
    return None


def folded_bundle(doc: SkillDocument) -> dict[str, str]:
    cache = _listing_cache(doc)
    got = cache.get("\0folded")
    if got is None:
        folded: dict[str, str] = {}
        for p in sorted(set(doc.files.files) | doc.files._dirs):
            folded.setdefault(p.casefold(), p)
        cache["\0folded"] = got = folded  # type: ignore[assignment]
    return got  # type: ignore[return-value]


def _listing_cache(doc: SkillDocument) -> dict:
    if doc._listings is None:
        doc._listings = {}
    return doc._listings


def exists_near(doc: SkillDocument, rel: str) -> bool:
    """`rel` exists relative to a folder above the skill, up to the workspace root (a plugin or repo root)."""
    if doc.skill_dir is None:
        return True  # nothing to check against: assume it exists
    memo = _listing_cache(doc).setdefault("\0near", {})
    hit = memo.get(rel)
    if hit is None:
        hit = memo[rel] = any(exists_recorded(doc, os.path.join(a, rel)) for a in _ancestor_strings(doc))
    return hit


def shared_above(doc: SkillDocument, rel: str) -> bool:
    """`rel`, a path with a folder (`references/kql2/x.md`, `assets/logo.png`), exists relative to a folder above
    the skill, up to the workspace root, and not back inside the skill (`scitex/SKILL.md` from `skills/scitex/`
    is the skill itself): a file kept once for the skills under that folder, merged into each when they are
    installed."""
    if doc.skill_dir is None:
        return False
    if "/" not in rel:
        return rel in _merged_from_parent(doc)
    above = _ancestor_strings(doc)
    if rel.split("/", 1)[0] == doc.skill_dir.name:
        above = above[1:]  # from the skill's own parent that path leads back into the skill
    return any(exists_recorded(doc, os.path.join(a, rel)) for a in above)


MERGED_NAMES = 2  # bare names a skill links in its parent folder that make that folder merged into it


def _merged_from_parent(doc: SkillDocument) -> frozenset[str]:
    """The bare file names (`direct.md`) the skill's links name that are missing from the skill and lie in its
    parent folder, when that folder is no skill (no SKILL.md) and MERGED_NAMES or more such names point there: an
    installer merges that folder's files into the skill (`skills/*.md` with `skills/custom/` into
    `~/.claude/skills/z/`). One such name (`README.md` in `skills/`) is not enough. Computed once per document."""
    cache = _listing_cache(doc)
    got = cache.get("\0merged")
    if got is None:
        got = frozenset()
        assert doc.skill_dir is not None
        parent = doc.skill_dir.parent
        names = {p for t in link_targets(doc)
                 if "/" not in (p := t.path[2:] if t.path.startswith("./") else t.path) and "\\" not in p}
        if len(names) >= MERGED_NAMES and not exists_recorded(doc, parent / "SKILL.md"):
            found = frozenset(n for n in names if not exists_recorded(doc, doc.skill_dir / n)
                              and exists_recorded(doc, parent / n))
            got = found if len(found) >= MERGED_NAMES else frozenset()
        cache["\0merged"] = got
    return got


def _ancestor_folders(doc: SkillDocument) -> list[Path]:
    """_ancestors, computed once per document."""
    cache = _listing_cache(doc)
    anc = cache.get("\0ancestors")
    if anc is None:
        anc = cache["\0ancestors"] = _ancestors(doc)
    return anc


def _ancestor_strings(doc: SkillDocument) -> list[str]:
    """_ancestor_folders as strings, to join a path to without building a Path per link."""
    cache = _listing_cache(doc)
    anc = cache.get("\0ancestor strings")
    if anc is None:
        anc = cache["\0ancestor strings"] = [os.fspath(a) for a in _ancestor_folders(doc)]
    return anc


def _ancestors(doc: SkillDocument) -> list[Path]:
    """Folders above the skill, up to the workspace root (at most three when there is none)."""
    assert doc.skill_dir is not None
    root = doc.workspace_root
    out = []
    for i, anc in enumerate(doc.skill_dir.parents):
        if root is not None and not within(doc, anc, root):
            break
        if root is None and i >= 3:
            break
        out.append(anc)
    return out


# ---------------------------------------------------------------- examples

_ITEM = rx.compile(r"\s*(?:[-*+]|\d{1,3}[.)])\s+")  # a list item's bullet
_EXAMPLE_LEAD = rx.compile(r"(?:[*_]{1,2})?(?:examples?(?:[*_]{1,2})?\s*:|e\.g\.)", re.I)  # `**Example**:`, `e.g.`
# (and in Chinese / Japanese: 例如, 比如, 譬如, 例えば, たとえば, and 如 opening a parenthetical: "（如 `x`）")
_EXAMPLE_WORDS = rx.compile(r"\be\.g\.|\bfor example\b|\bfor instance\b|\bsuch as\b|\bexamples?:"
                            r"|例如|比如|譬如|例えば|たとえば|(?<=[（(])如(?![果何此下今])", re.I)
_LIKE = rx.compile(r"\blike\s+[`'\"*_]*$", re.I)  # "files like `references/x.md`": the word right before
_ABBREV = rx.compile(r"\b(?:e\.g|i\.e|etc|vs|cf)\.", re.I)  # full stops that end no sentence
SENTENCE_CHARS = 400  # text read back from a path for its sentence (bounded: linear on any input)
MAX_LOOKBACK = 40  # lines walked back to a list item's or paragraph's start


def is_example(doc: SkillDocument, m: Mention) -> bool:
    """The path is given as an example, not as a file of this skill: its list item or paragraph starts with
    `Example:` / `**Examples**:` / `e.g.` (or follows a paragraph that does and ends with `:`, introducing
    the list), or its sentence puts `e.g.`, `for example`, `for instance` or `such as` before it (also
    例如, 比如, 例えば, and 如 opening a parenthetical: "（如 `scripts/helper.py`）"; an `(e.g. …)`
    parenthetical only up to its `)`), or the word right before it is `like`.
    Skill-authoring guides name the files *the reader's* skill could bundle
    (`**Examples**: references/finance.md for financial schemas`)."""
    if m.where == "command":
        return False
    lines = doc.lines
    ln = m.range.start.line
    start = _block_start(doc, ln)
    if start is None:
        return False
    first = lines[start][:200]
    bullet = _ITEM.match(first)
    head = first[bullet.end():] if bullet else first.lstrip()
    if _EXAMPLE_LEAD.match(head):
        return True
    col = m.range.start.character
    parts = [lines[ln][max(0, col - SENTENCE_CHARS): col].strip()]
    size = len(parts[0])
    for i in range(ln - 1, start - 1, -1):  # the item's earlier lines, up to a sentence's length
        if size >= SENTENCE_CHARS:
            break
        parts.append(lines[i][-SENTENCE_CHARS:].strip())
        size += len(parts[-1])
    before = " ".join(reversed(parts))
    if _LIKE.search(before):
        return True
    plain = _ABBREV.sub(lambda x: x.group(0).replace(".", "_"), before)  # keep e.g. / i.e. inside sentences
    cut = max(plain.rfind(". "), plain.rfind("? "), plain.rfind("! "))
    sentence = before[cut + 1:] if cut >= 0 else before
    hits = list(_EXAMPLE_WORDS.finditer(sentence))
    if hits:
        after = sentence[hits[-1].end():]
        opened = sentence[: hits[-1].start()].rstrip().endswith(("(", "（"))
        if not (opened and (")" in after or "）" in after)):  # "(e.g. `a.md`) resolve from `references/b.md`": b is not
            return True
    if bullet:
        return _introduced_by_example(doc, start)
    return False


def _block_start(doc: SkillDocument, ln: int) -> int | None:
    """The first line of the list item or paragraph holding line `ln` (None: too far back to tell)."""
    lines = doc.lines
    stop = max(doc.body_start_line, ln - MAX_LOOKBACK)
    i = ln
    while True:
        if _ITEM.match(lines[i]) or lines[i].lstrip().startswith("#"):
            return i
        if i == stop:
            return i if i == doc.body_start_line else None
        prev = lines[i - 1]
        if not prev.strip() or i - 1 in doc.code_lines:
            return i
        i -= 1


def _introduced_by_example(doc: SkillDocument, item: int) -> bool:
    """The list holding this item follows a paragraph that starts with `Example:` and ends with `:`."""
    lines = doc.lines
    stop = max(doc.body_start_line, item - MAX_LOOKBACK)
    i = item
    while i > stop:
        prev = lines[i - 1]
        if not prev.strip() or i - 1 in doc.code_lines or not (_ITEM.match(prev) or prev[:1] in (" ", "\t")):
            break
        i -= 1  # earlier items of the list and their continuation lines
    while i > stop and not lines[i - 1].strip():
        i -= 1  # the blank line(s) before the list
    if i <= stop or i - 1 in doc.code_lines or not lines[i - 1].rstrip().endswith(":"):
        return False
    start = _block_start(doc, i - 1)
    return start is not None and not _ITEM.match(lines[start]) and _EXAMPLE_LEAD.match(lines[start].lstrip()) is not None
