"""The grammar (ruleset.lark) and the LALR parser lark builds from it, kept in lark's own cache file.

Building the parser costs about ten times loading it, so it is built once and
lark's `cache=` keeps it in a file of the user's own cache folder
(`$XDG_CACHE_HOME/rulelang`, else `~/.cache/rulelang`; never a shared
temporary folder, since the cache is a pickle). The file is named after the
grammar and lark's version, and lark checks the hash stored in it, so a
changed grammar is never read from a stale file; a file lark cannot read is
rebuilt, and a folder that cannot be written (a read-only home) means no
cache, never an error. RULELANG_NO_PARSER_CACHE=1 turns the cache off.
"""
from __future__ import annotations

import hashlib
import os
import re
from functools import cache
from importlib import resources
from typing import Any

import lark
from lark import Lark

__all__ = ["GRAMMAR_FILE", "KEYWORD_BOUNDARY", "grammar", "grammar_source", "cache_file", "keyword_terminals",
           "keywords", "keyword_set", "statement_starts"]

GRAMMAR_FILE = "ruleset.lark"

# A keyword, a name or a number ends at a word boundary: `floors` is not `floor` + `s`,
# `5tiles` is not `5` + `tiles`. The grammar file spells keywords as plain strings (easy
# to read); they are turned into patterns with that boundary when the grammar is loaded.
KEYWORD_BOUNDARY = r"(?![a-z0-9'\-])"
_KEYWORD_LINE = re.compile(r'^([A-Z][A-Z_]*): "([a-z\']+)"$', re.M)


@cache
def grammar_source() -> tuple[str, dict[str, str]]:
    """The grammar text with bounded keywords, and terminal name -> keyword."""
    text = (resources.files("rulelang") / GRAMMAR_FILE).read_text(encoding="utf-8")
    keywords = {m.group(1): m.group(2) for m in _KEYWORD_LINE.finditer(text)}
    text = _KEYWORD_LINE.sub(lambda m: f"{m.group(1)}: /{re.escape(m.group(2))}{KEYWORD_BOUNDARY}/", text)
    text = text.replace("NUMBER: /[0-9]+/", f"NUMBER: /[0-9]+{KEYWORD_BOUNDARY}/")
    text = text.replace("SIGNED_NUMBER: /[-+]?[0-9]+/", f"SIGNED_NUMBER: /[-+]?[0-9]+{KEYWORD_BOUNDARY}/")
    return text, keywords


def cache_file(grammar_text: str) -> str | None:
    """lark's cache file for this grammar, or None (no cache) when no cache folder can be written."""
    if os.environ.get("RULELANG_NO_PARSER_CACHE"):
        return None
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    folder = os.path.join(base, "rulelang")
    try:
        os.makedirs(folder, mode=0o700, exist_ok=True)
    except OSError:
        return None
    if not os.access(folder, os.W_OK):
        return None
    digest = hashlib.sha256(f"{lark.__version__}\n{grammar_text}".encode()).hexdigest()[:16]
    return os.path.join(folder, f"rulelang-parser-{digest}.lark-cache")


@cache
def grammar() -> Lark:
    """The LALR parser, built once per process (and kept in lark's cache file)."""
    text, _ = grammar_source()
    return Lark(text, parser="lalr", propagate_positions=True, maybe_placeholders=False,
                cache=cache_file(text) or False)


def keyword_terminals() -> dict[str, str]:
    """Terminal name -> keyword text, for every keyword terminal of the grammar."""
    return grammar_source()[1]


@cache
def keyword_set() -> frozenset[str]:
    """Every keyword of the language, as a set."""
    return frozenset(keyword_terminals().values())


def keywords() -> list[str]:
    """Every keyword of the language."""
    return sorted(keyword_terminals().values())


@cache
def statement_starts() -> frozenset[str]:
    """The terminals that can start a statement (what the parser accepts at the start of a text)."""
    interactive: Any = grammar().parse_interactive("")  # lark leaves `accepts` untyped
    return frozenset(interactive.accepts()) - {"_NL", "$END"}
