"""`rulelang lsp` under hostile frames: a huge Content-Length, invalid params, a NUL byte in a `based on` path.

Raw frames over a subprocess's standard input, so that what no well-behaved
client would send can be sent; every answer is awaited with a time bound.
"""
from __future__ import annotations

import json
import os
import queue
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("pygls")

from rulelang.lsp.server import EXIT_BROKEN, MAX_FRAME  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
BOUND = 60.0  # seconds to wait for one answer


class RawClient:
    """`rulelang lsp` in a subprocess, spoken to in raw frames."""

    def __init__(self) -> None:
        env = dict(os.environ, PYTHONPATH=str(ROOT))
        self.proc = subprocess.Popen([sys.executable, "-m", "rulelang", "lsp"], cwd=ROOT, env=env,
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        self.messages: queue.Queue[Any] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        out = self.proc.stdout
        assert out is not None
        while True:
            length = None
            while True:
                line = out.readline()
                if not line:
                    return
                if line.lower().startswith(b"content-length:"):
                    length = int(line.split(b":")[1])
                if line in (b"\r\n", b"\n"):
                    break
            self.messages.put(json.loads(out.read(length or 0)))

    def raw(self, data: bytes) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(data)
        self.proc.stdin.flush()

    def send(self, message: dict[str, Any]) -> None:
        body = json.dumps({"jsonrpc": "2.0", **message}).encode()
        self.raw(b"Content-Length: %d\r\n\r\n" % len(body) + body)

    def answer(self, msg_id: int) -> dict[str, Any]:
        """The reply to request MSG_ID (notifications met on the way are kept aside)."""
        while True:
            message = self.messages.get(timeout=BOUND)
            if message.get("id") == msg_id and "method" not in message:
                return message

    def notification(self, method: str) -> dict[str, Any]:
        while True:
            message = self.messages.get(timeout=BOUND)
            if message.get("method") == method:
                return message

    def initialize(self, root: Path) -> None:
        self.send({"id": 1, "method": "initialize", "params": {"capabilities": {}, "rootUri": root.as_uri()}})
        assert "result" in self.answer(1)
        self.send({"method": "initialized", "params": {}})

    def close(self) -> tuple[int, str]:
        """Shut the server down; its exit status and standard error."""
        try:
            self.send({"id": 999, "method": "shutdown"})
            self.send({"method": "exit"})
            self.proc.stdin.close()  # type: ignore[union-attr]
        except OSError:
            pass
        try:
            self.proc.wait(timeout=BOUND)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        return self.proc.returncode, self.proc.stderr.read().decode("utf-8", "replace")  # type: ignore[union-attr]


@pytest.fixture
def client():
    c = RawClient()
    yield c
    if c.proc.poll() is None:
        c.proc.kill()
        c.proc.wait()


def test_a_frame_over_the_bound_is_skipped_and_the_server_goes_on(client, tmp_path):
    client.raw(b"Content-Length: %d\r\n\r\n" % (MAX_FRAME + 1) + b"x" * (MAX_FRAME + 1))
    client.initialize(tmp_path)  # answered: the server skipped the frame and stayed in step
    code, stderr = client.close()
    assert code == 0 and "refused a message" in stderr and "MemoryError" not in stderr


def test_a_huge_content_length_is_no_memory_error():
    res = subprocess.run([sys.executable, "-m", "rulelang", "lsp"], cwd=ROOT, input=b"Content-Length: 99999999999\r\n\r\n{}",
                         capture_output=True, timeout=BOUND)
    assert res.returncode == EXIT_BROKEN, res.stderr
    assert b"a message of 99,999,999,999 bytes" in res.stderr and b"MemoryError" not in res.stderr
    assert b"Traceback" not in res.stderr


def test_a_content_length_past_any_message_ends_the_server_so_the_editor_restarts_it(client, tmp_path):
    """Read through, that frame would swallow every later message while the server stayed alive, deaf: the
    server says the stream is broken and exits with an error, the input still open."""
    client.raw(b"Content-Length: 99999999999\r\n\r\n")
    client.send({"id": 1, "method": "initialize", "params": {"capabilities": {}, "rootUri": tmp_path.as_uri()}})
    code = client.proc.wait(timeout=BOUND)  # not a hang: stdin stays open, so only the server can end this
    stderr = client.proc.stderr.read().decode()  # type: ignore[union-attr]
    assert code == EXIT_BROKEN and "the input stream is broken" in stderr and "Traceback" not in stderr


def test_a_request_with_a_negative_position_gets_an_error_reply(client, tmp_path):
    client.initialize(tmp_path)
    uri = (tmp_path / "club.rules").as_uri()
    text = 'ruleset club "Club"\nsource "ours"\nbased on allfives\n'
    client.send({"method": "textDocument/didOpen",
                 "params": {"textDocument": {"uri": uri, "languageId": "rulelang", "version": 1, "text": text}}})
    client.send({"id": 2, "method": "textDocument/hover",
                 "params": {"textDocument": {"uri": uri}, "position": {"line": -1, "character": -5}}})
    reply = client.answer(2)
    assert reply["error"]["code"] == -32602  # invalid params
    client.send({"id": 3, "method": "textDocument/hover",
                 "params": {"textDocument": {"uri": uri}, "position": {"line": 2, "character": 1}}})
    assert "result" in client.answer(3)  # and the server goes on
    assert client.close()[0] == 0


def test_hover_on_a_text_based_on_a_path_with_a_nul_byte(client, tmp_path):
    client.initialize(tmp_path)
    uri = (tmp_path / "nul.rules").as_uri()
    text = 'ruleset x "x"\nsource "s"\nbased on "a\x00b.rules"\n'
    client.send({"method": "textDocument/didOpen",
                 "params": {"textDocument": {"uri": uri, "languageId": "rulelang", "version": 1, "text": text}}})
    [diagnostic] = client.notification("textDocument/publishDiagnostics")["params"]["diagnostics"]
    assert diagnostic["code"] == "unknown-base" and "NUL byte" in diagnostic["message"]
    client.send({"id": 2, "method": "textDocument/hover",
                 "params": {"textDocument": {"uri": uri}, "position": {"line": 2, "character": 1}}})
    reply = client.answer(2)
    assert "error" not in reply, reply
    assert client.close()[0] == 0
