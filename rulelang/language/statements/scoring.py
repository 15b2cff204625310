"""Statements of scoring and the target."""
from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from dataclasses import replace
from typing import Literal

from rulelang.config.fields import DIVIDED_MULTIPLE
from rulelang.config.vocabulary import Formula, RoundEnd
from rulelang.language.statements.phrase import examples, fill
from rulelang.language.statements.table import Doc, Fields, Issue, Part, Phrase, StatementDef, choice, reads_field, sets_field
from rulelang.language.statements.values import Measure, Scoring, Target, UnitValue


def points_text(raw: int, unit: int) -> str:
    """Raw points in words: `12 shown points (60 raw)` when the unit divides them, else `1 point`."""
    if unit > 1 and raw % unit == 0:
        return fill("{N} shown point[s]", raw // unit) + f" ({raw} raw)"
    return fill("{N} point[s]", raw)


# -- scoring in play -------------------------------------------------------------

def _read_scoring(p: Phrase) -> Scoring:
    if not p.numbers:
        return Scoring(False, None)
    nums = tuple(p.numbers)
    # `..., one point per multiple` / `... at face value` / `... at face value, once`; several divisors need one
    formula: Formula | Literal["ambiguous"] = "per-multiple" if p.has("PER") else "face-value-once" if p.has("ONCE") \
        else "face-value" if p.has("FACE") else "ambiguous" if len(nums) > 1 else "value"
    if formula == "value":
        return Scoring(True, nums[0], formula)
    return Scoring(True, None, formula, nums)  # the divisors say it all: `multiple` keeps its fixed 5


def _check_scoring(v: Scoring) -> Iterator[Issue]:
    if v.in_play and min(v.divisors if v.multiple is None else (v.multiple,)) < 1:
        yield Issue("bad-number", "placements cannot score multiples of 0", "write `placements score multiples of 5`")
    elif v.formula == "ambiguous":
        spelled = " or ".join(str(d) for d in v.divisors)
        a, b = v.divisors[0], v.divisors[1]
        both = math.lcm(a, b)
        which = "both" if len(v.divisors) == 2 else "several of them"
        yield Issue("ambiguous-formula", f"multiples of {spelled}: say how a count that is a multiple of {which} scores",
                    f"write `placements score multiples of {spelled}, one point per multiple` ({both} scores "
                    f"{both // a} + {both // b}), `placements score multiples of {spelled} at face value` "
                    f"({both} scores {both} + {both}) or `placements score multiples of {spelled} at face value, "
                    f"once` ({both} scores {both})")
    elif len(set(v.divisors)) < len(v.divisors):
        yield Issue("bad-number", "a divisor is given twice", "name each multiple once")


def _set_scoring(v: Scoring, c: Fields) -> Fields:
    if v.formula in ("per-multiple", "face-value", "face-value-once"):  # the divisors decide: `multiple` keeps 5
        return replace(c, in_play=v.in_play, formula=v.formula, multiple=DIVIDED_MULTIPLE, divisors=v.divisors)
    multiple = v.multiple if v.multiple is not None else c.multiple
    return replace(c, in_play=v.in_play, multiple=multiple, divisors=(multiple,))


def _scoring_from_config(c: Fields) -> Scoring:
    if not c.in_play:
        return Scoring(False, None)
    if c.formula == "value":
        return Scoring(True, c.multiple, c.formula)
    return Scoring(True, None, c.formula, c.divisors)


def _fmt_scoring(v: Scoring) -> list[str]:
    if not v.in_play:
        return ["placements score nothing"]
    if v.formula == "value":
        return [f"placements score multiples of {v.multiple}"]
    spelled = " or ".join(str(d) for d in v.divisors)
    ending = {"per-multiple": ", one point per multiple", "face-value": " at face value",
              "face-value-once": " at face value, once"}.get(v.formula, "")
    return [f"placements score multiples of {spelled}{ending}"]


def _explain_scoring(v: Scoring, c: Fields) -> str:
    if c.in_play:
        m = c.multiple
        raw = "raw " if c.unit > 1 else ""
        start = "After every placement (the lead and the last tile included) the counted ends are added up; "
        formula, divisors = c.formula, c.divisors
        both = math.lcm(*divisors)
        if formula == "per-multiple":
            parts = ", plus ".join(f"one point for each {d} in it when {d} divides it" for d in divisors)
            worked = " + ".join(str(both // d) for d in divisors)
            return start + f"a positive sum scores {parts} ({both} scores {worked} = {sum(both // d for d in divisors)})."
        if formula == "face-value":
            parts = ", and itself again when ".join(f"{d} divides it" for d in divisors)
            worked = " + ".join(str(both) for _ in divisors)
            return start + f"a positive sum scores itself when {parts} ({both} scores {worked} = {both * len(divisors)})."
        if formula == "face-value-once":  # a published text: "if the open ends total 15, that's 15 points"
            spelled = " or ".join(str(d) for d in divisors)
            worked = f" ({both} scores {both}, not {' + '.join(str(both) for _ in divisors)})" if len(divisors) > 1 else ""
            return start + f"a positive sum scores itself once when {spelled} divides it{worked}."
        return start + f"a positive multiple of {m} scores that many {raw}points."
    return "Placements never score: points come only from settling rounds."


# -- the unit ----------------------------------------------------------------------

UNIT = "{N:5,3} raw points make {N:1} shown point"  # the shown point is 1: `bad-unit` refuses another
UNIT_RAW = "points are shown raw"

def _check_unit(v: UnitValue) -> Iterator[Issue]:
    if v.shown != 1 or v.raw < 1:  # any N >= 1
        yield Issue("bad-unit", f"{v.raw} raw points cannot make {v.shown} shown point",
                    "write `N raw points make 1 shown point` (such as `5 raw points make 1 shown point`) "
                    "or `points are shown raw`")


def _set_unit(v: UnitValue, c: Fields) -> Fields:
    return replace(c, unit=v.raw)


def _explain_unit(v: UnitValue, c: Fields) -> str:
    unit = c.unit
    if unit > 1:
        return f"Points are counted raw and shown divided by {unit}: {unit} raw points make 1 shown point."
    return "Points are shown as counted."


# -- the target ---------------------------------------------------------------------

# How an amount is measured: its phrase (the part `{target_measure}`) and what it reads to, singular or plural.
MEASURE_PHRASES: dict[Measure, str] = {"points": "point[s]", "shown": "shown point[s]",
                                                                  "raw": "raw point[s]"}
MEASURES: dict[str, Measure] = {
    fill("{N} " + phrase, n).split(" ", 1)[1]: measure for measure, phrase in MEASURE_PHRASES.items() for n in (1, 2)}
PARTS = (Part("target_measure", tuple(MEASURE_PHRASES.values())),)


def amount_text(amount: int, measure: Measure) -> str:
    """`61 shown points`, `1 point`: an amount in the words of its measure."""
    return fill("{N} " + MEASURE_PHRASES[measure], amount)


def measure_words(amount: int, measure: Measure) -> str:
    """The words of the part `{target_measure}` after AMOUNT: `shown points`, `point`."""
    return amount_text(amount, measure).split(" ", 1)[1]


TARGETS = {"exact": "target exactly {N} {target_measure}", "at-least": "target at least {N} {target_measure}"}


def _read_target(p: Phrase) -> Target:
    t = Target("exact" if p.has("EXACTLY") else "at-least", p.numbers[0], MEASURES[p.parts[0].text])
    if len(p.parts) > 1:  # a target per player count
        later, groups = p.parts[1]  # rulelang.language.statements.house.PHRASES["target_counts"]
        t = t._replace(by_count=tuple(zip((p.numbers[0],) + later, groups)))
    return t


# -- a target per player count (family.md 3.6, reading 37) ----------

def with_player_counts(head: str, groups: Sequence[tuple[int, Sequence[int]]]) -> str:
    """`HEAD with 2 players, 150 with 3 or 4`: an amount per player count (the first group's amount is in HEAD)."""
    names = [" or ".join(str(n) for n in counts) for _, counts in groups]
    rest = "".join(f", {amount} with {g}" for (amount, _), g in zip(groups[1:], names[1:]))
    return f"{head} with {names[0]} players{rest}"


def counts_named_twice(groups: Sequence[tuple[int, Sequence[int]]]) -> bool:
    """Whether a player count has two amounts in GROUPS."""
    seen = [n for _, counts in groups for n in counts]
    return len(seen) != len(set(seen))


def _fmt_target(v: Target) -> list[str]:
    phrase = TARGETS["exact" if v.mode == "exact" else "at-least"]  # a match of fixed rounds keeps an at-least one
    head = fill(phrase, v.amount, measure_words(v.amount, v.measure))
    return [with_player_counts(head, v.by_count)] if v.by_count else [head]


def _check_target_counts(v: Target) -> Iterator[Issue]:
    if counts_named_twice(v.by_count):
        yield Issue("per-count", "a player count is given two targets", "name each player count once")
    if any(amount < 1 for amount, _ in v.by_count):
        yield Issue("bad-number", "the target must be at least 1 point")


def _target_by_count_from_config(c: Fields, t: Target) -> Target:
    by = c.target_by_count
    if not by:
        return t
    unit = c.unit
    groups: dict[int, list[int]] = {}
    for n in sorted(by):
        raw = by[n]
        groups.setdefault(raw, []).append(n)
    div = unit if t.measure == "shown" else 1
    pairs = tuple((raw // div, tuple(ns)) for raw, ns in groups.items())
    return t._replace(amount=pairs[0][0], by_count=pairs)


def _set_target(v: Target, c: Fields) -> Fields:
    c = _set_target_one(v, c)
    if v.by_count:  # `raw_by_count` per count, `raw` the smallest count's
        factor = 1 if v.measure == "raw" else c.target // v.amount
        by = {n: amount * factor for amount, counts in v.by_count for n in counts}
        c = replace(c, target_by_count={n: by[n] for n in sorted(by)}, target=by[min(by)])
    return c


def _set_target_one(v: Target, c: Fields) -> Fields:
    u = c.unit
    unit = u if isinstance(u, int) and u >= 1 else 1  # else `bad-unit` said so
    return replace(c, target_mode=v.mode, target=v.amount if v.measure == "raw" else v.amount * unit)


def _target_from_config(c: Fields) -> Target:
    return _target_by_count_from_config(c, _target_one_from_config(c))


def _target_one_from_config(c: Fields) -> Target:
    unit, raw, mode = c.unit, c.target, c.target_mode
    if unit > 1 and raw % unit == 0:
        return Target(mode, raw // unit, "shown")
    if unit == 1:
        return Target(mode, raw, "points")
    return Target(mode, raw, "raw")


def _check_target(v: Target) -> Iterator[Issue]:
    if v.amount < 1 and not v.by_count:  # per player count, the amount is the first group's: checked below
        yield Issue("bad-number", "the target must be at least 1 point")
    yield from _check_target_counts(v)  # a target per player count


def _explain_target(v: Target, c: Fields) -> str:
    if c.target_mode == "rounds":  # `the match lasts N rounds`
        n = c.rounds
        return f"No target is played to (the match lasts {n} round{'s' if n != 1 else ''}); the target stated is not used."
    how = "exactly" if c.target_mode == "exact" else "at least"
    if c.target_by_count:  # a target per player count
        per = "; ".join(f"{points_text(raw, c.unit)} with {n} players" for n, raw in c.target_by_count.items())
        return f"A side wins by reaching {how} a target that depends on the number of players: {per}."
    return f"A side wins by reaching {how} {points_text(c.target, c.unit)}."


def _explain_check(v: str, c: Fields) -> str:
    if c.target_mode == "rounds":  # `the match lasts N rounds`
        return "No target is checked: the match ends after its last round."
    if v == "every-event":
        return ("The target is checked after every scoring event, in the middle of a round too; "
                "reaching it ends the match at once.")
    return "The target is checked only once a round has been settled."


OVERSHOOT = {
    "discard": "An event that would take a side past the target is discarded whole; the score stays.",
    "bounce": "An event that would take a side past the target bounces: the excess is counted back down from "
              "the target.",
    "none": "Going past the target is allowed.",
}
TIES = {
    "impossible": "Ties at the top cannot arise: the first side to reach the target wins.",
    "extra-rounds": "If the highest score is shared once the target is reached, complete rounds are played "
                    "until, after a settlement, one side alone has the highest score.",
    "draw": "If the highest score is shared once the target is reached, the match is drawn between them.",
    "round-opener": "If the highest score is shared once the target is reached, the side that opened the round "
                    "wins (if it is not among them, the first of them in turn after the opener).",
    "match-opener": "If the highest score is shared once the target is reached, the side that opened the first "
                    "round of the match wins (if it is not among them, the first of them in turn after that "
                    "opener).",
}


# -- the floor -------------------------------------------------------------------

NO_FLOOR, FLOOR = "no score floor", "scores never fall below {SIGNED:0}"

def _explain_floor(v: int | None, c: Fields) -> str:
    unit = c.unit
    if v is None:
        debits = any(t["sign"] == "debit" for t in c.domino_terms + c.block_terms)
        if not debits:
            return "Scores have no floor (though no rule here takes points away)."
        return "Scores have no floor: they can fall below zero."
    return f"Scores never fall below {points_text(v, unit) if v else '0'}."


# -- going out -----------------------------------------------------

ROUND_ENDS: dict[str, RoundEnd] = {"the round ends when a player goes out": "player-out",
                                   "the round ends when both partners go out": "side-out"}
ROUND_END_WORDS = {v: k for k, v in ROUND_ENDS.items()}


def _explain_round_end(v: RoundEnd, c: Fields) -> str:
    if v == "side-out" and c.partnerships:
        return ("With partners, a player who empties their hand is skipped while their partner plays on "
                "(they neither play nor pass); the round is a domino when both partners of a side have gone "
                "out, the second being the dominoer, and a block when no player holding tiles can place.")
    if v == "side-out":
        return "The round ends when a player goes out (without partners, both partners out means the same)."
    return "The round ends when a player goes out."


STATEMENTS: tuple[StatementDef, ...] = (
    StatementDef(
        key="scoring", words="scoring in play", group=4,
        phrases={"scoring_stmt": ("placements score multiples of {N}", "placements score nothing",
                                  "placements score multiples of {N} (or {N})+",  # ambiguous: an error
                                  "placements score multiples of {N} (or {N})*, one point per multiple",
                                  "placements score multiples of {N} (or {N})* at face value",
                                  "placements score multiples of {N} (or {N})* at face value, once")},
        read=_read_scoring,
        fmt=_fmt_scoring,
        explain=_explain_scoring,
        resolve=_set_scoring, check=_check_scoring,
        from_config=_scoring_from_config,
        examples=("placements score multiples of 5", "placements score nothing",
                  "placements score multiples of 5 or 3, one point per multiple",
                  "placements score multiples of 5 or 3 at face value",
                  "placements score multiples of 5 or 3 at face value, once"),
        docs=(Doc("`placements score multiples of 5`", "a placement whose counted ends sum to a positive multiple "
                  "of 5 scores that sum (any multiple: `multiples of 3`)",
                  "`scoring.in_play: true`, `scoring.multiple: 5`"),
              Doc("`placements score nothing`", "no scoring in play (Draw and Block games)",
                  "`scoring.in_play: false` (`multiple` stays 5)"),
              Doc("`placements score multiples of 5 or 3, one point per multiple`", "a positive sum scores "
                  "sum/5 if 5 divides it, plus sum/3 if 3 does (15 scores 8); needs `points are shown raw`",
                  "`scoring.formula: per-multiple`, `scoring.divisors: [5, 3]`"),
              Doc("`placements score multiples of 5 or 3 at face value`", "a positive sum scores itself once "
                  "per divisor that divides it (15 scores 30); needs `points are shown raw`",
                  "`scoring.formula: face-value`, `scoring.divisors: [5, 3]`"),
              # Gareth Edwards' blog: "if the open ends total 15, that's 15 points. Six adds up to 6 points."
              Doc("`placements score multiples of 5 or 3 at face value, once`", "a positive sum that some divisor "
                  "divides scores itself once (15 scores 15, 6 scores 6, 7 nothing; with one divisor the same as "
                  "`placements score multiples of N`); needs `points are shown raw`",
                  "`scoring.formula: face-value-once`, `scoring.divisors: [5, 3]`")),
        features={"formula-face-value-once": "scoring.formula face-value-once: a placement scores the count S once "
                  "when some divisor (5, 3) divides it (15 scores 15, 6 scores 6, 7 nothing)"},
        tags=("placement-score", "no-placement-score", "multiple-3", "formula-per-multiple", "formula-face-value",
              "formula-face-value-once")),
    StatementDef(
        key="unit", words="the scoring unit", group=4,
        phrases={"unit_stmt": (UNIT, UNIT_RAW)},
        read=lambda p: UnitValue(p.numbers[0], p.numbers[1]) if p.numbers else UnitValue(1, 1),
        fmt=lambda v: [UNIT_RAW if v == (1, 1) else fill(UNIT, v.raw, v.shown)],
        explain=_explain_unit, resolve=_set_unit, check=_check_unit,
        from_config=lambda c: UnitValue(c.unit, 1) if c.unit > 1 else UnitValue(1, 1),
        examples=(examples(UNIT)[0], UNIT_RAW, examples(UNIT)[1]),
        docs=(Doc("`5 raw points make 1 shown point`", "scores are shown divided by 5 (any N: "
                  "`3 raw points make 1 shown point`)", "`scoring.unit: 5`"),
              Doc("`points are shown raw`", "scores are shown as counted", "`scoring.unit: 1`")),
        tags=("unit-5", "unit-1", "unit-3")),
    StatementDef(
        key="target", words="the target", group=4,
        phrases={"target_stmt": tuple(TARGETS.values())  # and a target per player count (family.md 3.6)
                 + tuple(phrase + " {target_counts}" for phrase in TARGETS.values())},
        read=_read_target,
        fmt=_fmt_target,
        explain=_explain_target,
        resolve=_set_target, from_config=_target_from_config, check=_check_target,
        examples=("target at least 61 shown points", "target exactly 61 shown points", "target at least 150 points",
                  "target at least 305 raw points", "target at least 200 points with 2 players, 150 with 3 or 4"),
        docs=(Doc("`target exactly 61 shown points` / `target at least 150 points` / "
                  "`target at least 305 raw points`", "the target; `points` and `shown points` are shown points "
                  "(multiplied by the unit), `raw points` are raw", "`target.mode`, `target.raw`"),
              Doc("`target at least 200 points with 2 players, 150 with 3 or 4`", "a target per player count "
                  "(every allowed count once)", "`target.raw_by_count` (`raw`: the smallest count's)")),
        tags=("target-exact", "match-end", "target-by-count")),
    choice("check", "when the target is checked", 4, "check_stmt",
           {"check the target after every event": "every-event",
            "check the target after settlement": "after-settlement"}, _explain_check,
           {"check the target after every event": "reaching the target mid-round ends the match at once",
            "check the target after settlement": "the target is checked once a round is settled"},
           tags=("target-every-event", "target-after-settlement")),
    choice("overshoot", "the overshoot rule", 4, "overshoot_stmt",
           {"overshoot discards the event": "discard", "overshoot bounces back": "bounce",
            "no overshoot rule": "none"}, lambda v, c: OVERSHOOT[v],
           {"overshoot discards the event": "an event past an exact target is discarded whole",
            "overshoot bounces back": "the excess past an exact target is counted back down",
            "no overshoot rule": "going past the target is allowed"},
           tags=("overshoot-discard", "overshoot-bounce"), example="no overshoot rule"),
    choice("ties", "ties at the top", 4, "ties_stmt",
           {"ties at the top: play extra rounds": "extra-rounds", "ties at the top: draw": "draw",
            "ties at the top: impossible": "impossible",
            "ties at the top: the side that opened the round wins": "round-opener",
            "ties at the top: the side that started the match wins": "match-opener"},
           lambda v, c: TIES[v],
           {"ties at the top: play extra rounds": "a shared top score plays further complete rounds",
            "ties at the top: draw": "a shared top score draws the match",
            "ties at the top: impossible": "the first side to reach the target wins",
            "ties at the top: the side that opened the round wins": "a shared top score goes to the side that "
            "opened the round in which it arose (not among them: the first of them in turn after the opener)",
            "ties at the top: the side that started the match wins": "a shared top score goes to the side that "
            "opened the match's first round (not among them: the first of them in turn after that opener)"},
           tags=("tie-extra-rounds", "target-every-event", "tie-round-opener", "tie-match-opener"),
           example="ties at the top: impossible"),
    StatementDef(
        key="floor", words="the score floor", group=4,
        phrases={"floor_stmt": (NO_FLOOR, FLOOR)},
        read=lambda p: p.numbers[0] if p.numbers else None,
        fmt=lambda v: [NO_FLOOR if v is None else fill(FLOOR, v)],
        explain=_explain_floor, resolve=sets_field("floor"), from_config=reads_field("floor"),
        examples=(NO_FLOOR,) + examples(FLOOR),
        docs=(Doc("`no score floor` / `scores never fall below 0`", "the lowest score a side can have (raw points)",
                  "`score_floor`"),),
        tags=("score-floor",)),
    # -- going out
    StatementDef(
        key="round_end", words="when the round ends", group=4, phrases={"round_end_stmt": tuple(ROUND_ENDS)},
        read=lambda p: ROUND_ENDS[p.text], fmt=lambda v: [ROUND_END_WORDS[v]],
        explain=_explain_round_end, resolve=sets_field("round_end"), from_config=reads_field("round_end"),
        examples=("the round ends when a player goes out", "the round ends when both partners go out"),
        docs=(Doc("`the round ends when a player goes out`", "the first player to empty their hand dominoes "
                  "(the default)", "`round_end: player-out` (omitted)"),
              Doc("`the round ends when both partners go out`", "with partners, an empty seat is skipped (it "
                  "neither plays nor passes); the second partner out dominoes; a block when no seat holding "
                  "tiles can place", "`round_end: side-out`")),
        tags=("side-out",), required=False, meta={"default": "player-out"}),
)
