"""The engine's settlement of a domino and a block: who wins (the lightest side, ties broken), what each term pays."""
from __future__ import annotations

import rulelang
from rulelang import compile_text
from rulelang.interpreter import Round
from rulelang.interpreter.match import play_match
from rulelang.interpreter.settlement import settle
from rulelang.interpreter.tiles import BIT, INDEX, parse_tile
from rulelang.language.explain import explain_text

HEAD = 'ruleset h "H"\nsource "a test"\nbased on muggins\n'


def compiled(body: str) -> dict:
    return rulelang.compile_text(HEAD + body, "h.rules")


TEAM_SIDE = "players 2 to 4, partnerships with 4\non domino:\n  winner: the lightest side\n"


def _team_round(body: str = TEAM_SIDE) -> Round:
    return Round(compiled(body), 4, [[(1, 3), (3, 6)], [(2, 2)], [(6, 6)], [(0, 0)]], [], 0)


HALF = "a double left in hand counts one half\n"


def test_team_totals_decide_a_domino_the_openspiel_example():
    rnd = _team_round()
    rnd.play("[1|3]")
    rnd.play("[3|6] on [1|3] high")
    # team 0+2 holds 0 + 12, team 1+3 holds 4 + 0: team 1+3 wins, seat 1 first clockwise from the dominoer
    assert [(e.side, e.kind, e.raw, e.seat) for e in rnd.events] == [(1, "domino", 10, 1)]
    assert (rnd.result.kind, rnd.result.seat, rnd.result.side) == ("domino", 0, 0)  # the round names the dominoer
    # the default: the dominoer's side collects 4 + 0 -> round5(4) = 5
    plain = _team_round("players 2 to 4, partnerships with 4\n")
    plain.play("[1|3]")
    plain.play("[3|6] on [1|3] high")
    assert [(e.side, e.raw, e.seat) for e in plain.events] == [(0, 5, 0)]


def test_the_dominoers_side_wins_when_lighter_and_the_winner_is_the_dominoer():
    rnd = Round(compiled(TEAM_SIDE), 4, [[(1, 3), (3, 6)], [(2, 2)], [(0, 1), (5, 5)], [(4, 4)]], [], 0)
    rnd.play("[1|3]")
    assert rnd.seat_to_move == 2  # [0|1] fits the 1 end
    rnd.play("[0|1] on [1|3] low")
    rnd.play("[3|6] on [1|3] high")
    # team 0+2 holds 0 + 10, team 1+3 holds 4 + 8 = 12: the dominoer wins, round5(4) + round5(8) = 5 + 10
    assert [(e.side, e.raw, e.seat) for e in rnd.events] == [(0, 15, 0)]


def test_equal_hands_after_a_domino_name_no_winner_and_pay_no_bonus():
    body = "on domino:\n  winner: the lightest side\n  bonus 5 points to the winner\n"
    rnd = Round(compiled(body), 2, [[(1, 3), (3, 6)], [(0, 0)]], [], 0)
    rnd.play("[1|3]")
    rnd.play("[3|6] on [1|3] high")
    assert rnd.events == [] and rnd.scores == [0, 0] and rnd.result.kind == "domino"
    plain = Round(compiled("on domino:\n  bonus 5 points to the winner\n"), 2, [[(1, 3), (3, 6)], [(0, 0)]], [], 0)
    plain.play("[1|3]")
    plain.play("[3|6] on [1|3] high")
    assert [(e.side, e.raw) for e in plain.events] == [(0, 5)]


def test_a_whole_match_with_the_domino_lightest_side_plays_to_the_end():
    cfg = compiled(TEAM_SIDE)
    for seed in range(5):
        assert play_match(cfg, 4, seed).over


def test_one_half_changes_the_amounts_and_who_is_lightest():
    rnd = Round(compiled(HALF), 2, [[(1, 3), (3, 6)], [(4, 4), (0, 2)]], [], 0)
    rnd.play("[1|3]")
    rnd.play("[3|6] on [1|3] high")
    assert [(e.side, e.raw) for e in rnd.events] == [(0, 5)]  # 4 + 2 = 6 -> 5 (both halves: 10)
    assert rnd.result.to_dict()["hand_pips"] == [0, 10]  # the result still shows the pips
    # a block: [4|4] (counts 4) against [2|3] (5): the double's holder is lightest only with one half
    for body, winner in (("", 1), (HALF, 0)):
        blocked = Round(compiled(body), 2, [[(0, 1), (4, 4)], [(2, 3)]], [], 0)
        blocked.play("[0|1]")  # nobody holds a 0 or a 1 and the boneyard is empty: blocked
        assert blocked.result.kind == "blocked" and blocked.result.seat == winner, body


def test_lightest_tile_breaks_a_tie_of_lightest_hands():
    line = "on block:\n  winner: the lightest hand, ties broken by lightest tile\n"
    cfg = compiled(line)
    assert (cfg["settlement"]["block"]["winner"], cfg["settlement"]["block"]["tie_break"]) == (
        "lightest-hand", "lightest-tile")
    assert "lightest single tile" in explain_text(cfg)
    hands = [[(6, 6), (0, 4), (1, 1)], [(0, 1), (2, 3)]]  # 6 each; lightest tiles [1|1] (2) and [0|1] (1)
    for body, winner in (("", None), (line, 1)):
        rnd = Round(compiled(body), 2, hands, [], 0)
        rnd.play("[6|6]")
        assert rnd.result.kind == "blocked" and rnd.result.seat == winner, body
    # still tied on the lightest tile ([0|3] and [1|2] both count 3): no winner
    rnd = Round(cfg, 2, [[(6, 6), (0, 3), (2, 5)], [(1, 2), (3, 4)]], [], 0)
    rnd.play("[6|6]")
    assert rnd.result.kind == "blocked" and rnd.result.seat is None


DRAW_HEAD = 'ruleset h "H"\nsource "a test"\nbased on muggins\n'


DRAW_WHILE_ABLE = DRAW_HEAD + "a player may draw while able to place\n"


HEAVIEST_ONLY = DRAW_HEAD + "on block:\n  credit the heaviest opponent's hand only, rounded to 5, to the winner\n"


def draw_cfg(text: str = DRAW_WHILE_ABLE) -> dict:
    return rulelang.compile_text(text, "h.rules")


def masks(*hands):
    return [sum(BIT[INDEX[t]] for t in h) for h in hands]


def test_the_heaviest_opponent_hand_only_with_partners_and_without_a_winner():
    spec = {"terms": [{"kind": "heaviest", "rounding": "round5", "to": "winner", "sign": "credit"}], "events": "one"}
    hands = masks([(0, 1)], [(2, 4), (3, 5)], [(0, 2)], [(1, 2), (3, 3)])  # 1, 14, 2, 9
    # partners 0+2 against 1+3: seat 0 wins; the heaviest opposing hand is seat 1's 14 -> 15
    assert settle(spec, hands, (0, 1, 0, 1), 0, 0) == [(0, 15, 0)]
    # per hand: the amount names the heaviest hand's seat
    assert settle({**spec, "events": "per-hand"}, hands, (0, 1, 0, 1), 0, 0) == [(0, 15, 1)]
    # equal heaviest hands: the same amount, the first seat clockwise from the opener
    even = masks([(0, 1)], [(2, 5)], [(3, 4)])
    assert settle({**spec, "events": "per-hand"}, even, (0, 1, 2), 2, 0) == [(0, 5, 2)]  # round5(7)
    assert settle(spec, hands, (0, 1, 0, 1), 0, None) == []  # no winner, nothing


def test_a_blocked_round_pays_only_the_heaviest_hand():
    rnd = Round(draw_cfg(HEAVIEST_ONLY), 3, [["[6|6]", "[0|1]"], ["[2|4]", "[3|5]"], ["[1|2]", "[3|3]"]], [], opener=0)
    rnd.play("[6|6]")
    assert rnd.result is not None and rnd.result.kind == "blocked" and rnd.result.seat == 0
    assert [(e.side, e.raw) for e in rnd.result.settlement] == [(0, 15)]


SCORING_HEAD = 'ruleset house "House"\nsource "s"\nbased on muggins\n'


RAW_HEAD = SCORING_HEAD + "points are shown raw\ntarget at least 305 points\n"


def scoring_compiled(body: str, head: str = SCORING_HEAD) -> dict:
    return compile_text(head + body)


def block_text(line: str, head: str = SCORING_HEAD) -> str:
    return head + f"on block:\n  winner: the lightest hand, ties not broken\n  {line}\n  as one event\n"


def hand_masks(*hands: list[str]) -> list[int]:
    from rulelang.interpreter.tiles import TILES
    index = {t: i for i, t in enumerate(TILES)}
    return [sum(1 << index[parse_tile(t)] for t in h) for h in hands]


def test_per_tile_counts_tiles_not_pips():
    spec = scoring_compiled("on domino:\n  credit opponents' hands separately, 5 points per tile, to the winner\n"
                    "  one event per hand\n")["settlement"]["domino"]
    hands = hand_masks([], ["[6|6]", "[5|5]"], ["[0|0]"])
    assert settle(spec, hands, [0, 1, 2], 0, 0) == [(0, 5, 2), (0, 10, 1)]  # lightest hand first: 0 pips, 22 pips


def test_divided_and_net_amounts():
    divided = scoring_compiled("on domino:\n  credit opponents' hands pooled, rounded to 5 and divided by 5, to the winner\n"
                       "  as one event\n", RAW_HEAD)["settlement"]["domino"]
    assert settle(divided, hand_masks([], ["[6|6]", "[5|6]", "[0|4]"]), [0, 1], 0, 0) == [(0, 5, 0)]  # 27 -> 25 -> 5
    net = scoring_compiled(block_text("credit opponents' hands minus own hand, rounded to 5, to the winner")[len(SCORING_HEAD):])
    spec = net["settlement"]["block"]
    three = hand_masks(["[1|2]"], ["[2|4]", "[0|3]"], ["[3|5]", "[1|4]"])  # 3, 9 and 13 pips
    assert settle(spec, three, [0, 1, 2], 0, 0) == [(0, 20, 0)]  # 22 - 3 = 19, rounded once: 20 (not 20 - 5)
    # a net of 0 or less gives nothing; so does a round without a winner
    assert settle(spec, hand_masks(["[6|6]"], ["[1|2]"], ["[0|1]"]), [0, 1, 2], 0, 0) == []
    assert settle(spec, three, [0, 1, 2], 0, None) == []
