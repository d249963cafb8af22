"""INTERACTIVE_SCRIPT: a bundled script that stops to wait for keyboard input."""

from __future__ import annotations

import re
from collections.abc import Iterator
from itertools import islice

from ... import rx
from ...bundle import bundled_text_files
from ...document import SkillDocument
from ...findings import Finding, Range, Severity
from ...lazy_re import lazy_compile
from ...reach import reach
from ...rule import RuleContext, rule
from ._source import JS, PS, PY, SH, blank_code, language

MAX_PER_FILE = 10

# Python: the builtin prompt, passwords, prompt libraries (a method `x.input(` or `def input(` is not it)
_PY = rx.compile(
    r"(?<![\w.])(?<!def )(?P<what>raw_input|input)\s*\("
    r"|(?P<what2>getpass\.getpass|(?<![\w.])getpass|click\.prompt|click\.confirm|typer\.prompt|typer\.confirm"
    r"|Prompt\.ask|Confirm\.ask|IntPrompt\.ask|questionary\.\w+|inquirer\.prompt|pyinputplus\.\w+)\s*\("
)
# JavaScript: readline's question() on a stdin interface, prompt libraries
_JS = lazy_compile(
    r"(?P<what>\.question|(?<![\w.$])prompt|inquirer\.prompt|enquirer\.prompt|readlineSync\.\w+)\s*\("
)
_JS_STDIN_RL = lazy_compile(r"createInterface\s*\(\s*\{[^}]{0,200}?input\s*:\s*process\.stdin")
_PS = lazy_compile(r"(?P<what>\bRead-Host|\$Host\.UI\.ReadLine|\[Console\]::ReadKey|\[Console\]::ReadLine)\b", re.I)
# the script checks for a terminal first (it is written to also run without one)
_TTY_GUARD = {
    PY: lazy_compile(r"isatty\s*\("),
    JS: lazy_compile(r"\.isTTY\b"),
    SH: rx.compile(r"\[\[?\s+-t\s+[0-2]\b|\btest\s+-t\s+[0-2]\b|\btty\s+-s\b"),
    PS: lazy_compile(r"IsInputRedirected|\[Environment\]::UserInteractive", re.I),
}
# shell: `read` as a command: at a line start, or after a separator or keyword, after VAR=value prefixes
_SH_READ = rx.compile(r"(?<![\w$./-])read(?![\w-])")
_ASSIGN = lazy_compile(r"[A-Za-z_]\w*=\S*")  # one way to match a word: no backtracking
_CASE_LABEL = lazy_compile(r"[ \t]*\)|\|[\w|*.-]*\)")  # after `read`: `read)` or `read|r)` ends a case pattern
_KEYWORDS = frozenset({"then", "do", "else", "elif", "if", "while", "until", "time", "!", "{", "("})
_SEPARATORS = (";", "&", "|", "(", "`", "$(", "{", "!")
MAX_EXAMINED = 5_000  # `read` words looked at per file: bounds a hostile file
WINDOW = 300  # characters around a `read` that decide it (a command is short)


def _command_before(before: str) -> tuple[bool, str]:
    """(whether what follows `before` is at a command position, the separator or keyword before it)."""
    s = before.rstrip()
    while s:
        i = max(s.rfind(" "), s.rfind("\t"))
        word = s[i + 1:]
        if not _ASSIGN.fullmatch(word):
            break
        s = s[:i + 1].rstrip()  # IFS= read …: skip the assignment
    if not s:
        return True, ""
    i = max(s.rfind(" "), s.rfind("\t"))
    word = s[i + 1:]
    if word in _KEYWORDS:
        return True, word
    if s.endswith(_SEPARATORS):
        return True, "||" if s.endswith("||") else s[-1]
    label = s.strip()
    if label.endswith(")") and " " not in label and "\t" not in label and "$(" not in label and "`" not in label:
        return True, ")"  # `  ask) read -r name ;;`: the first command of a `case` branch
    return False, ""


def _windows(code: str, needles: tuple[str, ...]) -> list[tuple[int, int]]:
    """Merged spans from the start of each line holding a needle to WINDOW past its end: a call pattern
    (no literal to scan for: it starts with a lookbehind) is then matched there only, not at every
    character of the file. Lookbehinds still see the text before a span."""
    out: list[tuple[int, int]] = []
    n = len(code)
    for needle in needles:
        i = code.find(needle)
        while i >= 0:
            a = code.rfind("\n", 0, i) + 1
            e = code.find("\n", i)
            e = n if e < 0 else e
            out.append((a, min(n, e + WINDOW)))
            i = code.find(needle, e)
    out.sort()
    merged: list[tuple[int, int]] = []
    for a, b in out:
        if merged and a <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(merged[-1][1], b))
        else:
            merged.append((a, b))
    return merged


def _finditer(pattern: re.Pattern[str], code: str, needles: tuple[str, ...]) -> Iterator[re.Match[str]]:
    for a, b in _windows(code, needles):
        yield from pattern.finditer(code, a, b)


def _fallback(code: str, start: int) -> bool:
    """The prompt is the fallback of a value given otherwise: `to = to || await question('To: ')`,
    `name = args.name or input("Name: ")` (asked only when the option is missing)."""
    before = code[max(start - WINDOW, code.rfind("\n", max(0, start - WINDOW), start) + 1, 0):start].rstrip()
    if code.startswith(".", start):  # `rl.question(`: the receiver is part of the call
        i = len(before)
        while i and (before[i - 1].isalnum() or before[i - 1] in "_.$"):
            i -= 1
        before = before[:i].rstrip()
    if before.endswith("await"):
        before = before[:-5].rstrip()
    return before.endswith(("||", "??", " or"))


# `const question = (q) => new Promise(r => rl.question(q, r));`: a wrapper, named on the line of the call
_WRAPPER = lazy_compile(r"(?:const|let|var|function)\s+([A-Za-z_$][\w$]{0,60})\s*=?\s*(?:async\s*)?(?:\([^()\n]{0,200}\)|\w+)\s*(?:=>|\{)")
MAX_WRAPPER_CALLS = 200  # calls of a wrapper looked at
MAX_WRAPPERS = 50  # prompts per file whose wrapper is looked into
WRAPPER_SCOPE = 50_000  # characters after a wrapper searched for its calls (its function's body)


def _wrapped_fallbacks(code: str, start: int) -> bool:
    """The prompt sits in a wrapper (`const question = (q) => …rl.question(q, r)`) whose every call only
    fills a value the arguments left out (`to = to || await question('To: ')`)."""
    ls = max(code.rfind("\n", max(0, start - WINDOW), start) + 1, start - WINDOW)  # (bounded: a line is short)
    m = _WRAPPER.search(code, ls, start)
    if m is None:
        return False
    name = m.group(1)
    # its calls: after it, up to the next wrapper of the same name (each function may define its own)
    again = rx.compile(r"(?:const|let|var|function)\s+" + re.escape(name) + r"\b")
    scope = min(len(code), start + WRAPPER_SCOPE)
    nxt = again.search(code, start, scope)
    calls = 0
    for c in rx.compile(r"(?<![\w$.])" + re.escape(name) + r"\s*\(").finditer(code, start, nxt.start() if nxt else scope):
        calls += 1
        if calls > MAX_WRAPPER_CALLS or not _fallback(code, c.start()):
            return False
    return calls > 0


def _definition(code: str, end: int) -> bool:
    """`async prompt(params: PromptRequest): Promise<R> {`: the method is defined here, not called."""
    close = code.find(")", end, end + WINDOW)
    if close < 0:
        return False
    rest = code[close + 1:close + 1 + WINDOW].lstrip()
    if rest.startswith("{"):
        return True
    if rest.startswith(":"):
        brace, semi = rest.find("{"), rest.find(";")
        return brace >= 0 and (semi < 0 or brace < semi) and "\n" not in rest[:brace]
    return False


_ARGUMENT_TESTS = ("args.", "argv", "options.", "opts.", "params.")


def _else_of_argument(code: str, start: int) -> bool:
    """The prompt is in the `else:` branch of a test of an argument within WINDOW characters before it
    (`if args.code: code = args.code` / `else: code = input(...)`): asked only when the option is missing."""
    win = code[max(0, start - WINDOW):start]
    e = win.rfind("else:")
    if e < 0:
        return False
    i = win.rfind("if ", 0, e)
    if i < 0:
        return False
    end = win.find("\n", i, e)
    cond = win[i:end if end >= 0 else e]
    return any(k in cond for k in _ARGUMENT_TESTS)


_FILL_LINE = lazy_compile(r"[ \t]*(?:if[ \t]+not[ \t]+(\w{1,40})[ \t]*:[ \t]*)?(\w{1,40})[ \t]*=[ \t]*")
_EMPTY_VALUES = frozenset({"None", '""', "''", "0", "False", "[]", "{}"})
FILL_WINDOW = 600  # characters before the test searched for the variable's own assignment


def _fills_missing(code: str, start: int) -> bool:
    """The prompt fills a variable only when it is still empty, under `if not code:` (or `if code is None:`, on
    its line or the line before) after an assignment of a value to it (`code = rest[0] if rest else None`):
    asked only when the argument is missing, as `code = code or input(…)` is."""
    ls = code.rfind("\n", 0, start) + 1
    m = _FILL_LINE.fullmatch(code, ls, start)
    if m is None:
        return False
    v = m.group(2)
    if m.group(1) is not None:
        if m.group(1) != v:
            return False
        test_start = ls
    else:
        pe = ls - 1
        while pe > 0 and not code[code.rfind("\n", 0, pe) + 1:pe].strip():
            pe = code.rfind("\n", 0, pe)  # (blank lines between)
        test_start = code.rfind("\n", 0, max(pe, 0)) + 1
        if code[test_start:max(pe, 0)].strip() not in (f"if not {v}:", f"if {v} is None:"):
            return False
    win = code[max(0, test_start - FILL_WINDOW):test_start]
    for a in re.finditer(r"^[ \t]*" + re.escape(v) + r"[ \t]*=(?!=)[ \t]*([^\n]+)$", win, re.M):
        if a.group(1).strip() not in _EMPTY_VALUES:
            return True
    return False


def _python(code: str) -> Iterator[tuple[int, int, str]]:
    for m in _finditer(_PY, code, _NEEDS[PY]):
        g = "what" if m.group("what") else "what2"
        if _fallback(code, m.start(g)) or _else_of_argument(code, m.start(g)) or _fills_missing(code, m.start(g)):
            continue
        yield m.start(g), m.end(g), m.group(g) + "()"


def _javascript(code: str) -> Iterator[tuple[int, int, str]]:
    stdin_rl = _JS_STDIN_RL.search(code) is not None
    wrappers = 0
    for m in _finditer(_JS, code, _NEEDS[JS]):
        what = m.group("what")
        if what == ".question" and not stdin_rl:
            continue  # question() of something that is not a readline interface on stdin
        if _definition(code, m.end()) or _fallback(code, m.start("what")):
            continue  # a method named prompt(), or a prompt only for a value the arguments left out
        wrappers += 1
        if wrappers <= MAX_WRAPPERS and _wrapped_fallbacks(code, m.start()):
            continue  # (a hostile file's thousands of wrappers: the first MAX_WRAPPERS are looked into)
        a = m.start("what") + (1 if what.startswith(".") else 0)
        yield a, m.end("what"), what.lstrip(".") + "()"


def _powershell(code: str) -> Iterator[tuple[int, int, str]]:
    for m in _PS.finditer(code):
        yield m.start("what"), m.end("what"), m.group("what")


def _shell(code: str) -> Iterator[tuple[int, int, str]]:
    for k, m in enumerate(_SH_READ.finditer(code)):
        if k == MAX_EXAMINED:
            return
        a, b = m.start(), m.end()
        ls = code.rfind("\n", max(0, a - WINDOW), a) + 1
        at_command, sep = _command_before(code[max(ls, a - WINDOW):a])
        if not at_command:
            continue  # an argument (`echo read`), not the command
        if sep in ("while", "until", "|"):
            continue  # a loop over lines, or fed by a pipe: reads its input, not the keyboard
        if _CASE_LABEL.match(code, b):
            continue  # `read)` / `read|r)`: a pattern of a `case` statement (notes.sh read "Title"), not the command
        end = min(len(code), b + WINDOW)
        for stop in ("\n", ";", "&&", "||", "|", ")"):
            j = code.find(stop, b, end)
            if j >= 0:
                end = j
        args = code[b:end]
        if re.search(r"(?:^|\s)-[a-zA-Z]*[tu]", args) or "<" in args:
            continue  # a timeout (-t), another descriptor (-u), or redirected input
        yield a, b, "read"


# options that answer a shell script's prompts when its own code tests them: the flag, then the variable it sets
# (`--force) force=true`, `elif [[ "$arg" == "--force" ]]; then force=true`) within FLAG_ASSIGN_CHARS
_SKIP_FLAGS = ("--force", "--yes", "--assume-yes", "--no-confirm", "--no-prompt", "--non-interactive",
               "--noninteractive")
_FLAG_ASSIGN = lazy_compile(r"\b([A-Za-z_]\w{0,30})=[\"']?(?:true|1|yes)\b")
FLAG_ASSIGN_CHARS = 80
GUARD_LINES = 30  # lines above a `read` looked through for the `if` that holds it
MAX_FLAG_USES = 50  # occurrences of each flag looked at


def _flag_vars(text: str, skill_text: str) -> set[str]:
    """The variables a skip flag sets (`--force) force=true`), of the flags SKILL.md names (the agent knows to pass
    them)."""
    out: set[str] = set()
    for flag in _SKIP_FLAGS:
        if flag not in skill_text:
            continue
        i, n = text.find(flag), 0
        while i >= 0 and n < MAX_FLAG_USES:
            m = _FLAG_ASSIGN.search(text, i + len(flag), i + len(flag) + FLAG_ASSIGN_CHARS)
            if m is not None:
                out.add(m.group(1))
            i, n = text.find(flag, i + len(flag)), n + 1
    return out


def _guarded(text: str, at: int, flags: set[str]) -> bool:
    """The `read` at `at` runs only when a skip flag is off: its line tests the flag's variable (`$force || read`),
    or the nearest enclosing `if` (within GUARD_LINES lines) does (`if [[ "$force" != true ]]; then`)."""
    def tests(line: str) -> bool:
        return any(f"${v}" in line or f"${{{v}}}" in line for v in flags)

    start = text.rfind("\n", 0, at) + 1
    if tests(text[start:at]):
        return True
    depth, end = 0, start - 1
    for _ in range(GUARD_LINES):
        if end <= 0:
            break
        begin = text.rfind("\n", 0, end) + 1
        line = text[begin:end].strip()
        end = begin - 1
        if line == "fi" or line.startswith(("fi;", "fi ")):
            depth += 1
        elif line.startswith("if "):
            if depth == 0:
                return tests(line)
            depth -= 1
    return False


_PARSERS = ("jq ", "jq\t", "json.load", "JSON.parse", "yq ")  # what reads a JSON (YAML) document, not an answer


def _parsed_payload(text: str, b: int) -> bool:
    """The variable the `read` ending at `b` fills is handed to a JSON parser on a later line (`echo "$input" |
    jq -r '.tool_input'`, `jq … <<< "$input"`): the script reads the document piped to it, as Claude Code's
    hooks get their event. (`text` unblanked: the variable is used inside quotes.)"""
    end = text.find("\n", b, b + WINDOW)
    end = b + WINDOW if end < 0 else end
    args = text[b:end].split(";", 1)[0]
    names = [w for w in args.split() if not w.startswith("-") and w.replace("_", "a").isalnum()]
    if not names:
        return False
    var = names[-1]
    for line in text[end:end + 20 * WINDOW].splitlines():
        if ("$" + var in line or "${" + var in line) and any(p in line for p in _PARSERS):
            return True
    return False


_SCAN = {PY: _python, JS: _javascript, SH: _shell, PS: _powershell}
# words without which a language's scan cannot match: most scripts are never scanned by a regex
_NEEDS = {
    PY: ("input", "getpass", "prompt", "confirm", ".ask", "questionary", "inquirer", "pyinputplus"),
    JS: ("question", "prompt", "readlineSync"),
    SH: ("read",),
    PS: ("ead", "EAD"),  # Read-Host, ReadLine, ReadKey in any case
}
_GUARD_NEEDS = {PY: ("isatty",), JS: ("isTTY",), SH: ("-t", "tty"), PS: ("",)}


# an option that answers the prompt ahead: `--yes` / `-y`, `--confirm`, `--no-input`, …; `--force` only where its
# line says it skips the confirmation ("--force  Force shutdown without confirmation", "# Confirmation prompt
# (unless --force)"), not another command's (`delete --force`). Found with substring searches: a regex whose
# alternatives start differently is tried at every character of a large script.
_SKIP_OPTIONS = ("--yes", "--assume-yes", "--confirm", "--no-input", "--no-prompt", "--non-interactive",
                 "--noninteractive", "--no-interactive", "--unattended", "--auto-approve", "--skip-confirm",
                 "--answers", "--answers-file", "--answer-file")  # (an answers file: `wizard --answers a.json`)
_CASE_ARM_Y = lazy_compile(r"^[ \t]*-y[ \t]*[|)]", re.M)


def _word_char(text: str, k: int) -> bool:
    """text[k] continues an option name (a letter, digit, `_` or `-`); False outside the text."""
    return 0 <= k < len(text) and (text[k].isalnum() or text[k] in "_-")


def _has_skip_option(text: str) -> bool:
    """The script offers an option that answers its prompts ahead (`--yes`, …: see _skip_option)."""
    return "-" in text and _skip_option(text)


def _skip_option(text: str) -> bool:
    for opt in _SKIP_OPTIONS:
        i = text.find(opt)
        while i >= 0:
            j = i + len(opt)
            if opt == "--skip-confirm" and text.startswith("ation", j):
                j += 5  # `--skip-confirmation`
            if not _word_char(text, i - 1) and not _word_char(text, j):
                return True
            i = text.find(opt, i + len(opt))
    if "'-y'" in text or '"-y"' in text or ("-y" in text and _CASE_ARM_Y.search(text)):
        return True
    if "prompt" in text and _no_prompt_option(text):
        return True
    i = text.find("--force")
    while i >= 0:
        line = _line_around(text, i).lower()
        if "confirm" in line or "prompt" in line:
            return True
        i = text.find("--force", i + 7)
    return ("[" in text and _ps_skip_switch(text)) or _said_to_skip(text)


def _line_around(text: str, i: int) -> str:
    """The line around text[i], at most 100 characters before and 120 after."""
    ls = text.rfind("\n", max(0, i - 100), i) + 1
    le = text.find("\n", i, i + 120)
    return text[max(ls, i - 100):le if le >= 0 else i + 120]


# what an option's help text or comment says when the option skips the prompts: "Apply all changes without
# confirmation", "# non-interactive mode", "skip prompts"
_SKIPS_PROMPTS = ("without confirm", "without prompt", "without asking", "non-interactive", "noninteractive",
                  "skip confirm", "skip prompt", "skip the confirm", "skip the prompt", "skips confirm",
                  "skips prompt", "skips the confirm", "skips the prompt", "no confirm", "no prompt")
MAX_SKIP_PHRASES = 50  # occurrences of each phrase looked at
_LONG_OPTION = lazy_compile(r"(?<![\w-])--[a-z][\w-]{0,40}")


def _said_to_skip(text: str) -> bool:
    """A `--<name>` option on a line that says it runs without prompting (`add_argument("--auto",
    help="Apply all changes without confirmation")`): whatever its name, it answers the prompt ahead."""
    low = text.lower()
    for phrase in _SKIPS_PROMPTS:
        i = low.find(phrase)
        for _ in range(MAX_SKIP_PHRASES):
            if i < 0:
                break
            if _LONG_OPTION.search(_line_around(low, i)):
                return True
            i = low.find(phrase, i + len(phrase))
    return False


# PowerShell: a switch parameter that skips the prompt (`param([switch]$Force)`, `[switch]$Yes`, `[switch]$NoPrompt`)
_PS_SKIP_SWITCH = lazy_compile(
    r"\[switch\]\s{0,20}\$(?:Force|Yes|Confirm|NoPrompt|NoConfirm(?:ation)?|NonInteractive|Unattended|AutoApprove"
    r"|SkipConfirm(?:ation)?|SkipPrompts?)\b", re.I)


def _ps_skip_switch(text: str) -> bool:
    return "switch]" in text.lower() and _PS_SKIP_SWITCH.search(text) is not None


MAX_PROMPT_WORDS = 200  # occurrences of "prompt" looked at


def _no_prompt_option(text: str) -> bool:
    """An option named `--no-<x>-prompt` or `--skip-<x>-prompt(s)` (`--no-logo-prompt`): it skips that prompt."""
    i = text.find("prompt")
    for _ in range(MAX_PROMPT_WORDS):
        if i < 0:
            return False
        j = i + 6 + (text.startswith("s", i + 6))
        k = i
        while k > 0 and i - k < 40 and _word_char(text, k - 1):
            k -= 1
        name = text[k:i]
        if not _word_char(text, j) and (name.startswith(("--no-", "--skip-")) and name.endswith("-")):
            return True
        i = text.find("prompt", i + 6)
    return False


# a script that installs the skill itself (`scripts/install.sh`): run by a person setting the skill up
_INSTALLERS = frozenset({"install", "uninstall", "setup", "bootstrap", "installer", "wizard", "onboard",
                         "onboarding"})


def _for_people(doc: SkillDocument, rel: str) -> bool:
    """Analysed only when reached: a script outside `scripts/`, or an installer of the skill (a name that is or
    holds an installer word: `setup.sh`, `install_extension.py`, `setup-cron.sh`) that SKILL.md never names
    ("Run the setup script" sends the agent to `scripts/setup.sh`)."""
    if not rel.startswith("scripts/"):
        return True
    stem = rel.rsplit("/", 1)[-1].split(".", 1)[0].lower()
    if stem in _INSTALLERS:
        return stem not in doc.text.lower()
    words = stem.replace("-", "_").split("_")
    return any(w in _INSTALLERS for w in words) and stem not in doc.text.lower()


def _unreached(doc: SkillDocument) -> set[str]:
    """Bundled files SKILL.md surely never reaches (UNREFERENCED_FILE's reach; empty when it is not sure)."""
    r = reach(doc)
    if not r.complete or doc.files.truncated:
        return set()
    return set(r.unreached([f for f in doc.files.files if _for_people(doc, f)]))


MAX_IMPORTERS = 50  # bundled Python files looked at for importers of a helper module


def _importers_skip(doc: SkillDocument, bf) -> bool:
    """A Python module with no entry point of its own (no `__main__` test) whose importers among the bundled scripts
    (`import bulk_utils`, `from bulk_utils import confirm`) all offer an option that answers its prompt ahead: the
    prompt runs only when the caller asks (`if not args.yes: confirm(…)`)."""
    if "__main__" in bf.text:
        return False
    mod = bf.rel.rsplit("/", 1)[-1][:-3] if bf.rel.endswith(".py") else ""
    if not mod.isidentifier():
        return False
    found = False
    looked = 0
    for other in bundled_text_files(doc):
        if other.rel == bf.rel or not other.rel.endswith(".py"):
            continue
        looked += 1
        if looked > MAX_IMPORTERS:
            return False
        text = other.text
        if f"import {mod}" not in text and f"from {mod} import" not in text and f".{mod} import" not in text:
            continue
        if not _has_skip_option(text):
            return False
        found = True
    return found


@rule("INTERACTIVE_SCRIPT", family="scripts", severity=Severity.WARNING)
def interactive_script(doc: SkillDocument, ctx: RuleContext) -> Iterator[Finding]:
    """A bundled script waits for keyboard input, which an agent cannot type.

    ## What it does
    Looks at every bundled script (by suffix, or by its `#!` line) for calls that stop and wait for
    someone at the keyboard, outside comments and strings:

    - Python: `input()`, `raw_input()`, `getpass()`, `click.prompt/confirm`, `typer.prompt/confirm`,
      rich's `Prompt.ask`/`Confirm.ask`, `questionary`, `inquirer.prompt`, `pyinputplus`;
    - shell: the `read` command (not a `case` pattern such as `read)` or `read|r)`), unless it has a
      timeout (`-t`) or another descriptor (`-u`), its input is redirected (`< file`, `<<< "$x"`, a
      heredoc), it is fed by a pipe (`cmd | read x`), or it is the condition of a `while`/`until`
      loop (`while read -r line; do … done < file` reads lines of input, not answers), or the variable it
      fills goes to a JSON parser on a later line (`read -r input` then `echo "$input" | jq …`: a hook reading
      the event Claude Code pipes to it);
    - JavaScript/TypeScript: `question()` on a `readline` interface created on `process.stdin`,
      `prompt()`, `inquirer`/`enquirer.prompt()`, `readline-sync`;
    - PowerShell: `Read-Host`, `$Host.UI.ReadLine`, `[Console]::ReadKey/ReadLine`.

    A script outside `scripts/` that SKILL.md never reaches, directly or through the files it reaches
    (UNREFERENCED_FILE's reach: a presenter's `demo/run-demo.sh`), is not analysed: the agent is never
    sent to it; so is an installer of the skill itself under `scripts/` (`install.sh`, `setup.py`,
    `uninstall.sh`, `bootstrap.sh`, or a name holding such a word: `install_extension.py`, `setup-cron.sh`,
    `wizard.py`) that SKILL.md never reaches and whose name it never uses (not even "run the setup
    script"): a person runs it to set the skill up.
    Everything else under `scripts/` is: those are the skill's tools, mentioned or not.
    A generated or minified file with more than 50,000 strings and comments is not analysed.
    A script that checks for a terminal (`isatty()`, `[ -t 0 ]`, `process.stdin.isTTY`,
    `[Console]::IsInputRedirected`) is not reported: it is written to run without one; nor is a script
    with an opt-in interactive mode (it names a `--interactive` or `--repl` option), whose default run
    takes its input as arguments, nor one with an option that answers its prompt ahead (`--yes` / `-y`,
    `--confirm`, `--no-input`, `--non-interactive`, `--unattended`, `--auto-approve`, an answers file
    `--answers a.json`, a `--no-<x>-prompt` / `--skip-<x>-prompt` option, `--force` on a line that says it
    skips the confirmation, any `--<name>` option on a line saying it runs "without confirmation", "without
    prompting", "non-interactive" or "skip prompts" (`--auto` whose help is "Apply all changes without
    confirmation"), or a PowerShell switch parameter `[switch]$Force`, `$Yes`, `$Confirm`, `$NoPrompt`,
    `$NonInteractive`, `$Unattended`, `$SkipConfirmation`: "Are you sure?" with the skip flag this page
    recommends), nor a shell `read` that runs only when such a flag is off, a flag SKILL.md names (`--force`,
    `--yes`, …) that sets a variable (`--force) force=true`) which the `read`'s line or its nearest enclosing `if`
    tests (`if [[ "$force" != true ]]; then … read -p "Proceed?"`; another `read` of the script is still
    reported), nor a Python helper module with no entry point (no `__main__` test) whose importers among the
    bundled scripts all offer such an option (`bulk_utils.confirm()` called by scripts that each take `--yes`), nor
    a prompt that only
    fills in a value the arguments left out
    (`to = to || await question("To: ")`, `name = args.name or input("Name: ")`, Python's `else:` branch of
    an `if args.code:` within 300 characters before the prompt, `if not code:` then `code = input(…)` after an
    assignment of a value to `code` (`code = rest[0] if rest else None`; not `code = None`), or a wrapper
    `const ask = (q) => … rl.question(q, …)` whose every call within 50,000 characters is such a fallback;
    the wrappers of a file's first 50 prompts are looked into), nor a method that is
    defined, not called (`async prompt(params) {`). Reading piped
    data (`sys.stdin.read()`, `json.load(sys.stdin)`, `rl.on('line')`) is not a prompt and is not
    reported. Names such as `input_file`, `args.input(` or `def input(` are not calls of the builtin.

    ## Why is this bad?
    Agents run scripts in non-interactive shells. A prompt either hangs until the command times
    out (the agent sees no output and often retries) or fails at once (`EOFError`, an empty
    answer taken as "no"). The agent cannot answer a prompt it never sees.

    ## Example
    ```python
    # scripts/deploy.py
    target = input("Deploy to which environment? ")
    ```

    Use instead:
    ```python
    # scripts/deploy.py
    parser.add_argument("--env", required=True, help="environment to deploy to")
    ```

    ## Fix
    Take the answer as a command-line argument or an environment variable, and document it in
    SKILL.md; for a confirmation, add a `--yes` flag. Keep a prompt only behind a terminal check.
    """
    unreached: set[str] | None = None
    for bf in bundled_text_files(doc):
        lang = language(bf.rel, bf.text)
        if lang is None:
            continue
        if not any(w in bf.text for w in _NEEDS[lang]):
            continue
        code = blank_code(bf.text, lang)
        if code is None:
            continue  # more strings and comments than any hand-written script: prefer silence
        if any(w in code for w in _GUARD_NEEDS[lang]) and _TTY_GUARD[lang].search(code):
            continue
        if "--interactive" in bf.text or "--repl" in bf.text:
            continue  # prompts behind an opt-in mode: the default run takes its input as arguments
        if _has_skip_option(bf.text):
            continue  # "Are you sure?" that `--yes` skips: the agent's way through is already there
        hits = list(islice(_SCAN[lang](code), MAX_PER_FILE))
        if lang == SH and hits:
            hits = [h for h in hits if not _parsed_payload(bf.text, h[1])]  # a hook reading its event: no prompt
            flags = _flag_vars(bf.text, doc.text) if hits else set()
            if flags:  # `if [[ "$force" != true ]]; then … read -p "Proceed?"`, `--force` in SKILL.md
                hits = [h for h in hits if not _guarded(bf.text, h[0], flags)]
        if not hits:
            continue
        if lang == "python" and _importers_skip(doc, bf):
            continue  # a helper module the scripts import, each of which offers `--yes`: they decide to ask
        if _for_people(doc, bf.rel):  # reach is followed only here: a hit outside scripts/ is rare
            if unreached is None:
                unreached = _unreached(doc)
            if bf.rel in unreached:
                continue  # the agent is never sent to it (a presenter's demo script): not the agent's problem
        for a, b, what in hits:
            rng = Range(bf.index.pos(a), bf.index.pos(b))
            yield ctx.finding(rng, f"`{what}` waits for keyboard input; an agent runs scripts without a"
                                   " terminal, so it hangs or fails: take the value as an argument", file=bf.rel)
