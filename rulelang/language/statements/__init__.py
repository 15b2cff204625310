"""The statement table: every statement of the language, once, in canonical order.

Adding a statement = one `StatementDef` in one of the modules below, with its
phrase, its field (`field=`) and its feature tag (`features=`): its grammar
rule, its `Fields` line and its features.json line are generated from them
(`python -m rulelang.generate`); then the engine code that obeys it, a
conformance case tagged with it and a changelog line. See docs/language.md, "Adding a statement".
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rulelang.language.statements import claims, deal, header, house, play, scoring, series, settlement
from rulelang.language.statements.table import GROUPS, Doc, Field, Issue, Part, Phrase, StatementDef, Words

__all__ = ["TABLE", "INFO", "ORDER", "PARTS", "PHRASES", "GROUPS", "Part", "StatementDef", "Field", "Doc", "Issue", "Phrase",
           "Words", "for_rule"]

# Canonical order: the order `fmt` writes and explain tells.
TABLE: tuple[StatementDef, ...] = (
    header.STATEMENTS + deal.STATEMENTS + play.STATEMENTS + scoring.STATEMENTS + house.SCORING  # house rules of the match
    + series.STATEMENTS  # a match played as a series of games
    + claims.STATEMENTS  # the muggins rule
    + settlement.STATEMENTS
)
INFO: dict[str, StatementDef] = {s.key: s for s in TABLE}
ORDER: dict[str, int] = {s.key: i for i, s in enumerate(TABLE)}

# The parts of phrases (`{opener_value}`), each with its grammar rule, in the grammar file's order.
PARTS: tuple[Part, ...] = deal.PARTS + play.PARTS + scoring.PARTS + house.PARTS + settlement.PARTS
# Readers of the parts (grammar rule or named alternative -> reader); a part without one reads to its words.
PHRASES: dict[str, Callable[[Phrase], Any]] = {
    **{p.rule: p.read for p in PARTS if p.read is not None}, **{n: r for p in PARTS for n, r in p.named.items()}}

_BY_RULE: dict[tuple[str | None, str], StatementDef] = {(s.section, r): s for s in TABLE for r in s.rules}


def for_rule(rule: str, section: str | None = None) -> tuple[StatementDef | None, bool]:
    """The statement a grammar rule reads to in a section, and whether it is misplaced there.

    A line of one section written under the other is the other section's
    statement, marked misplaced (the checker reports it, `fmt` keeps it).
    """
    found = _BY_RULE.get((section, rule))
    if found is not None or section is None:
        return found, False
    for (sec, r), st in _BY_RULE.items():
        if r == rule and sec is not None:
            return st, True
    return None, False
