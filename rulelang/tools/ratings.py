"""Ratings fitted to match results, and how much of the results a coin decides.

Model (Luce's choice axiom; Bradley-Terry when two sides play): a side of
rating `r_j` wins a match of sides `1..k` with probability
`exp(r_j) / sum_i exp(r_i)`. A drawn or unfinished match gives each side
`1/k` of a win. Games with the same players in the same places are added up
(the log-likelihood is linear in the scores), so a ladder of hundreds of
matches is a handful of groups. Ratings are maximum-likelihood estimates by
Newton's method with one virtual drawn game per group (a weak prior, as
BayesElo uses: a link that one side won every time still gets a finite
rating gap); the first player is the anchor (rating 0), and the standard
errors come from the inverse of the observed information.

Luck on a coin scale (after Duersch, Lambrecht and Oechssler, *Measuring skill
and chance in games*, European Economic Review 2020): the spread (standard
deviation) of the fitted ratings is compared with that of a reference game on
the same pairings, in which the better player always wins except that a
share `p` of the results is replaced by a coin flip. The `p` whose reference
spread matches the measured one is the coin share: 0 for a game the better
player always wins, 1 for a lottery. The reference is simulated (seeded, the
same random numbers for every `p`), so it carries the same finite-sample noise
as the measured ratings; the paper's reference is chess, ours is a game of
pure skill played by the same ladder.
"""
from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass

ELO_PER_NAT = 400 / math.log(10)  # an Elo point is 1/400 of a factor-10 in the odds


@dataclass(frozen=True)
class Group:
    """Games with the same players in the same places.

    `members[j]` is the player of side `j` (a player may hold several sides);
    `scores[j]` the wins of side `j` summed over the games (draws split
    evenly); `games` how many games. By convention side 0 holds the better
    player (the higher rung), which is what the coin reference assumes."""

    members: tuple[int, ...]
    scores: tuple[float, ...]
    games: float


@dataclass(frozen=True)
class Fit:
    """Ratings (natural log-odds units, player 0 = 0) with standard errors and the log-likelihood."""

    ratings: list[float]
    se: list[float]
    log_likelihood: float


def with_prior(groups: Sequence[Group], prior: float) -> list[Group]:
    """The groups with `prior` virtual games each, drawn (every side scores `prior / k`)."""
    out = []
    for g in groups:
        k = len(g.members)
        out.append(Group(g.members, tuple(s + prior / k for s in g.scores), g.games + prior))
    return out


def log_likelihood(ratings: Sequence[float], groups: Sequence[Group]) -> float:
    """The log-likelihood of the groups' scores under the given ratings."""
    total = 0.0
    for g in groups:
        rs = [ratings[m] for m in g.members]
        top = max(rs)
        lse = top + math.log(sum(math.exp(r - top) for r in rs))
        total += sum(s * r for s, r in zip(g.scores, rs)) - g.games * lse
    return total


def _gradient_hessian(ratings: Sequence[float], groups: Sequence[Group], players: int) -> tuple[list[float], list[list[float]]]:
    grad = [0.0] * players
    hess = [[0.0] * players for _ in range(players)]
    for g in groups:
        rs = [ratings[m] for m in g.members]
        top = max(rs)
        ws = [math.exp(r - top) for r in rs]
        total = sum(ws)
        pis = [w / total for w in ws]
        for j, a in enumerate(g.members):
            grad[a] += g.scores[j] - g.games * pis[j]
            for l, b in enumerate(g.members):
                hess[a][b] -= g.games * ((pis[j] if j == l else 0.0) - pis[j] * pis[l])
    return grad, hess


def solve(matrix: Sequence[Sequence[float]], rhs: Sequence[Sequence[float]]) -> list[list[float]]:
    """X with `matrix @ X = rhs` (Gaussian elimination with partial pivoting); ValueError if singular."""
    n = len(matrix)
    width = len(rhs[0]) if rhs else 0
    a = [list(matrix[i]) + list(rhs[i]) for i in range(n)]
    for col in range(n):
        piv = max(range(col, n), key=lambda i: abs(a[i][col]))
        if abs(a[piv][col]) < 1e-300:
            raise ValueError("singular matrix: the players are not all connected by games")
        a[col], a[piv] = a[piv], a[col]
        for i in range(n):
            if i != col and a[i][col] != 0.0:
                f = a[i][col] / a[col][col]
                a[i] = [x - f * y for x, y in zip(a[i], a[col])]
    return [[a[i][n + c] / a[i][i] for c in range(width)] for i in range(n)]


def fit(players: int, groups: Sequence[Group], prior: float = 1.0, tolerance: float = 1e-10,
        start: Sequence[float] | None = None, errors: bool = True) -> Fit:
    """Maximum-likelihood ratings of `players` players (player 0 anchored at 0) with `prior` drawn games per group.

    `start`: ratings to start Newton's method from (a nearby fit converges in fewer steps); `errors=False`
    skips the standard errors (all 0), for the many fits of a bootstrap."""
    data = with_prior(groups, prior) if prior else list(groups)
    r = [0.0] + list(start[1:]) if start is not None else [0.0] * players
    ll = log_likelihood(r, data)
    free = list(range(1, players))
    info: list[list[float]] = []
    for _ in range(200):
        grad, hess = _gradient_hessian(r, data, players)
        info = [[-hess[a][b] for b in free] for a in free]
        if not free:
            break
        step = [row[0] for row in solve(info, [[grad[a]] for a in free])]
        scale = 1.0
        while True:  # damped Newton: the step never lowers the likelihood
            trial = list(r)
            for a, d in zip(free, step):
                trial[a] += scale * d
            new = log_likelihood(trial, data)
            if new >= ll - 1e-12 or scale < 1e-6:
                break
            scale /= 2
        r, ll = trial, new
        if max(abs(scale * d) for d in step) < tolerance:
            break
    se = [0.0] * players
    if errors and free:
        grad, hess = _gradient_hessian(r, data, players)
        info = [[-hess[a][b] for b in free] for a in free]
        cov = solve(info, [[1.0 if i == j else 0.0 for j in range(len(free))] for i in range(len(free))])
        for i, a in enumerate(free):
            se[a] = math.sqrt(max(0.0, cov[i][i]))
    return Fit(r, se, ll)


def spread(ratings: Sequence[float]) -> float:
    """The standard deviation of the ratings (over the players, not an estimate of a population's)."""
    n = len(ratings)
    if n == 0:
        return float("nan")
    m = sum(ratings) / n
    return math.sqrt(sum((x - m) ** 2 for x in ratings) / n)


# --------------------------------------------------------------------------- the coin reference

@dataclass(frozen=True)
class CoinCurve:
    """The reference spread at each coin share of `shares` (non-increasing), for the pairings it was built on."""

    shares: list[float]
    spreads: list[float]

    def coin_share(self, measured: float) -> float:
        """The coin share whose reference spread equals `measured` (linear between grid points; 0 and 1 at the ends)."""
        xs, ys = self.shares, self.spreads
        if measured != measured:
            return float("nan")
        if measured >= ys[0]:
            return xs[0]
        for i in range(1, len(xs)):
            if measured >= ys[i]:
                hi, lo = ys[i - 1], ys[i]
                t = 0.0 if hi == lo else (hi - measured) / (hi - lo)
                return xs[i - 1] + t * (xs[i] - xs[i - 1])
        return xs[-1]


def coin_curve(players: int, groups: Sequence[Group], seed: int, prior: float = 1.0,
               steps: int = 50, replicates: int = 24) -> CoinCurve:
    """Reference spreads of a game on the same pairings that side 0 always wins but for a share `p` of coin flips.

    Each replicate draws, once for every game, a uniform number (the game goes to
    the coin when it is below `p`) and the coin's winner (side 0 with chance
    `1/k`); every `p` uses the same draws, so the curve falls smoothly. The
    spread at `p` is the mean over the replicates."""
    rng = random.Random(seed)
    plans = []  # per replicate, per group: (games in coin order, cumulative coin wins of side 0)
    for _ in range(replicates):
        rep = []
        for g in groups:
            n = int(round(g.games))
            k = len(g.members)
            draws = sorted((rng.random(), rng.random() < 1 / k) for _ in range(n))
            cum = [0]
            for _u, won in draws:
                cum.append(cum[-1] + won)
            rep.append(([u for u, _w in draws], cum))
        plans.append(rep)
    shares = [i / steps for i in range(steps + 1)]
    spreads: list[float] = []
    starts: list[list[float] | None] = [None] * replicates
    for p in shares:
        total = 0.0
        for ri, rep in enumerate(plans):
            sim = []
            for g, (us, cum) in zip(groups, rep):
                n = len(us)
                coin = _count_below(us, p) if p < 1 else n
                first = (n - coin) + cum[coin]
                k = len(g.members)
                rest = (n - first) / (k - 1) if k > 1 else 0.0
                sim.append(Group(g.members, (float(first),) + (rest,) * (k - 1), float(n)))
            got = fit(players, sim, prior, start=starts[ri], errors=False).ratings
            starts[ri] = got
            total += spread(got)
        value = total / len(plans)
        spreads.append(min(value, spreads[-1]) if spreads else value)
    return CoinCurve(shares, spreads)


def _count_below(sorted_values: Sequence[float], p: float) -> int:
    from bisect import bisect_left

    return bisect_left(sorted_values, p)


# --------------------------------------------------------------------------- shares

def wilson(score: float, n: int, z: float = 1.959963984540054) -> tuple[float, float]:
    """Wilson's score interval for a share `score / n` in which a draw counts as a fraction of a win."""
    if n <= 0:
        return (0.0, 1.0)
    p = score / n
    z2 = z * z
    denom = 1 + z2 / n
    centre = (p + z2 / (2 * n)) / denom
    half = z * math.sqrt(max(0.0, p * (1 - p)) / n + z2 / (4 * n * n)) / denom
    return (max(0.0, min(p, centre - half)), min(1.0, max(p, centre + half)))


def head_to_head(share: float, sides: int) -> float:
    """The share one player would take against one other, from its share against `sides - 1` copies of it.

    Under the model, one side of odds `t` against `sides - 1` equal sides wins
    `t / (t + sides - 1)`; against one of them it would win `t / (t + 1)`."""
    if sides <= 2 or share != share:
        return share
    if share >= 1:
        return 1.0
    odds = share * (sides - 1) / (1 - share)
    return odds / (1 + odds)
