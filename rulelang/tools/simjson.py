"""`rulelang simulate --json`: the statistics table as numbers (shape in docs/tools.md).

Built from the same `Summary` as the table, with the same tests, so the JSON
and the table never disagree; a value that cannot be computed is null.
"""
from __future__ import annotations

from typing import NotRequired, TypedDict

from rulelang.tools import stats
from rulelang.tools.simulation import Summary, paired_tests, significant

__all__ = ["summary_record", "comparison_record"]


def _num(x: float) -> float | None:
    return None if x != x else x


class Spread(TypedDict):
    n: int
    mean: float | None
    sd: float | None
    min: float | None
    max: float | None


class Rate(TypedDict):
    count: int
    of: int
    rate: float | None
    ci95: list[float] | None


class Win(TypedDict):
    count: int
    of: int
    rate: float | None
    ci95: list[float] | None
    side: int


class Points(TypedDict):
    play: Spread
    settlement: Spread
    call: NotRequired[Spread]  # the muggins rule only


class SummaryRecord(TypedDict):
    """One variant's statistics in `simulate --json` (rulelang/schema/simulate.schema.json, `summary`)."""

    variant: str
    matches: int
    partnerships: bool
    wins: list[Win]
    draws: int
    unfinished: int
    rounds_per_match: Spread
    turns_per_round: Spread
    blocked_rounds: Rate
    discarded_events: Rate
    points_per_round: Points
    unit: int
    target: int | None
    games_per_match: NotRequired[Spread]  # a series of games ("the match is the best of N games") only


class Test(TypedDict):
    metric: str
    test: str
    statistic: float | None
    p_value: float | None
    significant: bool
    p: str


def _spread(xs: list[float]) -> Spread:
    s = stats.summarize(xs)
    return {"n": s.n, "mean": _num(s.mean), "sd": _num(s.sd), "min": _num(s.minimum), "max": _num(s.maximum)}


def _rate(k: int, n: int) -> Rate:
    lo, hi = stats.wilson_interval(k, n)
    return {"count": k, "of": n, "rate": k / n if n else None, "ci95": [lo, hi] if n else None}


def _win(rate: Rate, side: int) -> Win:
    return {**rate, "side": side}


def summary_record(s: Summary) -> SummaryRecord:
    """One variant's statistics: win rates with Wilson intervals, spreads as n/mean/sd/min/max."""
    points: Points = {"play": _spread(s.placement_per_round), "settlement": _spread(s.settlement_per_round)}
    if s.call_per_round is not None:  # the muggins rule: points taken by calls
        points["call"] = _spread(s.call_per_round)
    out: SummaryRecord = {
        "variant": s.variant,
        "matches": s.matches,
        "partnerships": s.partnerships,
        "wins": [_win(_rate(s.wins[side], s.matches), side) for side in range(s.sides)],
        "draws": s.draws,
        "unfinished": s.unfinished,
        "rounds_per_match": _spread(s.rounds_per_match),
        "turns_per_round": _spread(s.turns_per_round),
        "blocked_rounds": _rate(s.blocked_rounds, s.rounds_total),
        "discarded_events": _rate(s.discarded_events, s.events_total),
        "points_per_round": points,
        "unit": s.unit,
        "target": s.target,
    }
    if s.games_per_match is not None:  # a series of games: the games each match took
        out["games_per_match"] = _spread(s.games_per_match)
    return out


def _test(metric: str, result: stats.TestResult, alpha: float) -> Test:
    return {"metric": metric, "test": result.test, "statistic": _num(result.statistic),
            "p_value": _num(result.p_value), "significant": result.significant(alpha),
            "p": stats.format_p(result.p_value)}


def comparison_record(a: Summary, b: Summary, alpha: float) -> list[Test]:
    """The tests of `--vs`, match by match on the same seeds: McNemar's exact test for wins, a paired
    t-test on per-match values otherwise; `significant` after Holm's correction over all the tests."""
    tests = paired_tests(a, b)
    out = []
    for (metric, result), sig in zip(tests, significant(tests, alpha)):
        record = _test(metric, result, alpha)
        record["significant"] = sig
        out.append(record)
    return out
