"""A Pygments lexer for rulesets (`pygmentize -l rulelang FILE`), registered as an entry point.

The keywords come from `keywords.json`, generated from the grammar, so the
lexer never needs lark; anything the language cannot contain is an Error token.
"""
from __future__ import annotations

import json
from importlib import resources

from pygments.lexer import RegexLexer, words
from pygments.token import Comment, Error, Keyword, Name, Number, Punctuation, String, Whitespace

__all__ = ["RulesetLexer", "KEYWORDS"]

KEYWORDS: list[str] = json.loads(resources.files("rulelang.highlight").joinpath("keywords.json")
                                 .read_text(encoding="utf-8"))["keywords"]

# a word of the language: letters, digits, `-` and the apostrophe of `opponents'`
_EDGE_BEFORE = r"(?<![A-Za-z0-9_'-])"
_EDGE_AFTER = r"(?![A-Za-z0-9_'-])"


class RulesetLexer(RegexLexer):
    """Rulesets of rulelang, the All Fives / Five-Up rules language."""

    name = "rulelang"
    aliases = ["rulelang", "rules"]
    filenames = ["*.rules"]
    mimetypes = ["text/x-rulelang"]
    url = "https://pypi.org/project/rulelang/"

    tokens = {
        "root": [
            (r"[ \t\f\r\n]+", Whitespace),
            (r"#[^\n]*", Comment.Single),
            (r'"[^"\n]*"', String.Double),
            (words(sorted(KEYWORDS, key=len, reverse=True), prefix=_EDGE_BEFORE, suffix=_EDGE_AFTER), Keyword),
            (r"[-+]?[0-9]+" + _EDGE_AFTER, Number.Integer),
            (r"[a-z][a-z0-9-]*" + _EDGE_AFTER, Name),
            (r"[,:;]", Punctuation),
            (r".", Error),
        ],
    }
