"""What identify found, said: the ruleset the engine plays, the report on standard output and its JSON.

The ruleset is written in the language: `based on` the claimed variant, then
only the statements whose value the engine's answers changed (a text that
compiles to exactly the identified configuration; where a `based on` text
cannot say it, every statement is written). The differences in words are the
ones `rulelang diff` prints.
"""
from __future__ import annotations

import json
import re
from typing import Any

import rulelang
from rulelang.language.explain import diff_configs
from rulelang.language.formatter import config_statements, config_to_text, statement_lines, statements_to_text
from rulelang.language.statements import INFO

from .identify import FieldResult, Identification

FORMAT = "rulelang-identify/1"
HEADER = ("ruleset", "source", "based_on")
NOT_RULES = ("format", "name", "title", "source", "based_on")


def engine_name(ident: Identification) -> str:
    impl = (ident.engine.get("implementation") or {}) if isinstance(ident.engine, dict) else {}
    name = str(impl.get("name") or "the engine")
    return f"{name} {impl['version']}" if impl.get("version") else name


def _rules(config: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in config.items() if k not in NOT_RULES}


def ruleset_text(ident: Identification) -> str:
    """A ruleset text of what the engine plays: the claimed variant and the changes found."""
    name = re.sub(r"[^a-z0-9-]+", "-", f"{ident.claimed}-as-played".lower()).strip("-")
    played = dict(ident.config, name=name, title=f"{ident.claimed_config['title']}, as {engine_name(ident)} plays it",
                  source=f"identified by rulelang identify from the answers of {engine_name(ident)}")
    text = _based_on(played, ident.claimed, ident.claimed_config) if ident.claimed in rulelang.bundled_names() else None
    if text is None:
        text = config_to_text(dict(played, based_on=None))
    # a field no value agreed with keeps the claimed value, and the text says so where a reader sees it first
    notes = [f"# {r.field}: none of the language's values agrees with the engine; the claimed "
             f"{_value(r.claimed)} is kept here" for r in ident.none]
    return "".join(n + "\n" for n in notes) + text


def _based_on(played: dict[str, Any], base: str, base_config: dict[str, Any]) -> str | None:
    """`based on BASE` and the statements that differ from it; None when that does not compile to `played`."""
    ours = dict(config_statements(dict(played, based_on=base)))
    theirs = dict(config_statements(base_config))
    said = {k: statement_lines(k, v) for k, v in ours.items() if k in HEADER or theirs.get(k) != v}
    for key in theirs.keys() - ours.keys():  # stated by the base, at its default here: restated
        default = INFO[key].meta.get("default")
        if default is None:
            return None
        said[key] = statement_lines(key, default)
    text = statements_to_text(said)
    try:
        back = rulelang.compile_text(text, f"{played['name']}.rules")
    except Exception:
        return None
    return text if _rules(back) == _rules(played) else None


def differences(ident: Identification) -> list[tuple[str, str, str]]:
    """(what, as the claimed variant says it, as the engine plays it) for every rule that differs."""
    return diff_configs(ident.claimed_config, ident.config)


def _value(v: Any) -> str:
    return "-" if v is None else json.dumps(v)


def _evidence(r: FieldResult) -> str:
    """The case that refutes the claimed value, and its first difference."""
    e = next((e for e in r.evidence if e.get("value") == r.claimed), r.evidence[0] if r.evidence else None)
    if e is None:
        return ""
    d = e.get("difference") or {}
    return (f"case {e['case']}, step {d.get('step')} ({d.get('move', '?')}): {d.get('path')} expected "
            f"{json.dumps(d.get('expected'))} under {_value(e['value'])}, got {json.dumps(d.get('got'))}")


def field_line(r: FieldResult) -> str:
    """One field in words: its value and how the engine's answers showed it."""
    if r.status == "not-asked":
        return f"{r.field} = {_value(r.value)}: not asked ({r.note})"
    if r.status == "error":
        return f"{r.field}: not identified: {r.note}"
    if r.status == "none":
        return f"{r.field}: none of the language's values ({', '.join(map(_value, r.values))}): {_evidence(r)}"
    said = f"{r.field} = {_value(r.value)}"
    if r.changed:
        said += f" (claimed {_value(r.claimed)}: {_evidence(r)})"
    if r.status == "untold":
        alike = [_value(v) for v in r.agree if v != r.value]
        said += f"; the positions found do not tell it from {', '.join(alike)}"
    return said


def report_lines(ident: Identification) -> list[str]:
    """The report on standard output: every field, then the differences in words."""
    asked = [r for r in ident.fields if r.status != "not-asked"]
    out = [f"{engine_name(ident)} claims {ident.claimed}; {len(asked)} fields asked with {ident.cases_run} cases", ""]
    out += [field_line(r) for r in ident.fields]
    out.append("")
    if ident.none:
        out.append(f"{len(ident.none)} field(s) agree with none of the language's values: "
                   + ", ".join(r.field for r in ident.none))
    diffs = differences(ident)
    if not diffs:
        out.append(f"The engine plays {ident.claimed} as claimed"
                   + (" (but for the fields above that agree with no value)." if ident.none else "."))
        return out
    noun = "rule" if len(diffs) == 1 else "rules"
    out.append(f"The engine plays {ident.claimed} with {len(diffs)} {noun} changed:")
    width = max(len(ident.claimed), len("played"))
    for what, a, b in diffs:
        out += ["", what[0].upper() + what[1:], f"  {ident.claimed.ljust(width)}  {a}", f"  {'played'.ljust(width)}  {b}"]
    return out


def to_dict(ident: Identification, text: str | None) -> dict[str, Any]:
    """The report as JSON (`rulelang identify --json`)."""
    diffs = differences(ident)
    return {"format": FORMAT, "engine": ident.engine.get("implementation") or {}, "claimed": ident.claimed,
            "cases_run": ident.cases_run, "same": not diffs and not ident.none and ident.complete,
            "fields": [r.to_dict() for r in ident.fields],
            "none": [r.field for r in ident.none], "errors": ident.errors,
            "differences": [{"what": w, "claimed": a, "played": b} for w, a, b in diffs],
            "ruleset": text}
