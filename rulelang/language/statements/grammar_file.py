"""The grammar file (rulelang/language/ruleset.lark), generated from the phrases of the statement table.

Each statement's phrases are its grammar rule(s); the `?statement` and
`?settle_line` alternatives, the section rules and one keyword terminal for
every word the phrases use follow from the table. The rest of the file (the
values, the punctuation, the comments) is the frame, rulelang/language/statements/frame.lark.
`python -m rulelang.generate` writes it; tests/test_generated.py fails when it is stale.
"""
from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import Path

from rulelang.language.statements import GROUPS, PARTS, TABLE
from rulelang.language.statements.phrase import keywords, lark, terminal_name

__all__ = ["FRAME", "GRAMMAR", "grammar_text", "keywords_in"]

FRAME = Path(__file__).with_name("frame.lark")
GRAMMAR = Path(__file__).resolve().parents[1] / "ruleset.lark"
_PLAIN = {"COMMA", "COLON", "SEMICOLON"}
_KEYWORD_LINE = re.compile(r'^[A-Z][A-Z_]*: "([a-z\']+)"$', re.M)  # a one-word keyword, as rulelang/language/grammar.py reads it


def keywords_in(grammar: str) -> list[str]:
    """The one-word keywords a grammar text defines, sorted (what the grammar, once loaded, calls its keywords)."""
    return sorted(_KEYWORD_LINE.findall(grammar))


def _banner(title: str) -> list[str]:
    return ["", "// " + "-" * 75, f"// {title}", "// " + "-" * 75, ""]


def _rule(name: str, alternatives: Iterable[str], prefix: str = "") -> list[str]:
    alts = list(alternatives)
    head = f"{prefix}{name}: "
    return [head + alts[0]] + [" " * (len(head) - 2) + "| " + a for a in alts[1:]]


def _rules() -> dict[str, tuple[str, ...]]:
    """Every statement's grammar rule -> its phrases (settlement rules are shared by both sections: once)."""
    rules: dict[str, tuple[str, ...]] = {}
    for entry in TABLE:
        for rule, phrases in entry.phrases.items():
            if rules.setdefault(rule, phrases) != phrases:
                raise ValueError(f"grammar rule {rule} has two lists of phrases ({entry.key})")
    return rules


def grammar_text() -> str:
    """The text of rulelang/language/ruleset.lark."""
    rules = _rules()
    top = [e for e in TABLE if e.section is None]
    sections = list(dict.fromkeys(e.section for e in TABLE if e.section is not None))
    settle = list(dict.fromkeys(r for e in TABLE if e.section is not None for r in e.phrases))
    body = _rule("statement", [r for e in top for r in e.phrases] + [f"{s}_section" for s in sections], "?")
    for group, title in GROUPS.items():
        entries = [e for e in top if e.group == group]
        if entries:
            body += _banner(f"Statements: {title.lower()}")
            for e in entries:
                for rule, phrases in e.phrases.items():
                    body += _rule(rule, (lark(p, "_NL") for p in phrases))
    body += _banner("Parts of phrases")
    for part in PARTS:
        body += _rule(part.rule, (lark(p) for p in part.phrases))
    body += _banner("Settlement")
    body += [f"{s}_section: " + lark(f"on {s}: {{NL}} {{settle_line}}*") for s in sections]
    body += _rule("settle_line", settle, "?")
    for rule in settle:
        body += _rule(rule, (lark(p, "_NL") for p in rules[rule]))
    words = {w for phrases in rules.values() for p in phrases for w in keywords(p)}
    words |= {w for part in PARTS for p in part.phrases for w in keywords(p)}
    words |= {w for s in sections for w in keywords(f"on {s}:")}
    names: dict[str, str] = {}
    for word in sorted(words):
        name = terminal_name(word)
        if names.setdefault(name, word) != word or name in _PLAIN:
            raise ValueError(f"two keywords are named {name}: {names[name]!r} and {word!r}")
    terminals = [f'{name}: "{word}"' for name, word in sorted(names.items())]
    frame = FRAME.read_text(encoding="utf-8")
    return frame.replace("%%statements%%", "\n".join(body).strip("\n")).replace("%%keywords%%", "\n".join(terminals))
