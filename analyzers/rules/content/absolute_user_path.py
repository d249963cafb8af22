"""ABSOLUTE_USER_PATH: a path into one person's home folder (/Users/alice/…, C:\\Users\\bob\\…) in SKILL.md."""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterator

from ... import rx
from ...document import CodeBlock, Heading, SkillDocument
from ...findings import Finding, Pos, Range, Severity
from ...lazy_re import lazy_compile
from ...rule import RuleContext, rule

# a home folder at the start of a path (not `api/Users/…`, `~/…`, `/users/` routes), then the user name
# and the rest of the path token; single character classes, so a linear scan
_HOME = lazy_compile(
    r"(?:(?<=file://)|(?<![\w.~/\\-]))"
    r"(?P<root>/Users/|/home/|[A-Za-z]:(?:\\{1,2}|/)(?i:users)(?:\\{1,2}|/))"
    r"(?P<name>[^\s/\\'\"`<>()\[\]{}|:;,*?“”‘’]+)"
    r"(?P<rest>[^\s'\"`<>()\[\]{}|,;*?“”‘’]*)"
)
# generic placeholders and shared folders, compared lowercased after dropping `-`, `_`, `.`
_GENERIC = frozenset({
    "user", "username", "users", "you", "your", "yours", "yourname", "yourusername", "yourself", "me",
    "myuser", "myname", "myusername", "name", "someone", "somebody", "example", "exampleuser", "foo", "bar",
    "xxx", "xxxx", "shared", "public", "default", "defaultuser", "allusers", "linuxbrew", "...", "…",
    "test", "testuser", "demo", "demouser",  # a test account (`C:\\Users\\test\\…`, `/home/testuser`)
    # accounts of well-known sandboxes, CI runners and containers: the same path on every such machine
    "claude", "runner", "runneradmin", "ubuntu", "node", "vscode", "codespace", "codespaces", "jovyan",
    "circleci", "ec2user", "gitpod", "sandbox", "agent", "app", "developer", "dev", "admin",
    # the service account OpenClaw's installs run the gateway as (`User=openclaw`, a Dockerfile's `useradd openclaw`)
    "openclaw",
    # the default or service accounts of well-known images and hosts: Frappe's bench images (`/home/frappe/frappe-bench`),
    # Raspberry Pi OS, Vagrant boxes, Azure and Oracle Cloud VMs, Bitnami stacks, code-server, Jenkins, Gitea / GitLab
    "frappe", "pi", "vagrant", "azureuser", "opc", "bitnami", "coder", "jenkins", "git",
    # the same placeholders in other languages ("C:\\Users\\你的用户名\\…"): 用户名 / ユーザー名 / 사용자 이름,
    # usuario, utilisateur, benutzer, benutzername, nomeutente
    "用户名", "用戶名", "你的用户名", "您的用户名", "你的用戶名", "用户", "ユーザー名", "ユーザ名", "ユーザー", "사용자",
    "사용자이름", "사용자명", "usuario", "nombredeusuario", "tuusuario", "utilisateur", "nomutilisateur",
    "benutzer", "benutzername", "nomeutente", "utente",
    # the stock placeholder person (`/Users/johndoe/…`, `/home/jdoe/…`), unlike a realistic name such as alice
    "johndoe", "janedoe", "jdoe",
})
QUOTED_MAX = 200  # characters of a quoted path with blanks followed to its closing quote
TURN_LABEL = 12  # characters of a line compared with a turn's label ("assistant:")
TURN_REACH = 6  # lines around a user's turn searched for the agent's turn of the same sample dialogue
_USER_TURNS = ("user:", "human:", "you:", "me:")
_AGENT_TURNS = ("agent:", "assistant:", "claude:", "ai:", "bot:", "codex:", "model:")


def _user_turn(lines: list[str], ln: int) -> bool:
    """The line is the user's turn of a sample dialogue ("User: Custom path → /home/ahmed/old-assistant" beside
    "Agent: Where is your previous installation?"): what a user types, not a path the agent uses."""
    if not lines[ln].lstrip(" >*")[:TURN_LABEL].lower().startswith(_USER_TURNS):
        return False
    near = lines[max(0, ln - TURN_REACH):ln + TURN_REACH + 1]
    return any(other.lstrip(" >*")[:TURN_LABEL].lower().startswith(_AGENT_TURNS) for other in near)
_PLACEHOLDER_START = ("<", "$", "{", "%", "[", "*", ".")


def _generic(name: str) -> bool:
    if name.startswith(_PLACEHOLDER_START):
        return True
    key = name.lower().replace("-", "").replace("_", "").replace(".", "")
    return key in _GENERIC or key.startswith("your") or not key or set(key) <= {"x"}


def _elided(rest: str) -> bool:
    """A folder of the path after the user name is an ellipsis (`/Users/jp/.../x`, `/home/ana/…/notes`): an
    example with its middle left out, not a path to use (a trailing `...` is sentence punctuation; `..` is
    the parent folder)."""
    return any(part in ("...", "…") for part in re.split(r"[\\/]", rest)[1:-1])


# extensions of files, not of user names (`john.smith`, `j.doe`): a path ending `/Users/photo.png` names a file
_FILE_EXTENSIONS = frozenset({
    "png", "jpg", "jpeg", "gif", "svg", "webp", "bmp", "ico", "tif", "tiff", "heic", "pdf", "txt", "md", "csv",
    "tsv", "json", "jsonl", "yaml", "yml", "xml", "html", "htm", "zip", "tar", "gz", "tgz", "7z", "rar", "mp3",
    "mp4", "mov", "wav", "m4a", "avi", "mkv", "doc", "docx", "xls", "xlsx", "ppt", "pptx", "py", "js", "ts",
    "sh", "log", "ini", "toml", "cfg", "conf", "env", "db", "sqlite", "epub", "key", "pem",
})


def _file_name(name: str) -> bool:
    """The segment after `/Users/` ends the path and is a file's name (`photo.png`, `report.pdf`)."""
    stem, dot, ext = name.rpartition(".")
    return bool(dot and stem) and ext.lower() in _FILE_EXTENSIONS


def _regex_flags(name: str) -> bool:
    """The name is only a regex literal's flags (`/home/i`, `/Users/gi`): at most one of each of `dgimsuvy`."""
    return len(name) <= 4 and len(set(name)) == len(name) and set(name) <= set("dgimsuvy")


# what every match holds: a Unix home root, or a Windows one after its drive's colon (`C:/Users/` holds
# both); each is one pass over the text (a literal first: re scans for it as fast as str.find), and
# only the lines holding one are matched against _HOME
_ROOTS = (rx.compile(r"/(?:Users|home)/"), rx.compile(r":[\\/]{1,2}(?i:users)[\\/]"))


# a container command: its paths are the container's, but for the host side of a mount
_CONTAINER = lazy_compile(r"\b(?:docker|podman|nerdctl)(?:\s+container)?\s+(?:run|exec|create)\b")
_HOST_SIDE = ("-v ", "--volume ", "--volume=", "src=", "source=", "-v=")


# keys whose value is a path inside a container: a Kubernetes volume's `mountPath`, a container's `workingDir`,
# a Dockerfile's `WORKDIR` (the host side, `hostPath: path:`, is still a user's path)
_CONTAINER_KEYS = ("mountPath:", "mountPath\":", "containerPath:", "containerPath\":", "mount_path:", "workingDir:",
                   "WORKDIR")


def _in_container(line: str, at: int, container: bool) -> bool:
    """On a `docker run` line, the path at `at` is inside the container (`-v ~/.x:/home/app/.x`, `dst=`,
    `-e HOME=/home/app`, the command run in it) unless it is the host side of a mount (`-v /home/al/x:/x`,
    `src=/home/al/x`); so is the value of a container-side key (`mountPath: /home/opuser/.op/x.json`)."""
    if container:
        return not line[max(0, at - 9):at].endswith(_HOST_SIDE)
    before = line[max(0, at - 20):at].rstrip(" \t\"'")
    return before.endswith(_CONTAINER_KEYS) and (not before.endswith("WORKDIR") or line.lstrip().startswith("WORKDIR"))


def _declared_names(doc: SkillDocument, candidates: list[int]) -> frozenset[str]:
    """User names the document itself declares as not the author's: a service account it sets up
    (`User=xa` in a systemd unit, `useradd xa`), or a home path on a line that says to replace it
    ("Replace all occurrences of `/Users/alice/work` … with the real values"); or the one machine the skill
    says it is for ("… on Frank's machine": `frank`, lowercased)."""
    out: set[str] = set()
    for ln in candidates:
        line = doc.lines[ln]
        at = line.lower().find("replace")
        if at >= 0:  # the paths in the sentence that says to replace them
            end = line.find(". ", at)
            out.update(m.group("name") for m in _HOME.finditer(line, at, end if end >= 0 else len(line)))
    if "User=" in doc.text or "useradd" in doc.text or "adduser" in doc.text:
        out.update(m.group(1) or m.group(2) for m in _SERVICE_USER.finditer(doc.text))
    if "@" in doc.text:  # `ssh hch@10.145.119.19`: that account's home is on the remote host the skill works on
        out.update(_remote_logins(doc.text))
    if "'s " in doc.text or "’s " in doc.text:  # "… on Frank's machine": a skill for that one machine
        out.update(m.group(1).lower() for m in _OWN_MACHINE.finditer(doc.text))
    # "… on this WSL1 machine" in the description: the whole skill is for that one machine; "this is Claude Code on
    # the operator's machine: the vault is `C:\Users\jason\dotfiles`": that line's homes are the machine's
    fld = doc.frontmatter.get("description")
    whole = fld is not None and isinstance(fld.value, str) and _THIS_MACHINE.search(fld.value) is not None
    if fld is not None and isinstance(fld.value, str) and not whole:
        out.update(_served_person(fld.value, doc, candidates))
    heads = doc.headings
    illustrated = _illustrated_lines(doc, candidates)
    for ln in candidates:
        line = doc.lines[ln]
        if whole or _THIS_MACHINE.search(line) or _under_this_machine(heads, ln):
            out.update(m.group("name") for m in _HOME.finditer(line))
        elif ln in illustrated:  # "**Service Planning Examples**" and `/home/alice/myproject`: a made-up user's
            out.update(m.group("name") for m in _HOME.finditer(line) if m.group("name").lower() in _PERSONAS)
        elif '"' in line or "“" in line:  # `- "Summarise /Users/bob/Downloads/q3.pdf"`: a made-up user's words
            quotes = [i for i, c in enumerate(line) if c == '"']  # (once per line: each path then costs a bisect)
            out.update(m.group("name") for m in _HOME.finditer(line) if m.group("name").lower() in _PERSONAS
                       and _in_quoted_request(line, m.start(), m.end(), quotes))
    return frozenset(out)


QUOTE_REACH = 200  # characters between a quoted request's opening quote and the path in it, at most


# `host:` or `user@host:` right before a path, on a line that copies files to or from a remote host
_HOST_PREFIX = lazy_compile(r"(?:[A-Za-z_][\w.-]{0,31}@)?[A-Za-z0-9][\w.-]{1,252}")
_COPY_COMMAND = lazy_compile(r"\b(?:scp|rsync|sftp|rclone)\b")
HOST_CHARS = 290  # characters looked back for the host before its colon


def _copy_target(line: str, colon: int) -> bool:
    """The `:` at `colon` ends a remote host (`seo-server:`, `deploy@web1:`); asked only on a line that runs scp,
    rsync, sftp or rclone: the path after it is on that host. (A drive letter, `C:`, is part of the home's root,
    never here.)"""
    start = max(0, colon - HOST_CHARS)
    k = colon
    while k > start and (line[k - 1].isalnum() or line[k - 1] in "_.-@"):  # (a host's characters only: each
        k -= 1  # scan stops at the first other one, so a line of many `x|a:/home/b` stays linear)
    return _HOST_PREFIX.fullmatch(line, k, colon) is not None


def _in_quoted_request(line: str, s: int, e: int, quotes: list[int]) -> bool:
    """The span `s:e` lies inside a quoted sentence on `line` ("Summarise /Users/bob/q3.pdf", “Open …”): words
    before the path within QUOTE_REACH characters of the opening quote, not a quoted path alone (`"/Users/bob/x"`).
    `quotes` holds the positions of the line's `"`: an odd number of them before the path puts it inside a pair."""
    i = bisect.bisect_left(quotes, s)
    starts = []
    if i % 2 == 1 and i < len(quotes) and quotes[i] >= e:
        starts.append(quotes[i - 1])
    a = line.rfind("“", max(0, s - QUOTE_REACH), s)
    if a >= 0 and line.find("”", e, e + QUOTE_REACH) >= 0:
        starts.append(a)
    return any(s - a <= QUOTE_REACH and line[a + 1:a + 2].isalpha() and " " in line[a + 1:s] for a in starts)


# the made-up people of examples (a real user name under an example label, `/Users/redam94/…` in "## Example
# Commands", is the author's path and is reported)
_PERSONAS = frozenset({"alice", "bob", "carol", "dave", "eve", "jane", "john", "jdoe", "johndoe", "janedoe",
                       "john.doe", "jane.doe", "john_doe", "jane_doe", "joe", "joebloggs", "janesmith", "johnsmith"})


# a heading or a bold label naming what follows an example: "#### Example — Two services", "**Service Planning
# Examples** (…):", "## Usage examples", "e.g.", 示例 / 例子 / 範例
_EXAMPLE_LABEL = lazy_compile(r"\bexamples?\b|\be\.g\.|示例|例子|範例|用例", re.I)
_LABEL_REACH = 40  # lines a bold label covers below it (its lists and blocks), within its section


def _illustrated_lines(doc: SkillDocument, candidates: list[int]) -> set[int]:
    """The candidate lines shown as an example: in a section whose heading names it one, or under a bold label
    naming one (the nearest `**…**` line at or above, in the same section, at most _LABEL_REACH lines up). A
    made-up person's home there (_PERSONAS) is the author's illustration of a path the user supplies, and that
    name is an illustration wherever it appears. One pass over the lines up to the last candidate."""
    if not candidates:
        return set()
    heads = doc.headings
    heading_lines = {h.line for h in heads}
    code = doc.code_lines
    wanted = set(candidates)
    out: set[int] = set()
    label_at, label_example = -1, False  # the nearest bold label in this section
    for k in range(candidates[-1] + 1):
        line = doc.lines[k]
        if k in heading_lines:
            label_at = -1
        elif k not in code and line.lstrip().startswith("**"):
            s = line.lstrip()
            close = s.find("**", 2)
            label_at, label_example = k, _EXAMPLE_LABEL.search(s[2:close] if close > 0 else s) is not None
        if k in wanted and (label_at >= 0 and k - label_at <= _LABEL_REACH and label_example
                            or _section_heading_says(heads, k, _EXAMPLE_LABEL)):
            out.add(k)
    return out


def _served_person(description: str, doc: SkillDocument, candidates: list[int]) -> set[str]:
    """The home folders' user names that the description names as the one person the skill serves ("Use whenever Adam
    asks about the project" and `C:/Users/Adam/…`; "for Adam", "Adam's"): a personal skill, whose paths exist where it
    runs. The name must be written capitalized, as a person's."""
    names = {m.group("name") for ln in candidates for m in _HOME.finditer(doc.lines[ln])}
    out = set()
    for name in names:
        word = name[:1].upper() + name[1:]
        if not word[:1].isalpha():
            continue
        if word not in description:
            if _short_name_serves(description, name):
                out.add(name)
            continue
        at = description.find(word)
        while at >= 0:
            end = at + len(word)
            if (at == 0 or not description[at - 1].isalnum()) and (end == len(description) or not description[end].isalnum()) \
                    and (_PERSON_AFTER.match(description, end) or description[max(0, at - 4):at].lower() == "for "):
                out.add(name)
                break
            at = description.find(word, end)
    return out


# a word and what follows a person's name when the skill serves that one person: "ko runs the bash"
_PERSON_WORD = lazy_compile(r"(?<![\w.-])([A-Za-z][A-Za-z0-9]{1,30})(?=\s+(?:asks|wants|says|needs|requests|mentions"
                            r"|types|runs|pastes|is\s+working)\b)")


def _short_name_serves(description: str, name: str) -> bool:
    """The description names the home's user by the user name or a short form of it (at least two letters it starts
    with), in any case, followed by what a person does: "ko runs the bash" and `/Users/kokayi/…` (a lowercase
    writer's nickname for themself)."""
    low = name.lower()
    return any(low.startswith(m.group(1).lower()) for m in _PERSON_WORD.finditer(description))


# what follows a person's name when the skill serves that one person: "Adam asks", "Adam's", "Adam wants"
_PERSON_AFTER = lazy_compile(r"(?:['’]s\b|\s+(?:asks|wants|says|needs|requests|mentions|types|is\s+working)\b)")


def _under_this_machine(heads: list[Heading], ln: int) -> bool:
    """The nearest heading above line `ln` says its section is about this one machine ("## Install / update
    (Windows, this machine)")."""
    return _section_heading_says(heads, ln, _HEADING_THIS_MACHINE)


def _section_heading_says(heads: list[Heading], ln: int, pattern: re.Pattern[str]) -> bool:
    """The nearest heading above line `ln` (its section's) matches `pattern`."""
    i = bisect.bisect_right(heads, ln, key=lambda h: h.line) - 1
    return i >= 0 and pattern.search(heads[i].text) is not None


def _under_settings(heads: list[Heading], ln: int) -> bool:
    """The nearest heading above line `ln` asks the reader to set its values ("## User Configuration (customize
    before use)", "## Paths (edit these)"): the section's paths are the author's settings, to be replaced."""
    return _section_heading_says(heads, ln, _HEADING_SETTINGS)


_HEADING_SETTINGS = lazy_compile(r"\b(?:customi[sz]e|adjust|edit|change|replace)\s+(?:these|this|them|before|to\s+"
                                 r"(?:your|match))\b|\bbefore\s+(?:first\s+)?use\b", re.I)


def _enclosing_block(doc: SkillDocument, ln: int) -> CodeBlock | None:
    """The code block line `ln` is inside (between its fences), or None."""
    blocks = doc.code_blocks  # in document order, not nested: the last one opening before `ln` is the only candidate
    i = bisect.bisect_left(blocks, ln, key=lambda b: b.start_line) - 1
    return blocks[i] if i >= 0 and blocks[i].start_line < ln < blocks[i].end_line else None


def _nonblank_above(lines: list[str], ln: int) -> int:
    """The nearest line above `ln` that is not blank (-1: none)."""
    k = ln - 1
    while k >= 0 and not lines[k].strip():
        k -= 1
    return k


def _sample_output(doc: SkillDocument, ln: int) -> bool:
    """Line `ln` is inside a block that shows what a command prints ("The returned JSON looks like this:" and a
    ```json block): its paths are the author's run, and the agent reads the real ones from its own run."""
    b = _enclosing_block(doc, ln)
    if b is None or b.language.lower() not in _OUTPUT_LANGUAGES:
        return False
    k = _nonblank_above(doc.lines, b.start_line)
    intro = doc.lines[k].lower() if k >= 0 else ""
    if any(w in intro for w in _OUTPUT_INTROS):
        return True
    first = doc.lines[b.content_start_line].lstrip() if b.content_start_line < len(doc.lines) else ""
    return first.startswith(_PRINTED_STARTS)  # `Error: git init failed in /Users/jesse/…`: what a program printed


# a label naming the absolute-path form, at a line's start: "✅ 绝对路径：`![](/Users/…)`", "# 方案2: 绝对路径",
# "**示例 2：绝对路径**", "- Absolute path: …", "Example 2: absolute path"
_ABSOLUTE_FORM = lazy_compile(r"[\s#>*_+\-0-9.)✅❌✔✗•]{0,12}(?:(?:示例|方案|例|option|example)\s{0,2}\d{0,3}\s{0,2}[:：]\s{0,2})?"
                              r"[*_`]{0,2}(?:(?:absolute|full)\s+(?:(?:filesystem|file|disk)\s+)?path|绝对路径|絕對路徑|絶対パス)[*_`]{0,2}"
                              r"\s{0,2}(?:[:：(（]|$)", re.I)
FORM_LABEL_CHARS = 60  # a label line above the path: short


def _absolute_form_example(doc: SkillDocument, ln: int) -> bool:
    """The path illustrates the absolute-path form beside others (relative, URL): its own line, the short line above it
    (a comment in its block: `# 方案2: 绝对路径`), or the line introducing its code block (`**示例 2：绝对路径**`) opens
    with a label naming that form. The agent is shown what such a path looks like, not told to use it."""
    lines = doc.lines
    if _ABSOLUTE_FORM.match(lines[ln]) is not None or _form_label(lines, _nonblank_above(lines, ln)):
        return True
    b = _enclosing_block(doc, ln)
    return b is not None and _form_label(lines, _nonblank_above(lines, b.start_line))


def _form_label(lines: list[str], k: int) -> bool:
    """Line `k` is a short label naming the absolute-path form."""
    return k >= 0 and len(lines[k]) <= FORM_LABEL_CHARS and _ABSOLUTE_FORM.match(lines[k]) is not None


# "Use when … on Frank's machine": the skill says it is written for one person's machine, whose home it names
_OWN_MACHINE = lazy_compile(r"\b([A-Z][\w.-]{1,31})['’]s\s+(?:own\s+)?(?:machine|computer|laptop|pc|mac|macbook|"
                            r"workstation|desktop)\b")


# "on this WSL1 machine", "for the operator's machine", "this skill owns the machine it runs on", "This machine
# only:": one machine
_THIS_MACHINE = lazy_compile(r"\b(?:on|for)\s+(?:this|the\s+(?:operator|owner)['’]s)\s+(?:[\w-]{1,20}\s+)?"
                             r"(?:machine|computer|laptop|workstation|desktop|box)\b|\bowns\s+the\s+machine\b"
                             # "This machine only: absolute paths under `/Users/dan`", "(this machine only; …)"
                             r"|\bthis\s+(?:[\w-]{1,20}\s+)?(?:machine|computer|laptop|workstation|desktop|box)\s+only\b", re.I)
# a section heading about this one machine: "## Install (Windows, this machine)" (not "this machine's config")
_HEADING_THIS_MACHINE = lazy_compile(r"\bthis\s+(?:[\w-]{1,20}\s+)?(?:machine|computer|laptop|workstation|desktop|box)\b"
                                     r"(?!['’])", re.I)
# the first line of a block that shows what a program printed: an error, a traceback, a warning
# or a status mark a diagnostic prints before each result (`❌ Repository path: not found`, `✅ Node 20`)
_PRINTED_STARTS = ("Error:", "ERROR:", "error:", "Traceback (most recent call last)", "fatal:", "FATAL:", "Warning:",
                   "WARNING:", "Exception in thread", "panic:", "❌", "✅", "⚠", "✗", "✘", "✖", "✔", "✓")
# the block after such a line is a command's output, not something the agent is told to use
_OUTPUT_LANGUAGES = frozenset({"", "json", "jsonc", "text", "txt", "output", "console", "log", "plaintext"})
_OUTPUT_INTROS = ("looks like", "sample output", "example output", "output example", "sample response",
                  "example response", "output format", "output looks", "returned json", "prints json",
                  "returns json", "outputs json", "is printed", "prints something like", "returns something like",
                  "will produce", "which produces",  # "This will produce a preview with flattened keys:"
                  "出力", "输出", "結果", "结果")  # Japanese / Chinese "output", "result" (`**診断結果**:`)


# a login on a remote host: `user@` an IPv4 address, or after `ssh` / `scp` / `rsync` / `sftp` on the same line
# (`ssh -p 22 hch@gpu-box`, `ssh://hch@host`); an e-mail address (`alice@example.com`) is neither
_LOGIN = lazy_compile(r"(?<![\w.+-])([a-z_][\w.-]{0,31})@(\d{1,3}(?:\.\d{1,3}){3}(?![\w.]))?")
_REMOTE_COMMAND = lazy_compile(r"\b(?:ssh|scp|rsync|sftp|mosh)\b")
SSH_LOOKBACK = 80  # characters before the login searched for the command


def _remote_logins(text: str) -> set[str]:
    commands = [m.end() for m in _REMOTE_COMMAND.finditer(text)]  # where each command word ends, in order
    out = set()
    for m in _LOGIN.finditer(text):
        if m.group(2) is None:  # a host name: only after a command on the same line, within SSH_LOOKBACK
            at = m.start()
            i = bisect.bisect_right(commands, at) - 1
            if i < 0 or at - commands[i] > SSH_LOOKBACK or "\n" in text[commands[i]:at]:
                continue
        out.add(m.group(1))
    return out


# a service account the document sets up: the same home folder on every machine set up this way
_SERVICE_USER = lazy_compile(r"^[ \t]*User=([\w.-]{1,32})[ \t]*$|\b(?:useradd|adduser)\b[^\n]{0,80}?[ \t]([a-z_][\w.-]{0,31})[ \t]*$",
                           re.M)


_SSH_WORD = lazy_compile(r"\bssh[ \t]")


def _remote_spans(line: str) -> list[tuple[int, int]]:
    """The quoted commands an `ssh <host> "…"` on this line runs on the remote host (`ssh WP-CPANEL "bash -s
    /home/quanzar/public_html"`): the spans inside their quotes, in order. Not what follows the quotes (`<
    scripts/scan.sh`: a local file) nor a quote before the host. Linear: each quote is looked at from the
    command word closest before it, and the spans found never overlap."""
    quotes = [k for k, c in enumerate(line) if c in "\"'"]
    if not quotes:
        return []
    last: dict[int, int] = {}  # first quote after a command word -> the end of the last such word before it
    for m in _SSH_WORD.finditer(line):
        i = bisect.bisect_left(quotes, m.end())
        if i < len(quotes):
            last[quotes[i]] = m.end()
    out: list[tuple[int, int]] = []
    for q, e in last.items():  # (in order: the words were)
        if out and q < out[-1][1]:
            continue  # (a quote inside the previous remote command)
        if not any(not t.startswith("-") for t in line[e:q].split()):
            continue  # no host before the quote (`ssh "$HOST"`: the quote holds the host)
        close = line.find(line[q], q + 1)
        out.append((q + 1, close if close >= 0 else len(line)))
    return out


def _in_spans(spans: list[tuple[int, int]], at: int) -> bool:
    """`at` lies inside one of the sorted, disjoint `spans` (a binary search: a line of many remote commands and
    many paths stays linear)."""
    i = bisect.bisect_right(spans, at, key=lambda span: span[0]) - 1  # the last span starting at or before `at`
    return i >= 0 and at < spans[i][1]


def _candidate_lines(doc: SkillDocument) -> list[int]:
    """The lines that may hold a home-folder path, in order (most skills: none, and no line loop)."""
    return doc.index.lines_with(_ROOTS)


@rule("ABSOLUTE_USER_PATH", family="content", severity=Severity.WARNING)
def absolute_user_path(doc: SkillDocument, ctx: RuleContext) -> Iterator[Finding]:
    """SKILL.md names a path inside one person's home folder, which exists on no one else's machine.

    ## What it does
    Looks through SKILL.md (prose, code blocks and frontmatter) for paths that start at a user's home
    folder: `/Users/<name>/…` (macOS), `/home/<name>/…` (Linux), `C:\\Users\\<name>\\…` (Windows, any
    drive, `\\`, `\\\\` or `/`; also after `file://`). The finding covers the whole path (a quoted one with
    blanks, `"/home/ana/Área de Trabalho/x"`, to its closing quote).

    Not reported: `~/…`, `$HOME/…`, `%USERPROFILE%\\…`; a generic or placeholder user name (`user`,
    `username`, `you`, `your-name`, `me`, `name`, `someone`, `example`, `xxxx`, a test account: `test`, `testuser`,
    `demo`, and anything written
    `<user>`, `$USER`, `${USER}`, `{user}`, `%USERNAME%`; the same in other languages: `用户名`, `你的用户名`,
    `ユーザー名`, `usuario`, `Benutzername`, …); a JavaScript regex literal (`{ name: /home/i }`: `i` is its
    flags, nothing follows); a file's name right after the root, ending the path (`"/Users/photo.png"`,
    `/home/report.pdf`: a made-up path with no user in it; `/Users/john.smith` is reported); an elided
    example whose middle folder is `...` or `…`
    (`/Users/jp/.../.worktrees/<branch>`: a path on no machine; `/Users/jp/src/../x` is reported); shared folders (`/Users/Shared`,
    `C:\\Users\\Public`, `C:\\Users\\Default`, `/home/linuxbrew`); the home folders of well-known
    sandboxes, CI runners and containers, the same on every such machine (`/home/claude` in claude.ai's
    code sandbox, `/home/runner` on GitHub Actions, `/home/ubuntu`, `/home/node`, `/home/vscode`,
    `/home/jovyan`, `/home/circleci`, `/home/ec2-user`, `/home/gitpod`, …, `/home/openclaw`, the service account an
    OpenClaw server runs its gateway as, and the default or service accounts of well-known images and hosts:
    `/home/frappe` in Frappe's bench images, `/home/pi`, `/home/vagrant`, `/home/azureuser`, `/home/opc`,
    `/home/bitnami`, `/home/coder`, `/home/jenkins`, `/home/git`); the same words inside a longer
    path or URL (`https://api.example.com/Users/42`, `app/home/view`), and lowercase `/users/`
    (a web route, not a macOS home); and on a `docker run` / `docker exec` / `podman run` line, a path
    inside the container (`-v ~/.marm:/home/marm/.marm`, `dst=/home/marm`, `-e HOME=/home/marm`, the
    command run in it), where only the host side of a mount (`-v /home/alice/x:/x`, `src=/home/alice/x`)
    is reported, and the value of a container-side key (`mountPath: /home/opuser/.op/x.json`, `containerPath:`,
    `workingDir:`, a Dockerfile's `WORKDIR /home/node/app`; a `hostPath`'s `path:` is reported); nor a name the
    document declares is not the author's: a service account it sets up
    (`User=xa` in a systemd unit, `useradd xa`: `/home/xa` is the same on every server set up this way), or the
    account of a remote host it logs in to (`ssh hch@gpu-box`, `hch@10.145.119.19`: `/home/hch` is that host's),
    and any path in the quoted command an `ssh <host> "…"` runs there (`ssh web1 "ls /home/deploy/app"`; not a
    local file fed to it after the quotes, `< /home/al/scan.sh`), or after a `host:` on a line that runs `scp`, `rsync`,
    `sftp` or `rclone` (`scp build.tgz seo-server:/home/seoagent/public_html/`: the copy's remote side),
    or a path on a line that says to replace it ("Replace all occurrences of `/Users/alice/work` with the
    real path"), wherever that name appears; nor the home of the one machine the skill says it is for ("Use
    when … on Frank's machine" and `C:/Users/frank/…`: a personal skill, whose paths exist where it runs; likewise
    a description that says the skill is for "this machine" / "this WSL1 machine" / "the operator's machine", or that
    names the home's user as the one person it serves ("Use whenever Adam asks …", "for Adam", "Adam's" and
    `C:/Users/Adam/…`; also by a short form in any case followed by what a person does: "ko runs the bash" and
    `/Users/kokayi/…`), or
    such words on the path's own line, also "This machine only: …" or "(this machine only)" there, or "this machine"
    in the heading of the path's section ("## Install (Windows, this machine)"); not "Copy this
    machine's config from …"); nor a path in a section whose heading asks to set its values ("## User Configuration
    (customize before use)", "## Paths (edit these)"): the author's settings, to be replaced (the same path written
    elsewhere in the body is still reported); nor a path in a block that shows what a command prints ("The returned
    JSON looks like this:", "Sample output:", "This will produce a preview …:", "… which produces", or in Japanese or Chinese a line naming the output or result
    (`**診断結果**:`, "diagnosis result") before an untagged, `json` or `text` block, or such a block opening with
    what a program prints: `Error:`, `fatal:`, `Traceback (most recent call last)`, `Warning:`, `panic:`, or the status
    mark a diagnostic prints before a result, `❌` / `✅` / `⚠` / `✔` / `✓` / `✗`): the agent reads the real path from its
    own run; nor a path shown as the absolute-path form beside others, under a label naming it at the start of its
    line, of the short line above it or of the line introducing its block ("✅ 绝对路径：`![](/Users/bruce/photo.jpg)`",
    "# 方案2: 绝对路径", "**示例 2：绝对路径**", "- Absolute path: `/Users/bob/cover.jpg`", "Full filesystem path:"; not
    "Full path to the vault: …").
    nor a made-up person's home (`alice`, `bob`, `jdoe`, …) on a line shown as an example, in a section whose
    heading or under a bold label that names an example ("**Service Planning Examples**", a heading "Example — two
    services"), wherever that name appears (the author's illustration of a path the user gives). Anywhere else a
    realistic example name such as `alice` is reported (except inside a quoted request, the words a made-up user says:
    `- "Summarise /Users/bob/Downloads/q3.pdf"`; not a quoted path alone, `"/Users/bob/q3.pdf"`) (the agent cannot tell an illustration from the path to
    use), and so is a real user name under an example label (`/Users/redam94/…` under a heading "Example Commands").
    Nor is a path on the user's turn of a sample dialogue (`User: Custom path → /home/ahmed/old-assistant` within six
    lines of an `Agent:` / `Assistant:` / `Claude:` turn): what a user types, not a path the agent uses.

    ## Why is this bad?
    The path worked on the author's machine only. Installed anywhere else, the agent tries to read
    or run a file that is not there, or, worse, writes to a folder of that name, and the skill
    leaks the author's user name.

    ## Example
    ```markdown
    Run `python /Users/alice/skills/pdf-tools/scripts/fill_form.py input.pdf`.
    ```

    Use instead:
    ```markdown
    Run `python scripts/fill_form.py input.pdf` (relative to this skill's folder).
    ```

    ## Fix
    Use a path relative to the skill folder for bundled files, `~/` or `$HOME` for files in the
    user's home, or a placeholder the agent is told to fill in (`<project-dir>`).
    """
    candidates = _candidate_lines(doc)
    declared = _declared_names(doc, candidates) if candidates else frozenset()
    for ln in candidates:
        line = doc.lines[ln]
        container = "docker" in line or "podman" in line or "nerdctl" in line
        container = container and _CONTAINER.search(line) is not None
        remote = _remote_spans(line) if "ssh" in line else []
        copying = ":" in line and _COPY_COMMAND.search(line) is not None  # (once per line, not once per path)
        user_turn: bool | None = None
        for m in _HOME.finditer(line):
            if _generic(m.group("name")) or _in_container(line, m.start(), container) or m.group("name") in declared \
                    or m.group("name").lower() in declared:
                continue
            if remote and _in_spans(remote, m.start()):
                continue  # `ssh WP-CPANEL "bash -s /home/quanzar/public_html"`: a path on the remote host
            if copying and m.start() and line[m.start() - 1] == ":" and _copy_target(line, m.start() - 1):
                continue  # `scp build.tgz seo-server:/home/seoagent/public_html/`: the path on the remote host
            if not m.group("rest") and _regex_flags(m.group("name")) and m.group("root").startswith("/"):
                continue  # `{ name: /home/i }`: a JavaScript regex literal and its flags, not a user's home
            if not m.group("rest") and _file_name(m.group("name")):
                continue  # `"/Users/photo.png"`: a file placed in the root of homes, a made-up path, no user's
            if _elided(m.group("rest")):
                continue  # `/Users/jp/.../.worktrees/<branch>`: an elided example, a path on no machine
            if _sample_output(doc, ln) or _absolute_form_example(doc, ln) or _under_settings(doc.headings, ln):
                break
            if user_turn is None:
                user_turn = _user_turn(doc.lines, ln)  # (once per line: a line can hold 10^5 paths)
            if user_turn:
                break
            end = m.end()
            while end > m.start() and line[end - 1] in ".:":  # sentence punctuation after the path
                end -= 1
            if line[end - 1:end + 1] == '\\"':  # `"File \"/Users/al/x.py\", line 4"`: JSON's escaped quote ends it
                end -= 1
            quote = line[m.start() - 1:m.start()] if m.start() else ""
            if quote in ("\"", "'", "`") and line[end:end + 1] == " ":  # "/home/ana/Área de Trabalho/x": to the quote
                # (or the code span's closing backtick: `/Users/w/Journal/make Anki cards`)
                close = line.find(quote, end, end + QUOTED_MAX)
                if close > 0:
                    end = close
            path = line[m.start():end]
            shown = path if len(path) <= 60 else path[:59] + "…"
            yield ctx.finding(Range(Pos(ln, m.start()), Pos(ln, end)),
                              f"`{shown}` is a path in the home folder of `{m.group('name')}`; it exists on"
                              " no other machine: use a path relative to the skill, `~/` or a placeholder")
