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
