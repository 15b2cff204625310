"""Bounds on the playground's connections: how long a request head, a body and an idle connection may take,
and how many connections may be open at once.

uvicorn closes an idle connection only after a first response (its keep-alive timeout) and has no time limit
on a request's head or body, so a connection that never sends, or sends a byte now and then, stays open for
ever, and enough of them take every file descriptor. `GuardedH11Protocol` (uvicorn's h11 protocol) adds:
a deadline for the whole request head, from the connection's start or the end of the previous response; a
deadline for the whole body once the head came; and a cap on open connections, past which a new one is
closed at once. h11's own bound keeps a head small (`MAX_HEAD_BYTES`).
"""
from __future__ import annotations

import asyncio
from typing import Any, TypedDict

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

__all__ = ["GuardedH11Protocol", "uvicorn_settings"]

HEAD_SECONDS = 10.0  # the whole request head (request line and headers)
BODY_SECONDS = 30.0  # the whole body of one request, once its head came
KEEP_ALIVE_SECONDS = 5  # an idle connection between two requests
MAX_CONNECTIONS = 64  # open at once (a browser opens about six per server)
MAX_HEAD_BYTES = 16 * 1024  # of one request head


class GuardedH11Protocol(H11Protocol):
    """uvicorn's h11 protocol with a deadline for a request's head and for its body, and a connection cap."""

    head_seconds = HEAD_SECONDS
    body_seconds = BODY_SECONDS
    max_connections = MAX_CONNECTIONS

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._deadline: asyncio.TimerHandle | None = None
        self._waiting_for: object = None  # h11's state of the client the deadline is for (IDLE: a head, SEND_BODY)

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        if len(self.connections) > self.max_connections:
            transport.close()  # over the cap: refused at once, before it costs anything more
            return
        self._watch()

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        self._watch()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        self._watch()  # the next request's head has its own deadline

    def connection_lost(self, exc: Exception | None) -> None:
        self._cancel()
        super().connection_lost(exc)

    def _watch(self) -> None:
        """Arm the deadline for what the client must send now (a head, a body), or none while it waits."""
        state = self.conn.their_state
        if state not in (h11.IDLE, h11.SEND_BODY):
            self._cancel()
        elif state is not self._waiting_for or self._deadline is None:
            self._cancel()
            seconds = self.head_seconds if state is h11.IDLE else self.body_seconds
            self._deadline = self.loop.call_later(seconds, self._too_slow)
            self._waiting_for = state

    def _cancel(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
        self._deadline = None
        self._waiting_for = None

    def _too_slow(self) -> None:
        """The client took too long: the connection is closed (a request cut short sees a disconnect)."""
        self._deadline = None
        if not self.transport.is_closing():
            self.transport.close()


class UvicornSettings(TypedDict):
    http: type[H11Protocol]
    timeout_keep_alive: int
    h11_max_incomplete_event_size: int


def uvicorn_settings() -> UvicornSettings:
    """The keyword arguments of `uvicorn.run` that bound the playground's connections."""
    return {"http": GuardedH11Protocol, "timeout_keep_alive": KEEP_ALIVE_SECONDS,
            "h11_max_incomplete_event_size": MAX_HEAD_BYTES}
