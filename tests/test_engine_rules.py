"""Hand-built scenarios: illegal moves, drawing and passing, settlements, target and ties."""
from __future__ import annotations

import copy
import json
import pathlib

import pytest

from rulelang.interpreter import (
    Config,
    ConfigError,
    IllegalMove,
    Match,
    Move,
    Round,
    load_config,
    play_match,
    play_round,
    random_player,
)

HERE = pathlib.Path(__file__).parent
CONFIGS = HERE / "data" / "configs"
ALL_TILES = [(a, b) for a in range(7) for b in range(a, 7)]


def cfg(name, **changes):
    """A bundled configuration, optionally with fields changed ("a.b": value)."""
    data = json.loads((CONFIGS / f"{name}.json").read_text())
    for path, value in changes.items():
        node = data
        keys = path.split("__")
        for k in keys[:-1]:
            node = node[k]
        node[keys[-1]] = value
    return Config.from_dict(data)


def rest(*hands):
    used = {t for h in hands for t in h}
    return [t for t in ALL_TILES if t not in used]


def snapshot(rnd):
    return (rnd.hands, rnd.boneyard, rnd.layout.to_dict(), rnd.scores, rnd.seat_to_move,
            [e.to_dict() for e in rnd.events], rnd.over)


# -- illegal moves ---------------------------------------------------------------------------


def _pagat_position():
    """Pagat, 2 players: [1|4] led, [1|1] on its low end; seat 0 to move."""
    h0 = [(1, 4), (1, 2), (4, 4), (0, 6)]
    h1 = [(1, 1), (3, 4), (5, 6)]
    rnd = Round(cfg("pagat"), 2, [h0, h1], rest(h0, h1), 0, record=True)
    rnd.play("[1|4]")
    rnd.play("[1|1] on [1|4] low")
    return rnd


@pytest.mark.parametrize("move,code", [
    ("[2|2] on [1|1] line-b", "not-in-hand"),
    ("[1|2]", "must-lead"),
    ("[1|2] on [2|2] line-b", "not-on-layout"),
    ("[1|2] on [1|4] line-a", "no-such-side"),
    ("[1|2] on [1|4] low", "side-occupied"),
    ("[1|2] on [1|1] line-a", "side-occupied"),
    ("[1|2] on [1|1] branch-a", "branch-closed"),
    ("[1|2] on [1|4] high", "no-match"),
    ("[0|6] on [1|1] line-b", "no-match"),
])
def test_illegal_moves_leave_the_state_unchanged(move, code):
    rnd = _pagat_position()
    before = snapshot(rnd)
    with pytest.raises(IllegalMove) as e:
        rnd.play(move)
    assert e.value.code == code
    assert e.value.legal == rnd.legal_moves()
    assert [str(m) for m in e.value.legal] == [
        "[1|2] on [1|1] line-b", "[4|4] on [1|4] high"]
    assert snapshot(rnd) == before
    assert len(rnd.turns) == 2


def test_must_lead_with_a_target_on_an_empty_layout():
    h0, h1 = [(1, 4)], [(2, 2)]
    rnd = Round(cfg("pagat"), 2, [h0, h1], rest(h0, h1), 0)
    with pytest.raises(IllegalMove) as e:
        rnd.play("[1|4] on [2|2] line-a")
    assert e.value.code == "must-lead"
    assert rnd.legal_moves() == [Move((1, 4))]


def test_forced_lead():
    h0, h1 = [(1, 4), (3, 3), (0, 6)], [(2, 2), (5, 6)]
    rnd = Round(cfg("allfives"), 2, [h0, h1], rest(h0, h1))
    assert rnd.opener == 0 and rnd.forced_tile == (3, 3)
    with pytest.raises(IllegalMove) as e:
        rnd.play("[1|4]")
    assert e.value.code == "forced-lead"
    assert e.value.legal == [Move((3, 3))]


@pytest.mark.parametrize("hands,opener,lead", [
    # no doubles: the heaviest tile; equal pips: the larger high half ([3|6] over [4|5])
    ([[(4, 5), (0, 1)], [(3, 6), (0, 2)]], 1, (3, 6)),
    ([[(0, 0), (5, 6)], [(1, 2), (4, 6)]], 0, (0, 0)),
    ([[(0, 0), (5, 6)], [(1, 1), (4, 6)]], 1, (1, 1)),
    ([[(2, 3)], [(0, 4)], [(1, 4)]], 2, (1, 4)),
])
def test_highest_double_opener(hands, opener, lead):
    rnd = Round(cfg("allfives"), len(hands), hands, rest(*hands))
    assert rnd.opener == opener
    assert rnd.legal_moves() == [Move(lead)]


def test_no_such_side_on_a_non_branching_double():
    """All Fives: only the first double branches; a later double has no branch sides."""
    h0, h1 = [(5, 5), (0, 0), (1, 2)], [(0, 5), (0, 1), (2, 3)]
    rnd = Round(cfg("allfives"), 2, [h0, h1], rest(h0, h1))
    rnd.play("[5|5]")
    rnd.play("[0|5] on [5|5] line-a")
    rnd.play("[0|0] on [0|5] low")
    with pytest.raises(IllegalMove) as e:
        rnd.play("[0|1] on [0|0] branch-a")
    assert e.value.code == "no-such-side"
    rnd.play("[0|1] on [0|0] line-b")


def test_must_play_drawn_and_draw_order():
    """A player without a placement draws from the front until a tile fits, and must place it."""
    h0 = [(6, 6), (1, 2)]
    h1 = [(0, 1), (0, 2)]
    bone = [(3, 5), (0, 3), (5, 6), (4, 4), (2, 3)]
    bone += rest(h0, h1, bone)
    rnd = Round(cfg("pagat"), 2, [h0, h1], bone, 0, record=True)
    rnd.play("[6|6]")
    # seat 1 has no 6: draws [3|5], [0|3] (no 6), then [5|6] fits
    assert rnd.seat_to_move == 1
    assert rnd.must_play == (5, 6)
    assert rnd.boneyard[:2] == [(4, 4), (2, 3)]
    assert [str(m) for m in rnd.legal_moves()] == ["[5|6] on [6|6] line-a", "[5|6] on [6|6] line-b"]
    with pytest.raises(IllegalMove) as e:
        rnd.play("[0|1] on [6|6] line-b")
    assert e.value.code == "must-play-drawn"
    with pytest.raises(IllegalMove) as e:
        rnd.draw()
    assert e.value.code == "must-place"
    with pytest.raises(IllegalMove) as e:
        rnd.pass_turn()
    assert e.value.code == "must-place"
    turn = rnd.play("[5|6] on [6|6] line-b")
    assert turn.drawn == [(3, 5), (0, 3), (5, 6)]
    assert rnd.hands[1] == [(0, 1), (0, 2), (0, 3), (3, 5)]


def test_round_over_code():
    h0, h1 = [(1, 4)], [(2, 2)]
    rnd = Round(cfg("pagat"), 2, [h0, h1], rest(h0, h1), 0)
    rnd.play("[1|4]")
    assert rnd.over and rnd.result.kind == "domino"
    for call in (lambda: rnd.play("[2|2] on [1|4] low"), rnd.draw, rnd.pass_turn):
        with pytest.raises(IllegalMove) as e:
            call()
        assert e.value.code == "round-over"
    assert rnd.legal_moves() == [] and rnd.seat_to_move is None


def test_bad_move_text():
    with pytest.raises(ValueError):
        Move.parse("[1|4] onto [1|1] line-a")
    with pytest.raises(ValueError):
        Move.parse("[1|19]")  # larger sets: halves up to 18 ([1|13] is a double-fifteen tile)
    with pytest.raises(ValueError):
        Move.parse("[1|4] on [1|1] sideways")
    assert Move.parse("[4|1] on [1|1] branch-a") == Move((1, 4), (1, 1), "branch-a")
    assert str(Move((1, 5), (1, 1), "branch-a")) == "[1|5] on [1|1] branch-a"
    assert str(Move.parse("[4|1]")) == "[1|4]"


# -- drawing, passing, blocking ----------------------------------------------------------------


def test_reserve_is_never_drawn():
    c = cfg("pagat", reserve={"2": 3, "3": 0, "4": 0})
    h0, h1 = [(6, 6), (2, 6), (1, 2)], [(0, 1), (0, 2)]
    # seat 1 draws [3|5] only (the rest is the reserve): it passes; seat 0 plays on
    bone = [(3, 5)] + [(5, 6), (4, 6), (3, 6)]
    rnd = Round(c, 2, [h0, h1], bone, 0, record=True)
    assert rnd.drawable == 1
    rnd.play("[6|6]")
    assert rnd.seat_to_move == 0  # seat 1 drew [3|5] and passed
    assert rnd.boneyard == [(5, 6), (4, 6), (3, 6)]
    assert rnd.drawable == 0
    assert rnd.hands[1] == [(0, 1), (0, 2), (3, 5)]


def test_pass_records_the_draws_before_it():
    h0, h1 = [(6, 6), (2, 6), (1, 5)], [(0, 1), (0, 2)]
    bone = [(3, 5)]
    rnd = Round(cfg("pagat"), 2, [h0, h1], bone, 0, record=True)
    rnd.play("[6|6]")
    assert rnd.seat_to_move == 0
    turn = rnd.play("[2|6] on [6|6] line-a")
    assert turn.passed == [1] and turn.pass_drawn == [[(3, 5)]] and turn.drawn == []
    # seat 1 now has [0|2] which fits the 2 end
    assert rnd.seat_to_move == 1


def test_drawing_none_passes_at_once():
    c = cfg("pagat", drawing="none")
    h0, h1 = [(6, 6), (2, 6), (1, 5)], [(0, 1), (0, 2)]
    rnd = Round(c, 2, [h0, h1], rest(h0, h1), 0, record=True)
    rnd.play("[6|6]")
    assert rnd.seat_to_move == 0 and rnd.hands[1] == [(0, 1), (0, 2)]
    turn = rnd.play("[2|6] on [6|6] line-a")
    assert turn.passed == [1] and turn.pass_drawn == [[]]


def test_block_is_found_the_moment_no_one_can_play():
    """Draws then block: the drawing seat's tiles are recorded on the result."""
    h0, h1 = [(0, 0), (2, 6)], [(1, 1), (2, 4)]
    bone = [(3, 5)]
    rnd = Round(cfg("allfives"), 2, [h0, h1], bone, 0, record=True, opening="lottery")
    rnd.play("[0|0]")
    assert rnd.over and rnd.result.kind == "blocked"
    assert rnd.result.drawn == [(1, [(3, 5)])]
    assert rnd.result.hand_pips == [8, 16]


# -- settlements and targets --------------------------------------------------------------------


def test_allfives_block_won_on_fewer_tiles():
    h0, h1 = [(0, 0), (2, 6)], [(1, 1), (2, 4)]  # after the lead: 8 pips in 1 tile vs 8 in 2
    rnd = Round(cfg("allfives"), 2, [h0, h1], [], 0, opening="lottery")
    rnd.play("[0|0]")
    res = rnd.result
    assert res.kind == "blocked" and res.seat == 0 and res.side == 0
    assert [(e.side, e.kind, e.raw) for e in res.settlement] == [(0, "block", 10)]
    assert rnd.scores == [10, 0]


def test_allfives_block_with_no_winner():
    h0, h1 = [(0, 0), (2, 6)], [(3, 5)]
    rnd = Round(cfg("allfives"), 2, [h0, h1], [], 0, opening="lottery")
    rnd.play("[0|0]")
    res = rnd.result
    assert res.kind == "blocked" and res.seat is None and res.side is None
    assert res.settlement == [] and rnd.scores == [0, 0]


def test_allfives_block_lightest_hand_collects_each_opponent():
    h = [[(0, 0), (1, 2)], [(3, 4), (1, 1)], [(6, 6), (2, 3)]]  # 3, 9, 17 after the lead
    rnd = Round(cfg("allfives"), 3, h, [], 0, opening="lottery")
    rnd.play("[0|0]")
    assert rnd.result.seat == 0
    # opponents rounded separately: round5(9) + round5(17) = 10 + 15
    assert [(e.side, e.raw) for e in rnd.result.settlement] == [(0, 25)]


def test_allfives_last_placement_reaching_target_ends_without_collection():
    h0, h1 = [(0, 5)], [(6, 6), (5, 6)]
    rnd = Round(cfg("allfives"), 2, [h0, h1], [], 0, scores=[145, 0], opening="lottery")
    rnd.play("[0|5]")
    res = rnd.result
    assert res.kind == "domino" and res.match_over and res.winner == 0
    assert res.settlement == []
    assert rnd.scores == [150, 0]


def test_allfives_domino_collects_each_opponent_rounded():
    h0, h1, h2 = [(1, 4)], [(6, 6), (0, 1)], [(0, 2)]  # 13 -> 15, 2 -> 0
    rnd = Round(cfg("allfives"), 3, [h0, h1, h2], [], 0, opening="lottery")
    rnd.play("[1|4]")
    assert [(e.side, e.kind, e.raw, e.seat) for e in rnd.events] == [
        (0, "placement", 5, 0), (0, "domino", 15, 0)]


def test_allfives_mid_round_target():
    h0, h1 = [(0, 5), (6, 6)], [(1, 1)]
    rnd = Round(cfg("allfives"), 2, [h0, h1], [], 0, scores=[148, 0], opening="lottery")
    rnd.play("[0|5]")
    assert rnd.over and rnd.match_over and rnd.result.kind == "target" and rnd.winner == 0


def test_exact61_overshoot_placement_discarded():
    h0, h1 = [(4, 6), (0, 0)], [(3, 3), (2, 2)]
    rnd = Round(cfg("exact61"), 2, [h0, h1], rest(h0, h1), 0, scores=[300, 0])
    rnd.play("[4|6]")  # 10 would take 300 to 310: discarded
    ev = rnd.events[0]
    assert (ev.kind, ev.raw, ev.accepted, ev.score_after) == ("placement", 10, False, 300)
    assert rnd.scores == [300, 0] and not rnd.over


def test_exact61_placement_landing_exactly_ends_the_match():
    h0, h1 = [(4, 6), (0, 0)], [(3, 3), (2, 2)]
    rnd = Round(cfg("exact61"), 2, [h0, h1], rest(h0, h1), 0, scores=[295, 0])
    rnd.play("[4|6]")
    assert rnd.over and rnd.match_over and rnd.winner == 0 and rnd.result.kind == "target"


@pytest.mark.parametrize("start,accepted,after", [
    (275, True, 305),   # 5 + 25 lands exactly
    (280, False, 280),  # 310: discarded whole
    (290, False, 290),  # the placement alone (295) would fit; the combined event does not
])
def test_exact61_combined_domino_event(start, accepted, after):
    h0, h1 = [(1, 4)], [(6, 6), (5, 6)]  # opponent 23 -> 25
    rnd = Round(cfg("exact61"), 2, [h0, h1], [], 0, scores=[start, 0])
    turn = rnd.play("[1|4]")
    assert [(e.kind, e.raw, e.accepted) for e in turn.events] == [("domino", 30, accepted)]
    assert rnd.scores == [after, 0]
    assert rnd.result.match_over == (after == 305)


def test_exact61_partner_debit_larger_than_credit():
    # seat 0 dominoes on [1|4] (5); opponents 1 + 0 pooled -> 0; partner 23 -> 25 debited
    hands = [[(1, 4)], [(0, 1)], [(6, 6), (5, 6)], [(0, 0)]]
    rnd = Round(cfg("exact61"), 4, hands, [], 0, scores=[100, 50])
    rnd.play("[1|4]")
    assert [(e.side, e.kind, e.raw, e.accepted, e.score_after) for e in rnd.events] == [
        (0, "domino", -20, True, 80)]
    assert rnd.scores == [80, 50]


def test_exact61_domino_pools_opponents_before_rounding():
    # opponents 2 + 2 = 4 -> 5 pooled (each rounded alone would give 0)
    hands = [[(1, 4)], [(0, 2)], [(0, 0)], [(1, 1)]]
    rnd = Round(cfg("exact61"), 4, hands, [], 0)
    rnd.play("[1|4]")
    assert [(e.side, e.raw) for e in rnd.events] == [(0, 10)]


def _exact61_block(scores, opener=1):
    # 3 players; [0|0] is led by seat 1 and nobody holds another 0: blocked at once.
    # remaining pips: seat 0: 5, seat 1: 5, seat 2: 22
    hands = [[(2, 3)], [(0, 0), (1, 4)], [(6, 6), (4, 6)]]
    rnd = Round(cfg("exact61"), 3, hands, [], opener, scores=scores)
    rnd.play("[0|0]")
    return rnd


def test_exact61_block_tied_hands_clockwise_from_opener_match_ends_mid_list():
    rnd = _exact61_block([290, 290, 0])
    # credits round5(22 - 5) = 15 each; tied at 5 pips: seat 1 (the opener) first, then seat 0
    assert [(e.side, e.raw, e.accepted) for e in rnd.events] == [(1, 15, True)]
    assert rnd.result.match_over and rnd.result.winner == 1
    assert rnd.scores == [290, 305, 0]
    assert rnd.result.seat is None  # the lightest hand is shared by opponents: a drawn round


def test_exact61_block_overshoot_discarded_and_next_event_still_applies():
    rnd = _exact61_block([290, 295, 0])
    assert [(e.side, e.raw, e.accepted) for e in rnd.events] == [(1, 15, False), (0, 15, True)]
    assert rnd.scores == [305, 295, 0] and rnd.result.winner == 0


def test_exact61_block_order_follows_the_opener():
    rnd = _exact61_block([0, 0, 0], opener=1)
    assert [e.side for e in rnd.events] == [1, 0]


def test_exact61_block_differences_partners_give_nothing():
    # 4 players: team 0 = seats 0, 2; team 1 = seats 1, 3. Led [0|0] by seat 0, blocked.
    hands = [[(0, 0), (1, 1)], [(1, 2)], [(6, 6)], [(2, 2)]]  # pips 2, 3, 12, 4
    rnd = Round(cfg("exact61"), 4, hands, [], 0)
    rnd.play("[0|0]")
    # seat 0 (2): opponents 3, 4 heavier: 1 + 2 = 3 -> 5; seat 1 (3): opp. 12 -> 9 -> 10;
    # seat 3 (4): opp. 12 -> 8 -> 10; seat 2 (12): none
    assert [(e.side, e.raw, e.seat) for e in rnd.events] == [(0, 5, 0), (1, 10, 1), (1, 10, 3)]
    assert rnd.result.seat == 0 and rnd.result.side == 0


def test_pagat_target_only_after_settlement():
    h0, h1 = [(1, 4), (6, 6)], [(4, 5)]
    rnd = Round(cfg("pagat"), 2, [h0, h1], [], 0, scores=[300, 0])
    rnd.play("[1|4]")  # 305 mid-round: not checked
    assert not rnd.over and rnd.scores == [305, 0]
    rnd.play("[4|5] on [1|4] high")  # seat 1 dominoes; seat 0 loses round5(12) = 10
    assert rnd.result.kind == "domino" and not rnd.result.match_over
    assert rnd.scores == [295, 0]


def test_pagat_tie_at_the_top_forces_another_round():
    c = cfg("pagat")
    d0 = {"hands": [[(1, 4)], [(0, 0)]], "boneyard": [], "opener": 0, "scores": [300, 305]}
    d1 = {"hands": [[(2, 3)], [(0, 0)]], "boneyard": []}
    m = Match(c, 2, 1, record=True, deal=[d0, d1])
    m.play("[1|4]")
    assert m.rounds[0].tiebreak and not m.rounds[0].match_over
    assert not m.over and m.scores == [305, 305]
    assert m.round.opener == 0  # whoever dominoed opens
    m.play("[2|3]")
    assert m.over and m.winner == 0 and m.scores == [310, 305]


def test_pagat_extra_round_winner_need_not_hold_the_target():
    c = cfg("pagat")
    d0 = {"hands": [[(1, 4)], [(0, 0)]], "boneyard": [], "opener": 0, "scores": [300, 305]}
    # extra round: seat 0 leads [0|1] (1 point: nothing) and dominoes; seat 1 loses round5(12)
    d1 = {"hands": [[(0, 1)], [(6, 6)]], "boneyard": []}
    m = Match(c, 2, 1, deal=[d0, d1])
    m.play("[1|4]")
    m.play("[0|1]")
    assert m.over and m.winner == 0 and m.scores == [305, 295]


def test_ties_draw_ends_the_match_drawn():
    c = cfg("pagat", target__ties="draw")
    d0 = {"hands": [[(1, 4)], [(0, 0)]], "boneyard": [], "opener": 0, "scores": [300, 305]}
    m = Match(c, 2, 1, deal=[d0])
    m.play("[1|4]")
    assert m.over and m.winner is None and m.rounds[0].match_over


def test_bounce_overshoot():
    c = cfg("exact61", target__overshoot="bounce")
    h0, h1 = [(4, 6), (0, 0)], [(3, 3), (2, 2)]
    rnd = Round(c, 2, [h0, h1], rest(h0, h1), 0, scores=[300, 0])
    rnd.play("[4|6]")
    assert rnd.scores == [300, 0]  # 310 bounces back to 2*305 - 310 = 300
    assert rnd.events[0].accepted


def test_score_floor():
    c = cfg("pagat", score_floor=0)
    h0, h1 = [(0, 1)], [(6, 6), (5, 6)]
    rnd = Round(c, 2, [h0, h1], [], 0, scores=[0, 10])
    rnd.play("[0|1]")
    assert rnd.scores == [0, 0]
    assert rnd.events[0].raw == -25 and rnd.events[0].score_after == 0


def test_terminal_count_one_half_and_branching_none():
    c = cfg("pagat", doubles={"branching": "none", "branch_sides": "after-line", "terminal_count": "one-half"})
    h0, h1 = [(3, 6), (0, 1)], [(6, 6), (0, 2)]
    rnd = Round(c, 2, [h0, h1], rest(h0, h1), 0)
    rnd.play("[3|6]")
    rnd.play("[6|6] on [3|6] high")
    assert rnd.layout.count() == 3 + 6 and rnd.layout.spinners() == []
    assert [s for _, s, _ in rnd.layout.attach_points()] == ["low", "line-b"]


def test_opening_double_after_line_opens_branches_when_both_line_sides_are_taken():
    h0, h1 = [(2, 2), (2, 5), (0, 6)], [(2, 3), (2, 4), (1, 6)]
    rnd = Round(cfg("pagat"), 2, [h0, h1], rest(h0, h1), 0)
    rnd.play("[2|2]")
    assert rnd.layout.count() == 4
    rnd.play("[2|3] on [2|2] line-a")
    assert rnd.layout.count() == 4 + 3  # still terminal: line-b free
    assert all(not s.startswith("branch") for _, s, _ in rnd.layout.attach_points())
    rnd.play("[2|5] on [2|2] line-b")
    assert rnd.layout.count() == 3 + 5
    assert [s for t, s, _ in rnd.layout.attach_points() if t == (2, 2)] == ["branch-a", "branch-b"]


def test_play_round_and_match_are_deterministic():
    c = cfg("allfives")
    a = play_round(c, 3, 7, [random_player(1), random_player(2), random_player(3)], record=True)
    b = play_round(c, 3, 7, [random_player(1), random_player(2), random_player(3)], record=True)
    assert a.transcript() == b.transcript()
    m1 = play_match(c, 2, 11, record=True)
    m2 = play_match(c, 2, 11)
    assert m1.scores == m2.scores and len(m1.rounds) == len(m2.rounds)


def test_fast_path_equals_slow_path():
    """The bundled players choose the same through `pick` and through `__call__`."""
    from rulelang.interpreter import greedy_player

    for name in ("exact61", "pagat", "allfives"):
        c = cfg(name)
        for mk in (random_player, greedy_player):
            fast = play_match(c, 4, 3, [mk(s) for s in range(4)], record=True).transcript()
            slow_bots = [mk(s) for s in range(4)]
            wrapped = [lambda o, l, b=b: b(o, l) for b in slow_bots]
            slow = play_match(c, 4, 3, wrapped, record=True).transcript()
            assert fast == slow


def test_config_errors():
    data = json.loads((CONFIGS / "pagat.json").read_text())
    bad = copy.deepcopy(data)
    bad["drawing"] = "sometimes"
    with pytest.raises(ConfigError) as e:
        Config.from_dict(bad)
    assert e.value.path == "/drawing"
    bad = copy.deepcopy(data)
    bad["hand_size"]["4"] = 8
    with pytest.raises(ConfigError):
        Config.from_dict(bad)
    c = load_config(CONFIGS / "pagat.json")
    assert c.to_dict() == data and c.name == "pagat"
    with pytest.raises(AttributeError):
        c.name = "x"


# -- matches, openers, players ----------------------------------------------------------------


def _domino_deal(winner_tile, other):
    return {"hands": [[winner_tile], [other]], "boneyard": []}


@pytest.mark.parametrize("rule,expected", [("dominoer", 1), ("next-seat", 1), ("highest-double", 0)])
def test_opener_after_domino(rule, expected):
    c = cfg("pagat", opener={"first_round": "lottery", "after_domino": rule,
                             "after_block": "lottery", "lead": "any"})
    # round 0: seat 1 leads... seat 0 opens and cannot domino; seat 1 dominoes
    d0 = {"hands": [[(1, 4), (6, 6)], [(4, 5)]], "boneyard": [], "opener": 0}
    d1 = {"hands": [[(3, 3), (0, 1)], [(2, 2), (0, 2)]], "boneyard": []}
    m = Match(c, 2, 1, deal=[d0, d1])
    m.play("[1|4]")
    m.play("[4|5] on [1|4] high")
    assert m.rounds[0].kind == "domino" and m.rounds[0].seat == 1
    assert m.round.opener == expected


@pytest.mark.parametrize("rule,expected", [("block-winner", 1), ("next-seat", 1), ("highest-double", 1)])
def test_opener_after_block(rule, expected):
    c = cfg("allfives", opener={"first_round": "lottery", "after_domino": "dominoer",
                                "after_block": rule, "lead": "any"})
    # seat 0 leads [0|0]; nobody has a 0: blocked; seat 1 (3 pips) beats seat 0 (11)
    d0 = {"hands": [[(0, 0), (5, 6)], [(1, 2)]], "boneyard": [], "opener": 0}
    d1 = {"hands": [[(2, 3), (0, 1)], [(4, 4), (0, 2)]], "boneyard": []}
    m = Match(c, 2, 1, deal=[d0, d1])
    m.play("[0|0]")
    assert m.rounds[0].kind == "blocked" and m.rounds[0].seat == 1
    assert m.round.opener == expected


def test_block_winner_without_winner_falls_back_to_lottery():
    c = cfg("allfives", opener={"first_round": "lottery", "after_domino": "dominoer",
                                "after_block": "block-winner", "lead": "any"})
    d0 = {"hands": [[(0, 0), (2, 6)], [(3, 5)]], "boneyard": [], "opener": 0}
    openers = set()
    for seed in range(20):
        m = Match(c, 2, seed, deal=[d0])
        m.play("[0|0]")
        assert m.rounds[0].seat is None and m.round.opening == "lottery"
        openers.add(m.round.opener)
    assert openers == {0, 1}


def test_match_over_refuses_moves():
    h0, h1 = [(0, 5)], [(6, 6)]
    m = Match(cfg("allfives"), 2, 1, deal={"hands": [h0, h1], "boneyard": [], "opener": 0,
                                           "scores": [145, 0]})
    m.play("[0|5]")
    assert m.over and m.winner == 0 and m.seat_to_move is None and m.legal_moves() == []
    with pytest.raises(IllegalMove) as e:
        m.play("[6|6]")
    assert e.value.code == "round-over"


def test_greedy_player_takes_the_most_points():
    from rulelang.interpreter import greedy_player

    h0 = [(3, 6), (0, 0)]
    h1 = [(6, 6), (1, 3), (0, 3)]
    rnd = Round(cfg("pagat"), 2, [h0, h1], rest(h0, h1), 0)
    rnd.play("[3|6]")  # 9: nothing
    obs = rnd.observation(1)
    legal = rnd.legal_moves()
    pts = dict(zip(map(str, legal), obs["points"]))
    assert pts["[6|6] on [3|6] high"] == 15
    assert greedy_player(1)(obs, legal) == Move((6, 6), (3, 6), "high")
    assert rnd.points_of(Move((6, 6), (3, 6), "high")) == 15


def test_observation_hides_other_hands():
    h0, h1 = [(3, 6), (0, 0)], [(6, 6), (1, 3)]
    rnd = Round(cfg("pagat"), 2, [h0, h1], rest(h0, h1), 0)
    obs = rnd.observation(1)
    assert obs["hand"] == [(1, 3), (6, 6)] and obs["legal"] == [] and obs["hand_counts"] == [2, 2]
    assert "hands" not in obs
    obs0 = rnd.observation(0)
    assert obs0["legal"] == [Move((0, 0)), Move((3, 6))]
    json.dumps({k: v for k, v in obs0.items() if k != "legal"})


def test_explicit_deal_validation():
    with pytest.raises(ValueError):
        Round(cfg("pagat"), 2, [[(1, 1)], [(1, 1)]], [], 0)
    with pytest.raises(ValueError):
        Round(cfg("pagat"), 2, [[(1, 1)], []], [], 0)
    with pytest.raises(ValueError):
        Round(cfg("pagat"), 2, [[(1, 1)], [(2, 2)]], [], 5)
    with pytest.raises(ValueError):
        Round(cfg("pagat"), 2, [[(1, 1)], [(2, 2)]], [])  # lottery with no generator
    rnd = Round(cfg("pagat"), 2, [["[1|1]"], ["[2|2]"]], ["[3|3]"], 1)
    assert rnd.hands == [[(1, 1)], [(2, 2)]] and rnd.boneyard == [(3, 3)]


def test_seeded_lottery_is_uniform_enough():
    c = cfg("pagat")
    seen = {Match(c, 4, seed).round.opener for seed in range(60)}
    assert seen == {0, 1, 2, 3}


# -- other settlement shapes the configuration can state ------------------------------------------


def _term(hands, pooling, to, sign):
    return {"kind": "hands", "hands": hands, "pooling": pooling, "rounding": "round5", "to": to, "sign": sign}


def test_per_term_events():
    dom = {"terms": [_term("opponents", "pooled", "winner", "credit"), _term("partner", "pooled", "winner", "debit")],
           "events": "per-term", "with_last_placement": False}
    c = cfg("exact61", settlement__domino=dom)
    hands = [[(1, 4)], [(0, 6)], [(0, 4)], [(0, 3)]]  # opponents 6 + 3 = 9 -> 10; partner 4 -> 5
    rnd = Round(c, 4, hands, [], 0)
    rnd.play("[1|4]")
    assert [(e.side, e.kind, e.raw) for e in rnd.events] == [
        (0, "placement", 5), (0, "domino", 10), (0, "domino", -5)]


def test_own_hand_debit_and_pooled_to_owner():
    block = {"winner": "lightest-hand", "tie_break": "none",
             "terms": [_term("opponents", "each", "winner", "credit"), _term("own", "each", "winner", "debit")],
             "events": "one"}
    c = cfg("allfives", settlement__block=block)
    h0, h1 = [(0, 0), (1, 2)], [(3, 4)]  # after the lead: 3 vs 7
    rnd = Round(c, 2, [h0, h1], [], 0, opening="lottery")
    rnd.play("[0|0]")
    # +round5(7) - round5(3) = 5 + ... = 5 - 5 = 0: a net-zero event is not recorded
    assert rnd.events == [] and rnd.result.seat == 0
    dom = {"terms": [_term("everyone", "pooled", "owner", "debit")], "events": "per-hand",
           "with_last_placement": False}
    with pytest.raises(ConfigError) as e:  # refused as the language refuses it (rulelang/config/rules.py)
        cfg("pagat", settlement__domino=dom)
    assert (e.value.code, e.value.path) == ("pooled-to-owner", "/settlement/domino/terms/0")


def test_one_event_per_side_winner_first_then_clockwise():
    dom = {"terms": [_term("everyone", "each", "owner", "debit"), _term("opponents", "pooled", "winner", "credit")],
           "events": "one", "with_last_placement": False}
    c = cfg("allfives", settlement__domino=dom)
    rnd = Round(c, 3, [[(3, 6)], [(1, 4)], [(2, 4)]], [], 1, opening="lottery")
    rnd.play("[1|4]")
    # winner seat 1 (5 points placed); seat 2 holds 6 -> -5, seat 0 holds 9 -> -10; credit 15 -> 15
    assert [(e.side, e.kind, e.raw) for e in rnd.events] == [
        (1, "placement", 5), (1, "domino", 15), (2, "domino", -5), (0, "domino", -10)]


def test_match_ends_mid_settlement_skipping_the_rest():
    dom = {"terms": [_term("everyone", "each", "owner", "debit"), _term("opponents", "each", "winner", "credit")],
           "events": "per-hand", "with_last_placement": False}
    c = cfg("allfives", settlement__domino=dom)
    # seat 0 dominoes; per hand in ascending pips: seat 0 (0 pips: nothing), then...
    rnd = Round(c, 3, [[(0, 1)], [(3, 6)], [(6, 6)]], [], 0, scores=[140, 0, 0], opening="lottery")
    rnd.play("[0|1]")
    # amounts sorted by hand pips: seat 1 (9): -10 to side 1, +10 to side 0 -> 150 ends the match
    evs = [(e.side, e.raw) for e in rnd.events]
    assert evs == [(1, -10), (0, 10)]
    assert rnd.match_over and rnd.winner == 0 and rnd.scores == [150, -10, 0]


def test_pagat_last_placement_scores_before_settlement():
    """002: "A última colocação pontua normalmente antes do acerto da rodada"."""
    rnd = Round(cfg("pagat"), 2, [[(2, 4), (6, 6)], [(4, 4)]], [], 0)
    rnd.play("[2|4]")  # 6: nothing
    turn = rnd.play("[4|4] on [2|4] high")  # 2 + 8 = 10, the last tile of seat 1
    # the placement is scored, then seat 0 loses round5(12) = 10; the dominoer loses nothing
    assert [(e.side, e.kind, e.raw) for e in turn.events] == [(1, "placement", 10), (0, "domino", -10)]
    assert rnd.scores == [-10, 10] and rnd.result.kind == "domino"


def test_clone_is_independent():
    m = Match(cfg("allfives"), 3, 2, record=True)
    for _ in range(6):
        m.play(m.legal_moves()[-1])
    rnd = m.round
    before = snapshot(rnd)
    copy_ = rnd.clone()
    assert snapshot(copy_) == before
    while not copy_.over:
        copy_.play(copy_.legal_moves()[0])
    assert snapshot(rnd) == before
    assert len(rnd.turns) == 6
