"""Where the built LALR parser is cached, so a process does not rebuild it (~100 ms) at start-up.

The cache is a file in the user's cache folder (`$XDG_CACHE_HOME/rulelang`,
else `~/.cache/rulelang`), named after a hash of the grammar and the lark
version so a changed grammar never loads a stale parser. A folder that cannot
be written (a read-only home) means no cache, never an error.
"""
from __future__ import annotations

import hashlib
import os
import tempfile

__all__ = ["cache_file"]


def _folder() -> str | None:
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    folder = os.path.join(base, "rulelang")
    try:
        os.makedirs(folder, exist_ok=True)
    except OSError:
        return None
    return folder if os.access(folder, os.W_OK) else None


def cache_file(grammar_text: str) -> str | bool:
    """A cache file path for this grammar, or False (no cache) when no cache folder can be written."""
    if os.environ.get("RULELANG_NO_PARSER_CACHE"):
        return False
    import lark

    folder = _folder()
    if folder is None:
        folder = tempfile.gettempdir() if os.access(tempfile.gettempdir(), os.W_OK) else None
        if folder is None:
            return False
    digest = hashlib.sha256(f"{lark.__version__}\n{grammar_text}".encode()).hexdigest()[:16]
    return os.path.join(folder, f"rulelang-parser-{digest}.lark-cache")
