"""The playground application: routes, static files, and errors answered as messages, never traces."""
from __future__ import annotations

import os
import traceback
from pathlib import Path

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, PlainTextResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from rulelang.playground import routes
from rulelang.playground.games import GameStore
from rulelang.playground.limits import ApiError
from rulelang.playground.workspace import Workspace

STATIC = Path(__file__).resolve().parent / "static"
LOCAL_HOSTS = ["127.0.0.1", "localhost", "[::1]"]


def _message(request: Request, status: int, message: str) -> Response:
    if request.url.path.startswith("/api/"):
        return JSONResponse({"error": message}, status_code=status)
    return PlainTextResponse(message + "\n", status_code=status)


async def _api_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, ApiError)
    return _message(request, exc.status, exc.message)


async def _http_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, HTTPException)
    text = {404: "not found", 405: "method not allowed"}.get(exc.status_code, str(exc.detail))
    return _message(request, exc.status_code, text)


async def _unexpected(request: Request, exc: Exception) -> Response:
    """The last guard: a bug of rulelang becomes a message (RULELANG_DEBUG=1 shows the trace in the server's log)."""
    if os.environ.get("RULELANG_DEBUG"):
        traceback.print_exception(exc)
    return _message(request, 500, f"internal error: {type(exc).__name__} (a bug in rulelang; please report it)")


class _LastGuard:
    """Answers an unexpected exception itself, so that it never reaches the server (uvicorn would print its trace).

    Starlette's own handler for `Exception` answers too, but then raises the
    exception again for the server to log.
    """

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = False

        async def watched(message: Message) -> None:
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self.app(scope, receive, watched)
        except Exception as exc:  # noqa: BLE001 - the last guard
            if started:
                raise
            response = await _unexpected(Request(scope), exc)
            await response(scope, receive, send)


async def index(request: Request) -> Response:
    return FileResponse(STATIC / "index.html", media_type="text/html")


def create_app(workspace: str | os.PathLike[str] = ".", hosts: list[str] | None = None) -> Starlette:
    """The playground for a workspace folder, answering only requests addressed to HOSTS (default: this machine)."""
    api = [
        Route("/api/words", routes.words),
        Route("/api/variants", routes.variants),
        Route("/api/variants/{name}", routes.variant),
        Route("/api/analyse", routes.analyse, methods=["POST"]),
        Route("/api/format", routes.fmt, methods=["POST"]),
        Route("/api/files", routes.files),
        Route("/api/file", routes.file_read, methods=["GET"]),
        Route("/api/file", routes.file_write, methods=["PUT"]),
        Route("/api/games", routes.game_new, methods=["POST"]),
        Route("/api/games/{game}", routes.game_get, methods=["GET"]),
        Route("/api/games/{game}", routes.game_delete, methods=["DELETE"]),
        Route("/api/games/{game}/move", routes.game_move, methods=["POST"]),
        Route("/api/games/{game}/call", routes.game_call, methods=["POST"]),
        Route("/api/games/{game}/transcript", routes.game_transcript),
        Route("/api/games/{game}/replay", routes.game_replay),
        Route("/api/replay", routes.replay, methods=["POST"]),
        Route("/api/cases", routes.cases),
        Route("/api/cases/{case}/svg", routes.case_svg),
        Route("/sheet", routes.sheet, methods=["GET", "POST"]),
        Route("/", index),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    app = Starlette(
        routes=api,
        middleware=[Middleware(TrustedHostMiddleware, allowed_hosts=(hosts or []) + LOCAL_HOSTS),
                    Middleware(_LastGuard)],
        exception_handlers={ApiError: _api_error, HTTPException: _http_error, Exception: _unexpected},
    )
    app.state.workspace = Workspace(workspace)
    app.state.games = GameStore()
    return app
