"""The grammar (ruleset.lark) and the LALR parser lark builds from it, shipped as JSON tables.

Building the parser costs about ten times loading it, so its tables are built
once, by `python -m rulelang.generate`, and shipped in the package beside the
grammar (parser-tables.json): as trusted as the code, and plain JSON, so that
reading them runs no code (lark's own `cache=` and `Lark.save`/`load` are
pickles: a planted cache file would run code). Nothing is read from or
written to a user's cache folder. The tables name the grammar's hash and
lark's version; when either differs (a grammar being edited, another lark),
the parser is built from the grammar instead, as it is with
RULELANG_NO_PARSER_CACHE=1.
"""
from __future__ import annotations

import hashlib
import json
import os
import re
from collections.abc import Callable
from functools import cache
from importlib import resources

import lark
from lark import Lark
from lark.exceptions import UnexpectedInput
from lark.parsers.lalr_interactive_parser import InteractiveParser

__all__ = ["GRAMMAR_FILE", "KEYWORD_BOUNDARY", "TABLES_FILE", "grammar", "grammar_source", "keyword_terminals",
           "keywords", "keyword_set", "statement_starts", "accepted_after", "tables_current", "tables_text"]

GRAMMAR_FILE = "ruleset.lark"
TABLES_FILE = "parser-tables.json"
TABLES_FORMAT = "rulelang-parser-tables/1"
_OPTIONS: dict[str, str | bool] = {"parser": "lalr", "propagate_positions": True, "maybe_placeholders": False}

# A keyword, a name or a number ends at a word boundary: `floors` is not `floor` + `s`,
# `5tiles` is not `5` + `tiles`. The grammar file spells keywords as plain strings (easy
# to read); they are turned into patterns with that boundary when the grammar is loaded.
KEYWORD_BOUNDARY = r"(?![a-z0-9'\-])"
_KEYWORD_LINE = re.compile(r'^([A-Z][A-Z_]*): "([a-z\']+)"$', re.M)


@cache
def grammar_source(raw: str | None = None) -> tuple[str, dict[str, str]]:
    """The grammar text (RAW, else the shipped ruleset.lark) with bounded keywords, and terminal name -> keyword."""
    text = raw if raw is not None else (resources.files("rulelang.language") / GRAMMAR_FILE).read_text(encoding="utf-8")
    keywords = {m.group(1): m.group(2) for m in _KEYWORD_LINE.finditer(text)}
    text = _KEYWORD_LINE.sub(lambda m: f"{m.group(1)}: /{re.escape(m.group(2))}{KEYWORD_BOUNDARY}/", text)
    text = text.replace("NUMBER: /[0-9]+/", f"NUMBER: /[0-9]+{KEYWORD_BOUNDARY}/")
    text = text.replace("SIGNED_NUMBER: /[-+]?[0-9]+/", f"SIGNED_NUMBER: /[-+]?[0-9]+{KEYWORD_BOUNDARY}/")
    return text, keywords


def _stamp(grammar_text: str) -> dict[str, str]:
    """What the tables were built from: the format, lark's version and the grammar's hash."""
    return {"format": TABLES_FORMAT, "lark": lark.__version__,
            "grammar": hashlib.sha256(grammar_text.encode()).hexdigest()}


def _int_keys(pairs: list[tuple[str, object]]) -> dict[int | str, object]:
    """A JSON object of lark's tables, its number keys (states, memo ids) numbers again."""
    return {int(k) if k.isdigit() else k: v for k, v in pairs}


def _build(grammar_text: str) -> Lark:
    return Lark(grammar_text, **_OPTIONS)


def tables_text(raw: str | None = None) -> str:
    """The JSON tables of the parser built from the grammar (what parser-tables.json holds).

    Raises RuntimeError when JSON does not give lark's tables back exactly (tuples aside, which lark reads
    as lists), so that a later lark cannot make the shipped tables wrong unnoticed."""
    from lark.grammar import Rule
    from lark.lexer import TerminalDef

    text, _ = grammar_source(raw)
    data, memo = _build(text).memo_serialize([TerminalDef, Rule])
    doc = {**_stamp(text), "data": data, "memo": memo}
    out = json.dumps(doc, sort_keys=True, separators=(",", ":"), ensure_ascii=False) + "\n"
    if json.loads(out, object_pairs_hook=_int_keys) != _as_lists(doc):
        raise RuntimeError(f"lark {lark.__version__}'s parser tables do not survive JSON: rulelang.language.grammar needs work")
    return out


def _as_lists(value: object) -> object:
    """VALUE with its tuples as lists (what JSON gives back), its keys as they are."""
    if isinstance(value, dict):
        return {k: _as_lists(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_as_lists(v) for v in value]
    return value


def _current(raw: str, grammar_text: str) -> dict[str, object] | None:
    """The tables in RAW (JSON) when they were built from GRAMMAR_TEXT by this lark, else None."""
    doc = json.loads(raw, object_pairs_hook=_int_keys)
    if not isinstance(doc, dict) or {k: doc.get(k) for k in ("format", "lark", "grammar")} != _stamp(grammar_text):
        return None
    return doc


def tables_current(tables: str, raw: str | None = None) -> bool:
    """TABLES (a parser-tables.json) were built from the grammar (RAW, else the shipped one; lark numbers the states differently from one build
    to the next, so the text of two builds differs: the stamp says whether they are current). Another lark's
    tables count as current here, so that `generate --check` does not fail where a newer lark is installed; that
    lark never loads them (`_shipped`), it builds the parser from the grammar."""
    try:
        doc = json.loads(tables)
    except ValueError:
        return False
    stamp = _stamp(grammar_source(raw)[0])
    return isinstance(doc, dict) and all(doc.get(k) == stamp[k] for k in ("format", "grammar"))


def _shipped(grammar_text: str) -> Lark | None:
    """The parser from the shipped tables, or None when they are missing or were built from another grammar
    or by another lark."""
    if os.environ.get("RULELANG_NO_PARSER_CACHE"):
        return None
    try:
        doc = _current((resources.files("rulelang.language") / TABLES_FILE).read_text(encoding="utf-8"), grammar_text)
        if doc is None:
            return None
        # lark's own loader of serialised tables (what its standalone parsers call), given JSON, not a pickle
        loaded: Lark = Lark._load_from_dict(doc["data"], doc["memo"])  # type: ignore[no-untyped-call]
    except (OSError, ValueError, KeyError, TypeError):
        return None
    return loaded


@cache
def grammar() -> Lark:
    """The LALR parser, loaded once per process from the shipped tables (else built from the grammar)."""
    text, _ = grammar_source()
    return _shipped(text) or _build(text)


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
    accepts: Callable[[], set[str]] = grammar().parse_interactive("").accepts  # lark leaves `accepts` untyped
    return frozenset(accepts()) - {"_NL", "$END"}


def accepted_after(context: str) -> set[str] | None:
    """What the grammar accepts after CONTEXT (a section header line, then the line up to the cursor): the
    terminal names (`HAND`, `NUMBER`, `NAME`, ...), from lark's interactive parser; None where it cannot go on."""
    try:
        interactive: InteractiveParser = grammar().parse_interactive(context)
        interactive.exhaust_lexer()
        accepts: Callable[[], set[str]] = interactive.accepts  # lark leaves `accepts` untyped
        accepted = set(accepts())
    except UnexpectedInput:
        return None
    return accepted
