"""Warnings for inherited amounts whose raw value a new scoring unit changes.

An amount stated in shown points ("target at least 61 shown points") means
raw points times the unit. A child that restates the unit (`points are shown
raw`) but inherits the amount silently changes its raw value (305 -> 61):
the ruleset stays valid, so the author is warned, with the old and the new
raw value and the line that keeps the old one.
"""
from __future__ import annotations

from dataclasses import replace

from rulelang.base.errors import RulesetError, RulesetWarning
from rulelang.language.ast import Ruleset, Statement
from rulelang.language.statements import INFO
from rulelang.language.statements.record import Fields, record_json


def _leaves(value: object, path: str = "") -> dict[str, object]:
    """Every scalar of a configuration's JSON (or a part of it) by its dotted path."""
    if isinstance(value, dict):
        out: dict[str, object] = {}
        for k, v in value.items():
            out.update(_leaves(v, f"{path}.{k}" if path else str(k)))
        return out
    if isinstance(value, list):
        out = {}
        for i, v in enumerate(value):
            out.update(_leaves(v, f"{path}[{i}]"))
        return out
    return {path: value}


def _resolved(st: Statement, cfg: Fields, unit: int) -> Fields:
    """The configuration with `st` applied again under `unit`."""
    return replace(INFO[st.key].resolve(st.value, replace(cfg, unit=unit)), unit=cfg.unit)


def _old_unit(inherited: tuple[Statement, ...], cfg: Fields) -> int | None:
    """The unit the base states, by resolving its unit statement."""
    st = next((s for s in inherited if s.key == "unit"), None)
    if st is None:
        return None
    return INFO["unit"].resolve(st.value, cfg).unit


def inherited_amount_warnings(ruleset: Ruleset, cfg: Fields, own: dict[str, Statement],
                              inherited: tuple[Statement, ...], base_label: str | None) -> list[RulesetError]:
    """One warning per inherited statement whose raw amounts the ruleset's own unit changes."""
    if "unit" not in own or base_label is None:
        return []
    new, old = cfg.unit, _old_unit(inherited, cfg)
    if old is None or old == new:
        return []
    at = own["unit"]
    lines = ruleset.text.split("\n")
    src = lines[at.span.line - 1] if 0 < at.span.line <= len(lines) else ""
    out: list[RulesetError] = []
    for st in inherited:
        if st.key in own or st.key == "unit" or not INFO[st.key].inherited:
            continue
        try:
            before, after = _resolved(st, cfg, old), _resolved(st, cfg, new)
        except (KeyError, TypeError, ValueError):  # a statement that needs more than the config holds
            continue
        was, now = _leaves(record_json(before)), _leaves(record_json(after))
        changed = [(path, was[path], now.get(path)) for path in was if was[path] != now.get(path)]
        if not changed:
            continue
        restate = "; ".join(INFO[st.key].fmt(INFO[st.key].from_config(replace(before, unit=new))))
        values = ", ".join(f"`{path}` {a} -> {b}" for path, a, b in changed)
        out.append(RulesetWarning(
            "inherited-amount-unit",
            f"{INFO[st.key].words} (inherited from `{base_label}`) is stated in shown points: with the new unit "
            f"its raw value changes ({values} raw points)",
            filename=ruleset.filename, line=at.span.line, column=at.span.column,
            end_column=at.span.end_column if at.span.end_line == at.span.line else len(src.rstrip()) + 1,
            source_line=src,
            hint=f"restate it: write `{restate}` to keep {changed[0][1]} raw points, or state the amount you mean"))
    return out
