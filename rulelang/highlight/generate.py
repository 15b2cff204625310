"""The highlighting data, generated from the grammar's keywords (`python -m rulelang.generate` writes it).

`rulelang/highlight/keywords.json` and, in a checkout, the TextMate grammar
used by editors (editors/textmate/ and the VS Code extension's copy).
"""
from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from rulelang.language.grammar import keywords

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
KEYWORDS_FILE = HERE / "keywords.json"
TEXTMATE_FILES = [ROOT / "editors" / "textmate" / "rulelang.tmLanguage.json",
                  ROOT / "editors" / "vscode" / "syntaxes" / "rulelang.tmLanguage.json"]

EDGE_BEFORE = "(?<![A-Za-z0-9_'-])"
EDGE_AFTER = "(?![A-Za-z0-9_'-])"


def keywords_document(keywords: list[str]) -> dict[str, Any]:
    return {"comment": "generated from rulelang/language/ruleset.lark by python -m rulelang.generate",
            "keywords": sorted(keywords)}


def textmate_grammar(keywords: list[str]) -> dict[str, Any]:
    """A TextMate grammar with the same classes as the Pygments lexer."""
    alternatives = "|".join(re.escape(k) for k in sorted(keywords, key=lambda k: (-len(k), k)))
    return {
        "$schema": "https://raw.githubusercontent.com/martinring/tmlanguage/master/tmlanguage.json",
        "name": "rulelang",
        "scopeName": "source.rulelang",
        "fileTypes": ["rules"],
        "comment": "generated from rulelang/language/ruleset.lark by python -m rulelang.generate",
        "patterns": [
            {"name": "comment.line.number-sign.rulelang", "match": "#.*$"},
            {"name": "string.quoted.double.rulelang", "match": '"[^"]*"'},
            {"name": "keyword.other.rulelang", "match": f"{EDGE_BEFORE}(?:{alternatives}){EDGE_AFTER}"},
            {"name": "constant.numeric.integer.rulelang", "match": f"[-+]?[0-9]+{EDGE_AFTER}"},
            {"name": "entity.name.rulelang", "match": f"[a-z][a-z0-9-]*{EDGE_AFTER}"},
            {"name": "punctuation.separator.rulelang", "match": "[,:;]"},
        ],
    }


def dump(document: dict[str, Any]) -> str:
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"


def outputs(words: list[str] | None = None) -> dict[Path, str]:
    """Each generated file (the editors' only in a checkout) and the text it must have (WORDS: the keywords,
    by default the loaded grammar's)."""
    if words is None:
        words = keywords()
    out = {KEYWORDS_FILE: dump(keywords_document(words))}
    for path in TEXTMATE_FILES:
        if path.parent.is_dir():
            out[path] = dump(textmate_grammar(words))
    return out
