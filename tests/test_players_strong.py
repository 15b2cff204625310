"""Strong players: they decide from the seat's observation and public history only, reproducibly."""
from __future__ import annotations

import random

import pytest

from rulelang import compile_bundled
from rulelang.interpreter import Config, Round
from rulelang.players.arena import PublicLog, play_match
from rulelang.players.belief import sample_round
from rulelang.players.tiles import fitting_tiles
from rulelang.tools.configs import ToolError
from rulelang.tools.playernames import make_player

CFG = Config.from_dict(compile_bundled("exact61"))


def _start(hands, bone):
    rnd = Round(CFG, 2, hands, bone, 0, opening="lottery")
    return rnd, PublicLog(rnd, 0)


def _step(rnd, log, move):
    fits = fitting_tiles(rnd.layout) if rnd.layout.tiles else []
    log.record(rnd.play(move), fits)


def _twin_positions():
    """Pairs of rounds at seat 0's second decision, alike in all seat 0 saw, unlike in seat 1's hand."""
    found = []
    for seed in range(200):
        rnd = Round.deal(CFG, 2, random.Random(seed), opener=0, opening="lottery")
        hands, bone = rnd.hands, rnd.boneyard
        lead = rnd.legal_moves()[0]
        rnd.play(lead)
        if rnd.seat_to_move != 1 or rnd.drawn_before_move:
            continue
        reply = rnd.legal_moves()[0]
        rest = [t for t in hands[1] if t != reply.tile]
        twin_hands = [hands[0], [t for t in hands[1] if t != rest[0]] + [bone[-1]]]
        twin_bone = bone[:-1] + [rest[0]]
        pair = []
        for h, b in ((hands, bone), (twin_hands, twin_bone)):
            r, log = _start(h, b)
            _step(r, log, lead)
            _step(r, log, reply)
            pair.append((r, log))
        (a, la), (b, lb) = pair
        if a.seat_to_move != 0 or b.seat_to_move != 0 or len(a.legal_moves()) < 2:
            continue
        found.append(pair)
        if len(found) == 4:
            break
    assert found
    return found


@pytest.mark.parametrize("spec", ["pimc:4", "ismcts:40"])
def test_a_player_decides_from_what_its_seat_sees_only(spec):
    for (a, la), (b, lb) in _twin_positions():
        assert a.hands[1] != b.hands[1] and a.boneyard != b.boneyard  # the hidden state differs
        oa, ob = a.observation(0), b.observation(0)
        oa["history"], ob["history"] = la.view(0, a), lb.view(0, b)
        assert oa == ob  # ... and nothing seat 0 is given does
        pa, pb = make_player(spec, CFG, 7), make_player(spec, CFG, 7)
        assert pa(oa, oa["legal"]) == pb(ob, ob["legal"])
        assert pa.searched == 1 and pa.failed == 0


def test_others_draws_are_counts_and_own_draws_tiles():
    rnd = Round.deal(CFG, 2, random.Random(3), opener=0, opening="lottery")
    log = PublicLog(rnd, 0)
    bots = [make_player("greedy", CFG, 1), make_player("greedy", CFG, 2)]
    while not rnd.over:
        fits = fitting_tiles(rnd.layout) if rnd.layout.tiles else []
        seat = rnd.seat_to_move
        obs = rnd.observation(seat)
        log.record(rnd.play(bots[seat](obs, obs["legal"])), fits)
    steps = [s for s in log.steps if "drew" in s]
    assert steps, "the deal was chosen so that someone draws"
    for seat in (0, 1):
        for st in log.view(seat, rnd)["steps"]:
            if "drew" in st:
                assert isinstance(st["drew"], list) == (st["seat"] == seat)


def test_a_sample_reproduces_the_seat_s_view_and_respects_what_others_lacked():
    rng = random.Random(5)
    checked = 0
    for seed in range(6):
        rnd = Round.deal(CFG, 2, random.Random(seed), opener=seed % 2, opening="lottery")
        log = PublicLog(rnd, 0)
        bots = [make_player("random", CFG, seed), make_player("random", CFG, seed + 100)]
        while not rnd.over:
            seat = rnd.seat_to_move
            obs = rnd.observation(seat)
            if rnd.layout.tiles:
                obs["history"] = log.view(seat, rnd)
                det = sample_round(CFG, obs, rng)
                assert det is not None
                got = det.observation(seat)
                for key in ("hand", "layout", "legal", "hand_counts", "boneyard", "scores", "count"):
                    assert got[key] == obs[key], key
                checked += 1
            fits = fitting_tiles(rnd.layout) if rnd.layout.tiles else []
            log.record(rnd.play(bots[seat](obs, obs["legal"])), fits)
    assert checked > 20


def test_a_match_with_a_strong_player_is_the_same_for_the_same_seeds():
    def once():
        seats = [make_player("pimc:3", CFG, 11), make_player("greedy", CFG, 12)]
        return play_match(CFG, 2, 99, seats)
    assert once() == once()


@pytest.mark.parametrize("spec", ["nobody", "pimc:0", "pimc:x", "greedy:3", "ismcts:-1s"])
def test_bad_player_names_are_refused(spec):
    with pytest.raises(ToolError):
        make_player(spec, CFG, 0)


def _searched_position():
    """Seat 0 to move with several legal moves, its observation and history (allfives, a seeded deal)."""
    cfg = Config.from_dict(compile_bundled("allfives"))
    for seed in range(50):
        rnd = Round.deal(cfg, 2, random.Random(seed), opener=0, opening="lottery")
        log = PublicLog(rnd, 0)
        fits = []
        log.record(rnd.play(rnd.legal_moves()[0]), fits)
        fits = fitting_tiles(rnd.layout)
        log.record(rnd.play(rnd.legal_moves()[0]), fits, rnd)
        if rnd.seat_to_move == 0 and len(rnd.legal_moves()) >= 3:
            obs = rnd.observation(0)
            obs["history"] = log.view(0, rnd)
            return cfg, obs
    raise AssertionError("no position with three moves")


@pytest.mark.parametrize("n", [1, 5, 20])
def test_pimc_plays_its_budget_of_playouts_and_no_more(n):
    cfg, obs = _searched_position()
    p = make_player(f"pimc:{n}", cfg, 3)
    move = p(obs, obs["legal"])
    assert move in obs["legal"]
    assert p.playouts == n * len(obs["legal"])  # N roll-outs of every legal move


def test_a_forced_move_costs_no_playout():
    cfg, obs = _searched_position()
    p = make_player("pimc:20", cfg, 3)
    assert p(obs, obs["legal"][:1]) == obs["legal"][0] and p.playouts == 0 and p.searched == 0


def _playground_game(seed):
    from rulelang.playground.games import Game

    game = Game(compile_bundled("allfives"), 2, ["strong"], seed)
    while not game.match.over:
        state = game.state("g")
        if state["legal"]:
            game.play(state["legal"][0]["move"])  # the human plays its first legal move
    return game


def test_the_playground_offers_the_search_player_and_its_games_replay_from_the_seed():
    from rulelang.playground.games import bot_names
    from rulelang.tools.playernames import PLAYGROUND_STRONG

    assert "strong" in bot_names() and PLAYGROUND_STRONG.startswith("pimc:")
    a, b = _playground_game(5), _playground_game(5)
    assert a.transcript() == b.transcript() and a.match.over
    bot = a.bots[1]
    assert bot.searched > 0 and bot.failed == 0  # it searched from the table's public history
    assert bot.playouts >= bot.searched * int(PLAYGROUND_STRONG.partition(":")[2])


def test_the_strength_benchmark_times_decisions_and_counts_playouts():
    import json
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    bench = str(root / "bench" / "bench_strong.py")
    res = subprocess.run([sys.executable, bench, "--latency", "--variants", "allfives", "--player", "pimc:2",
                          "--matches", "2", "--json"], capture_output=True, text=True, timeout=300, cwd=root)
    assert res.returncode == 0, res.stderr
    row = json.loads(res.stdout)[0]
    assert row["decisions"] > 0 and 0 < row["wall"]["median"] <= row["wall"]["p95"] <= row["wall"]["max"]
    res = subprocess.run([sys.executable, bench, "--variants", "allfives", "--player", "pimc:2", "--opponents", "greedy",
                          "--matches", "2", "--json"], capture_output=True, text=True, timeout=300, cwd=root)
    assert res.returncode == 0, res.stderr
    assert json.loads(res.stdout)[0]["playouts_per_decision"] >= 2 * 2  # two roll-outs of at least two moves


# "ties at the top: the side that started the match wins": seat 0 opens round 1 and dominoes at once (nobody
# scores: 140 to 145); seat 1 opens round 2 with [0|5] (150), seat 0 answers [0|6], seat 1 [1|6]. Seat 0 holds
# its last tile, [1|5]: on [1|6] it scores 10 and ties the match at 150, which goes to seat 0, the side that
# started the match; on [0|5] it scores nothing and seat 1 wins.
STARTED = ('ruleset h "H"\nsource "a test"\nbased on allfives\n'
           "opener of the first round: lottery\nopener after a domino: lottery\nopener leads any tile\n"
           "check the target after settlement\nties at the top: the side that started the match wins\n"
           "on domino:\n  nobody scores\n")


def _tie_to_the_starter_in_round_2():
    """Seat 0's observation and history at its last tile in round 2, and the real round."""
    from rulelang import compile_text
    from rulelang.interpreter import Match
    from rulelang.players.tiles import ALL_TILES

    dealt = ["[0|6]", "[1|5]", "[0|5]", "[1|6]", "[2|3]"]
    rest = [t for t in (f"[{a}|{b}]" for a, b in ALL_TILES) if t not in dealt]
    deals = [{"hands": [["[1|1]"], ["[0|0]"]], "boneyard": [], "opener": 0, "scores": [140, 145]},
             {"hands": [dealt[:2], dealt[2:]], "boneyard": rest, "opener": 1}]
    match = Match(compile_text(STARTED, "h.rules"), 2, deal=deals)
    match.play("[1|1]")
    rnd = match.round
    log = PublicLog(rnd, 1)
    for move in ("[0|5]", "[0|6] on [0|5] low", "[1|6] on [0|6] high"):
        _step(rnd, log, move)
    obs = match.observation(0)
    obs["history"] = log.view(0, rnd)
    assert (rnd.opener, rnd.first_opener, rnd.scores) == (1, 0, [140, 150])
    return match.config, obs, rnd


def test_a_sample_of_a_later_round_knows_which_side_started_the_match():
    cfg, obs, rnd = _tie_to_the_starter_in_round_2()
    tie = "[1|5] on [1|6] low"
    real = rnd.clone()
    real.play(tie)
    assert real.match_over and real.scores == [150, 150] and real.winner == 0
    rng = random.Random(3)
    for _ in range(5):
        det = sample_round(cfg, obs, rng)
        assert det is not None and det.first_opener == 0
        det.play(tie)
        assert det.winner == 0  # the sample judges the tie as the match does


def test_the_search_player_takes_a_tie_that_goes_to_the_side_that_started_the_match():
    cfg, obs, _ = _tie_to_the_starter_in_round_2()
    assert [str(m) for m in obs["legal"]] == ["[1|5] on [0|5] high", "[1|5] on [1|6] low"]
    player = make_player("pimc:4", cfg, 7)
    assert str(player(obs, obs["legal"])) == "[1|5] on [1|6] low"
    assert player.failed == 0


def test_the_observation_names_the_match_s_first_opener_only_under_the_rule():
    assert _tie_to_the_starter_in_round_2()[1]["first_opener"] == 0  # a public fact at the table
    rnd = Round.deal(CFG, 2, random.Random(1), opener=0, opening="lottery")
    assert "first_opener" not in rnd.observation(0)
