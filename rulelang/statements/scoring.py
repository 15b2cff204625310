"""Statements of scoring and the target."""
from __future__ import annotations

from collections.abc import Iterator
from typing import Literal

from rulelang.config_model import Overshoot, TargetCheck, TargetMode, Ties, Unit
from rulelang.statements.table import Config, Doc, Field, Issue, Phrase, StatementDef, choice
from rulelang.statements.values import Scoring, Target, UnitValue


def _points(raw: int, unit: int) -> str:
    if unit == 5:
        return f"{raw // 5} shown points ({raw} raw)"
    return f"{raw} points"


# -- scoring in play -------------------------------------------------------------

def _read_scoring(p: Phrase) -> Scoring:
    return Scoring(True, p.numbers[0]) if p.numbers else Scoring(False, None)


def _check_scoring(v: Scoring) -> Iterator[Issue]:
    if v.in_play and v.multiple is not None and v.multiple < 1:
        yield Issue("bad-number", "placements cannot score multiples of 0", "write `placements score multiples of 5`")


def _set_scoring(v: Scoring, c: Config) -> None:
    c["scoring"]["in_play"] = v.in_play
    if v.multiple is not None:
        c["scoring"]["multiple"] = v.multiple


def _explain_scoring(v: Scoring, c: Config) -> str:
    if c["scoring"]["in_play"]:
        m = c["scoring"]["multiple"]
        raw = "raw " if c["scoring"]["unit"] == 5 else ""
        return (f"After every placement (the lead and the last tile included) the counted ends are added "
                f"up; a positive multiple of {m} scores that many {raw}points.")
    return "Placements never score: points come only from settling rounds."


# -- the unit ----------------------------------------------------------------------

def _check_unit(v: UnitValue) -> Iterator[Issue]:
    if v.shown != 1 or v.raw not in (1, 5):
        yield Issue("bad-unit", f"{v.raw} raw points cannot make {v.shown} shown point",
                    "write `5 raw points make 1 shown point` or `points are shown raw`")


def _set_unit(v: UnitValue, c: Config) -> None:
    c["scoring"]["unit"] = v.raw


def _explain_unit(v: UnitValue, c: Config) -> str:
    if c["scoring"]["unit"] == 5:
        return "Points are counted raw and shown divided by 5: 5 raw points make 1 shown point."
    return "Points are shown as counted."


# -- the target ---------------------------------------------------------------------

MEASURES: dict[str, Literal["points", "shown", "raw"]] = {"points": "points", "shown points": "shown",
                                                          "raw points": "raw"}
MEASURE_WORDS = {v: k for k, v in MEASURES.items()}


def _read_target(p: Phrase) -> Target:
    t = Target("exact" if p.has("EXACTLY") else "at-least", p.numbers[0], MEASURES[p.parts[0].text])
    if len(p.parts) > 1:  # family tier B: a target per player count
        later, groups = p.parts[1]  # rulelang.statements.house.PHRASES["target_counts"]
        t = t._replace(by_count=tuple(zip((p.numbers[0],) + later, groups)))
    return t


# -- a target per player count (family tier B, family.md 3.6, reading 37) ----------

def _fmt_target(v: Target) -> list[str]:
    head = f"target {'exactly' if v.mode == 'exact' else 'at least'} {v.amount} {MEASURE_WORDS[v.measure]}"
    if not v.by_count:
        return [head]
    groups = [" or ".join(str(n) for n in counts) for _, counts in v.by_count]
    rest = "".join(f", {amount} with {g}" for (amount, _), g in zip(v.by_count[1:], groups[1:]))
    return [f"{head} with {groups[0]} players{rest}"]


def _check_target_counts(v: Target) -> Iterator[Issue]:
    seen = [n for _, counts in v.by_count for n in counts]
    if len(seen) != len(set(seen)):
        yield Issue("per-count", "a player count is given two targets", "name each player count once")
    if any(amount < 1 for amount, _ in v.by_count):
        yield Issue("bad-number", "the target must be at least 1 point")


def _target_by_count_from_config(c: Config, t: Target) -> Target:
    by = c["target"].get("raw_by_count")
    if not by:
        return t
    unit = c["scoring"]["unit"]
    groups: dict[int, list[int]] = {}
    for n in sorted(by, key=int):
        raw = by[n]
        groups.setdefault(raw, []).append(int(n))
    div = unit if t.measure == "shown" else 1
    pairs = tuple((raw // div, tuple(ns)) for raw, ns in groups.items())
    return t._replace(amount=pairs[0][0], by_count=pairs)


def _set_target(v: Target, c: Config) -> None:
    _set_target_one(v, c)
    if v.by_count:  # family tier B: `raw_by_count` per count, `raw` the smallest count's
        factor = 1 if v.measure == "raw" else c["target"]["raw"] // v.amount
        by = {str(n): amount * factor for amount, counts in v.by_count for n in counts}
        c["target"]["raw_by_count"] = {k: by[k] for k in sorted(by, key=int)}
        c["target"]["raw"] = by[min(by, key=int)]


def _set_target_one(v: Target, c: Config) -> None:
    unit = c["scoring"]["unit"] if c["scoring"]["unit"] in (1, 5) else 1  # else `bad-unit` said so
    c["target"]["mode"] = v.mode
    c["target"]["raw"] = v.amount if v.measure == "raw" else v.amount * unit


def _target_from_config(c: Config) -> Target:
    return _target_by_count_from_config(c, _target_one_from_config(c))


def _target_one_from_config(c: Config) -> Target:
    unit, t = c["scoring"]["unit"], c["target"]
    if unit == 5 and t["raw"] % 5 == 0:
        return Target(t["mode"], t["raw"] // 5, "shown")
    if unit == 1:
        return Target(t["mode"], t["raw"], "points")
    return Target(t["mode"], t["raw"], "raw")


def _check_target(v: Target) -> Iterator[Issue]:
    if v.amount < 1:
        yield Issue("bad-number", "the target must be at least 1 point")
    yield from _check_target_counts(v)  # family tier B


def _explain_target(v: Target, c: Config) -> str:
    t = c["target"]
    if t["mode"] == "rounds":  # family tier B: `the match lasts N rounds`
        return f"No target is played to (the match lasts {t['rounds']} rounds); the target stated is not used."
    how = "exactly" if t["mode"] == "exact" else "at least"
    if t.get("raw_by_count"):  # family tier B
        per = "; ".join(f"{_points(raw, c['scoring']['unit'])} with {n} players" for n, raw in t["raw_by_count"].items())
        return f"A side wins by reaching {how} a target that depends on the number of players: {per}."
    return f"A side wins by reaching {how} {_points(t['raw'], c['scoring']['unit'])}."


def _explain_check(v: str, c: Config) -> str:
    if c["target"]["mode"] == "rounds":  # family tier B
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
}


# -- the floor -------------------------------------------------------------------

def _explain_floor(v: int | None, c: Config) -> str:
    unit = c["scoring"]["unit"]
    if v is None:
        debits = any(t["sign"] == "debit" for part in ("domino", "block") for t in c["settlement"][part]["terms"])
        if not debits:
            return "Scores have no floor (though no rule here takes points away)."
        return "Scores have no floor: they can fall below zero."
    return f"Scores never fall below {_points(v, unit) if v else '0'}."


def _set_floor(v: int | None, c: Config) -> None:
    c["score_floor"] = v


STATEMENTS: tuple[StatementDef, ...] = (
    StatementDef(
        key="scoring", words="scoring in play", group=4, rules=("scoring_stmt",),
        read=_read_scoring,
        fmt=lambda v: [f"placements score multiples of {v.multiple}" if v.in_play else "placements score nothing"],
        explain=_explain_scoring,
        fields=(Field(("scoring", "in_play"), bool), Field(("scoring", "multiple"), int)),
        resolve=_set_scoring, check=_check_scoring,
        from_config=lambda c: Scoring(c["scoring"]["in_play"],
                                      c["scoring"]["multiple"] if c["scoring"]["in_play"] else None),
        examples=("placements score multiples of 5", "placements score nothing"),
        docs=(Doc("`placements score multiples of 5`", "a placement whose counted ends sum to a positive multiple "
                  "of 5 scores that sum", "`scoring.in_play: true`, `scoring.multiple: 5`"),
              Doc("`placements score nothing`", "no scoring in play (Draw and Block games)",
                  "`scoring.in_play: false` (`multiple` stays 5)")),
        tags=("placement-score", "no-placement-score")),
    StatementDef(
        key="unit", words="the scoring unit", group=4, rules=("unit_stmt",),
        read=lambda p: UnitValue(p.numbers[0], p.numbers[1]) if p.numbers else UnitValue(1, 1),
        fmt=lambda v: ["points are shown raw" if v == (1, 1) else f"{v.raw} raw points make {v.shown} shown point"],
        explain=_explain_unit, fields=(Field(("scoring", "unit"), Unit),), resolve=_set_unit, check=_check_unit,
        from_config=lambda c: UnitValue(5, 1) if c["scoring"]["unit"] == 5 else UnitValue(1, 1),
        examples=("5 raw points make 1 shown point", "points are shown raw"),
        docs=(Doc("`5 raw points make 1 shown point`", "scores are shown divided by 5", "`scoring.unit: 5`"),
              Doc("`points are shown raw`", "scores are shown as counted", "`scoring.unit: 1`")),
        tags=("unit-5", "unit-1")),
    StatementDef(
        key="target", words="the target", group=4, rules=("target_stmt",),
        read=_read_target,
        fmt=_fmt_target,
        explain=_explain_target,
        fields=(Field(("target", "mode"), TargetMode), Field(("target", "raw"), int),
                Field(("target", "raw_by_count"), dict)),  # family tier B
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
            "check the target after settlement": "after-settlement"}, ("target", "check"), TargetCheck,
           _explain_check,
           {"check the target after every event": "reaching the target mid-round ends the match at once",
            "check the target after settlement": "the target is checked once a round is settled"},
           tags=("target-every-event", "target-after-settlement")),
    choice("overshoot", "the overshoot rule", 4, "overshoot_stmt",
           {"overshoot discards the event": "discard", "overshoot bounces back": "bounce",
            "no overshoot rule": "none"}, ("target", "overshoot"), Overshoot, lambda v, c: OVERSHOOT[v],
           {"overshoot discards the event": "an event past an exact target is discarded whole",
            "overshoot bounces back": "the excess past an exact target is counted back down",
            "no overshoot rule": "going past the target is allowed"},
           tags=("overshoot-discard", "overshoot-bounce"), example="no overshoot rule"),
    choice("ties", "ties at the top", 4, "ties_stmt",
           {"ties at the top: play extra rounds": "extra-rounds", "ties at the top: draw": "draw",
            "ties at the top: impossible": "impossible"}, ("target", "ties"), Ties, lambda v, c: TIES[v],
           {"ties at the top: play extra rounds": "a shared top score plays further complete rounds",
            "ties at the top: draw": "a shared top score draws the match",
            "ties at the top: impossible": "the first side to reach the target wins"},
           tags=("tie-extra-rounds", "target-every-event"), example="ties at the top: impossible"),
    StatementDef(
        key="floor", words="the score floor", group=4, rules=("floor_stmt",),
        read=lambda p: p.numbers[0] if p.numbers else None,
        fmt=lambda v: ["no score floor" if v is None else f"scores never fall below {v}"],
        explain=_explain_floor, fields=(Field(("score_floor",), int),), resolve=_set_floor,
        from_config=lambda c: c["score_floor"],
        examples=("no score floor", "scores never fall below 0"),
        docs=(Doc("`no score floor` / `scores never fall below 0`", "the lowest score a side can have (raw points)",
                  "`score_floor`"),),
        tags=("score-floor",)),
)
