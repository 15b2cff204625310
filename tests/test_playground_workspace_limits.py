"""The playground under a hostile workspace and hostile requests: a FIFO, a NUL byte, deep JSON, a bug.

Every request here must be answered within seconds whatever the workspace
holds; a request that would block is run in a thread with a time bound, so a
regression fails the test instead of hanging the suite.
"""
from __future__ import annotations

import os
import threading
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
from starlette.testclient import TestClient  # noqa: E402

from rulelang.playground import create_app  # noqa: E402

BOUND = 10.0  # seconds any request here may take
HEADER = 'ruleset club "Club"\nsource "ours"\n'


@pytest.fixture
def workspace(tmp_path: Path):
    ws = tmp_path / "ws"
    ws.mkdir()
    (ws / "club.rules").write_text(HEADER + "based on allfives\n", encoding="utf-8")
    fifo = ws / "fifo.rules"
    os.mkfifo(fifo)
    yield ws
    _unblock(fifo)


def _unblock(fifo: Path) -> None:
    """Give any reader or writer still waiting on the FIFO its end, so that no thread is left blocked."""
    for flags in (os.O_WRONLY | os.O_NONBLOCK, os.O_RDONLY | os.O_NONBLOCK):
        try:
            os.close(os.open(fifo, flags))
        except OSError:
            pass


@pytest.fixture
def client(workspace: Path) -> TestClient:
    return TestClient(create_app(str(workspace)), base_url="http://127.0.0.1", raise_server_exceptions=False)


def _bounded(call: Any) -> Any:
    """CALL's answer, or a test failure when it takes longer than BOUND seconds."""
    box: dict[str, Any] = {}

    def run() -> None:
        box["answer"] = call()

    worker = threading.Thread(target=run, daemon=True)
    worker.start()
    worker.join(BOUND)
    assert "answer" in box, f"no answer within {BOUND:g} s"
    return box["answer"]


def test_a_base_that_is_a_fifo_is_an_error_and_the_server_goes_on(client, workspace):
    res = _bounded(lambda: client.post("/api/analyse", json={"text": HEADER + 'based on "fifo.rules"\n'}))
    assert res.status_code == 200
    [d] = res.json()["diagnostics"]
    assert d["code"] == "unknown-base" and "regular file" in d["message"]
    assert _bounded(lambda: client.get("/api/words")).status_code == 200
    res = _bounded(lambda: client.post("/api/analyse", json={"text": HEADER + "based on allfives\n"}))
    assert res.json()["ok"]


def test_a_fifo_in_the_workspace_is_not_listed(client):
    assert _bounded(lambda: client.get("/api/files")).json()["files"] == ["club.rules"]


def test_reading_or_writing_a_fifo_is_refused_at_once(client, workspace):
    res = _bounded(lambda: client.put("/api/file", json={"path": "fifo.rules", "text": HEADER}))
    assert res.status_code == 400 and "regular file" in res.json()["error"]
    res = _bounded(lambda: client.get("/api/file", params={"path": "fifo.rules"}))
    assert res.status_code == 400 and "FIFO" in res.json()["error"]
    assert (workspace / "fifo.rules").is_fifo()


def test_a_nul_byte_in_a_base_path_is_a_ruleset_error(client):
    res = client.post("/api/analyse", json={"text": HEADER + 'based on "a\x00b.rules"\n'})
    assert res.status_code == 200
    [d] = res.json()["diagnostics"]
    assert (d["code"], d["line"], d["column"]) == ("unknown-base", 3, 1) and "NUL byte" in d["message"]


@pytest.mark.parametrize("endpoint", ["/api/analyse", "/api/format", "/api/games", "/api/replay", "/sheet"])
def test_deeply_nested_json_is_a_400(client, endpoint):
    body = "[" * 100_000 + "]" * 100_000  # 200 KB: under the body limit
    res = client.post(endpoint, content=body, headers={"content-type": "application/json"})
    assert res.status_code == 400 and "nested" in res.text


def test_an_unexpected_failure_never_reaches_the_server(workspace, monkeypatch):
    """The server (uvicorn) would print the trace of an exception that reaches it: none does."""
    from rulelang.playground import adapter

    def boom(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("secret detail")

    monkeypatch.delenv("RULELANG_DEBUG", raising=False)
    monkeypatch.setattr(adapter, "analyse_text", boom)
    strict = TestClient(create_app(str(workspace)), base_url="http://127.0.0.1")  # re-raises what reaches it
    res = strict.post("/api/analyse", json={"text": "x"})
    assert res.status_code == 500 and "internal error" in res.json()["error"] and "secret" not in res.text
