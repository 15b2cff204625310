"""Statements of the name, the source and the base."""
from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

from rulelang.language.statements.phrase import fill
from rulelang.language.statements.table import Doc, Fields, Issue, Phrase, StatementDef, reads_field, sets_field
from rulelang.language.statements.values import Based, Named

RULESET, SOURCE = "ruleset {NAME} {TEXT}", "source {TEXT}"
BASED = {"name": "based on {NAME}", "path": "based on {TEXT}"}


def _set_name(v: Named, c: Fields) -> Fields:
    return replace(c, name=v.name, title=v.title)


def _check_name(v: Named) -> Iterator[Issue]:
    if not v.title.strip():
        yield Issue("empty-text", "the title is empty", 'write a title, e.g. `ruleset my-fives "My Fives"`')


def _check_source(v: str) -> Iterator[Issue]:
    if not v.strip():
        yield Issue("empty-text", "the source is empty", "say where these rules come from")


def _read_based(p: Phrase) -> Based:
    if p.strings:
        return Based("path", p.strings[0])
    return Based("name", str(p.tokens[-1]))


def _based_from_config(c: Fields) -> Based | None:
    based = c.based_on
    if not based:
        return None
    return Based("name", based) if "/" not in based and not based.endswith(".rules") else Based("path", based)


def _set_based(v: Based, c: Fields) -> Fields:
    """The label is set by the compiler (the name or path as the child wrote it)."""
    return c


STATEMENTS: tuple[StatementDef, ...] = (
    StatementDef(
        key="ruleset", words="the ruleset's name and title", group=0, phrases={"ruleset_stmt": (RULESET,)},
        read=lambda p: Named(str(p.tokens[1]), p.strings[0]),
        fmt=lambda v: [fill(RULESET, v.name, v.title)],
        explain=lambda v, c: f"{v.title} (`{v.name}`).",
        resolve=_set_name, from_config=lambda c: Named(c.name, c.title),
        examples=('ruleset my-fives "My Fives"',),
        docs=(Doc('`ruleset NAME "TITLE"`', "the ruleset's name (lower case letters, digits, `-`, starting with "
                  "a letter) and title", "`name`, `title`"),),
        tags=("inline-ruleset",), check=_check_name, inherited=False),
    StatementDef(
        key="source", words="the source of the rules", group=0, phrases={"source_stmt": (SOURCE,)},
        read=lambda p: p.strings[0], fmt=lambda v: [fill(SOURCE, v)],
        explain=lambda v, c: f"Source: {v}.",
        resolve=sets_field("source"), from_config=reads_field("source"),
        examples=('source "where these rules come from"',),
        docs=(Doc('`source "TEXT"`', "where the rules come from; house variants say so here", "`source`"),),
        tags=("inline-ruleset",), check=_check_source, inherited=False),
    StatementDef(
        key="based_on", words="the base ruleset", group=0, phrases={"based_stmt": tuple(BASED.values())},
        read=_read_based,
        fmt=lambda v: [fill(BASED[v.kind], v.ref)],
        explain=lambda v, c: f"Based on {v.ref}.",
        resolve=_set_based, from_config=_based_from_config,
        examples=("based on allfives", 'based on "house.rules"'),
        docs=(Doc('`based on NAME` / `based on "PATH"`', "start from a bundled ruleset, or from a `.rules` file "
                  "(a path relative to this file's folder)", "`based_on`"),),
        tags=("inline-ruleset",), required=False, inherited=False),
)
