"""The figures of a skill ladder, each with its interval, and the paired comparison of two rulesets.

- Each link: the upper rung's share of the matches (a draw counts `1/sides`)
  with Wilson's interval over matches (conservative: the two seatings of a
  deal tend to cancel each other's deal luck), and, with more than two sides,
  the share it would take head to head (`ratings.head_to_head`).
- The chain length at a bar (Elias, Garfield and Gutschera): how many links
  from the bottom in a row reach the bar head to head.
- Ratings fitted to all the ladder's matches (`ratings.fit`), random = 0, with
  Wald intervals, in log-odds and on the Elo scale.
- The coin share (`ratings.coin_curve`): how much of the results a coin would
  decide in a game that the higher rung always wins, to leave ratings as
  spread as the measured ones.
Intervals of the chain length, the spread and the coin share come from a
bootstrap over deals (a deal is played once from every side in every link,
so it is the unit); with `--vs` the same resampled deals serve both rulesets
(a paired bootstrap), and each link is compared by McNemar's exact test on
its paired matches; Holm's method keeps the family-wise error at alpha.
"""
from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass

from rulelang.tools import ladder, ratings, stats
from rulelang.tools.documents import Ladder, LadderComparison, LadderLink, LadderReport, LadderTest, Rating, Study
from rulelang.tools.study import derive

FORMAT = "rulelang-ladder"
VERSION = 1
BOOTSTRAP = 1000
Z95 = stats.Z95


@dataclass(frozen=True)
class Figures:
    """What one ruleset's ladder gives for a set of per-link upper scores."""

    shares: list[float]  # head to head, per link
    fit: ratings.Fit
    spread: float
    coin_share: float
    chains: list[int]  # per bar


def chain_length(shares: Sequence[float], bar: float) -> int:
    """Links from the bottom in a row whose upper rung reaches `bar`."""
    n = 0
    for s in shares:
        if not s >= bar:
            break
        n += 1
    return n


def groups_of(scores: Sequence[float], games: Sequence[float], sides: int) -> list[ratings.Group]:
    """One group per link: rung `l + 1` (side 0) against rung `l` in the other sides."""
    out = []
    for lo, (s, n) in enumerate(zip(scores, games)):
        rest = (n - s) / (sides - 1)
        out.append(ratings.Group((lo + 1,) + (lo,) * (sides - 1), (s,) + (rest,) * (sides - 1), n))
    return out


def figures(scores: Sequence[float], games: Sequence[float], sides: int, bars: Sequence[float],
            curve: ratings.CoinCurve, near: ratings.Fit | None = None) -> Figures:
    """The figures of one set of link scores (`near`: a fit to start from, for a bootstrap's resamples)."""
    shares = [ratings.head_to_head(s / n, sides) for s, n in zip(scores, games)]
    fit = ratings.fit(len(scores) + 1, groups_of(scores, games, sides), start=near.ratings if near else None,
                      errors=near is None)
    spread = ratings.spread(fit.ratings)
    return Figures(shares, fit, spread, curve.coin_share(spread), [chain_length(shares, b) for b in bars])


def percentile_interval(values: Sequence[float]) -> list[float | None]:
    """The 2.5% and 97.5% points of the values (linear between order statistics); None without values."""
    xs = sorted(values)
    if not xs:
        return [None, None]

    def q(p: float) -> float:
        pos = p * (len(xs) - 1)
        i = int(pos)
        j = min(i + 1, len(xs) - 1)
        return xs[i] + (pos - i) * (xs[j] - xs[i])

    return [q(0.025), q(0.975)]


def bootstrap_p(diffs: Sequence[float]) -> float:
    """Two-sided p of a paired bootstrap: twice the share of resamples on the far side of zero (at most 1)."""
    if not diffs:
        return 1.0
    below = sum(d <= 0 for d in diffs) / len(diffs)
    above = sum(d >= 0 for d in diffs) / len(diffs)
    return min(1.0, 2 * min(below, above))


class _Data:
    """One ruleset's played links as per-deal sums, so that a bootstrap resample costs one pass per link."""

    def __init__(self, params: Study, rows: ladder.Rows, key: str, played: Sequence[tuple[str, str]], sides: int):
        m = params["link_matches"]
        self.deals = math.ceil(m / sides)
        self.links: list[list[ladder.Row]] = [ladder.link_rows(rows, key, ladder.link_name(lo, up), m) for lo, up in played]
        self.deal_scores = []
        for got in self.links:
            sums = [0.0] * self.deals
            for r in got:
                sums[ladder.deal_of(r["index"], sides)] += ladder.upper_score(r, sides)
            self.deal_scores.append(sums)
        self.deal_games = [0.0] * self.deals
        for i in range(m):
            self.deal_games[ladder.deal_of(i, sides)] += 1

    def totals(self, weights: Sequence[int] | None = None) -> tuple[list[float], list[float]]:
        w = weights if weights is not None else [1] * self.deals
        games = sum(c * g for c, g in zip(w, self.deal_games))
        return [sum(c * s for c, s in zip(w, sums)) for sums in self.deal_scores], [games] * len(self.deal_scores)


def report(params: Study, rows: ladder.Rows, names: dict[str, str], sides_of: Sequence[int],
           alpha: float = 0.05, bootstrap: int = BOOTSTRAP) -> LadderReport:
    """JSON-ready figures per ruleset and, with two rulesets, the paired comparison."""
    sides = max(sides_of) + 1
    bars = list(params["bars"])
    played = ladder.played_links(params, rows)
    rungs = list(params["rungs"][: len(played) + 1])
    keys = sorted(params["variants"])
    data = {k: _Data(params, rows, k, played, sides) for k in keys}
    first = data[keys[0]]
    scores0, games0 = first.totals()
    curve = ratings.coin_curve(len(rungs), groups_of(scores0, games0, sides), derive("coin", params["seed"]))
    point = {k: figures(*data[k].totals(), sides, bars, curve) for k in keys}
    rng = random.Random(derive("bootstrap", params["seed"]))
    resampled: dict[str, list[Figures]] = {k: [] for k in keys}
    for _ in range(bootstrap):
        counts = [0] * first.deals
        for _d in range(first.deals):
            counts[rng.randrange(first.deals)] += 1
        for k in keys:
            resampled[k].append(figures(*data[k].totals(counts), sides, bars, curve, point[k].fit))
    out: LadderReport = {"format": FORMAT, "version": VERSION, "variants": {}}
    for k in keys:
        out["variants"][names[k]] = _variant(data[k], point[k], resampled[k], played, rungs, params, sides, bars)
    if len(keys) == 2:
        out["comparison"] = _compare(data, point, resampled, played, keys, bars, sides, alpha, bootstrap)
    out["study"] = {"players": params["players"], "seed": params["seed"], "link_matches": params["link_matches"],
                    "rungs": list(params["rungs"]), "bars": bars, "sides": sides,
                    "partnerships": sides != len(sides_of), "bootstrap": bootstrap, "names": [names[k] for k in keys]}
    return out


def _variant(data: _Data, point: Figures, boot: Sequence[Figures], played: Sequence[tuple[str, str]], rungs: Sequence[str],
             params: Study, sides: int, bars: Sequence[float]) -> Ladder:
    links: list[LadderLink] = []
    for (lower, upper), got, share in zip(played, data.links, point.shares):
        score = sum(ladder.upper_score(r, sides) for r in got)
        lo, hi = ratings.wilson(score, len(got))
        links.append({"lower": lower, "upper": upper, "matches": len(got),
                      "upper_wins": sum(1 for r in got if r["winner"] is not None and r["winner"] == r["focus"]),
                      "draws": sum(1 for r in got if r["winner"] is None),
                      "share": score / len(got), "ci95": [lo, hi], "head_to_head": share,
                      "head_to_head_ci95": [ratings.head_to_head(lo, sides), ratings.head_to_head(hi, sides)]})
    fit = point.fit
    table: list[Rating] = []
    for player, r, se in zip(rungs, fit.ratings, fit.se):
        ci = [r - Z95 * se, r + Z95 * se]
        table.append({"player": player, "rating": r, "se": se, "ci95": ci, "elo": r * ratings.ELO_PER_NAT,
                      "elo_ci95": [x * ratings.ELO_PER_NAT for x in ci]})
    return {
        "links": links,
        "stopped": "top" if len(played) == len(params["rungs"]) - 1 else "level",
        "chain": [{"bar": b, "length": point.chains[i], "ci95": percentile_interval([f.chains[i] for f in boot])}
                  for i, b in enumerate(bars)],
        "ratings": table,
        "spread": {"value": point.spread, "ci95": percentile_interval([f.spread for f in boot])},
        "coin_share": {"value": point.coin_share, "ci95": percentile_interval([f.coin_share for f in boot])},
    }


def _compare(data: dict[str, _Data], point: dict[str, Figures], boot: dict[str, list[Figures]], played: Sequence[tuple[str, str]],
             keys: Sequence[str], bars: Sequence[float], sides: int, alpha: float, bootstrap: int) -> LadderComparison:
    a, b = keys
    rows: list[LadderTest] = []
    for li, (lower, upper) in enumerate(played):
        won_a = [r["winner"] is not None and r["winner"] == r["focus"] for r in data[a].links[li]]
        won_b = [r["winner"] is not None and r["winner"] == r["focus"] for r in data[b].links[li]]
        t = stats.mcnemar_exact(sum(x and not y for x, y in zip(won_a, won_b)), sum(y and not x for x, y in zip(won_a, won_b)))
        va, vb = point[a].shares[li], point[b].shares[li]
        rows.append({"figure": f"{ladder.link_name(lower, upper)}: share", "a": va, "b": vb, "difference": vb - va,
                     "ci95": None, "test": t.test, "statistic": t.statistic, "p": t.p_value})

    def paired(figure: str, va: float, vb: float, diffs: list[float]) -> None:
        rows.append({"figure": figure, "a": va, "b": vb, "difference": vb - va, "ci95": percentile_interval(diffs),
                     "test": "paired bootstrap", "statistic": vb - va, "p": bootstrap_p(diffs)})

    for i, bar in enumerate(bars):
        paired(f"chain length at {100 * bar:g}%", point[a].chains[i], point[b].chains[i],
               [float(fb.chains[i] - fa.chains[i]) for fa, fb in zip(boot[a], boot[b])])
    paired("coin share", point[a].coin_share, point[b].coin_share,
           [fb.coin_share - fa.coin_share for fa, fb in zip(boot[a], boot[b])])
    keep = stats.holm([r["p"] for r in rows], alpha)
    for r, sig in zip(rows, keep):
        r["significant"] = sig
    return {"alpha": alpha, "correction": "holm", "bootstrap": bootstrap, "rows": rows}
