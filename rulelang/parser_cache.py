"""The built LALR parser, cached on disk so a process does not rebuild it (~100 ms) at start-up.

The cache is a file in the user's own cache folder (`$XDG_CACHE_HOME/rulelang`,
else `~/.cache/rulelang`; never a shared temporary folder, since the cache is a
pickle), named after a hash of the grammar and the lark version so a changed
grammar never loads a stale parser. It is written to a temporary name and
renamed, so a reader never sees half of it; a cache that cannot be read is
rebuilt, and a folder that cannot be written (a read-only home) means no cache,
never an error.
"""
from __future__ import annotations

import hashlib
import os
import tempfile
from typing import Any

from lark import Lark

__all__ = ["cached_lark", "cache_file"]


def _folder() -> str | None:
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    folder = os.path.join(base, "rulelang")
    try:
        os.makedirs(folder, mode=0o700, exist_ok=True)
    except OSError:
        return None
    return folder if os.access(folder, os.W_OK) else None


def cache_file(grammar_text: str) -> str | None:
    """The cache file for this grammar, or None (no cache) when no cache folder can be written."""
    import lark

    if os.environ.get("RULELANG_NO_PARSER_CACHE"):
        return None
    folder = _folder()
    if folder is None:
        return None
    digest = hashlib.sha256(f"{lark.__version__}\n{grammar_text}".encode()).hexdigest()[:16]
    return os.path.join(folder, f"rulelang-parser-{digest}.lark-cache")


def cached_lark(grammar_text: str, **options: Any) -> Lark:
    """The parser of this grammar: loaded from the cache, else built (and cached)."""
    path = cache_file(grammar_text)
    if path is not None:
        try:
            with open(path, "rb") as fh:
                return Lark.load(fh)
        except Exception:  # noqa: BLE001 - missing, half-written by an old version, or corrupt: rebuild
            pass
    parser = Lark(grammar_text, **options)
    if path is not None:
        try:
            fd, tmp = tempfile.mkstemp(dir=os.path.dirname(path), prefix=".parser-")
            with os.fdopen(fd, "wb") as fh:
                parser.save(fh)
            os.replace(tmp, path)
        except OSError:
            pass  # no cache this time
    return parser
