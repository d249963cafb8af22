"""On-disk reply cache: one JSON file per request, keyed by a sha256 of the exact request.

The key covers everything that changes a reply (`Request.cache_payload()`: model, prompts, prompt version,
schema, tools, salt) plus the endpoint's identity (its base URL), never the API key. Writes are atomic
(temporary file + rename); an unreadable or corrupt entry is a miss, never an error.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from .types import Reply, ToolCall, Usage

FORMAT = 1  # bump when the entry layout changes: old entries then miss instead of misparsing


def default_cache_dir(env: Mapping[str, str] | None = None) -> Path:
    """`$XDG_CACHE_HOME/skillgrade/llm`, else `~/.cache/skillgrade/llm` (`%LOCALAPPDATA%` on Windows)."""
    env = os.environ if env is None else env
    base = env.get("XDG_CACHE_HOME")
    if not base and os.name == "nt":
        base = env.get("LOCALAPPDATA")
    root = Path(base) if base else Path(os.path.expanduser("~")) / ".cache"
    return root / "skillgrade" / "llm"


def cache_key(payload: Mapping[str, Any], endpoint: str) -> str:
    blob = json.dumps({"format": FORMAT, "endpoint": endpoint, "request": payload},
                      sort_keys=True, separators=(",", ":"), ensure_ascii=False, default=str)
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()


def reply_to_json(reply: Reply) -> dict[str, Any]:
    return {
        "text": reply.text, "parsed": reply.parsed,
        "tool_calls": [{"name": t.name, "input": t.input} for t in reply.tool_calls],
        "usage": {"input_tokens": reply.usage.input_tokens, "output_tokens": reply.usage.output_tokens,
                  "cache_creation_input_tokens": reply.usage.cache_creation_input_tokens,
                  "cache_read_input_tokens": reply.usage.cache_read_input_tokens},
        "model": reply.model, "stop_reason": reply.stop_reason, "latency_s": reply.latency_s,
    }


def reply_from_json(data: Any) -> Reply | None:
    """The cached reply, or None when `data` is not a well-formed entry."""
    try:
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            return None
        r = data["reply"]
        u = r["usage"]
        usage = Usage(*(int(u[k]) for k in ("input_tokens", "output_tokens", "cache_creation_input_tokens",
                                            "cache_read_input_tokens")))
        calls = tuple(ToolCall(str(t["name"]), dict(t["input"])) for t in r["tool_calls"])
        if not isinstance(r["text"], str) or not isinstance(r["model"], str):
            return None
        stop = r["stop_reason"]
        return Reply(text=r["text"], parsed=r["parsed"], tool_calls=calls, usage=usage, model=r["model"],
                     stop_reason=stop if isinstance(stop, str) else None, latency_s=float(r["latency_s"]),
                     cached=True)
    except (KeyError, TypeError, ValueError, AttributeError):
        return None


class Cache:
    """A directory of `<aa>/<sha256>.json` entries."""

    def __init__(self, directory: str | os.PathLike[str]) -> None:
        self.directory = Path(directory).expanduser()

    def __repr__(self) -> str:
        return f"Cache({str(self.directory)!r})"

    def path(self, key: str) -> Path:
        return self.directory / key[:2] / f"{key}.json"

    def get(self, key: str) -> Reply | None:
        try:
            with self.path(key).open("rb") as fh:
                data = json.loads(fh.read())
        except (OSError, ValueError, UnicodeDecodeError, RecursionError):
            return None
        return reply_from_json(data)

    def delete(self, key: str) -> None:
        try:
            self.path(key).unlink()
        except OSError:
            pass

    def put(self, key: str, reply: Reply, *, kind: str = "") -> bool:
        """Store `reply`; False (and nothing written) when the directory is not writable."""
        entry = {"format": FORMAT, "kind": kind, "reply": reply_to_json(reply)}
        target = self.path(key)
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(prefix=".tmp-", suffix=".json", dir=target.parent)
            try:
                with os.fdopen(fd, "w", encoding="utf-8") as fh:
                    json.dump(entry, fh, ensure_ascii=False)
                os.replace(tmp, target)
            except BaseException:
                try:
                    os.unlink(tmp)
                except OSError:
                    pass
                raise
        except (OSError, TypeError, ValueError):
            return False
        return True
