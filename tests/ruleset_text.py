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


def header(name: str, base: str) -> str:
    """The three header lines of a ruleset NAME based on BASE."""
    return f'ruleset {name} "{name}"\nsource "a test of the compiler"\nbased on {base}\n'


def compile_errors(text: str, filename: str = "t.rules") -> list[tuple[str, str, str | None]]:
    """(code, message, hint) of each error of a ruleset text that must not compile."""
    result = analyse(text, filename)
    assert result.config is None and result.errors
    return [(e.code, e.message, e.hint) for e in result.errors]


def one_problem(text: str) -> tuple[str, str, str | None]:
    """The one error of a child of muggins stating TEXT."""
    [found] = compile_errors(header("t", "muggins") + text)
    return found


# `if nobody holds the opening double: ...`: each value's words, as a test writes them
NO_DOUBLE = {
    "heaviest-tile": "the heaviest tile leads",
    "draw": "each player in turn draws until a double turns up",
    "heaviest-hand": "the heaviest hand leads",
    "next-seat": "the lead passes to the next seat",
    "redeal": "the tiles are dealt again",
}


def opening_text(no_double: str | None = None, opener: str | None = None, base: str = "allfives") -> str:
    """A ruleset based on BASE whose three openers are OPENER and whose no-double fallback is NO_DOUBLE's."""
    out = f'ruleset h "H"\nsource "a test"\nbased on {base}\n'
    if opener:
        out += "".join(f"opener {when}: {opener}\n" for when in ("of the first round", "after a domino",
                                                                  "after a block"))
    if no_double:
        out += f"if nobody holds the opening double: {NO_DOUBLE[no_double]}\n"
    return out
