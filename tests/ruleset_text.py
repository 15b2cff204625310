"""Helpers of the language's tests: a child ruleset's text, compiled or refused."""
from __future__ import annotations

import rulelang
from rulelang.language.compiler import analyse

HEAD = 'ruleset t "t"\nsource "s"\nbased on {base}\n'


def compiled(base: str, extra: str) -> dict:
    """The configuration of a child of `base` stating `extra` (which must compile)."""
    result = analyse(HEAD.format(base=base) + extra, "t.rules")
    assert result.errors == [], [e.message for e in result.errors]
    assert result.config is not None
    return result.config


def refused(text: str) -> list[rulelang.RulesetError]:
    """The errors of a ruleset text that must not compile."""
    result = analyse(text, "t.rules")
    assert result.errors
    return result.errors


def child_errors(base: str, extra: str) -> list[tuple[str, int | None, int | None, str, str | None]]:
    """(code, line, column, message, hint) of each error of a child of `base` stating `extra` (which must not
    compile)."""
    return [(e.code, e.line, e.column, e.message, e.hint) for e in refused(HEAD.format(base=base) + extra)]
