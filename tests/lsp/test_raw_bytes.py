"""Messages whose bodies are not valid UTF-8 (Neovim sends a buffer's bytes as they are).

A raw JSON-RPC client over the real server's stdio: pytest-lsp's client can only send valid JSON text.
"""

from __future__ import annotations

import json
import queue
import subprocess
import threading
import time
from pathlib import Path

from lsp_helpers import SERVER, uri


class RawClient:
    def __init__(self, cwd: Path) -> None:
        self.proc = subprocess.Popen([*SERVER, "--stdio"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, cwd=cwd)
        self.next_id = 0
        self.inbox: queue.Queue = queue.Queue()
        threading.Thread(target=self._read_loop, daemon=True).start()

    def send(self, body: bytes) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.proc.stdin.flush()

    def message(self, method: str, params: dict, *, request: bool = False) -> int | None:
        msg: dict = {"jsonrpc": "2.0", "method": method, "params": params}
        if request:
            self.next_id += 1
            msg["id"] = self.next_id
        self.send(json.dumps(msg).encode())
        return msg.get("id")

    def _read_loop(self) -> None:
        out = self.proc.stdout
        assert out is not None
        length = 0
        while True:
            line = out.readline()
            if not line:
                return
            if line.lower().startswith(b"content-length:"):
                length = int(line.split(b":")[1])
            elif line == b"\r\n":
                self.inbox.put(json.loads(out.read(length)))

    def until(self, pred, timeout: float = 20.0) -> tuple[dict, list[dict]]:
        seen = []
        end = time.monotonic() + timeout
        while True:
            try:
                m = self.inbox.get(timeout=max(0.0, end - time.monotonic()))
            except queue.Empty:
                raise AssertionError(f"no matching message in {timeout} s; saw {seen}") from None
            seen.append(m)
            if pred(m):
                return m, seen


def test_invalid_utf8_in_a_change_keeps_the_document_in_step(tmp_path: Path) -> None:
    skill = tmp_path / "raw-bytes"
    skill.mkdir()
    text = "---\nname: raw-bytes\ndescription: Use when testing raw bytes in editor messages.\n---\n# T\n"
    (skill / "SKILL.md").write_text(text)
    u = uri(skill / "SKILL.md")
    c = RawClient(tmp_path)
    try:
        rid = c.message("initialize", {"processId": None, "rootUri": uri(tmp_path), "capabilities": {},
                                       "initializationOptions": {"debounceMs": 0}}, request=True)
        c.until(lambda m: m.get("id") == rid)
        c.message("initialized", {})
        c.message("textDocument/didOpen", {"textDocument": {"uri": u, "languageId": "markdown", "version": 1,
                                                            "text": text}})
        c.until(lambda m: m.get("method") == "textDocument/publishDiagnostics")
        # v2: a line holding a byte that is not UTF-8, then an untagged (empty) code block
        change = {"range": {"start": {"line": 5, "character": 0}, "end": {"line": 5, "character": 0}},
                  "text": "@@@\n```\n```\n"}
        body = json.dumps({"jsonrpc": "2.0", "method": "textDocument/didChange", "params": {
            "textDocument": {"uri": u, "version": 2}, "contentChanges": [change]}}).encode()
        c.send(body.replace(b"@@@", b"\xe9\xff x"))

        def published(version: int):
            return lambda m: (m.get("method") == "textDocument/publishDiagnostics"
                              and m["params"].get("version") == version)

        pub, seen = c.until(published(2))
        assert not [m for m in seen if m.get("method") == "window/showMessage"
                    and m["params"]["type"] == 1], seen
        diags = pub["params"]["diagnostics"]
        assert ("CODE_BLOCK_UNTAGGED", 6) in [(d["code"], d["range"]["start"]["line"]) for d in diags]
        # v3: an edit after the two invalid bytes on their line (each counts as one code unit)
        c.message("textDocument/didChange", {"textDocument": {"uri": u, "version": 3}, "contentChanges": [
            {"range": {"start": {"line": 5, "character": 3}, "end": {"line": 5, "character": 4}},
             "text": "y"},
            {"range": {"start": {"line": 6, "character": 3}, "end": {"line": 6, "character": 3}},
             "text": "python"}]})
        pub, _ = c.until(published(3))
        assert "CODE_BLOCK_UNTAGGED" not in [d["code"] for d in pub["params"]["diagnostics"]]
        rid = c.message("workspace/executeCommand", {"command": "skillgrade.report", "arguments": [u]},
                        request=True)
        report, _ = c.until(lambda m: m.get("id") == rid)
        assert report["result"]["skill"]["path"].endswith("SKILL.md")
        rid = c.message("shutdown", None, request=True)
        c.until(lambda m: m.get("id") == rid)
        c.message("exit", None)
        assert c.proc.wait(10) == 0
    finally:
        if c.proc.poll() is None:
            c.proc.kill()
