"""Reading input files without trusting them: regular files only, bounded in size and nesting.

Every file the command line or the conformance runner reads (rulesets, compiled
configurations, case files, transcripts, reports, expected-failures lists) goes
through here, so that a FIFO never blocks a command, `/dev/zero` is never read
until memory runs out, and a deeply nested JSON document is a message, not a
crash. Problems are `InputError`s (an OSError, so existing `except OSError`
handlers report them); their text never repeats the path, so callers can write
`f"cannot read {path}: {exc}"`.

    read_text(path, limit=TEXT_LIMIT) -> str      # UTF-8, a regular file (or "-" when allow_stdin)
    read_json(path, limit=JSON_LIMIT) -> object   # read_text + parse_json
    parse_json(text, max_depth=JSON_DEPTH) -> object # ValueError for bad, oversized or too deeply nested JSON
    with processing(name): ...                    # names the input for the CLI's last-resort error message
    input_of(exc) -> str | None                   # that name (or the last file read), for the message
"""
from __future__ import annotations

import os
import stat
import sys
from collections.abc import Iterator
from contextlib import contextmanager

__all__ = ["InputError", "FolderError", "TEXT_LIMIT", "JSON_LIMIT", "JSON_DEPTH", "read_bytes", "read_text", "read_json",
           "parse_json", "json_depth", "size_words", "processing", "input_of", "forget"]

TEXT_LIMIT = 1024 * 1024  # bytes: a ruleset is a page or two; a megabyte is far past any real one
JSON_LIMIT = 32 * 1024 * 1024  # bytes: the largest report of the whole suite is well under a megabyte
JSON_DEPTH = 100  # nesting levels: every document rulelang reads nests fewer than 10 deep


class InputError(OSError):
    """A file that is not read: not a regular file, too large, not text, not JSON or nested too deeply."""

    def __init__(self, message: str, filename: str | None = None):
        super().__init__(message)
        self.message = message
        self.filename = filename

    def __str__(self) -> str:
        return self.message


class TooLargeError(InputError):
    """A file over the size limit of what reads it."""


class FolderError(InputError, IsADirectoryError):
    """A folder given where a file is read (still an IsADirectoryError for callers that say so their way)."""


_current: list[str | None] = [None, None]  # [named by processing(), last file read]


@contextmanager
def processing(name: str) -> Iterator[None]:
    """Name the input being worked on; an exception passing through carries the name (`input_of`)."""
    previous = _current[0]
    _current[0] = name
    try:
        yield
    except BaseException as exc:
        if getattr(exc, "rulelang_input", None) is None:
            exc.rulelang_input = name  # type: ignore[attr-defined]
        raise
    finally:
        _current[0] = previous


def input_of(exc: BaseException) -> str | None:
    """The input a failure happened on: named by `processing`, else the last file read, else None."""
    return getattr(exc, "rulelang_input", None) or _current[0] or _current[1]


def forget() -> None:
    """Start afresh (a new command): no input named, no file read yet."""
    _current[:] = [None, None]


def size_words(n: int) -> str:
    """A byte count a reader takes in at a glance: '1 MiB (1,048,576 bytes)'."""
    for unit, size in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if n >= size and n % size == 0:
            return f"{n // size} {unit} ({n:,} bytes)"
    return f"{n:,} bytes"


_KINDS = ((stat.S_ISDIR, "a folder"), (stat.S_ISFIFO, "a FIFO (named pipe)"), (stat.S_ISCHR, "a character device"),
          (stat.S_ISBLK, "a block device"), (stat.S_ISSOCK, "a socket"))


def _kind(mode: int) -> str:
    return next((name for test, name in _KINDS if test(mode)), "not a regular file")


def read_bytes(path: str | os.PathLike[str], limit: int = TEXT_LIMIT, allow_stdin: bool = False) -> bytes:
    """The bytes of a regular file of at most `limit` bytes (raises InputError or OSError).

    The file is opened without blocking (a FIFO opens at once, and is refused),
    and at most `limit + 1` bytes are ever read, even from a file that grows.
    With `allow_stdin`, "-" reads standard input, also bounded.
    """
    name = os.fspath(path)
    _current[1] = name
    if allow_stdin and name == "-":
        stream = sys.stdin.buffer if sys.stdin is not None else None
        if stream is None:
            raise InputError("standard input is closed", "-")
        data = stream.read(limit + 1)
        if len(data) > limit:
            raise TooLargeError(f"larger than the limit of {size_words(limit)}", "-")
        return bytes(data)
    if "\0" in name:  # os.stat would raise ValueError: no file name holds one
        raise InputError("the path holds a NUL byte", name)
    mode = os.stat(name).st_mode  # a device or a FIFO is refused before it is even opened
    if stat.S_ISDIR(mode):
        raise FolderError("a folder, not a regular file", name)
    if not stat.S_ISREG(mode):
        raise InputError(f"{_kind(mode)}, not a regular file", name)
    fd = os.open(name, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0))
    try:
        info = os.fstat(fd)  # the file opened may not be the one looked at
        if not stat.S_ISREG(info.st_mode):
            raise InputError(f"{_kind(info.st_mode)}, not a regular file", name)
        if info.st_size > limit:
            raise TooLargeError(f"{size_words(info.st_size)}, larger than the limit of {size_words(limit)}", name)
        chunks: list[bytes] = []
        left = limit + 1
        while left > 0:
            chunk = os.read(fd, min(left, 1 << 20))
            if not chunk:
                break
            chunks.append(chunk)
            left -= len(chunk)
        data = b"".join(chunks)
        if len(data) > limit:
            raise TooLargeError(f"larger than the limit of {size_words(limit)}", name)
        return data
    finally:
        os.close(fd)


def read_text(path: str | os.PathLike[str], limit: int = TEXT_LIMIT, allow_stdin: bool = False) -> str:
    """A UTF-8 text file, bounded as `read_bytes` (line ends as Python's text mode reads them)."""
    data = read_bytes(path, limit, allow_stdin)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InputError(f"not UTF-8 text (byte {exc.start + 1} cannot be decoded)", os.fspath(path)) from None
    return text.replace("\r\n", "\n").replace("\r", "\n")


def json_depth(obj: object, limit: int = JSON_DEPTH) -> int:
    """How deeply `obj` nests (a scalar is 0), counted without recursion and stopping past `limit`."""
    deepest = 0
    stack: list[tuple[object, int]] = [(obj, 0)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict):
            item = list(item.values())
        if isinstance(item, list):
            depth += 1
            deepest = max(deepest, depth)
            if depth > limit:
                return depth
            stack.extend((x, depth) for x in item if isinstance(x, (dict, list)))
    return deepest


def parse_json(text: str | bytes, max_depth: int = JSON_DEPTH) -> object:
    """A JSON document nesting at most `max_depth` deep; ValueError (json's own, or ours) otherwise.

    json itself gives up on very deep nesting with RecursionError; that and a
    document that parses but nests past `max_depth` (which would send later
    recursive code past the interpreter's limit) are both a ValueError here.
    """
    import json  # imported when JSON is read: `rulelang check FILE.rules` never does

    try:
        obj = json.loads(text)
    except RecursionError:
        raise ValueError(f"JSON nested more than {max_depth} levels deep") from None
    if json_depth(obj, max_depth) > max_depth:
        raise ValueError(f"JSON nested more than {max_depth} levels deep")
    return obj


def read_json(path: str | os.PathLike[str], limit: int = JSON_LIMIT, max_depth: int = JSON_DEPTH,
              allow_stdin: bool = False) -> object:
    """A JSON file, bounded in size and nesting (raises InputError, OSError or ValueError)."""
    text = read_text(path, limit, allow_stdin)
    return parse_json(text, max_depth)
