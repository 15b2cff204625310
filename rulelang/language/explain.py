"""Plain English from a compiled configuration (`rulelang explain`, `rulelang diff`).

Everything here reads the configuration, never the ruleset text, so a reader
can check what the engine will do against a rule book.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rulelang.language.formatter import config_statements
from rulelang.language.statements import GROUPS, INFO, TABLE
from rulelang.language.statements.settlement import term_sentence
from rulelang.language.statements.table import get_path

__all__ = ["Sentence", "explain_config", "explain_text", "diff_configs", "describe", "term_sentence"]

HEADINGS = {g: words for g, words in GROUPS.items() if g}


@dataclass(frozen=True, slots=True)
class Sentence:
    key: str
    text: str
    inherited: bool = False


def describe(key: str, v: Any, config: dict[str, Any]) -> str:
    """One statement of a configuration in plain English."""
    return INFO[key].explain(v, config)


def explain_config(config: dict[str, Any], inherited: set[str] | None = None) -> list[tuple[str, list[Sentence]]]:
    """Sections of sentences (heading, sentences) describing a configuration."""
    inherited = inherited or set()
    groups: dict[int, list[Sentence]] = {}
    for key, value in config_statements(config):
        info = INFO[key]
        if info.group == 0:
            continue
        text = describe(key, value, config)
        if text:  # an empty sentence: the rule does not apply in this game (when branches open, with none)
            groups.setdefault(info.group, []).append(Sentence(key, text, key in inherited))
    return [(HEADINGS[g], groups[g]) for g in sorted(groups)]


def explain_text(config: dict[str, Any], inherited: set[str] | None = None) -> str:
    """The whole explanation as plain text; inherited rules are marked `(from BASE)`."""
    base = config.get("based_on")
    out = [f"{config['title']} ({config['name']})", f"Source: {config['source']}"]
    if base:
        out.append(f"Based on {base}: rules marked (from {base}) are inherited, the others are stated here.")
    for heading, sentences in explain_config(config, inherited):
        out.append("")
        out.append(heading)
        for s in sentences:
            mark = f" (from {base})" if s.inherited and base else ""
            out.append(f"- {s.text}{mark}")
    return "\n".join(out) + "\n"


def _get(config: dict[str, Any], path: tuple[str, ...]) -> Any:
    """A field's value, None when an optional field is omitted."""
    try:
        return get_path(config, path)
    except KeyError:
        return None


def diff_configs(a: dict[str, Any], b: dict[str, Any]) -> list[tuple[str, str, str]]:
    """The rules on which two configurations differ: (what, how A says it, how B says it)."""
    out = []
    va = dict(config_statements(a))
    vb = dict(config_statements(b))
    for info in TABLE:
        if info.group == 0:
            continue
        if info.key not in va or info.key not in vb:  # an optional statement at its default in one of them
            if va.get(info.key, info.meta.get("default")) != vb.get(info.key, info.meta.get("default")):
                out.append((info.words, _said(info.key, va.get(info.key, info.meta.get("default")), a),
                            _said(info.key, vb.get(info.key, info.meta.get("default")), b)))
            continue
        x = [_get(a, f.path) for f in info.fields]
        y = [_get(b, f.path) for f in info.fields]
        if x != y:
            x_v, y_v = (v.get(info.key, info.meta.get("default")) for v in (va, vb))  # an omitted default
            out.append((info.words, _said(info.key, x_v, a), _said(info.key, y_v, b)))
    return out


def _said(key: str, v: Any, config: dict[str, Any]) -> str:
    """`describe` for a diff, which names both sides even where a rule does not apply."""
    return describe(key, v, config) or f"(does not apply: {INFO[key].words})"
