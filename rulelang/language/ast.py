"""The parsed form of a ruleset: frozen dataclasses that keep their source spans.

A `Ruleset` is a sequence of `Statement`s, each with a `key` (what it states,
e.g. ``"players"``, an entry of the statement table, rulelang/language/statements), a
`value` of that statement's value type (rulelang/language/statements/values.py) and the
`Span` of its line.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from rulelang.language.statements import INFO, ORDER, TABLE, StatementDef
from rulelang.language.statements.values import NO_SPAN, PerCount, Span, Term

__all__ = ["Span", "NO_SPAN", "PerCount", "Term", "Statement", "Ruleset", "STATEMENTS", "StatementInfo", "INFO",
           "ORDER", "written_lines"]

STATEMENTS = TABLE
StatementInfo = StatementDef


@dataclass(frozen=True, slots=True)
class Statement:
    """One stated rule: `key` names it, `value` says it, `span` is its line."""

    key: str
    value: Any
    span: Span = field(compare=False)
    section: str | None = field(default=None, compare=False)  # "domino" / "block" for settlement lines
    misplaced: bool = field(default=False, compare=False)  # a line of the other section written here
    filename: str | None = field(default=None, compare=False, repr=False)  # its file, once inherited


def written_lines(statement: Statement) -> list[int]:
    """The 1-based lines a statement is written on: its own line, and each term line of a section's terms.

    A statement's span runs to the start of the next statement (it takes in the
    end of its line, and any blank or comment lines after it), so its lines are
    where its words are, never what its span reaches.
    """
    lines = [statement.span.line]
    if isinstance(statement.value, tuple):
        lines += [item.span.line for item in statement.value
                  if getattr(item, "span", None) is not None and item.span.line > 0]
    return sorted(set(lines))


@dataclass(frozen=True, slots=True)
class Ruleset:
    """A parsed ruleset text (not yet resolved against its base)."""

    filename: str
    text: str = field(repr=False)
    statements: tuple[Statement, ...]
    sections: tuple[tuple[str, Span], ...] = ()  # ("domino", span of `on domino:`), ...

    @property
    def name(self) -> str | None:
        st = self.get("ruleset")
        return str(st.value.name) if st else None

    @property
    def based_on(self) -> str | None:
        st = self.get("based_on")
        return str(st.value.ref) if st else None

    def get(self, key: str) -> Statement | None:
        """The first statement with this key, or None."""
        for st in self.statements:
            if st.key == key and not st.misplaced:
                return st
        return None

    def keys(self) -> list[str]:
        return [st.key for st in self.statements if not st.misplaced]
