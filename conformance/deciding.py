"""The pairs of values every rule must be told apart by, derived from the field declarations, and the cases that do.

For every field of `rulelang-config/1` (rulelang/config/fields.py) this
derives the values to decide between, from its declaration alone:

- a closed set (a `Literal`, `bool`, a schema `enum`, a `const` with its
  default): every pair of its values;
- a number: the boundary its schema allows (`minimum`), its neighbour, and the
  default when it lies outside (`null`, or 0 for an optional bonus): each
  value against the next (no minimum, as `score_floor`: null, 0 and -1);
- a per-player-count table (`hand_size`, `reserve`, `target.raw_by_count`,
  `target.tie_rounds`): each count 2 to 12 on its own (`reserve.4`), its
  boundary against the neighbour;
- a list of numbers (`scoring.divisors`): `[m]`, `[m+1]`, `[m, m+1]`;
- a settlement term: each key of the term shapes (`settlement.block.terms.kind`,
  `.hands`, `.pooling`, `.rounding`, `.to`, `.sign`, `.per_tile`, `.divisor`)
  with the values the `TypedDict`s allow; the first term of the list is varied.

A new field or value adds its pairs here without an edit. A *deciding case* for
the pair (F, a, b) is a conformance case whose ruleset has F = a, with a key
`"decides": {"field": F, "value": a, "against": [b, ...]}`: its expected
transcript holds under a and differs under the *twin* configuration
`twin(config, F, b)` (F set to b; where that alone is invalid, one other field
changed as well, found deterministically: `twin` says which). The coverage
(`rulelang cases coverage`) lists each pair with its cases; a pair no case
decides must be excused in `deciding-excused.json` with a reason.
"""
from __future__ import annotations

import copy
import json
import types
import typing
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from rulelang.config.declared import Declared, typed
from rulelang.config.fields import Term
from rulelang.config.reading import read_record
from rulelang.config.rules import RULES, config_problems, rule_problems
from rulelang.config.spec import REQUIRED, Schema
from rulelang.config.validation import schema_problems
from rulelang.config.vocabulary import SET_TILES, PlayerCount, literal_values

HERE = Path(__file__).resolve().parent
EXCUSED_PATH = HERE / "deciding-excused.json"
CLAUSES_PATH = HERE / "deciding-clauses.json"
NOT_RULES = frozenset({"format", "name", "title", "source", "based_on"})  # no rule of play: nothing to decide
COUNTS = tuple(literal_values(PlayerCount))
ROUNDINGS = ("none", "round2", "round3")  # the pattern's `none`, its boundary round2 and the neighbour round3

__all__ = ["Pair", "domains", "pairs", "get_value", "set_value", "twin", "valid", "Excuse", "excused",
           "deciding_cases", "Coverage", "coverage", "pair_key", "position", "draws_lots_unseated", "round_ends", "clauses_for"]


@dataclass(frozen=True)
class Pair:
    """Two values of one field that some case must tell apart (`a` before `b` in the field's domain)."""

    field: str
    a: Any
    b: Any

    @property
    def key(self) -> str:
        return pair_key(self.field, self.a, self.b)


def position(values: list[Any], value: Any) -> int | None:
    """The index of VALUE among a field's VALUES, types compared too (True is not 1); None when it is not one."""
    return next((i for i, v in enumerate(values) if type(v) is type(value) and v == value), None)


def pair_key(field: str, a: Any, b: Any) -> str:
    """`target.overshoot: "discard" vs "bounce"`: a pair in words (also its identity)."""
    return f"{field}: {json.dumps(a)} vs {json.dumps(b)}"


# ---------------------------------------------------------------------------------------------- the values

def _strip(hint: Any) -> tuple[Any, dict[str, Any]]:
    """(the type under `Annotated`, the schema keywords it adds)."""
    keywords: dict[str, Any] = {}
    while typing.get_origin(hint) is typing.Annotated:
        args = typing.get_args(hint)
        for extra in args[1:]:
            if isinstance(extra, Schema):
                keywords.update(extra.keywords)
        hint = args[0]
    return hint, keywords


def _is_union(hint: Any) -> bool:
    return typing.get_origin(hint) in (typing.Union, types.UnionType)


def _numbers(low: int, default: Any) -> list[Any]:
    """A number's boundary and its neighbour, after the default when that lies outside the allowed values."""
    out = [low, low + 1]
    return ([default] if default is not REQUIRED and not callable(default) and default not in out else []) + out


def _type_values(hint: Any, default: Any) -> list[Any] | None:
    """The values to decide between for a type; None when it is not a scalar type this knows."""
    hint, kw = _strip(hint)
    origin = typing.get_origin(hint)
    if origin is typing.Literal:
        return list(typing.get_args(hint))
    if hint is bool:
        return [False, True]
    if _is_union(hint):
        args = [a for a in typing.get_args(hint) if a is not type(None)]
        if len(args) == 1:
            inner = _type_values(args[0], REQUIRED)
            if inner is not None:
                return [None, *inner]
        return None
    if hint is int:
        return _numbers(kw["minimum"], default) if "minimum" in kw else None
    return None


def _term_values() -> dict[str, list[Any]]:
    """Each key of a settlement term with the values the term shapes allow (kinds in their declared order)."""
    out: dict[str, list[Any]] = {}
    for shape in typing.get_args(Term):
        for key, hint in typing.get_type_hints(shape, include_extras=True).items():
            _, kw = _strip(hint)
            values = list(ROUNDINGS) if key == "rounding" else _type_values(hint, REQUIRED) or []
            if "minimum" in kw:
                values = [kw["minimum"], kw["minimum"] + 1]
            for v in values:
                if v not in out.setdefault(key, []):
                    out[key].append(v)
    return out


def _field_domains(d: Declared) -> Iterator[tuple[str, list[Any], bool]]:
    """(field, values, closed) for one declared field: closed sets pair every two values, numbers each with the next."""
    spec, hint = d.spec, d.hint
    default = spec.default
    if spec.schema is not None and "enum" in spec.schema:  # the set: 6 (the default) or the values written
        yield spec.dotted, [default, *spec.schema["enum"]], True
        return
    if spec.schema is not None and spec.schema.get("const") is True:
        yield spec.dotted, [False, True], True
        return
    if spec.schema is not None and spec.schema.get("type") == "object":  # a per-count table: each count alone
        low = next(iter(spec.schema["patternProperties"].values()))["minimum"]
        for n in COUNTS:
            yield f"{spec.dotted}.{n}", [low, low + 1], False
        return
    base, kw = _strip(hint)
    if typing.get_origin(base) is tuple:
        item = typing.get_args(base)[0]
        if _is_union(_strip(item)[0]):  # settlement terms
            for key, values in _term_values().items():
                yield f"{spec.dotted}.{key}", values, key not in ("per_tile", "divisor")
            return
        item_base, item_kw = _strip(item)
        if typing.get_origin(item_base) is typing.Literal:
            vals = list(typing.get_args(item_base))
            if spec.dotted == "players.counts":  # each count allowed or not
                for n in vals:
                    yield f"{spec.dotted}.{n}", [False, True], True
            else:  # a subset: none of them, or all
                yield spec.dotted, [[], vals], True
            return
        low = item_kw["minimum"]  # a list of numbers
        yield spec.dotted, [[low], [low + 1], [low, low + 1]], True
        return
    if base is int and "minimum" not in kw or (_is_union(base) and _type_values(base, default) is None):
        yield spec.dotted, [None, 0, -1], False  # an unbounded number or null (score_floor)
        return
    found = _type_values(hint, default)
    assert found is not None, f"{spec.dotted}: a type the derivation of deciding pairs does not know: {hint}"
    closed = _strip(hint)[0] is bool or typing.get_origin(_strip(hint)[0]) is typing.Literal
    yield spec.dotted, found, closed


@cache
def domains() -> dict[str, tuple[list[Any], bool]]:
    """{field: (values, closed)} for every field that states a rule of play, in the declarations' order."""
    out: dict[str, tuple[list[Any], bool]] = {}
    for d in typed():
        if d.spec.dotted in NOT_RULES:
            continue
        for name, values, closed in _field_domains(d):
            out[name] = (values, closed)
    return out


@cache
def pairs() -> tuple[Pair, ...]:
    """Every pair to decide: all pairs of a closed set, each number against the next."""
    out = []
    for name, (values, closed) in domains().items():
        if closed:
            out += [Pair(name, a, b) for i, a in enumerate(values) for b in values[i + 1:]]
        else:
            out += [Pair(name, a, b) for a, b in zip(values, values[1:])]
    return tuple(out)


# ------------------------------------------------------------------------------ a field's value in a config

def _declared(field: str) -> tuple[Declared, str | None]:
    """The declared field under a pair's field name, and the rest (a count, or a term key)."""
    for d in typed():
        if field == d.spec.dotted:
            return d, None
        if field.startswith(d.spec.dotted + "."):
            return d, field[len(d.spec.dotted) + 1:]
    raise KeyError(f"no declared field {field!r}")


def _parent(config: dict[str, Any], path: tuple[str, ...]) -> dict[str, Any]:
    node = config
    for key in path[:-1]:
        node = node.setdefault(key, {})
    return node


def _raw(config: dict[str, Any], d: Declared) -> Any:
    node: Any = config
    for key in d.spec.path:
        if not isinstance(node, dict) or key not in node:
            return d.spec.default_for(config)
        node = node[key]
    return node


def get_value(config: dict[str, Any], field: str) -> Any:
    """The value of a pair's field in a compiled configuration (an absent field: its default)."""
    d, rest = _declared(field)
    value = _raw(config, d)
    if rest is None:
        return list(value) if isinstance(value, tuple) else value
    if d.spec.dotted == "players.counts":
        return int(rest) in value
    if isinstance(value, dict):  # a per-count table
        return value.get(rest)
    terms = [t for t in value or [] if rest in t]  # a settlement term's key: the first term that has it
    return terms[0][rest] if terms else (1 if rest == "divisor" and value else None)


def _new_term(term: dict[str, Any], kind: str) -> dict[str, Any]:
    """TERM made a term of KIND: the keys both shapes have kept where the new shape allows them, the others its first value."""
    shape = next(s for s in typing.get_args(Term) if typing.get_args(typing.get_type_hints(s)["kind"]) == (kind,))
    out: dict[str, Any] = {}
    for key, hint in typing.get_type_hints(shape, include_extras=True).items():
        if key == "divisor":
            continue
        allowed = list(ROUNDINGS[1:]) + ["round5"] if key == "rounding" else _type_values(hint, REQUIRED) or [1]
        out[key] = term[key] if key in term and (key == "rounding" or term[key] in allowed) else allowed[0]
        if key == "rounding" and key not in term:
            out[key] = "round5"
    return out


def set_value(config: dict[str, Any], field: str, value: Any) -> dict[str, Any]:
    """A copy of CONFIG with a pair's FIELD set to VALUE (a value equal to an optional field's default: absent)."""
    out = copy.deepcopy(config)
    d, rest = _declared(field)
    parent = _parent(out, d.spec.path)
    key = d.spec.path[-1]
    if rest is None:
        if not d.spec.required and value == d.spec.default_for(out):
            parent.pop(key, None)
        else:
            parent[key] = value
        return out
    if d.spec.dotted == "players.counts":  # a count allowed with the entries it needs, or taken out with them
        n = int(rest)
        counts = set(parent[key]) - {n} | ({n} if value else set())
        if not counts:
            return out
        parent[key] = sorted(counts)
        top = SET_TILES[out.get("tiles", 6)]
        tables = [out["hand_size"], out["reserve"], out["target"].get("raw_by_count") or {},
                  out["target"].get("tie_rounds") or {}]
        for table in tables:
            if value and table and str(n) not in table:
                table[str(n)] = table[str(min(int(k) for k in table))]
            elif not value:
                table.pop(str(n), None)
        if value:
            out["hand_size"][str(n)] = max(1, min(out["hand_size"][str(n)], (top - 4) // n))
            out["reserve"][str(n)] = 0
        return out
    if d.spec.schema is not None and d.spec.schema.get("type") == "object":
        table = dict(parent.get(key) or {})
        if not table:  # an absent table: every allowed count from the field it refines
            fill = out["target"]["raw"] if d.spec.dotted == "target.raw_by_count" else 1
            table = {str(n): fill for n in out["players"]["counts"]}
        table[rest] = value
        parent[key] = table
        if d.spec.dotted == "target.raw_by_count":  # the target is the smallest count's
            out["target"]["raw"] = table[str(min(out["players"]["counts"]))]
        return out
    terms = [dict(t) for t in parent.get(key) or []]
    if not terms:
        return out
    i = next((k for k, t in enumerate(terms) if rest in t or rest == "divisor"), 0)
    if rest == "kind":
        terms[i] = _new_term(terms[i], value)
    elif rest == "divisor":
        if value == 1:
            terms[i].pop("divisor", None)
        else:
            terms[i]["divisor"] = value
    else:
        terms[i][rest] = value
    parent[key] = terms
    return out


def valid(config: dict[str, Any]) -> bool:
    """Whether a configuration is one a ruleset can state (the one validator of rulelang/config/rules.py)."""
    try:
        return not config_problems(config)
    except (ValueError, KeyError, TypeError):  # the validator's own fault on an odd configuration: not one to use
        return False


def _suspects(config: dict[str, Any]) -> set[str]:
    """The declared fields a fault of CONFIG names: those of the statements a rule names, or under the object a
    schema fault lies in."""
    try:
        faults = config_problems(config)
    except (ValueError, KeyError, TypeError):
        return {d.spec.dotted for d in typed()}
    out = set()
    for fault in faults:
        keys = set(fault.at) | {k for r in RULES if r.code == fault.code for k in r.keys}
        for d in typed():
            if d.spec.statement in keys or (fault.path and (d.spec.pointer + "/").startswith(fault.path.rstrip("/") + "/")):
                out.add(d.spec.dotted)
            elif fault.path and fault.path.startswith(d.spec.pointer + "/"):
                out.add(d.spec.dotted)
    return out


def _repairs(suspects: set[str] | None) -> Iterator[tuple[str, Any]]:
    """The co-changes a twin may make, in a fixed order: each value of each scalar field (among SUSPECTS)."""
    for name, (values, _) in domains().items():
        if name.count(".") and name.rsplit(".", 1)[1].isdigit():
            continue  # per-count entries and allowed counts are never changed on the side
        if suspects is not None and not any(name == f or name.startswith(f + ".") for f in suspects):
            continue
        for v in values:
            yield name, v


def _problems(config: dict[str, Any]) -> int:
    """How far CONFIG is from valid: a fault of the schema weighs more than any number of the rules' (which are
    checked only once the schema holds)."""
    try:
        schema = len(schema_problems(config))
        return 100 * schema if schema else len(rule_problems(read_record(config)))
    except (ValueError, KeyError, TypeError):  # the validator's own fault on an odd configuration
        return 10_000


MAX_CO_CHANGES = 3


def twin(config: dict[str, Any], field: str, value: Any) -> tuple[dict[str, Any], tuple[tuple[str, Any], ...]] | None:
    """CONFIG with FIELD set to VALUE, valid, and the other (field, value)s changed with it where that alone is not
    valid (None: no such twin). Deterministic: the first single co-change of `_repairs` that makes it valid; else,
    while it is invalid, the co-change among the fields its faults name that leaves the fewest problems, at most
    MAX_CO_CHANGES of them (a fixed number of rounds needs its number, no overshoot rule and ties played off)."""
    out = set_value(config, field, value)
    if get_value(out, field) != value:
        return None
    left = _problems(out)
    if not left:
        return out, ()
    for other, v in _repairs(None):  # one co-change, the first in the fixed order that makes it valid
        if other == field or get_value(out, other) == v:
            continue
        fixed = set_value(out, other, v)
        if get_value(fixed, field) == value and valid(fixed):
            return fixed, ((other, v),)
    also: list[tuple[str, Any]] = []  # else several, each leaving the fewest problems
    while left:
        if len(also) == MAX_CO_CHANGES:
            return None
        best: tuple[int, dict[str, Any], tuple[str, Any]] | None = None
        for other, v in _repairs(_suspects(out)):
            if other == field or any(other == f for f, _ in also) or get_value(out, other) == v:
                continue
            fixed = set_value(out, other, v)
            if get_value(fixed, field) != value:
                continue
            n = _problems(fixed)
            if n < left and (best is None or n < best[0]):
                best = (n, fixed, (other, v))
                if n == 0:
                    break
        if best is None:
            return None
        left, out = best[0], best[1]
        also.append(best[2])
    return out, tuple(also)


def round_ends(observations: list[dict[str, Any]]) -> list[str]:
    """How each round of a case's transcript ended (`domino`, `blocked`, `target`), in order."""
    out: list[str] = []
    last = None
    for o in observations:
        rnd = o.get("round")
        key = json.dumps(rnd, sort_keys=True)
        if rnd and key != last:
            out.append(rnd["kind"])
        last = key if rnd else None
    return out


def draws_lots_unseated(config: dict[str, Any], data: dict[str, Any], ends: list[str]) -> bool:
    """Whether CONFIG would draw lots for a round the case DATA leaves to the rule (`opener: null`), the rounds before
    having ended as ENDS says: the cases give a seat wherever the rule draws lots (PROTOCOL.md 3.9), so such a
    configuration is no twin of that case."""
    op = config["opener"]
    deals = [data["setup"], *data.get("next_rounds", [])]
    for i, deal in enumerate(deals):
        if deal.get("opener") is not None:
            continue
        if i == 0:
            rule = op["first_round"]
        elif i - 1 < len(ends):
            rule = op["after_domino"] if ends[i - 1] == "domino" else op["after_block"]
        else:
            break  # a round the case never reaches
        if rule == "lottery":
            return True
    return False


def clauses_for(field: str) -> list[str]:
    """The clauses (conformance/clauses.json) a field's deciding cases test (conformance/deciding-clauses.json)."""
    d, _ = _declared(field)
    found: list[str] = _clause_map().get(d.spec.dotted, [])
    return found


@cache
def _clause_map() -> dict[str, list[str]]:
    doc = json.loads(CLAUSES_PATH.read_text(encoding="utf-8"))
    return dict(doc["clauses"])


# ------------------------------------------------------------------------------------- excuses and coverage

@dataclass(frozen=True)
class Excuse:
    """Pairs no position can tell apart, and why: every pair of `field` (values: null) or those among `values`."""

    field: str
    values: tuple[Any, ...] | None
    reason: str

    def covers(self, pair: Pair) -> bool:
        return pair.field == self.field and (self.values is None or (pair.a in self.values and pair.b in self.values))


@cache
def excused() -> tuple[Excuse, ...]:
    """The excuses of conformance/deciding-excused.json."""
    doc = json.loads(EXCUSED_PATH.read_text(encoding="utf-8"))
    return tuple(Excuse(e["field"], None if e.get("values") is None else tuple(e["values"]), e["reason"])
                 for e in doc["excused"])


def deciding_cases(cases: list[Any], field: str | None = None) -> dict[str, list[Any]]:
    """{pair key: [the cases that decide it]} over CASES (conformance.cases.Case) carrying `decides`."""
    out: dict[str, list[Any]] = {}
    for case in cases:
        dec = case.data.get("decides")
        if not dec or (field is not None and dec["field"] != field):
            continue
        values = domains().get(dec["field"], ([], True))[0]
        for other in dec["against"]:
            a, b = dec["value"], other
            i, j = position(values, a), position(values, b)
            if i is not None and j is not None and j < i:
                a, b = b, a
            out.setdefault(pair_key(dec["field"], a, b), []).append(case)
    return out


@dataclass
class Coverage:
    """Every pair with its deciding case ids, or its excuse; the pairs with neither are uncovered."""

    rows: list[tuple[Pair, list[str], str | None]]  # (pair, case ids, excuse reason)

    @property
    def uncovered(self) -> list[Pair]:
        return [p for p, ids, why in self.rows if not ids and why is None]

    def to_dict(self) -> dict[str, Any]:
        rows = [{"field": p.field, "a": p.a, "b": p.b, "cases": ids, **({"excused": why} if why and not ids else {})}
                for p, ids, why in self.rows]
        decided = sum(1 for r in rows if r["cases"])
        return {"format": "rulelang-deciding-coverage/1",
                "summary": {"pairs": len(rows), "decided": decided, "excused": sum(1 for r in rows if "excused" in r),
                            "uncovered": len(self.uncovered)},
                "pairs": rows, "uncovered": [{"field": p.field, "a": p.a, "b": p.b} for p in self.uncovered]}


def coverage(cases: list[Any]) -> Coverage:
    """The coverage of every derived pair by CASES and the excuses."""
    found = deciding_cases(cases)
    rows = []
    for p in pairs():
        why = next((e.reason for e in excused() if e.covers(p)), None)
        rows.append((p, [c.id for c in found.get(p.key, [])], why))
    return Coverage(rows)
