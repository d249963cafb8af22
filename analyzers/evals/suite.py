"""Task suites (`task_suite.yaml`): the model and its validation, every error with file, line and column.

The rules are the execution evaluator's (seed 001), plus the binary judge (seed 003):

- `skill_id` non-empty; `version` equal to "1.0"; `tasks` a non-empty list;
- every task: a unique non-empty `id`, a non-empty `prompt`, a `judge` mapping whose `type` is one of
  `contains`, `pytest`, `llm-rubric`, `llm-binary`; `timeout_seconds`, when given, a positive number;
- `contains`: `expected` a non-empty list of non-empty strings;
- `pytest`: `test_file` a relative path under `fixtures/` (no `..`, not absolute), an existing file, and not a
  symlink (or under a symlinked folder) resolving outside the suite's `fixtures/` folder;
- `llm-rubric`: a non-empty `rubric`; `pass_threshold`, when given, a number in [0, 1] (default 0.7);
- `llm-binary`: a non-empty `criterion`; `examples`, when given, a list of {`output`, `result`: PASS/FAIL,
  `critique`} (and an optional `input`).

The YAML is composed (pyyaml's node graph keeps each node's start mark), so an error points at the value
that is wrong, or at the mapping that lacks a key. All errors are collected; nothing is run from a suite
with one.
"""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

import yaml
from yaml.constructor import ConstructorError, SafeConstructor
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from ..findings import Finding, Range, Severity

VERSION = "1.0"
JUDGE_TYPES = ("contains", "pytest", "llm-rubric", "llm-binary")
DEFAULT_TIMEOUT_S = 120.0
DEFAULT_PASS_THRESHOLD = 0.7
FIXTURES = "fixtures"
CODE = "TASK_SUITE"  # the diagnostic code of every validation error (docs/rules/TASK_SUITE.md)
MAX_SUITE_BYTES = 2_000_000


@dataclass(frozen=True, slots=True)
class SuiteError:
    """One validation error; line and column are 1-based (as compilers print them)."""

    file: str
    line: int
    column: int
    message: str
    end_line: int | None = None
    end_column: int | None = None

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.column}: {self.message}"

    def to_dict(self) -> dict:
        return {"file": self.file, "line": self.line, "column": self.column, "message": self.message}


class SuiteInvalid(Exception):
    """A suite that cannot be run: every error it has (or one: not found, unreadable)."""

    def __init__(self, errors: list[SuiteError]) -> None:
        super().__init__("; ".join(str(e) for e in errors))
        self.errors = errors


@dataclass(frozen=True, slots=True)
class Example:
    """A few-shot example of an `llm-binary` judge (also a labelled example for calibration)."""

    output: str
    result: str  # "PASS" / "FAIL"
    critique: str = ""
    input: str = ""


@dataclass(frozen=True, slots=True)
class Judge:
    type: str
    expected: tuple[str, ...] = ()  # contains
    test_file: str = ""  # pytest: relative to the suite's folder, under fixtures/
    rubric: str = ""  # llm-rubric
    pass_threshold: float = DEFAULT_PASS_THRESHOLD
    criterion: str = ""  # llm-binary
    examples: tuple[Example, ...] = ()


@dataclass(frozen=True, slots=True)
class Task:
    id: str
    prompt: str
    judge: Judge
    description: str = ""
    timeout_seconds: float = DEFAULT_TIMEOUT_S


@dataclass(frozen=True, slots=True)
class Suite:
    path: Path  # the suite file (absolute)
    skill_id: str
    version: str
    tasks: tuple[Task, ...]
    digest: str = ""  # sha256 of the suite file and every file under fixtures/ (baseline cache key)
    warnings: tuple[SuiteError, ...] = field(default=())

    @property
    def root(self) -> Path:
        return self.path.parent

    @property
    def fixtures(self) -> Path:
        return self.root / FIXTURES


# ---- validation ------------------------------------------------------------------------------------------

class _Checker:
    def __init__(self, file: str, root: Path | None) -> None:
        self.file = file
        self.root = root  # the suite's folder (None: an untitled buffer; fixture paths are then not checked)
        self.errors: list[SuiteError] = []
        self._ctor = SafeConstructor()

    def err(self, node: Node, message: str) -> None:
        s, e = node.start_mark, node.end_mark
        self.errors.append(SuiteError(self.file, s.line + 1, s.column + 1, message, e.line + 1, e.column + 1))

    def value(self, node: Node):  # noqa: ANN201 - a plain YAML value
        try:
            return self._ctor.construct_object(node, deep=True)
        except (ConstructorError, ValueError, TypeError):
            return None

    def mapping(self, node: Node, what: str) -> dict[str, tuple[Node, Node]] | None:
        if not isinstance(node, MappingNode):
            self.err(node, f"{what} must be a mapping")
            return None
        out: dict[str, tuple[Node, Node]] = {}
        for k, v in node.value:
            key = k.value if isinstance(k, ScalarNode) else None
            if not isinstance(key, str):
                self.err(k, f"{what}: keys must be plain strings")
                continue
            if key in out:
                self.err(k, f"{what}: duplicate key {key!r} (YAML keeps only the last one)")
            out[key] = (k, v)
        return out

    def text(self, m: dict[str, tuple[Node, Node]], key: str, where: Node, what: str) -> str | None:
        """A required non-empty string."""
        if key not in m:
            self.err(where, f"{what}: missing `{key}`")
            return None
        node = m[key][1]
        val = self.value(node)
        if not isinstance(node, ScalarNode) or not isinstance(val, str) or not val.strip():
            self.err(node, f"{what}: `{key}` must be a non-empty string")
            return None
        return val

    def number(self, m: dict[str, tuple[Node, Node]], key: str, what: str, default: float, *,
               lo: float, hi: float | None, lo_open: bool) -> float:
        if key not in m:
            return default
        node = m[key][1]
        val = self.value(node)
        ok = isinstance(val, int | float) and not isinstance(val, bool) and val == val
        if ok:
            ok = (val > lo if lo_open else val >= lo) and (hi is None or val <= hi)
        if not ok:
            rng = f"a number > {lo:g}" if lo_open else f"a number from {lo:g} to {hi:g}"
            self.err(node, f"{what}: `{key}` must be {rng}")
            return default
        return float(val)

    # -- the suite ---------------------------------------------------------------------------------------
    def suite(self, root_node: Node) -> tuple[str, str, list[Task]]:
        top = self.mapping(root_node, "the task suite")
        if top is None:
            return "", "", []
        skill_id = self.text(top, "skill_id", root_node, "the task suite") or ""
        version = ""
        if "version" not in top:
            self.err(root_node, f'the task suite: missing `version` (must be "{VERSION}")')
        else:
            vnode = top["version"][1]
            if not isinstance(vnode, ScalarNode) or vnode.value != VERSION:
                shown = vnode.value if isinstance(vnode, ScalarNode) else "a collection"
                self.err(vnode, f'the task suite: `version` must be "{VERSION}", not {shown!r}')
            else:
                version = VERSION
        tasks: list[Task] = []
        if "tasks" not in top:
            self.err(root_node, "the task suite: missing `tasks` (a non-empty list)")
            return skill_id, version, tasks
        tnode = top["tasks"][1]
        if not isinstance(tnode, SequenceNode) or not tnode.value:
            self.err(tnode, "the task suite: `tasks` must be a non-empty list")
            return skill_id, version, tasks
        seen: dict[str, int] = {}
        for i, node in enumerate(tnode.value, 1):
            task = self.task(node, i, seen)
            if task is not None:
                tasks.append(task)
        return skill_id, version, tasks

    def task(self, node: Node, index: int, seen: dict[str, int]) -> Task | None:
        what = f"task {index}"
        m = self.mapping(node, what)
        if m is None:
            return None
        tid = self.text(m, "id", node, what)
        if tid is not None:
            what = f"task {tid!r}"
            if tid in seen:
                self.err(m["id"][1], f"{what}: duplicate task id (first used by task {seen[tid]})")
            else:
                seen[tid] = index
        prompt = self.text(m, "prompt", node, what)
        description = ""
        if "description" in m:
            d = self.value(m["description"][1])
            if not isinstance(d, str):
                self.err(m["description"][1], f"{what}: `description` must be a string")
            else:
                description = d
        timeout = self.number(m, "timeout_seconds", what, DEFAULT_TIMEOUT_S, lo=0.0, hi=None, lo_open=True)
        judge = None
        if "judge" not in m:
            self.err(node, f"{what}: missing `judge` (a mapping with a `type`)")
        else:
            judge = self.judge(m["judge"][1], what)
        if tid is None or prompt is None or judge is None:
            return None
        return Task(tid, prompt, judge, description, timeout)

    def judge(self, node: Node, what: str) -> Judge | None:
        what = f"{what}: judge"
        m = self.mapping(node, what)
        if m is None:
            return None
        if "type" not in m:
            self.err(node, f"{what}: missing `type` (one of {', '.join(JUDGE_TYPES)})")
            return None
        tnode = m["type"][1]
        jtype = self.value(tnode)
        if jtype not in JUDGE_TYPES:
            shown = tnode.value if isinstance(tnode, ScalarNode) else "a collection"
            self.err(tnode, f"{what}: unknown judge type {shown!r} (one of {', '.join(JUDGE_TYPES)})")
            return None
        what = f"{what} {jtype}"
        if jtype == "contains":
            return self.contains(m, node, what)
        if jtype == "pytest":
            return self.pytest(m, node, what)
        if jtype == "llm-rubric":
            rubric = self.text(m, "rubric", node, what)
            th = self.number(m, "pass_threshold", what, DEFAULT_PASS_THRESHOLD, lo=0.0, hi=1.0, lo_open=False)
            return None if rubric is None else Judge("llm-rubric", rubric=rubric, pass_threshold=th)
        criterion = self.text(m, "criterion", node, what)
        examples = self.examples(m, what)
        return None if criterion is None or examples is None else Judge("llm-binary", criterion=criterion,
                                                                       examples=examples)

    def contains(self, m: dict[str, tuple[Node, Node]], node: Node, what: str) -> Judge | None:
        if "expected" not in m:
            self.err(node, f"{what}: missing `expected` (a non-empty list of strings)")
            return None
        enode = m["expected"][1]
        if not isinstance(enode, SequenceNode) or not enode.value:
            self.err(enode, f"{what}: `expected` must be a non-empty list of strings")
            return None
        items: list[str] = []
        bad = False
        for item in enode.value:
            v = self.value(item)
            if not isinstance(item, ScalarNode) or not isinstance(v, str) or not v.strip():
                self.err(item, f"{what}: every `expected` item must be a non-empty string")
                bad = True
            else:
                items.append(v)
        return None if bad else Judge("contains", expected=tuple(items))

    def pytest(self, m: dict[str, tuple[Node, Node]], node: Node, what: str) -> Judge | None:
        raw = self.text(m, "test_file", node, what)
        if raw is None:
            return None
        vnode = m["test_file"][1]
        problem = fixture_problem(raw, self.root)
        if problem is not None:
            self.err(vnode, f"{what}: `test_file` {problem}")
            return None
        return Judge("pytest", test_file=raw)

    def examples(self, m: dict[str, tuple[Node, Node]], what: str) -> tuple[Example, ...] | None:
        if "examples" not in m:
            return ()
        enode = m["examples"][1]
        if not isinstance(enode, SequenceNode):
            self.err(enode, f"{what}: `examples` must be a list")
            return None
        out: list[Example] = []
        ok = True
        for i, item in enumerate(enode.value, 1):
            ex = example_of(self, item, f"{what}: example {i}")
            if ex is None:
                ok = False
            else:
                out.append(ex)
        return tuple(out) if ok else None


def example_of(c: _Checker, node: Node, what: str) -> Example | None:
    m = c.mapping(node, what)
    if m is None:
        return None
    output = c.text(m, "output", node, what)
    result = None
    if "result" not in m:
        c.err(node, f"{what}: missing `result` (PASS or FAIL)")
    else:
        r = c.value(m["result"][1])
        if not isinstance(r, str) or r.strip().upper() not in ("PASS", "FAIL"):
            c.err(m["result"][1], f"{what}: `result` must be PASS or FAIL")
        else:
            result = r.strip().upper()
    extra = {}
    for key in ("critique", "input"):
        if key in m:
            v = c.value(m[key][1])
            if not isinstance(v, str):
                c.err(m[key][1], f"{what}: `{key}` must be a string")
                return None
            extra[key] = v
    if output is None or result is None:
        return None
    return Example(output, result, extra.get("critique", ""), extra.get("input", ""))


def fixture_problem(raw: str, root: Path | None) -> str | None:
    """Why `raw` is not an acceptable fixture path for a suite in `root` (None: fine). Absolute paths, `..`,
    anything outside `fixtures/`, a missing file, and symlinks resolving outside `root/fixtures` are refused."""
    if "\\" in raw:
        return f"{raw!r} must use forward slashes"
    p = PurePosixPath(raw)
    if p.is_absolute() or raw.startswith("~") or (len(raw) > 1 and raw[1] == ":"):
        return f"{raw!r} must be a relative path under {FIXTURES}/, not an absolute one"
    if ".." in p.parts:
        return f"{raw!r} must not contain `..`"
    if not raw.startswith(FIXTURES + "/") or len(p.parts) < 2 or p.parts[0] != FIXTURES:
        return f"{raw!r} must start with {FIXTURES}/"
    if root is None:
        return None
    fixtures = root / FIXTURES
    target = root.joinpath(*p.parts)
    try:
        real_fixtures = fixtures.resolve(strict=True)
        real = target.resolve(strict=True)
    except (OSError, RuntimeError):
        if os.path.islink(target):
            return f"{raw!r} is a symlink to a missing file"
        return f"{raw!r} not found (looked for {target})"
    if real != real_fixtures and real_fixtures not in real.parents:
        return f"{raw!r} resolves outside the suite's {FIXTURES}/ folder (a symlink to {real})"
    if fixtures.is_symlink() and not str(real_fixtures).startswith(str(root.resolve()) + os.sep):
        return f"{raw!r}: the {FIXTURES}/ folder is a symlink out of the suite's folder"
    if not real.is_file():
        return f"{raw!r} is not a file"
    return None


# ---- entry points ------------------------------------------------------------------------------------------

def _yaml_error(file: str, exc: yaml.YAMLError) -> SuiteError:
    mark = getattr(exc, "problem_mark", None) or getattr(exc, "context_mark", None)
    problem = getattr(exc, "problem", None) or str(exc)
    line, col = (mark.line + 1, mark.column + 1) if mark is not None else (1, 1)
    return SuiteError(file, line, col, f"YAML syntax: {problem}")


def check_text(text: str, file: str, root: Path | None) -> tuple[tuple[str, str, list[Task]] | None, list[SuiteError]]:
    """((skill_id, version, tasks) or None, errors) for a suite's text; `root` is its folder."""
    try:
        node = yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.YAMLError as exc:
        return None, [_yaml_error(file, exc)]
    except RecursionError:  # pyyaml's composer recurses once per nesting level: `[[[[…` thousands deep
        return None, [SuiteError(file, 1, 1, "YAML syntax: the document is nested too deeply to read")]
    if node is None:
        return None, [SuiteError(file, 1, 1, "the task suite is empty (it needs skill_id, version and tasks)")]
    c = _Checker(file, root)
    got = c.suite(node)
    errors = sorted(c.errors, key=lambda e: (e.line, e.column, e.message))
    return got, errors


def suite_digest(path: Path, text: bytes) -> str:
    """sha256 over the suite file and every regular file under its fixtures/ folder (names and bytes)."""
    h = hashlib.sha256(b"suite\0" + text)
    fixtures = path.parent / FIXTURES
    if fixtures.is_dir():
        real_root = fixtures.resolve()
        for p in sorted(fixtures.rglob("*")):
            if "__pycache__" in p.parts or not p.is_file():
                continue
            try:
                if real_root not in p.resolve().parents:
                    continue
                h.update(p.relative_to(fixtures).as_posix().encode() + b"\0" + p.read_bytes() + b"\0")
            except OSError:
                continue
    return h.hexdigest()


def load_suite(path: Path) -> Suite:
    """The suite at `path`, or SuiteInvalid with every error (not found and unreadable are one error each)."""
    file = str(path)
    try:
        if not path.is_file():
            raise SuiteInvalid([SuiteError(file, 1, 1, "Task suite not found")])
        data = path.read_bytes()
    except OSError as exc:
        raise SuiteInvalid([SuiteError(file, 1, 1, f"cannot read the task suite: {exc.strerror or exc}")]) from None
    if len(data) > MAX_SUITE_BYTES:
        raise SuiteInvalid([SuiteError(file, 1, 1, f"the task suite is over {MAX_SUITE_BYTES:,} bytes")])
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise SuiteInvalid([SuiteError(file, 1, 1, f"the task suite is not UTF-8 ({exc.reason})")]) from None
    got, errors = check_text(text, file, path.resolve().parent)
    if errors or got is None:
        raise SuiteInvalid(errors)
    skill_id, version, tasks = got
    return Suite(path.resolve(), skill_id, version, tuple(tasks), suite_digest(path, data))


def looks_like_suite(text: str) -> bool:
    """A YAML mapping with `skill_id` and `tasks` at the top (what the editor treats as a task suite)."""
    try:
        node = yaml.compose(text, Loader=yaml.SafeLoader)
    except (yaml.YAMLError, RecursionError):
        # a broken file named like a suite, or one that mentions both keys at the start of a line
        return _mentions_keys(text)
    if not isinstance(node, MappingNode):
        return False
    keys = {k.value for k, _ in node.value if isinstance(k, ScalarNode)}
    return {"skill_id", "tasks"} <= keys


def _mentions_keys(text: str) -> bool:
    lines = [ln.split(":", 1)[0].strip() for ln in text.splitlines() if not ln.startswith((" ", "\t", "-"))]
    return "skill_id" in lines and "tasks" in lines


def suite_findings(path: Path | None, text: str) -> list[Finding] | None:
    """Side-document validator: the suite's errors as findings, or None when the text is not a task suite
    (a `task_suite.yaml` / `.yml` always is; any other YAML file when it has `skill_id` and `tasks`)."""
    if path is not None and path.suffix.lower() not in (".yaml", ".yml"):
        return None
    named = path is not None and path.stem.lower() == "task_suite"
    if not named and not looks_like_suite(text):
        return None
    root = path.parent if path is not None else None
    _, errors = check_text(text, str(path) if path is not None else "<untitled>", root)
    lines = text.splitlines()
    out: list[Finding] = []
    for e in errors:
        end_line = (e.end_line or e.line) - 1
        end_col = (e.end_column or e.column) - 1
        if end_line != e.line - 1:  # a mapping or list: underline its first line only
            end_line = e.line - 1
            end_col = len(lines[end_line]) if end_line < len(lines) else e.column
        if end_col <= e.column - 1:
            end_col = e.column
        out.append(Finding(CODE, Severity.ERROR, Range.of(e.line - 1, e.column - 1, end_line, end_col), e.message))
    return out
