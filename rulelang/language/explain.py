"""Plain English from a compiled configuration (`rulelang explain`, `rulelang diff`).

Everything here reads the configuration, never the ruleset text, so a reader
can check what the engine will do against a rule book. A configuration comes
in as its JSON and is read once into its typed record (`Fields`).
"""
from __future__ import annotations

from collections.abc import Set
from dataclasses import dataclass

from rulelang.base.jsontypes import ConfigJSON
from rulelang.language.ast import Statement
from rulelang.language.formatter import record_statements, statement_lines
from rulelang.language.statements import GROUPS, INFO, TABLE
from rulelang.language.statements.record import Fields, read_record
from rulelang.language.statements.settlement import term_sentence

__all__ = ["Sentence", "explain_config", "explain_text", "diff_configs", "describe", "term_sentence", "sentence_for",
           "statement_words"]

HEADINGS = {g: words for g, words in GROUPS.items() if g}


@dataclass(frozen=True, slots=True)
class Sentence:
    key: str
    text: str
    inherited: bool = False


def describe(key: str, v: object, config: Fields) -> str:
    """One statement of a configuration in plain English."""
    return INFO[key].explain(v, config)


def explain_config(config: ConfigJSON, inherited: Set[str] | None = None) -> list[tuple[str, list[Sentence]]]:
    """Sections of sentences (heading, sentences) describing a configuration."""
    return _sections(read_record(config), inherited or set())


def _sections(record: Fields, inherited: Set[str]) -> list[tuple[str, list[Sentence]]]:
    groups: dict[int, list[Sentence]] = {}
    for key, value in record_statements(record):
        info = INFO[key]
        if info.group == 0:
            continue
        text = describe(key, value, record)
        if text:  # an empty sentence: the rule does not apply in this game (when branches open, with none)
            groups.setdefault(info.group, []).append(Sentence(key, text, key in inherited))
    return [(HEADINGS[g], groups[g]) for g in sorted(groups)]


def explain_text(config: ConfigJSON, inherited: Set[str] | None = None) -> str:
    """The whole explanation as plain text; inherited rules are marked `(from BASE)`."""
    record = read_record(config)
    base = record.based_on
    out = [f"{record.title} ({record.name})", f"Source: {record.source}"]
    if base:
        out.append(f"Based on {base}: rules marked (from {base}) are inherited, the others are stated here.")
    for heading, sentences in _sections(record, inherited or set()):
        out.append("")
        out.append(heading)
        for s in sentences:
            mark = f" (from {base})" if s.inherited and base else ""
            out.append(f"- {s.text}{mark}")
    return "\n".join(out) + "\n"


def sentence_for(config: ConfigJSON, key: str) -> str | None:
    """The `explain` sentence of one statement of a configuration, or None (a rule it does not apply)."""
    for _heading, sentences in explain_config(config):
        for s in sentences:
            if s.key == key:
                return s.text
    return None


def statement_words(statement: Statement) -> str:
    """What a statement states and how `fmt` writes it: `The hand size: hand 6 tiles` (when it cannot be
    explained yet: the text does not state a rule its sentence depends on)."""
    words = INFO[statement.key].words
    return f"{words[:1].upper()}{words[1:]}: `{'; '.join(statement_lines(statement.key, statement.value))}`."


def diff_configs(a: ConfigJSON, b: ConfigJSON) -> list[tuple[str, str, str]]:
    """The rules on which two configurations differ: (what, how A says it, how B says it)."""
    return _diff(read_record(a), read_record(b))


def _diff(a: Fields, b: Fields) -> list[tuple[str, str, str]]:
    out = []
    va = dict(record_statements(a))
    vb = dict(record_statements(b))
    for info in TABLE:
        if info.group == 0:
            continue
        if info.key not in va or info.key not in vb:  # an optional statement at its default in one of them
            if va.get(info.key, info.meta.get("default")) != vb.get(info.key, info.meta.get("default")):
                out.append((info.words, _said(info.key, va.get(info.key, info.meta.get("default")), a),
                            _said(info.key, vb.get(info.key, info.meta.get("default")), b)))
            continue
        x = [getattr(a, d.attr) for d in info.declared]
        y = [getattr(b, d.attr) for d in info.declared]
        if x != y:
            x_v, y_v = (v.get(info.key, info.meta.get("default")) for v in (va, vb))  # an omitted default
            out.append((info.words, _said(info.key, x_v, a), _said(info.key, y_v, b)))
    return out


def _said(key: str, v: object, config: Fields) -> str:
    """`describe` for a diff, which names both sides even where a rule does not apply."""
    return describe(key, v, config) or f"(does not apply: {INFO[key].words})"
