"""A scripted router and improvers for the fake Messages API (fakeapi.FakeAPI.responder).

The router reads the skill list from the request's system text and loads `pdf-tools` when the user's
message shares at least `THRESHOLD` words with its description there; the improver plays one of two
policies; every improver request is recorded for the leak check.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

from fakeapi import Scripted, json_reply, status, text_reply, tool_use

ME = "pdf-tools"
THRESHOLD = 2
STOP = {"the", "and", "use", "when", "this", "that", "from", "with", "for", "user", "asks", "about", "into",
        "says", "mentions", "only", "these", "requests", "are", "its", "a", "an", "to", "of", "in", "on", "my",
        "me", "it", "is", "or", "be", "by", "please", "can", "you", "help"}

ORIGINAL = "Work with PDF tables and documents. Use when the user mentions a PDF."
GOOD = ("Work with PDF files: read tables and documents, merge, split, rotate or fill forms, OCR scanned "
        "pages and receipts. Use when the user has a PDF to process.")
SKILL = f"""---
name: pdf-tools
description: {ORIGINAL}
license: MIT
---

# PDF tools

1. Run `pdftotext input.pdf out.txt` to read the text.
2. Merge with `qpdf --empty --pages a.pdf b.pdf -- out.pdf`.
"""

# A: the original routes them (pdf + tables/documents); B: only GOOD does (pdf + merge/split/...)
POS_A = ["extract the tables in q1.pdf", "read documents inside contract.pdf", "pdf tables to csv please",
         "compare tables across two pdf reports", "index the documents of archive.pdf"]
POS_B = ["merge a.pdf and b.pdf", "split the pdf into chapters", "rotate pages of slides.pdf",
         "fill the forms in tax.pdf", "ocr the scanned receipts pdf"]
NEG = ["convert notes.docx to markdown", "summarise this email thread", "write a python csv parser",
       "resize the png screenshots", "translate the readme to french", "lint the javascript tables module",
       "draft a blog post about documents", "rename files in the downloads folder",
       "explain the merge conflict in git", "set up a cron job for backups",
       "merge chapters of my novel draft", "make slides about tax chapters"]


def rows() -> list[dict]:
    return ([{"prompt": p, "should_trigger": True} for p in POS_A + POS_B]
            + [{"prompt": p, "should_trigger": False} for p in NEG])


def words(text: str) -> set[str]:
    return {w for w in re.findall(r"[a-z]+", text.lower()) if w not in STOP and len(w) > 1}


def system_text(body: dict[str, Any]) -> str:
    s = body.get("system") or []
    return s if isinstance(s, str) else "\n".join(b.get("text", "") for b in s if isinstance(b, dict))


def user_text(body: dict[str, Any]) -> str:
    c = body["messages"][0]["content"]
    return c if isinstance(c, str) else json.dumps(c)


def listed_description(system: str, name: str = ME) -> str:
    m = re.search(rf"^- {re.escape(name)}: (.*)$", system, re.M)
    return m.group(1) if m else ""


def routes(prompt: str, description: str) -> bool:
    return len(words(prompt) & words(description)) >= THRESHOLD


def quoted(text: str, heading: str) -> list[str]:
    """The quoted messages listed under `heading` in an improver request."""
    if heading not in text:
        return []
    block = text.split(heading, 1)[1].split("\n\n", 1)[0]
    return re.findall(r'^- "(.*)" \(', block, re.M)


class OptResponder:
    """improver(user_text, description) -> the new description; the replies are JSON {description, why}."""

    def __init__(self, improver: Callable[[str], str] | None = None, *, threshold: int = THRESHOLD) -> None:
        self.improver = improver or (lambda _t: GOOD)
        self.threshold = threshold
        self.improver_requests: list[dict[str, Any]] = []
        self.route_requests = 0

    def __call__(self, body: dict[str, Any]) -> Scripted:
        if body.get("tools"):
            self.route_requests += 1
            desc = listed_description(system_text(body))
            prompt = user_text(body)
            return tool_use("Skill", {"skill": ME}) if len(words(prompt) & words(desc)) >= self.threshold \
                else text_reply("I can do that directly.")
        if "You improve the `description` of an Agent Skill" in system_text(body):
            self.improver_requests.append(body)
            return json_reply({"description": self.improver(user_text(body)), "why": "scripted"})
        return status(500, message="unexpected request")


def helpful(_text: str) -> str:
    return GOOD


class Overfit:
    """Memorises every missed train message it is shown and lists them as the description: train passes,
    the original's general words are gone, and unseen near misses that share the memorised words fire."""

    def __init__(self) -> None:
        self.memo: list[str] = []

    def __call__(self, text: str) -> str:
        for m in quoted(text, "Missed (should have loaded the skill, did not):"):
            if m not in self.memo:
                self.memo.append(m)
        return "Use when the user says: " + "; ".join(self.memo) + ". Only these exact requests."
