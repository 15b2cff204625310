"""The ladder's statistics on known answers, cross-checked against scipy where it has the same thing."""
from __future__ import annotations

import math
import random

import pytest

from rulelang.tools import ladder, ladder_report, ratings

scipy_optimize = pytest.importorskip("scipy.optimize")
scipy_stats = pytest.importorskip("scipy.stats")


def simulated(strengths, schedule, games, seed, sides=2):
    """Groups of `games` matches per pairing drawn from the model itself (known strengths)."""
    rng = random.Random(seed)
    groups = []
    for hi, lo in schedule:
        members = (hi,) + (lo,) * (sides - 1)
        ws = [math.exp(strengths[m]) for m in members]
        wins = [0.0] * sides
        for _ in range(games):
            wins[rng.choices(range(sides), ws)[0]] += 1
        groups.append(ratings.Group(members, tuple(wins), float(games)))
    return groups


def test_fit_agrees_with_scipy_on_the_same_likelihood():
    groups = simulated([0.0, 0.8, 1.1, 2.0], [(1, 0), (2, 1), (3, 2), (3, 0), (2, 0)], 60, 1)
    got = ratings.fit(4, groups, prior=1.0)
    data = ratings.with_prior(groups, 1.0)

    def nll(x):
        return -ratings.log_likelihood([0.0, *x], data)

    ref = scipy_optimize.minimize(nll, [0.0, 0.0, 0.0], method="BFGS", options={"gtol": 1e-9})
    assert got.ratings[1:] == pytest.approx(list(ref.x), abs=1e-5)
    # standard errors: the inverse of the numerical Hessian of the same likelihood
    h = 1e-4
    x0 = got.ratings[1:]
    hess = [[0.0] * 3 for _ in range(3)]
    for i in range(3):
        for j in range(3):
            def at(di, dj, i=i, j=j):
                x = list(x0)
                x[i] += di
                x[j] += dj
                return nll(x)
            hess[i][j] = (at(h, h) - at(h, -h) - at(-h, h) + at(-h, -h)) / (4 * h * h)
    cov = ratings.solve(hess, [[1.0 if i == j else 0.0 for j in range(3)] for i in range(3)])
    assert got.se[1:] == pytest.approx([math.sqrt(cov[i][i]) for i in range(3)], rel=1e-3)


def test_fit_with_three_sides_agrees_with_scipy():
    groups = simulated([0.0, 0.7, 1.5], [(1, 0), (2, 1)], 90, 2, sides=3)
    got = ratings.fit(3, groups)
    data = ratings.with_prior(groups, 1.0)
    ref = scipy_optimize.minimize(lambda x: -ratings.log_likelihood([0.0, *x], data), [0.0, 0.0], method="BFGS",
                                  options={"gtol": 1e-9})
    assert got.ratings[1:] == pytest.approx(list(ref.x), abs=1e-5)


def test_two_player_path_has_the_closed_form():
    # on a path the links are independent: each gap is the logit of the link's share (with the virtual draw)
    groups = [ratings.Group((1, 0), (30.0, 10.0), 40.0), ratings.Group((2, 1), (12.0, 28.0), 40.0)]
    r = ratings.fit(3, groups).ratings
    assert r[1] == pytest.approx(math.log(30.5 / 10.5))
    assert r[2] - r[1] == pytest.approx(math.log(12.5 / 28.5))


def test_ratings_recover_the_order_of_known_strengths():
    truth = [0.0, 0.4, 0.9, 1.3, 2.2]
    schedule = [(i + 1, i) for i in range(4)] + [(4, 0), (3, 1)]
    for seed in range(5):
        got = ratings.fit(5, simulated(truth, schedule, 400, seed)).ratings
        assert sorted(range(5), key=got.__getitem__) == list(range(5))
        assert got == pytest.approx(truth, abs=0.35)


def test_wilson_agrees_with_scipy():
    for k, n in ((0, 10), (3, 10), (17, 40), (40, 40), (120, 200)):
        ci = scipy_stats.binomtest(k, n).proportion_ci(method="wilson")
        assert ratings.wilson(k, n) == pytest.approx((ci.low, ci.high), abs=1e-9)
    lo, hi = ratings.wilson(10.5, 20)  # a draw is half a win: between the neighbours
    assert ratings.wilson(10, 20)[0] < lo < ratings.wilson(11, 20)[0] and hi < ratings.wilson(11, 20)[1]


def test_head_to_head_share_of_one_against_several():
    assert ratings.head_to_head(0.7, 2) == 0.7
    assert ratings.head_to_head(1 / 3, 3) == pytest.approx(0.5)  # an even share of three sides: even head to head
    odds = 2.0  # twice as strong: wins 2/(2+2) of three sides, 2/3 of one against one
    assert ratings.head_to_head(odds / (odds + 2), 3) == pytest.approx(odds / (odds + 1))


def test_coin_curve_ends_and_the_share_of_a_single_link():
    games = 2000
    for share, coin in ((0.75, 0.5), (0.9, 0.2), (0.5, 1.0)):
        groups = [ratings.Group((1, 0), (share * games, (1 - share) * games), float(games))]
        curve = ratings.coin_curve(2, groups, seed=3, replicates=8)
        assert curve.spreads == sorted(curve.spreads, reverse=True)
        got = curve.coin_share(ratings.spread(ratings.fit(2, groups).ratings))
        # a link the better player wins `share` of the time: 1 - share = coin / 2
        assert got == pytest.approx(coin, abs=0.05)
    assert curve.coin_share(1e9) == 0.0 and curve.coin_share(0.0) == 1.0


def test_coin_share_inverts_the_curve_like_brentq():
    groups = [ratings.Group((1, 0), (150.0, 50.0), 200.0), ratings.Group((2, 1), (120.0, 80.0), 200.0)]
    curve = ratings.coin_curve(3, groups, seed=1, replicates=6)
    target = 0.8

    def f(p):  # the curve as a piecewise-linear function of p
        xs, ys = curve.shares, curve.spreads
        i = min(int(p * (len(xs) - 1)), len(xs) - 2)
        t = (p - xs[i]) / (xs[i + 1] - xs[i])
        return ys[i] + t * (ys[i + 1] - ys[i]) - target

    assert curve.coin_share(target) == pytest.approx(scipy_optimize.brentq(f, 0, 1), abs=1e-9)


def test_chain_length_counts_links_in_a_row_from_the_bottom():
    assert ladder_report.chain_length([0.9, 0.65, 0.58, 0.7], 0.6) == 2
    assert ladder_report.chain_length([0.9, 0.65, 0.58, 0.7], 0.55) == 4
    assert ladder_report.chain_length([0.5], 0.6) == 0 and ladder_report.chain_length([], 0.6) == 0


def test_bootstrap_p_and_percentiles():
    assert ladder_report.bootstrap_p([0.0] * 10) == 1.0
    assert ladder_report.bootstrap_p([1.0] * 99 + [-1.0]) == pytest.approx(0.02)
    assert ladder_report.percentile_interval(list(range(101))) == [2.5, 97.5]


def coin_rows(params, seed):
    """Every link's results decided by a seeded coin (the test harness of a lottery)."""
    rng = random.Random(seed)
    rows = {}
    for lower, upper in ladder.links(params["rungs"]):
        part = ladder.link_name(lower, upper)
        for i in range(params["link_matches"]):
            rows[("a", part, i)] = {"key": "a", "part": part, "index": i, "focus": i % 2, "winner": rng.randrange(2)}
    return rows


def test_a_coin_decided_game_has_no_chain_and_a_coin_share_near_one():
    params = {"variants": {"a": {}}, "players": 2, "seed": 0, "link_matches": 200,
              "rungs": ["random", "greedy", "pimc:4", "pimc:8", "pimc:16"], "bars": [0.6, 0.55]}
    shares = []
    for seed in range(4):
        rep = ladder_report.report(params, coin_rows(params, seed), {"a": "coin"}, [0, 1], bootstrap=100)
        v = rep["variants"]["coin"]
        assert v["chain"][0]["length"] <= 1 and v["chain"][1]["length"] <= 1
        shares.append(v["coin_share"]["value"])
        assert v["coin_share"]["ci95"][1] >= 0.9
    assert min(shares) >= 0.75 and sum(shares) / len(shares) >= 0.85


def test_a_game_the_better_rung_always_wins_has_the_full_chain_and_no_coin():
    params = {"variants": {"a": {}}, "players": 2, "seed": 0, "link_matches": 40,
              "rungs": ["random", "greedy", "pimc:4", "pimc:8"], "bars": [0.6]}
    rows = {}
    for lower, upper in ladder.links(params["rungs"]):
        part = ladder.link_name(lower, upper)
        for i in range(40):
            rows[("a", part, i)] = {"key": "a", "part": part, "index": i, "focus": i % 2, "winner": i % 2}
    v = ladder_report.report(params, rows, {"a": "skill"}, [0, 1], bootstrap=50)["variants"]["skill"]
    assert v["chain"][0]["length"] == 3 and v["coin_share"]["value"] == pytest.approx(0.0, abs=0.02)
    assert [r["player"] for r in sorted(v["ratings"], key=lambda r: r["rating"])] == params["rungs"]
