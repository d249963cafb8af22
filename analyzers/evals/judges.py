"""The four judges of a task suite. Each returns a `Verdict`: passed True / False, or None with the reason
when it could not judge (a model call that failed, a reply that broke the schema twice, a pytest fixture that
collected nothing). A judge that could not run never counts as a failure of the skill.

- `contains`: every expected keyword occurs in the answer (case-insensitive); score = share found.
- `pytest`: the answer written to a file in a scratch folder, the suite's `fixtures/` copied next to it, and
  `python -m pytest` run on the test file in its own process group with AI_OUTPUT_FILE pointing at the answer,
  the task's timeout (the whole group is killed when it passes), and an environment built from a whitelist
  (no API keys, tokens or other secrets of the caller reach the fixture).
- `llm-rubric`: the judge model scores 0-1 with a critique against the rubric; passed = score >= threshold.
- `llm-binary` (seed 003): one narrow criterion, PASS / FAIL with a critique written first, few-shot examples
  from the suite.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import os
import shutil
import signal
import sys
import tempfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .. import prompts
from ..layers.ask import CallsModels, Invalid, ask, reply_json
from ..llm.types import Reply, Request
from .suite import FIXTURES, Example, Judge

RUBRIC_MAX_TOKENS = 1200
BINARY_MAX_TOKENS = 1000
MAX_ANSWER_CHARS = 24_000  # what an LLM judge sees of an answer
MAX_CRITIQUE = 4000
OUTPUT_TAIL = 2000  # characters of pytest's output kept in a verdict
# the only variables of the caller's environment a pytest fixture sees (a whitelist: nothing else passes)
ENV_WHITELIST = ("PATH", "LANG", "LC_ALL", "LC_CTYPE", "TZ", "SYSTEMROOT", "COMSPEC", "PATHEXT")
AI_OUTPUT_NAME = "ai_output.txt"

RUBRIC_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {"critique": {"type": "string"}, "score": {"type": "number"}},
    "required": ["critique", "score"],
    "additionalProperties": False,
}
BINARY_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {"critique": {"type": "string"}, "result": {"type": "string", "enum": ["PASS", "FAIL"]}},
    "required": ["critique", "result"],
    "additionalProperties": False,
}


@dataclass(frozen=True, slots=True)
class Verdict:
    passed: bool | None  # None: not judged (see `error`)
    score: float | None
    detail: str = ""  # the critique, the missing keywords, pytest's last lines
    error: str | None = None  # why there is no verdict

    def to_dict(self) -> dict:
        return {"passed": self.passed, "score": self.score, "detail": self.detail, "error": self.error}


def unjudged(reason: str) -> Verdict:
    return Verdict(None, None, "", reason)


# ---- contains ------------------------------------------------------------------------------------------

def judge_contains(expected: Sequence[str], answer: str) -> Verdict:
    low = answer.casefold()
    missing = [k for k in expected if k.casefold() not in low]
    score = (len(expected) - len(missing)) / len(expected) if expected else 0.0
    detail = "all expected keywords found" if not missing else "missing: " + ", ".join(repr(m) for m in missing)
    return Verdict(not missing, score, detail)


# ---- pytest --------------------------------------------------------------------------------------------

def sandbox_env(scratch: Path, output_file: Path, source: Mapping[str, str] | None = None) -> dict[str, str]:
    """The fixture's environment: whitelisted variables of `source` (the caller passes its environment; None:
    only a default PATH) plus our own; no key or token passes."""
    src = {"PATH": os.defpath} if source is None else source
    env = {k: src[k] for k in ENV_WHITELIST if k in src}
    env.update({
        "AI_OUTPUT_FILE": str(output_file),
        "HOME": str(scratch),
        "TMPDIR": str(scratch / "tmp"),
        "PYTHONDONTWRITEBYTECODE": "1",
        "PYTHONHASHSEED": "0",
        "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1",
        "NO_COLOR": "1",
    })
    return env


def _copy_fixtures(src: Path, dest: Path) -> None:
    """Copy the suite's fixtures/ into the scratch folder; symlinks that resolve outside it are left out."""
    real_root = src.resolve()

    def ignore(folder: str, names: list[str]) -> list[str]:
        out = []
        for n in names:
            p = Path(folder) / n
            if n == "__pycache__":
                out.append(n)
                continue
            if p.is_symlink():
                try:
                    target = p.resolve(strict=True)
                except (OSError, RuntimeError):
                    out.append(n)
                    continue
                if target != real_root and real_root not in target.parents:
                    out.append(n)
        return out

    shutil.copytree(src, dest, ignore=ignore, symlinks=False)


def _kill_group(proc: asyncio.subprocess.Process) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError, OSError):
        if hasattr(os, "killpg"):
            os.killpg(proc.pid, signal.SIGKILL)
        else:  # pragma: no cover - not POSIX
            proc.kill()


async def judge_pytest(suite_root: Path, test_file: str, answer: str, timeout_s: float, *,
                       python: str | None = None, env_source: Mapping[str, str] | None = None) -> Verdict:
    """Run the suite's pytest fixture on `answer` (see the module docstring). Exit 0: passed; 1: failed; a
    timeout: failed ("timed out"); anything else (no tests, a usage or internal error): not judged."""
    scratch = Path(tempfile.mkdtemp(prefix="skillgrade-pytest-"))
    try:
        (scratch / "tmp").mkdir()
        _copy_fixtures(suite_root / FIXTURES, scratch / FIXTURES)
        out_file = scratch / AI_OUTPUT_NAME
        out_file.write_text(answer, encoding="utf-8")
        ini = scratch / "pytest.ini"
        ini.write_text("[pytest]\n", encoding="utf-8")
        argv = [python or sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-c", str(ini),
                "--rootdir", str(scratch), "--confcutdir", str(scratch), test_file]
        proc = await asyncio.create_subprocess_exec(
            *argv, cwd=str(scratch), env=sandbox_env(scratch, out_file, env_source),
            stdin=asyncio.subprocess.DEVNULL, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT,
            start_new_session=True)
        try:
            async with asyncio.timeout(timeout_s):
                raw, _ = await proc.communicate()
        except TimeoutError:
            _kill_group(proc)
            await proc.wait()
            return Verdict(False, 0.0, f"timed out after {timeout_s:g} s (the test process group was killed)")
        except BaseException:
            _kill_group(proc)  # cancelled: leave no process behind
            raise
        finally:
            _kill_group(proc)  # whatever the tests started in the background
        tail = raw.decode("utf-8", "replace").strip()[-OUTPUT_TAIL:]
        last = tail.splitlines()[-1] if tail else ""
        if proc.returncode == 1 and "No module named pytest" in tail:
            return unjudged(f"pytest is not installed for {argv[0]} (pip install pytest)")
        if proc.returncode == 0:
            return Verdict(True, 1.0, last)
        if proc.returncode == 1:
            return Verdict(False, 0.0, tail)
        what = {2: "was interrupted or could not collect the tests", 3: "hit an internal error",
                4: "was called wrongly", 5: "collected no tests"}.get(proc.returncode or 0,
                                                                       f"exited with {proc.returncode}")
        return unjudged(f"pytest {what} for {test_file}: {last or tail[-200:]}")
    except OSError as exc:
        return unjudged(f"pytest could not be run: {exc.strerror or exc}")
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


# ---- LLM judges ----------------------------------------------------------------------------------------

def _nonce(*parts: str) -> str:
    return hashlib.sha256("\0".join(parts).encode("utf-8")).hexdigest()[:16]


def _judge_request(system: str, nonce: str, request: str, answer: str, *, max_tokens: int, schema: dict,
                   model: str, cache_salt: str) -> Request:
    """An LLM judge's call: its instructions (cached), then the task's request and the answer to judge."""
    return Request(
        kind="eval-judge",
        model=model,
        system=({"type": "text", "text": system, "cache_control": {"type": "ephemeral"}},),
        messages=({"role": "user", "content": prompts.render("eval_run.md", nonce=nonce, request=request,
                                                            answer=answer[:MAX_ANSWER_CHARS])},),
        max_tokens=max_tokens,
        json_schema=schema,
        prompt_version=prompts.prompt_version(),
        cache_salt=cache_salt,
    )


def rubric_request(rubric: str, request: str, answer: str, *, model: str, cache_salt: str = "") -> Request:
    nonce = _nonce(rubric, request, answer)
    system = prompts.render("eval_rubric.md", nonce=nonce, rubric=rubric.strip())
    return _judge_request(system, nonce, request, answer, max_tokens=RUBRIC_MAX_TOKENS, schema=RUBRIC_SCHEMA,
                          model=model, cache_salt=cache_salt)


def _examples_text(examples: Sequence[Example]) -> str:
    if not examples:
        return ""
    parts = ["\n\nExamples judged by the criterion's author:"]
    for i, ex in enumerate(examples, 1):
        block = [f"\n<example n=\"{i}\">"]
        if ex.input:
            block.append(f"<request>\n{ex.input.strip()}\n</request>")
        block.append(f"<output>\n{ex.output.strip()}\n</output>")
        if ex.critique:
            block.append(f"CRITIQUE: {ex.critique.strip()}")
        block.append(f"RESULT: {ex.result}\n</example>")
        parts.append("\n".join(block))
    return "\n".join(parts)


def binary_request(criterion: str, examples: Sequence[Example], request: str, answer: str, *, model: str,
                   cache_salt: str = "") -> Request:
    nonce = _nonce(criterion, request, answer)
    system = prompts.render("eval_binary.md", nonce=nonce, criterion=criterion.strip(),
                            examples=_examples_text(examples))
    return _judge_request(system, nonce, request, answer, max_tokens=BINARY_MAX_TOKENS, schema=BINARY_SCHEMA,
                          model=model, cache_salt=cache_salt)


def _critique(value: dict) -> str:
    c = value.get("critique")
    if not isinstance(c, str) or not c.strip():
        raise Invalid("`critique` must be a non-empty string")
    return c.strip()[:MAX_CRITIQUE]


def parse_rubric(reply: Reply) -> tuple[float, str]:
    value = reply_json(reply)
    if not isinstance(value, dict):
        raise Invalid("the reply must be a JSON object with `critique` and `score`")
    critique = _critique(value)
    score = value.get("score")
    if isinstance(score, bool) or not isinstance(score, int | float) or not 0.0 <= float(score) <= 1.0:
        raise Invalid(f"`score` must be a number from 0.0 to 1.0, got {score!r}")
    return float(score), critique


def parse_binary(reply: Reply) -> tuple[str, str]:
    value = reply_json(reply)
    if not isinstance(value, dict):
        raise Invalid("the reply must be a JSON object with `critique` and `result`")
    critique = _critique(value)
    result = value.get("result")
    if not isinstance(result, str) or result.strip().upper() not in ("PASS", "FAIL"):
        raise Invalid(f"`result` must be PASS or FAIL, got {result!r}")
    return result.strip().upper(), critique


async def judge_rubric(gateway: CallsModels, rubric: str, threshold: float, request: str, answer: str, *,
                       model: str, cache_salt: str = "") -> Verdict:
    got = await ask(gateway, rubric_request(rubric, request, answer, model=model, cache_salt=cache_salt),
                    parse_rubric)
    if got.value is None:
        return unjudged(f"the rubric judge gave no score: {got.reason}")
    score, critique = got.value
    return Verdict(score >= threshold, score, critique)


async def judge_binary(gateway: CallsModels, criterion: str, examples: Sequence[Example], request: str,
                       answer: str, *, model: str, cache_salt: str = "") -> Verdict:
    got = await ask(gateway, binary_request(criterion, examples, request, answer, model=model,
                                            cache_salt=cache_salt), parse_binary)
    if got.value is None:
        return unjudged(f"the binary judge gave no result: {got.reason}")
    result, critique = got.value
    return Verdict(result == "PASS", 1.0 if result == "PASS" else 0.0, critique)


MOCK_CRITIQUE = "MOCK: no judge model was called; this is a fixed passing verdict for checking the wiring."


async def judge(j: Judge, *, suite_root: Path, request: str, answer: str, timeout_s: float,
                gateway: CallsModels | None, model: str, cache_salt: str = "", mock: bool = False,
                env: Mapping[str, str] | None = None) -> Verdict:
    """Dispatch on the judge's type. `mock`: the LLM judges give a fixed pass without a call (contains and
    pytest run for real on the mock answer). `env`: the caller's environment, whitelisted for pytest."""
    if j.type == "contains":
        return judge_contains(j.expected, answer)
    if j.type == "pytest":
        return await judge_pytest(suite_root, j.test_file, answer, timeout_s, env_source=env)
    if mock:
        return Verdict(True, 1.0, MOCK_CRITIQUE)
    if gateway is None:
        return unjudged("no model gateway for an LLM judge")
    if j.type == "llm-rubric":
        return await judge_rubric(gateway, j.rubric, j.pass_threshold, request, answer, model=model,
                                  cache_salt=cache_salt)
    return await judge_binary(gateway, j.criterion, j.examples, request, answer, model=model,
                              cache_salt=cache_salt)
