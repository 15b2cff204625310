"""The figures of a balance study, each with its interval, and paired tests between two variants.

Every figure is computed per match (rounds inside a match are not independent):
a rate over matches gets a Wilson interval, a mean over matches a t interval, a
rate over rounds a cluster-robust ratio interval with the match as the unit.
Paired comparisons use the same match seeds in both variants: McNemar's exact
test for per-match yes/no figures, a paired t-test on per-match differences
otherwise; Holm's method keeps the family-wise error at alpha.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from rulelang.tools import stats
from rulelang.tools.documents import BalanceReport, ComparisonRow, Figure, Parts, StudyMatch, StudyRound

Value = bool | float | tuple[int, int]
"""A figure's value in one match: yes/no (rate), a number (mean), or (numerator, denominator) (ratio)."""


@dataclass(frozen=True)
class Metric:
    """One figure: `kind` is rate (yes/no per match), mean (a number per match) or ratio (num, den per match)."""

    name: str
    part: str
    kind: str
    of: Callable[[StudyMatch], Value]
    help: str = ""


def _gain(rd: StudyRound) -> list[int]:
    """A round's points per side: play, settlement and (the muggins rule) calls."""
    call = rd.get("call") or [0] * len(rd["play"])  # absent without calls, and in records made before them
    return [a + b + c for a, b, c in zip(rd["play"], rd["settle"], call)]


def metrics(sides_of: Sequence[int], partnerships: bool) -> list[Metric]:
    """The study's figures for a table whose seats belong to `sides_of` sides."""
    nsides = max(sides_of) + 1
    label = "team" if partnerships else "seat"
    out = []
    def wins_of(side: int) -> Callable[[StudyMatch], bool]:
        return lambda r: r["winner"] == side

    for s in range(nsides):
        out.append(Metric(f"win rate {label} {s}", "field", "rate", wins_of(s), "field bots in every seat"))

    def opener_wins(r: StudyMatch) -> bool:
        return r["winner"] is not None and r["winner"] == sides_of[r["round_details"][0]["opener"]]

    def opener_rounds(r: StudyMatch) -> tuple[int, int]:
        won = 0
        for rd in r["round_details"]:
            g = _gain(rd)
            side = sides_of[rd["opener"]]
            won += g[side] > max(g[x] for x in range(nsides) if x != side)
        return won, len(r["round_details"])

    def focus_side(r: StudyMatch) -> int:
        focus = r["focus"]
        assert focus is not None  # a part with a stronger player
        return sides_of[focus]

    out += [
        Metric("first opener's side wins the match", "field", "rate", opener_wins),
        Metric("rounds won by the opener's side", "field", "ratio", opener_rounds, "most points in the round"),
        Metric("rounds per match", "field", "mean", lambda r: r["rounds"]),
        Metric("placements per match", "field", "mean", lambda r: sum(rd["turns"] for rd in r["round_details"])),
        Metric("blocked rounds", "field", "ratio",
               lambda r: (sum(rd["kind"] == "blocked" for rd in r["round_details"]), r["rounds"])),
        Metric("lead changes per match", "field", "mean", lambda r: r["lead_changes"]),
        Metric("points from play (not settlement)", "field", "ratio",
               lambda r: (sum(sum(rd["play"]) for rd in r["round_details"]),
                          sum(sum(_gain(rd)) for rd in r["round_details"]))),
        Metric("drawn or unfinished matches", "field", "rate", lambda r: r["winner"] is None),
        Metric("strong beats random", "skill-random", "rate", lambda r: r["winner"] == focus_side(r), "skill gap"),
        Metric("strong beats greedy", "skill-greedy", "rate", lambda r: r["winner"] == focus_side(r), "skill gap"),
        Metric("greedy beats strong", "skill-greedy", "rate",
               lambda r: r["winner"] is not None and r["winner"] != focus_side(r), "the weaker player wins (luck)"),
        Metric("random beats greedy", "luck", "rate",
               lambda r: r["winner"] is not None and r["winner"] != focus_side(r), "the weaker player wins (luck)"),
    ]
    return out


def estimate(m: Metric, records: Sequence[StudyMatch]) -> stats.Estimate:
    vals = [m.of(r) for r in records]
    if m.kind == "rate":
        return stats.proportion(sum(bool(v) for v in vals), len(vals))
    if m.kind == "mean":
        return stats.mean_interval([_number(v) for v in vals])
    pairs = [_pair(v) for v in vals]
    return stats.ratio_interval([v[0] for v in pairs], [v[1] for v in pairs])


def spread(records: Sequence[StudyMatch]) -> dict[str, float]:
    """Rounds per match: sd, min, deciles and max (the length distribution in numbers)."""
    xs = sorted(r["rounds"] for r in records)
    if not xs:
        return {}

    def q(p: float) -> float:
        return float(xs[min(len(xs) - 1, int(p * len(xs)))])

    return {"sd": stats.stdev(xs), "min": xs[0], "p10": q(0.1), "median": q(0.5), "p90": q(0.9), "max": xs[-1]}


def compare(m: Metric, a: Sequence[StudyMatch], b: Sequence[StudyMatch]) -> stats.TestResult:
    """The paired test of one figure between two variants played on the same seeds."""
    va = [m.of(r) for r in a]
    vb = [m.of(r) for r in b]
    if m.kind == "rate":
        a_only = sum(1 for x, y in zip(va, vb) if x and not y)
        b_only = sum(1 for x, y in zip(va, vb) if y and not x)
        return stats.mcnemar_exact(a_only, b_only)
    if m.kind == "mean":
        return stats.paired_t([_number(x) for x in va], [_number(y) for y in vb])
    pa, pb = [_pair(x) for x in va], [_pair(y) for y in vb]
    pairs = [(x[0] / x[1], y[0] / y[1]) for x, y in zip(pa, pb) if x[1] and y[1]]
    return stats.paired_t([p[0] for p in pairs], [p[1] for p in pairs])


def report(parts: Parts, names: dict[str, str], sides_of: Sequence[int],
           partnerships: bool, alpha: float = 0.05) -> BalanceReport:
    """JSON-ready figures per variant and, with two variants, the paired comparison."""
    ms = metrics(sides_of, partnerships)
    out: BalanceReport = {"variants": {}, "length": {}}
    for key in sorted(parts):
        out["variants"][names[key]] = {m.name: _figure(m, estimate(m, parts[key][m.part])) for m in ms}
        out["length"][names[key]] = spread(parts[key]["field"])
    if "b" in parts:
        tests = [compare(m, parts["a"][m.part], parts["b"][m.part]) for m in ms]
        keep = stats.holm([t.p_value for t in tests], alpha)
        rows: list[ComparisonRow] = []
        for m, t, sig in zip(ms, tests, keep):
            va = out["variants"][names["a"]][m.name]["value"]
            vb = out["variants"][names["b"]][m.name]["value"]
            rows.append({"metric": m.name, "a": va, "b": vb, "difference": vb - va, "test": t.test,
                         "statistic": t.statistic, "p": t.p_value, "significant": sig})
        out["comparison"] = {"alpha": alpha, "correction": "holm", "rows": rows}
    return out


def _number(v: Value) -> float:
    """A mean figure's value in one match."""
    assert not isinstance(v, tuple), v
    return float(v)


def _pair(v: Value) -> tuple[int, int]:
    """A ratio figure's (numerator, denominator) in one match."""
    assert isinstance(v, tuple), v
    return v


def _figure(m: Metric, e: stats.Estimate) -> Figure:
    """A figure of the report: the estimate with its interval, and what kind of figure of which part it is."""
    return {"value": e.value, "ci95": [e.lo, e.hi], "n": e.n, "kind": m.kind, "part": m.part}


def fmt_value(kind: str, v: float) -> str:
    if v != v:
        return "-"
    return f"{100 * v:.1f}%" if kind in ("rate", "ratio") else f"{v:.2f}"


def fmt_interval(kind: str, lo: float, hi: float) -> str:
    if lo != lo:
        return "-"
    return f"[{fmt_value(kind, lo)}, {fmt_value(kind, hi)}]"
