"""The playground's server bounds its connections: a connection that sends nothing, a
request head or body sent a byte at a time, an idle kept-alive connection are closed, and past the cap a new
connection is refused. On loopback, with the deadlines shortened, a bounded number of connections; each
wait has a generous bound (the test is that the server closes, not how fast)."""
from __future__ import annotations

import socket
import threading
import time

import pytest

pytest.importorskip("uvicorn")

import uvicorn  # noqa: E402

from rulelang.commands import serve  # noqa: E402
from rulelang.playground import create_app  # noqa: E402
from rulelang.playground.connections import GuardedH11Protocol, uvicorn_settings  # noqa: E402

BOUND = 30.0  # seconds a test waits for the server to close a connection


class Quick(GuardedH11Protocol):
    head_seconds = 0.5
    body_seconds = 0.5
    max_connections = 8


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    settings = {**uvicorn_settings(), "http": Quick, "timeout_keep_alive": 1}
    config = uvicorn.Config(create_app(str(tmp_path_factory.mktemp("ws"))), host="127.0.0.1", port=0,
                            log_level="warning", **settings)
    srv = uvicorn.Server(config)
    thread = threading.Thread(target=srv.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + BOUND
    while not srv.started:
        assert time.monotonic() < deadline, "the server did not start"
        time.sleep(0.02)
    port = srv.servers[0].sockets[0].getsockname()[1]
    yield port
    srv.should_exit = True
    thread.join(BOUND)


def _connect(port: int) -> socket.socket:
    s = socket.create_connection(("127.0.0.1", port), timeout=BOUND)
    return s


def _closed_by_server(s: socket.socket, trickle: bytes = b"") -> bool:
    """Send TRICKLE a byte every 0.05 s (then wait): whether the server closes the connection within BOUND."""
    deadline = time.monotonic() + BOUND
    s.settimeout(0.05)
    sent = 0
    while time.monotonic() < deadline:
        try:
            if s.recv(65536) == b"":
                return True
        except TimeoutError:
            pass
        except OSError:  # reset: closed too
            return True
        if sent < len(trickle):
            try:
                s.sendall(trickle[sent:sent + 1])
            except OSError:
                return True
            sent += 1
    return False


def _get(port: int) -> bytes:
    with _connect(port) as s:
        s.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        data = b""
        while chunk := s.recv(65536):
            data += chunk
    return data


def test_a_connection_that_sends_nothing_is_closed(server):
    with _connect(server) as s:
        assert _closed_by_server(s)


def test_a_head_sent_a_byte_at_a_time_is_cut_off(server):
    head = b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n" + b"X-Slow: " + b"a" * 2000 + b"\r\n\r\n"
    with _connect(server) as s:
        assert _closed_by_server(s, head)


def test_a_body_sent_a_byte_at_a_time_is_cut_off(server):
    body = b'{"text": "' + b"a" * 2000 + b'"}'
    head = (b"POST /api/check HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            b"Content-Length: %d\r\n\r\n" % len(body))
    with _connect(server) as s:
        s.sendall(head)
        assert _closed_by_server(s, body)


def test_an_idle_kept_alive_connection_is_closed_after_its_response(server):
    with _connect(server) as s:
        s.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        s.settimeout(BOUND)
        assert s.recv(65536).startswith(b"HTTP/1.1 200")
        assert _closed_by_server(s)


def test_past_the_cap_a_new_connection_is_refused_and_the_server_serves_again_after(server):
    held = [_connect(server) for _ in range(Quick.max_connections)]
    try:
        time.sleep(0.1)
        with _connect(server) as extra:
            extra.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            assert _closed_by_server(extra)  # no answer: closed
    finally:
        for s in held:
            s.close()
    deadline = time.monotonic() + BOUND
    while True:  # the held ones are gone: served again
        try:
            if _get(server).startswith(b"HTTP/1.1 200"):
                break
        except OSError:
            pass
        assert time.monotonic() < deadline, "the server did not serve again"
        time.sleep(0.1)


def test_rulelang_serve_runs_uvicorn_with_the_bounds(monkeypatch, tmp_path):
    seen = {}
    monkeypatch.setattr(uvicorn, "run", lambda app, **kw: seen.update(kw))
    monkeypatch.setattr(serve, "_cannot_listen", lambda host, port: None)
    from click.testing import CliRunner

    from rulelang.cli import main

    assert CliRunner().invoke(main, ["serve", "--workspace", str(tmp_path)]).exit_code == 0
    assert seen["http"] is GuardedH11Protocol and seen["timeout_keep_alive"] > 0
    assert seen["h11_max_incomplete_event_size"] > 0
