"""Layer 1: the methodology's static sub-scores, computed on the parsed document (defects fixed; see docs/scoring.md)."""

from __future__ import annotations

import re
from dataclasses import dataclass

from . import rx
from .document import SkillDocument
from .findings import Finding
from .measures import directives
from .rules._helpers import explicit_trigger, usage_context
from .rules.code.code_block_invalid import invalid_blocks
from .rules.description._text import description, own_name_as_this_skill
from .rules.description.missing_trigger import exempt
from .rules.links._classify import is_cross_ref, link_targets, prose_cross_refs, resolve_cross

# sub-score -> dimension (the reference's STATIC_TO_DIMENSION, plus code_template_quality)
STATIC_TO_DIMENSION = {
    "frontmatter_quality": "triggering_accuracy",
    "orchestration_wiring": "orchestration_fitness",
    "progressive_disclosure": "progressive_disclosure",
    "structural_completeness": "structural_completeness",
    "token_efficiency": "token_efficiency",
    "ecosystem_coherence": "ecosystem_coherence",
    "code_template_quality": "code_template_quality",
}

_PROACTIVE = rx.compile(r"\bproactively\b", re.I)
_NEGATIVE_SCOPE = rx.compile(r"\b(?:do\s+not|don['’]t|not\s+for|never)\s+(?:use|trigger|invoke)\b|\bnot\s+for\b", re.I)
_USE_CASES = rx.compile(
    r",\s*(?:or\s+)?(?:when|for|during|implementing|building|creating|debugging|testing|deploying|configuring"
    r"|setting up|reviewing|writing|editing|analy[sz]ing)",
    re.I,
)
_CONTEXTS = rx.compile(r"\b(when\s+\w+ing|for\s+\w+ing|during\s+\w+ing)\b", re.I)
# a line that states an output format: "output … format", "format … output", "return(s) … json".
# Checked as (first word, later word) pairs: the regex `\boutput\b.*\bformat\b|…` re-scanned the rest of
# the line from every "output" when no "format" followed (90 s on "output " * 20,000).
_OUTPUT_FORMAT = tuple((rx.compile(rf"\b{a}\b"), rx.compile(rf"\b{b}\b"))
                       for a, b in (("output", "format"), ("format", "output"), ("returns?", "json")))
_ORCH_VERB = rx.compile(r"\b(?:orchestrat\w*|coordinat(?:e|es|ing)|dispatch(?:es|ing)?|delegat(?:e|es|ing)|spawn(?:s|ing)?)\b")
_ORCH_OBJECT = rx.compile(r"\b(?:sub-?agents?|agents?|workers?|other\s+skills?|skills)\b")


def _has_word(text: str, stems: tuple[str, ...], suffixes: tuple[str, ...] = ("",), whole: bool = True) -> bool:
    """Word search by str.find (an order of magnitude faster than an alternation regex).

    A stem must start a word; with whole=True it must also end one after one of the suffixes.
    """
    n = len(text)
    for stem in stems:
        i = text.find(stem)
        while i >= 0:
            if i == 0 or not (text[i - 1].isalnum() or text[i - 1] == "_"):
                if not whole:
                    return True
                j = i + len(stem)
                for suf in suffixes:
                    if text.startswith(suf, j):
                        k = j + len(suf)
                        if k >= n or not (text[k].isalnum() or text[k] == "_"):
                            return True
            i = text.find(stem, i + 1)
    return False


def _orchestrates_agents(prose: str) -> bool:
    """Prose about orchestrating other agents: the verb and an agent noun in one clause."""
    for stem in ("orchestrat", "coordinat", "dispatch", "delegat", "spawn"):
        i = prose.find(stem)
        while i >= 0:  # str.find, then the regex only where a verb can start (10x faster than finditer)
            m = _ORCH_VERB.match(prose, i)
            if m:
                lo = max(prose.rfind(".", 0, i), prose.rfind("\n", 0, i), i - 40)
                hi_candidates = [k for k in (prose.find(".", m.end()), prose.find("\n", m.end())) if k >= 0]
                hi = min([*hi_candidates, m.end() + 45])
                if _ORCH_OBJECT.search(prose, max(lo, 0), hi):
                    return True
            i = prose.find(stem, i + 1)
    return False


_EXAMPLES = rx.compile(r"^(?:\d+[.)]?\s*)?(examples?|usage|sample|worked example|quick ?start)", re.I)
_TROUBLE = rx.compile(r"troubleshoot|common (?:issues|problems|mistakes|errors)|faq|pitfalls?|edge cases?|"
                      r"gotchas?|failure modes?|errors?\b|when things go wrong|known issues|limitations", re.I)
_DECISION = rx.compile(r"decision|when to use|comparison|trade-?off")
_SEPARATOR = rx.compile(r"^[\s|:\-=*_#>`~+]*$")
_SEPARATOR_CHARS = frozenset("|:-=*_#>`~+")  # what a stripped separator line can start with


@dataclass(frozen=True, slots=True)
class StaticResult:
    sub_scores: dict[str, float | None]
    measurements: dict[str, float | int]

    def dimension_scores(self) -> dict[str, float]:
        return {STATIC_TO_DIMENSION[k]: v for k, v in self.sub_scores.items() if v is not None}


def _clamp(x: float) -> float:
    return max(0.0, min(1.0, x))


def pushiness(desc: str, doc: SkillDocument) -> float:
    """The reference's _description_pushiness, normalised to 0..1, without rewarding keyword stuffing."""
    pts = 0.0
    # "Use <own name> to …" is "Use this skill to …", as MISSING_TRIGGER / WEAK_TRIGGER read it
    if explicit_trigger(own_name_as_this_skill(desc, doc)) or exempt(doc):
        pts += 0.25
    elif usage_context(desc):
        pts += 0.15
    if _PROACTIVE.search(desc):
        pts += 0.15
    if _NEGATIVE_SCOPE.search(desc):
        pts += 0.10  # says when NOT to use it: discrimination (replaces the reference's keyword list)
    n = len(_USE_CASES.findall(desc))
    pts += 0.20 if n >= 3 else 0.10 if n >= 1 else 0.0
    if _CONTEXTS.search(desc):
        pts += 0.15
    if len(desc.strip()) >= 40:
        pts += 0.10
    return min(1.0, pts / 0.95)


def frontmatter_quality(doc: SkillDocument) -> float:
    fm = doc.frontmatter
    if not fm.ok or fm.root_kind != "mapping":
        return 0.0
    score = 0.0
    name = fm.get("name")
    if name is not None and isinstance(name.value, str) and name.value.strip():
        matches = doc.skill_dir is None or name.value == doc.skill_dir.name
        score += 0.15 if matches else 0.10  # fixed: a name equal to its directory never scores lower
    _, desc = description(doc)
    desc = desc or ""
    n = len(desc.strip())
    score += 0.25 if n >= 100 else 0.20 if n >= 60 else 0.15 if n >= 30 else 0.05 if n >= 10 else 0.0
    score += 0.60 * pushiness(desc, doc)
    return _clamp(score)


def _states_format(line: str) -> bool:
    """One of _OUTPUT_FORMAT's first words, then its later word further on the line (linear)."""
    for first, later in _OUTPUT_FORMAT:
        m = first.search(line)
        if m and later.search(line, m.end()):
            return True
    return False


def _may_state_format(text: str) -> bool:
    """Both words of one of _OUTPUT_FORMAT's patterns occur (a cheap filter before the regex)."""
    return ("output" in text and "format" in text) or ("return" in text and "json" in text)


def orchestration_wiring(doc: SkillDocument) -> float:
    prose = doc.prose_lower
    score = 0.70
    # same-line patterns: only lines that mention both words can match (and only if the prose does)
    candidates = (ln for ln in prose.split("\n") if _may_state_format(ln)) if _may_state_format(prose) else ()
    if any(_states_format(ln) for ln in candidates) or any(
        _states_format(h.text.lower()) for h in doc.headings
    ):
        score += 0.10
    if _has_word(prose, ("return", "produce", "output", "generate"), ("s", "")):
        score += 0.05
    if _has_word(prose, ("input", "receive", "accept", "parameter", "arg", "argument"), ("s", "")):
        score += 0.10
    if len(doc.code_blocks) >= 2:
        score += 0.05
    if _orchestrates_agents(prose):
        score -= 0.15  # only prose about orchestrating other agents, not "GPS coordinates"
    return _clamp(score)


def progressive_disclosure(doc: SkillDocument) -> float:
    lines = doc.line_count
    refs = doc.files.non_empty_under("references")
    if 200 <= lines <= 600:
        base = 0.60
    elif 100 <= lines < 200:
        base = 0.50
    elif 600 < lines <= 800:
        base = 0.40
    elif lines < 100:
        base = 0.50 if refs else 0.20  # a short SKILL.md that defers to references/ is not a stub
    else:
        base = 0.15
    if refs:
        base += 0.25 if lines > 400 else 0.15
    if doc.files.non_empty_under("assets"):
        base += 0.15
    return _clamp(base)


def structural_completeness(doc: SkillDocument) -> float:
    h = sum(1 for x in doc.headings if x.level in (2, 3))
    score = 0.20 if h >= 6 else 0.15 if h >= 4 else 0.10 if h >= 2 else 0.0
    blocks = len(doc.code_blocks)
    score += 0.20 if blocks >= 5 else 0.15 if blocks >= 3 else 0.10 if blocks >= 1 else 0.0
    langs = {b.language for b in doc.code_blocks if b.language}
    score += 0.15 if len(langs) >= 3 else 0.10 if len(langs) >= 2 else 0.0
    if any(_EXAMPLES.match(x.text) for x in doc.headings):
        score += 0.15
    if any(_TROUBLE.search(x.text) for x in doc.headings):
        score += 0.15
    if doc.tables:
        score += 0.10
    prose = doc.prose_lower
    decision = any(w in prose for w in ("decision", "when to use", "comparison", "trade")) and _DECISION.search(prose)
    if decision or any(_DECISION.search(x.text.lower()) for x in doc.headings):
        score += 0.05
    return _clamp(score)


def token_efficiency(doc: SkillDocument) -> tuple[float, float, int]:
    lines = max(1, doc.line_count)
    n_dir = len(directives(doc))
    density = n_dir / lines
    score = 1.0
    if density > 0.5:
        score -= 0.4
    elif density > 0.2:
        score -= 0.2
    elif density > 0.1:
        score -= 0.1
    # repetition over prose lines: fences, code, table separators and rules are structure, not repetition
    # (a line whose first character cannot be a separator's is not matched against the pattern)
    texts = [t for t in (p.text.strip() for p in doc.prose)
             if len(t) > 3 and (t[0] not in _SEPARATOR_CHARS or not _SEPARATOR.match(t))]
    ratio = 1 - len(set(texts)) / len(texts) if texts else 0.0
    score -= 0.4 * ratio
    return _clamp(score), ratio, n_dir


def live_cross_refs(doc: SkillDocument) -> int:
    n = 0
    for t in link_targets(doc):  # the links with a relative path (found once per document)
        p = t.path
        stripped = p[2:] if p.startswith("./") else p
        if not (p.startswith("../") or stripped.startswith(("skills/", "agents/"))):
            continue
        res = resolve_cross(doc, p)
        if res.exists and (is_cross_ref(res.rel) or stripped.startswith(("skills/", "agents/"))
                           or p.startswith("../")):
            n += 1
    for t in prose_cross_refs(doc):
        if resolve_cross(doc, t.path).exists:
            n += 1
    return n


def _related(text: str) -> bool:
    """`related`, `see also`, `companion` as words, or a word starting with `complement`."""
    return _has_word(text, ("related", "see also", "companion")) or _has_word(text, ("complement",), whole=False)


def ecosystem_coherence(doc: SkillDocument) -> tuple[float, int]:
    live = live_cross_refs(doc)
    score = 0.50 + min(0.25, 0.08 * live)  # fixed: dead references earn nothing
    if _related(doc.prose_lower) or any(_related(h.text.lower()) for h in doc.headings):
        score += 0.25
    return _clamp(score), live


def code_template_quality(doc: SkillDocument) -> float | None:
    """New static sub-score: tagged and parseable code blocks. None (unmeasured) without code."""
    fenced = [b for b in doc.code_blocks if b.fenced]
    if not fenced:
        return None
    tagged = sum(1 for b in fenced if b.info) / len(fenced)
    checkable = [b for b in fenced if b.language in ("python", "py", "python3", "json", "yaml", "yml", "toml")]
    if not checkable:
        return _clamp(tagged)
    bad = sum(1 for _ in invalid_blocks(doc))
    parseable = 1 - bad / len(checkable)
    return _clamp(0.5 * tagged + 0.5 * parseable)


def analyze_static(doc: SkillDocument, findings: list[Finding] | None = None) -> StaticResult:
    te, ratio, n_dir = token_efficiency(doc)
    eco, live = ecosystem_coherence(doc)
    subs: dict[str, float | None] = {
        "frontmatter_quality": round(frontmatter_quality(doc), 4),
        "orchestration_wiring": round(orchestration_wiring(doc), 4),
        "progressive_disclosure": round(progressive_disclosure(doc), 4),
        "structural_completeness": round(structural_completeness(doc), 4),
        "token_efficiency": round(te, 4),
        "ecosystem_coherence": round(eco, 4),
    }
    ctq = code_template_quality(doc)
    subs["code_template_quality"] = round(ctq, 4) if ctq is not None else None
    measurements = {
        "lines": doc.line_count,
        "body_lines": doc.body_line_count,
        "headings": len(doc.headings),
        "code_blocks": len(doc.code_blocks),
        "directives": n_dir,
        "repetition_ratio": round(ratio, 4),
        "live_cross_refs": live,
        "reference_files": len(doc.files.under("references")),
    }
    return StaticResult(subs, measurements)
