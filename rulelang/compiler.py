"""`Ruleset` -> the compiled configuration dict (docs/config.md), with every check.

Steps: (1) check each statement alone and that none is given twice;
(2) resolve the base (`based on`), or require every statement; (3) apply the
statements over the base in canonical order; (4) check the rules against each
other; (5) validate against the shipped JSON schema, a final guard.
Every error found is collected; the caller raises them together.
"""
from __future__ import annotations

import copy
import difflib
import json
import os
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from typing import Any

from rulelang.ast import INFO, ORDER, STATEMENTS, PerCount, Ruleset, Span, Statement, Term
from rulelang.bundled import bundled_filename, bundled_names, bundled_text
from rulelang.errors import RulesetCheckError, RulesetError

__all__ = ["Compiled", "analyse", "compile_ruleset", "config_schema", "validate_config", "FORMAT"]

FORMAT = "rulelang-config/1"
TILES_IN_SET = 28

OPENERS = {
    "opener_first": ("lottery", "highest-double"),
    "opener_domino": ("dominoer", "lottery", "highest-double", "next-seat"),
    "opener_block": ("lottery", "highest-double", "next-seat", "block-winner"),
}
OPENER_WORDS = {
    "lottery": "lottery",
    "highest-double": "the highest double",
    "dominoer": "the dominoer",
    "next-seat": "the next seat",
    "block-winner": "the block winner",
}


@cache
def _schema_text() -> str:
    return resources.files("rulelang").joinpath("schema/config.schema.json").read_text(encoding="utf-8")


def config_schema() -> dict[str, Any]:
    """The JSON schema of the compiled configuration (a fresh copy)."""
    return json.loads(_schema_text())


@cache
def _validator() -> Any:
    import jsonschema

    schema = json.loads(_schema_text())
    cls = jsonschema.validators.validator_for(schema)
    return cls(schema)


def validate_config(config: Any) -> list[str]:
    """Schema violations of a configuration, as `path: message` strings (empty when valid)."""
    out = []
    for err in sorted(_validator().iter_errors(config), key=lambda e: list(e.absolute_path)):
        path = "/".join(str(p) for p in err.absolute_path) or "(top)"
        out.append(f"{path}: {err.message}")
    return out


@dataclass
class Compiled:
    """The outcome of compiling one text: the config (None on errors), where each rule came from."""

    ruleset: Ruleset | None
    config: dict[str, Any] | None
    errors: list[RulesetError]
    # statement key -> the Statement that set it, or None when inherited from the base
    origins: dict[str, Statement | None] = field(default_factory=dict)
    base_label: str | None = None


class _Checker:
    """Collects check errors for one ruleset, pointing into its text."""

    def __init__(self, ruleset: Ruleset) -> None:
        self.ruleset = ruleset
        self.lines = ruleset.text.split("\n")
        self.errors: list[RulesetError] = []
        self.bad_keys: set[str] = set()  # statements with an error of their own: later checks skip them

    def error(self, code: str, message: str, span: Span | None, hint: str | None = None) -> None:
        if span is None:
            span = Span(1, 1, 1, 2)
        src = self.lines[span.line - 1] if 0 < span.line <= len(self.lines) else ""
        end = span.end_column if span.end_line == span.line else len(src.rstrip()) + 1
        self.errors.append(RulesetCheckError(
            code, message, filename=self.ruleset.filename, line=span.line, column=span.column,
            end_column=end, source_line=src, hint=hint))


def _header_span(ruleset: Ruleset) -> Span | None:
    st = ruleset.get("ruleset")
    return st.span if st else None


# ---------------------------------------------------------------------------
# (1) each statement alone
# ---------------------------------------------------------------------------

def _check_statement(ck: _Checker, st: Statement) -> None:
    key, v = st.key, st.value
    if key not in INFO:
        # a settlement line under the wrong section
        if key == "domino_winner":
            ck.error("misplaced-line", "a domino has no `winner:` line: its winner is the player who dominoed",
                     st.span, "move this line under `on block:`")
        else:  # pragma: no cover - the grammar allows no other keys
            ck.error("misplaced-line", "this line does not belong here", st.span)
        return
    if key == "ruleset":
        if not v[1].strip():
            ck.error("empty-text", "the title is empty", st.span, 'write a title, e.g. `ruleset my-fives "My Fives"`')
    elif key == "source":
        if not v.strip():
            ck.error("empty-text", "the source is empty", st.span, "say where these rules come from")
    elif key == "players":
        (kind, *nums), partner = v
        if kind == "range" and nums[0] > nums[1]:
            ck.error("player-count", f"`{nums[0]} to {nums[1]}` counts backwards", st.span,
                     f"write `players {nums[1]} to {nums[0]}`")
        for n in nums:
            if n not in (2, 3, 4):
                ck.error("player-count", f"{n} is not a player count: a ruleset allows 2, 3 or 4 players",
                         st.span, "write e.g. `players 2 to 4`")
                break
        if kind == "list" and len(set(nums)) != len(nums):
            ck.error("player-count", "a player count is given twice", st.span)
        if partner and partner[0] == "with" and partner[1] != 4:
            ck.error("partnerships-need-4", f"partnerships need 4 players, not {partner[1]}", st.span,
                     "write `partnerships with 4` or `no partnerships`")
    elif key in ("hand", "reserve"):
        seen: set[int] = set()
        for n, _size in v.by_count:
            if n in seen:
                ck.error("per-count", f"{INFO[key].words} for {n} players is given twice", st.span)
            seen.add(n)
        sizes = [v.uniform] if v.uniform is not None else [s for _, s in v.by_count]
        if key == "hand" and any(s < 1 for s in sizes):
            ck.error("bad-number", "a hand needs at least 1 tile", st.span, "write e.g. `hand 5 tiles`")
        if any(s > TILES_IN_SET for s in sizes):
            ck.error("too-many-tiles", f"a double-six set has only {TILES_IN_SET} tiles", st.span)
    elif key in OPENERS:
        if v not in OPENERS[key]:
            allowed = " or ".join(f"`{OPENER_WORDS[o]}`" for o in OPENERS[key])
            words = INFO[key].words
            ck.error("bad-opener", f"{words} cannot be {OPENER_WORDS[v]}", st.span,
                     f"expected {allowed}")
    elif key == "scoring":
        if v[0] and v[1] < 1:
            ck.error("bad-number", "placements cannot score multiples of 0", st.span,
                     "write `placements score multiples of 5`")
    elif key == "unit":
        raw, shown = v
        if shown != 1 or raw not in (1, 5):
            ck.error("bad-unit", f"{raw} raw points cannot make {shown} shown point", st.span,
                     "write `5 raw points make 1 shown point` or `points are shown raw`")
    elif key == "target":
        if v[1] < 1:
            ck.error("bad-number", "the target must be at least 1 point", st.span)
    elif key in ("domino_terms", "block_terms"):
        for term in v:
            if term.rounding == "round5" and term.rounding_number != 5:
                ck.error("bad-rounding", f"hands can be rounded to 5 only, not to {term.rounding_number}",
                         term.span, "write `rounded to 5` or `not rounded`")
            if term.kind == "hands" and term.pooling == "pooled" and term.to == "owner":
                ck.error("pooled-to-owner", "a pooled amount has no single owner", term.span,
                         "write `separately` to score each hand for its owner, or `the winner`")
    elif key == "block_events":
        if v[1]:
            ck.error("misplaced-line", "a block has no last placement to settle with", st.span,
                     "`with the last placement` belongs under `on domino:`")


def check_statements(ck: _Checker) -> None:
    """Every statement alone, and none given twice."""
    first: dict[str, Statement] = {}
    for st in ck.ruleset.statements:
        before = len(ck.errors)
        _check_statement(ck, st)
        if len(ck.errors) > before:
            ck.bad_keys.add(st.key)
        if st.key in first:
            ck.bad_keys.add(st.key)
            prev = first[st.key]
            words = INFO[st.key].words if st.key in INFO else st.key
            ck.error("duplicate-statement", f"{words} is given twice (first on line {prev.span.line})",
                     st.span, "a ruleset states each rule once: remove one of them")
        else:
            first[st.key] = st
    seen_sections: dict[str, Span] = {}
    for name, span in ck.ruleset.sections:
        if name in seen_sections:
            ck.error("duplicate-statement",
                     f"the section `on {name}:` is given twice (first on line {seen_sections[name].line})",
                     span, f"put every line of `on {name}:` under one header")
            ck.bad_keys.update(st.key for st in ck.ruleset.statements if st.section == name)
        seen_sections.setdefault(name, span)


def check_missing(ck: _Checker) -> None:
    """Without a base, every statement must be there."""
    present = set(ck.ruleset.keys())
    sections = {name for name, _ in ck.ruleset.sections}
    where = _header_span(ck.ruleset)
    reported_sections: set[str] = set()
    for info in STATEMENTS:
        if info.key in present or info.key == "based_on":
            continue
        if info.section and info.section not in sections:
            if info.section in reported_sections:
                continue
            reported_sections.add(info.section)
            ck.error("missing-statement", f"missing section `on {info.section}:`", where,
                     f"add a section such as `on {info.section}:` followed by lines like "
                     f"`{INFO[info.section + '_terms'].example}` and `as one event`")
            continue
        where_words = f" in `on {info.section}:`" if info.section else ""
        ck.error("missing-statement", f"missing statement{where_words}: {info.words}", where,
                 f"add a line such as `{info.example}`")


# ---------------------------------------------------------------------------
# (2) the base
# ---------------------------------------------------------------------------

def _resolve_base(ck: _Checker, st: Statement, stack: tuple[str, ...]) -> tuple[dict[str, Any] | None, str]:
    kind, ref = st.value
    if kind == "name":
        if ref not in bundled_names():
            close = difflib.get_close_matches(ref, bundled_names(), n=1)
            hint = f"did you mean `{close[0]}`?" if close else \
                f"bundled rulesets: {', '.join(bundled_names())}; or give a file path in quotes"
            ck.error("unknown-base", f"there is no bundled ruleset `{ref}`", st.span, hint)
            return None, ref
        ident = "bundled:" + ref
        filename = bundled_filename(ref)
        if ident in stack:
            ck.error("base-cycle", f"`{ref}` is based on itself", st.span, "remove the cycle of `based on`")
            return None, ref
        try:
            text = bundled_text(ref)
        except OSError as exc:  # pragma: no cover - a broken installation
            ck.error("unknown-base", f"cannot read the bundled ruleset `{ref}`: {exc}", st.span)
            return None, ref
    else:
        here = ck.ruleset.filename
        base_dir = os.path.dirname(here) if not here.startswith("<") else os.getcwd()
        path = os.path.normpath(os.path.join(base_dir, ref))
        ident = "file:" + os.path.abspath(path)
        filename = path
        if ident in stack:
            ck.error("base-cycle", f"`{ref}` is based on itself", st.span, "remove the cycle of `based on`")
            return None, ref
        try:
            with open(path, encoding="utf-8") as fh:
                text = fh.read()
        except FileNotFoundError:
            ck.error("unknown-base", f"there is no ruleset file `{ref}`", st.span,
                     f"the path is relative to this file's folder ({base_dir or '.'})")
            return None, ref
        except IsADirectoryError:
            ck.error("unknown-base", f"`{ref}` is a folder, not a ruleset file", st.span,
                     f"the path is relative to this file's folder ({base_dir or '.'})")
            return None, ref
        except (OSError, UnicodeDecodeError) as exc:
            reason = "not UTF-8 text" if isinstance(exc, UnicodeDecodeError) else (exc.strerror or str(exc))
            ck.error("unknown-base", f"cannot read the ruleset file `{ref}`: {reason}", st.span,
                     f"the path is relative to this file's folder ({base_dir or '.'})")
            return None, ref
    result = analyse(text, filename, stack + (ident,))
    if result.config is None:
        first = result.errors[0]
        if first.code == "base-cycle":
            ck.error("base-cycle", f"`{ref}` is based on itself", st.span, "remove the cycle of `based on`")
        else:
            ck.error("base-invalid", f"the base ruleset `{ref}` has errors", st.span,
                     f"first: {first.location}: {first.message}")
        return None, ref
    return result.config, ref


# ---------------------------------------------------------------------------
# (3) apply the statements
# ---------------------------------------------------------------------------

EMPTY_CONFIG: dict[str, Any] = {
    "format": FORMAT, "name": "", "title": "", "source": "", "based_on": None,
    "players": {"counts": [], "partnerships": []},
    "hand_size": {}, "reserve": {}, "drawing": None,
    "opener": {"first_round": None, "after_domino": None, "after_block": None, "lead": None},
    "doubles": {"branching": None, "branch_sides": None, "terminal_count": None},
    "scoring": {"in_play": None, "multiple": 5, "unit": None},
    "target": {"raw": None, "mode": None, "check": None, "overshoot": None, "ties": None},
    "score_floor": None,
    "settlement": {
        "domino": {"terms": [], "events": None, "with_last_placement": False},
        "block": {"winner": None, "tie_break": None, "terms": [], "events": None},
    },
}


def _counts(value: tuple) -> list[int]:
    kind, *nums = value
    if kind == "range":
        return list(range(nums[0], nums[1] + 1))
    return sorted(set(nums))


# Statements whose value is written as it is at one place of the configuration.
_PLACES: dict[str, tuple[str, ...]] = {
    "source": ("source",),
    "hand": ("hand_size",),
    "reserve": ("reserve",),
    "drawing": ("drawing",),
    "opener_first": ("opener", "first_round"),
    "opener_domino": ("opener", "after_domino"),
    "opener_block": ("opener", "after_block"),
    "lead": ("opener", "lead"),
    "branching": ("doubles", "branching"),
    "branch_sides": ("doubles", "branch_sides"),
    "terminal_count": ("doubles", "terminal_count"),
    "check": ("target", "check"),
    "overshoot": ("target", "overshoot"),
    "ties": ("target", "ties"),
    "floor": ("score_floor",),
}


def _apply(cfg: dict[str, Any], st: Statement) -> None:
    """Write one statement into the configuration."""
    key, v = st.key, st.value
    place = _PLACES.get(key)
    if place is not None:
        *parents, last = place
        node = cfg
        for name in parents:
            node = node[name]
        node[last] = v
    elif key == "ruleset":
        cfg["name"], cfg["title"] = v
    elif key == "players":
        counts, partner = v
        cfg["players"] = {"counts": _counts(counts),
                          "partnerships": [partner[1]] if partner and partner[0] == "with" else []}
    elif key == "scoring":
        cfg["scoring"]["in_play"] = v[0]
        if v[1] is not None:
            cfg["scoring"]["multiple"] = v[1]
    elif key == "unit":
        cfg["scoring"]["unit"] = v[0]
    elif key == "target":
        cfg["target"]["mode"] = v[0]
        cfg["target"]["raw"] = v  # resolved against the unit after every statement is in
    elif key == "domino_terms":
        cfg["settlement"]["domino"]["terms"] = [t.to_dict() for t in v]
    elif key == "domino_events":
        cfg["settlement"]["domino"]["events"], cfg["settlement"]["domino"]["with_last_placement"] = v
    elif key == "block_winner":
        cfg["settlement"]["block"]["winner"], cfg["settlement"]["block"]["tie_break"] = v
    elif key == "block_terms":
        cfg["settlement"]["block"]["terms"] = [t.to_dict() for t in v]
    elif key == "block_events":
        cfg["settlement"]["block"]["events"] = v[0]


# ---------------------------------------------------------------------------
# (4) the rules against each other
# ---------------------------------------------------------------------------

def _check_together(ck: _Checker, cfg: dict[str, Any], origins: dict[str, Statement | None],
                    based: Statement | None, base_label: str | None) -> None:
    def at(key: str) -> Span | None:
        st = origins.get(key)
        if st is not None:
            return st.span
        return based.span if based else _header_span(ck.ruleset)

    def inherited(key: str) -> str:
        return f" (inherited from `{base_label}`)" if origins.get(key) is None and base_label else ""

    def err(keys: tuple[str, ...], *args: Any) -> None:
        """Report, unless one of the statements involved already has its own error."""
        if not ck.bad_keys.intersection(keys):
            ck.error(*args)

    counts = cfg["players"]["counts"]
    if cfg["players"]["partnerships"] and 4 not in counts:
        err(("players",), "partnerships-need-4", "partnerships need 4 players, but 4 players are not allowed",
                 at("players"), "write `players 2 to 4, partnerships with 4` or `no partnerships`")

    # hand sizes and reserves for exactly the allowed counts
    for key, field_name in (("hand", "hand_size"), ("reserve", "reserve")):
        value = cfg[field_name]
        words = INFO[key].words
        if isinstance(value, PerCount):
            if value.uniform is not None:
                cfg[field_name] = value.expand(counts)
                continue
            given = dict(value.by_count)
            for n in sorted(given):
                if n not in counts:
                    err(("players", key), "per-count", f"{words} is given for {n} players, who cannot play",
                             at(key), f"the ruleset allows {_join(counts)} players")
            for n in counts:
                if n not in given:
                    err(("players", key), "per-count", f"{words} for {n} players is not given", at(key),
                             f"add `, N with {n}` or give one size for every count")
            cfg[field_name] = {str(n): given[n] for n in counts if n in given}
        else:  # inherited as a dict
            missing = [n for n in counts if str(n) not in value]
            if missing:
                err(("players", key), "per-count", f"{words} for {_join(missing)} players is not given"
                         f"{inherited(key)}", at("players"), f"state `{INFO[key].example}`")
            cfg[field_name] = {str(n): value[str(n)] for n in counts if str(n) in value}

    for n in counts:
        hand, reserve = cfg["hand_size"].get(str(n)), cfg["reserve"].get(str(n))
        if hand is None or reserve is None:
            continue
        if n * hand + reserve > TILES_IN_SET:
            key = "reserve" if origins.get("reserve") is not None and reserve and origins.get("hand") is None \
                else "hand"
            extra = f" and a reserve of {reserve}" if reserve else ""
            err(("players", "hand", "reserve"), "too-many-tiles",
                     f"{n} hands of {hand} tiles{extra} need {n * hand + reserve} tiles, "
                     f"but a double-six set has {TILES_IN_SET}{inherited(key)}",
                     at(key), "deal fewer tiles for this player count")

    # the unit, then the target in raw points
    unit = cfg["scoring"]["unit"] if cfg["scoring"]["unit"] in (1, 5) else 1  # else: `bad-unit` said so
    target = cfg["target"]["raw"]
    if isinstance(target, tuple):
        mode, amount, measure = target
        raw = amount if measure == "raw" else amount * unit
        cfg["target"]["raw"] = raw
        if measure == "raw" and raw % unit:
            err(("unit", "target"), "target-not-multiple", f"a target of {raw} raw points is not a whole number of shown points",
                     at("target"), f"with {unit} raw points to 1 shown point, use a multiple of {unit}")
    if unit == 5:
        scoring = cfg["scoring"]
        if scoring["in_play"] and scoring["multiple"] % 5:
            err(("unit", "scoring"), "unit-mismatch", f"placements scoring multiples of {scoring['multiple']} can give raw "
                     f"scores that are not multiples of 5{inherited('scoring')}", at("scoring"),
                     "with 5 raw points to 1 shown point, score multiples of 5 (5, 10...)")
        floor = cfg["score_floor"]
        if floor is not None and floor % 5:
            err(("unit", "floor"), "unit-mismatch", f"a score floor of {floor} is not a multiple of 5{inherited('floor')}",
                     at("floor"), "with 5 raw points to 1 shown point, use a multiple of 5")
        for key, section in (("domino_terms", "domino"), ("block_terms", "block")):
            for i, term in enumerate(cfg["settlement"][section]["terms"]):
                if term["rounding"] == "none":
                    st = origins.get(key)
                    span = st.value[i].span if st is not None else at(key)
                    err(("unit", key), "unit-mismatch", "an unrounded hand can give raw scores that are not multiples of 5"
                             f"{inherited(key)}", span,
                             "with 5 raw points to 1 shown point, write `rounded to 5`")

    tgt = cfg["target"]
    if tgt["mode"] == "exact" and tgt["overshoot"] == "none":
        err(("target", "overshoot"), "exact-needs-overshoot", f"an exact target needs an overshoot rule{inherited('overshoot')}",
                 at("overshoot"), "write `overshoot discards the event` or `overshoot bounces back`")
    if tgt["mode"] == "at-least" and tgt["overshoot"] in ("discard", "bounce"):
        err(("target", "overshoot"), "overshoot-needs-exact", f"an at-least target cannot be overshot{inherited('overshoot')}",
                 at("overshoot"), "write `no overshoot rule`, or `target exactly ...`")
    if tgt["check"] == "every-event" and tgt["ties"] != "impossible":
        err(("check", "ties"), "ties-contradict-check", "when the target is checked after every event, the first side to "
                 f"reach it wins, so ties at the top are impossible{inherited('ties')}", at("ties"),
                 "write `ties at the top: impossible`")
    if tgt["check"] == "after-settlement" and tgt["ties"] == "impossible":
        err(("check", "ties"), "ties-contradict-check", "when the target is checked after settlement, two sides can tie at "
                 f"the top{inherited('ties')}", at("ties"),
                 "write `ties at the top: play extra rounds` or `ties at the top: draw`")

    opener = cfg["opener"]
    if opener["lead"] == "forced" and "highest-double" not in (
            opener["first_round"], opener["after_domino"], opener["after_block"]):
        err(("lead", "opener_first", "opener_domino", "opener_block"), "forced-lead-unused", "a forced lead needs a round opened by the highest double"
                 f"{inherited('lead')}", at("lead"), "write `opener leads any tile`")
    block = cfg["settlement"]["block"]
    if opener["after_block"] == "block-winner" and block["winner"] == "none":
        err(("opener_block", "block_winner"), "opener-needs-winner", "a block has no winner to open the next round"
                 f"{inherited('opener_block')}", at("opener_block"),
                 "write `opener after a block: lottery` or give the block a winner")

    domino = cfg["settlement"]["domino"]
    if domino["with_last_placement"] and domino["events"] != "one":
        err(("domino_events",), "last-placement-needs-one-event", "the last placement can join the settlement only as one event",
                 at("domino_events"), "write `as one event with the last placement`")
    if block["winner"] == "none":
        for i, term in enumerate(block["terms"]):
            t = Term.from_dict(term)
            if t.mentions_winner():
                st = origins.get("block_terms")
                span = st.value[i].span if st is not None else at("block_terms")
                err(("block_winner", "block_terms"), "terms-need-winner", f"a block without a winner gives nothing to this term"
                         f"{inherited('block_terms')}", span,
                         "give the block a winner, or settle `everyone's hands separately` with each owner")
    if not cfg["players"]["partnerships"]:
        for key, section in (("domino_terms", "domino"), ("block_terms", "block")):
            for i, term in enumerate(cfg["settlement"][section]["terms"]):
                if term.get("hands") == "partner":
                    st = origins.get(key)
                    span = st.value[i].span if st is not None else at(key)
                    err(("players", key), "partner-needs-partnerships", "there is no partner without partnerships"
                             f"{inherited(key)}", span, "remove this line or play `partnerships with 4`")

    credits = [t for s in ("domino", "block") for t in cfg["settlement"][s]["terms"] if t["sign"] == "credit"]
    if not cfg["scoring"]["in_play"] and not credits:
        err(("scoring", "domino_terms", "block_terms"), "no-scoring", "nobody can ever score: placements score nothing and no settlement credits points",
                 at("scoring"), "write `placements score multiples of 5` or credit hands in a settlement")


def _join(nums: list[int]) -> str:
    words = [str(n) for n in nums]
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1]


# ---------------------------------------------------------------------------
# The whole pipeline
# ---------------------------------------------------------------------------

def analyse(text: str, filename: str = "<string>", stack: tuple[str, ...] = ()) -> Compiled:
    """Parse, check and compile a text, collecting every error."""
    from rulelang.parser import parse

    ruleset, errors = parse(text, filename)
    if ruleset is None:
        return Compiled(None, None, errors)
    ck = _Checker(ruleset)
    check_statements(ck)
    based = ruleset.get("based_on")
    if based is None and not errors:
        check_missing(ck)
    base_cfg: dict[str, Any] | None = None
    base_label: str | None = None
    if based is not None:
        base_cfg, base_label = _resolve_base(ck, based, stack)
    incomplete = errors or any(e.code == "missing-statement" for e in ck.errors) or \
        (based is not None and base_cfg is None)
    if incomplete:
        return Compiled(ruleset, None, sorted(errors + ck.errors, key=_error_order), base_label=base_label)

    # The rules are all there (stated or inherited): apply them, the first of
    # any repeated statement and only the statements known at top level, and
    # check them against each other, skipping checks on statements that
    # already have an error (their own error says enough).
    cfg = copy.deepcopy(base_cfg) if base_cfg is not None else copy.deepcopy(EMPTY_CONFIG)
    cfg["based_on"] = base_label
    origins: dict[str, Statement | None] = {info.key: None for info in STATEMENTS}
    for st in sorted(ruleset.statements, key=lambda s: ORDER.get(s.key, len(ORDER))):
        if st.key not in ORDER or origins[st.key] is not None:
            continue
        origins[st.key] = st
        _apply(cfg, st)
    _check_together(ck, cfg, origins, based, base_label)
    if not ck.errors:
        problems = validate_config(cfg)
        if problems:  # pragma: no cover - a bug in this compiler, not in the text
            ck.error("schema", "the compiled configuration does not match the schema: " + problems[0],
                     _header_span(ruleset), "please report this as a bug of rulelang")
    if ck.errors:
        return Compiled(ruleset, None, sorted(ck.errors, key=_error_order), origins, base_label)
    return Compiled(ruleset, cfg, [], origins, base_label)


def _error_order(e: RulesetError) -> tuple[int, int]:
    return (e.line or 0, e.column or 0)


def compile_ruleset(ruleset: Ruleset) -> dict[str, Any]:
    """Compile an already parsed ruleset (raises RulesetError)."""
    from rulelang.errors import raise_errors

    result = analyse(ruleset.text, ruleset.filename)
    raise_errors(result.errors)
    assert result.config is not None
    return result.config
