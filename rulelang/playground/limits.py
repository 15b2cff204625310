"""Bounds on what a request may send, and JSON bodies read with a clear message instead of a trace.

A local server is still reachable by any page the user opens, so sizes are
bounded before anything is parsed: an oversized body gets 413 with a message.
"""
from __future__ import annotations

from starlette.requests import Request

from rulelang.base.readinput import parse_json

MAX_BODY = 256 * 1024  # bytes of one request body
MAX_TRANSCRIPT = 4 * 1024 * 1024  # bytes of an uploaded transcript (a long match)
MAX_TEXT = 64 * 1024  # characters of one ruleset text
MAX_PATH = 200  # characters of one workspace path
MAX_GAMES = 32  # games kept at once
MAX_PLAYERS = 12  # seats of one game (a double-twelve set seats 12; the ruleset says how many it allows)
GAME_IDLE_SECONDS = 30 * 60  # a game untouched this long is forgotten


class ApiError(Exception):
    """A request the playground refuses: an HTTP status and a message for the user."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


async def read_json(request: Request, limit: int = MAX_BODY) -> dict[str, object]:
    """The request's JSON object, refusing bodies over LIMIT bytes (413) and anything but an object (400).

    The content type must say JSON: a page of another site cannot send that
    without the browser asking first, which this server never allows.
    """
    if request.headers.get("content-type", "").split(";")[0].strip().lower() != "application/json":
        raise ApiError(415, "send the request as JSON (Content-Type: application/json)")
    declared = request.headers.get("content-length")
    if declared is not None:
        try:
            if int(declared) > limit:
                raise ApiError(413, f"the request is too large: at most {limit // 1024} KiB")
        except ValueError:
            raise ApiError(400, "the request has a malformed Content-Length") from None
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > limit:
            raise ApiError(413, f"the request is too large: at most {limit // 1024} KiB")
    try:  # bounded nesting, as the command line reads JSON: deep brackets are a 400, never a RecursionError
        data = parse_json(body.decode("utf-8"))
    except UnicodeDecodeError:
        raise ApiError(400, "the request is not JSON") from None
    except ValueError as exc:
        reason = f": {exc}" if "nested" in str(exc) else ""
        raise ApiError(400, f"the request is not JSON{reason}") from None
    if not isinstance(data, dict):
        raise ApiError(400, "the request must be a JSON object")
    return data


def text_field(data: dict[str, object], key: str = "text", required: bool = True) -> str:
    """A text field of a request, bounded by MAX_TEXT (413)."""
    value = data.get(key)
    if value is None and not required:
        return ""
    if not isinstance(value, str):
        raise ApiError(400, f"`{key}` must be a text")
    if len(value) > MAX_TEXT:
        raise ApiError(413, f"`{key}` is too long: at most {MAX_TEXT // 1024} K characters")
    return value


def int_field(data: dict[str, object], key: str, default: int, low: int, high: int) -> int:
    """A whole number field of a request within [low, high] (400 otherwise)."""
    value = data.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise ApiError(400, f"`{key}` must be a whole number from {low} to {high}")
    return value
