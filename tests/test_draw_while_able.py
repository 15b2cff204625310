"""Two rules of family.md the language stated last.

- `a player may draw while able to place` (family.md 3.8, puzzle-place.net Muggins): the draw move `draw`;
- `credit the heaviest opponent's hand only, ROUNDING, to the winner` (family.md reading 12, Pagat's Muggins).

Both are also conformance cases (conformance/cases/muggins/house-statements.json); these tests prove the
language side, the engine beyond the cases, the players, transcripts, `play` and the adapter.
"""
from __future__ import annotations

import pytest
from click.testing import CliRunner

import rulelang
from rulelang.cli import main
from rulelang.conformance.builtin import run_case
from rulelang.interpreter import IllegalMove, Match, Move, Round, greedy_player, random_player, replay
from rulelang.interpreter.settlement import settle
from rulelang.interpreter.tiles import BIT, DRAW_CODE, INDEX
from rulelang.language.explain import diff_configs, explain_text
from rulelang.language.formatter import format_text

HEAD = 'ruleset h "H"\nsource "a test"\nbased on muggins\n'
DRAWING = HEAD + "a player may draw while able to place\n"
HEAVIEST = HEAD + "on block:\n  credit the heaviest opponent's hand only, rounded to 5, to the winner\n"


def cfg(text: str = DRAWING) -> dict:
    return rulelang.compile_text(text, "h.rules")


# -- the language ------------------------------------------------------------------------------

def test_the_statements_compile_round_trip_and_are_omitted_when_not_written():
    assert cfg()["draw_while_able"] is True
    assert "draw_while_able" not in rulelang.compile_bundled("muggins")
    for text in (DRAWING, HEAVIEST):
        assert cfg(format_text(text)) == cfg(text)
    assert "a player may draw while able to place" in format_text(DRAWING)
    assert "credit the heaviest opponent's hand only, rounded to 5, to the winner" in format_text(HEAVIEST)


def test_explain_and_diff_say_what_changes():
    assert "may draw instead" in explain_text(cfg())
    assert "heaviest single opponent's hand" in explain_text(cfg(HEAVIEST))
    diff = {what: (a, b) for what, a, b in diff_configs(rulelang.compile_bundled("muggins"), cfg())}
    assert diff["drawing while able to place"][0] == "A player draws only when no tile fits."
    assert "may draw instead" in diff["drawing while able to place"][1]


def test_drawing_while_able_needs_drawing():
    errors = rulelang.check_text(HEAD + "no drawing\na player may draw while able to place\n", "h.rules")
    assert [e.code for e in errors] == ["draw-while-able-needs-drawing"]
    assert "draw until playable" in errors[0].hint


def test_the_heaviest_term_needs_a_winner_and_a_unit_rounding():
    errors = rulelang.check_text(HEAVIEST + "  winner: none\n", "h.rules")
    assert "terms-need-winner" in [e.code for e in errors]
    errors = rulelang.check_text(HEAVIEST.replace("rounded to 5", "not rounded"), "h.rules")
    assert "unit-mismatch" in [e.code for e in errors]


# -- the engine: the draw move -----------------------------------------------------------------

def small_round(config: dict, bone=("[0|0]", "[4|4]", "[0|1]")) -> Round:
    return Round(config, 2, [["[1|4]", "[4|5]", "[2|2]"], ["[1|5]", "[6|6]"]], list(bone), opener=0, record=True)


def test_without_the_rule_no_draw_is_offered_and_asking_is_refused_as_before():
    rnd = small_round(rulelang.compile_bundled("muggins"))
    rnd.play("[1|4]")
    assert "draw" not in [str(m) for m in rnd.legal_moves()]
    with pytest.raises(IllegalMove) as e:
        rnd.draw()
    assert e.value.code == "must-place"
    with pytest.raises(IllegalMove) as e:
        rnd.play("draw")
    assert e.value.code == "must-place"


def test_the_draw_move_is_offered_last_and_keeps_the_whole_hand():
    rnd = small_round(cfg())
    with pytest.raises(IllegalMove) as e:
        rnd.play("draw")
    assert e.value.code == "must-lead"
    rnd.play("[1|4]")
    assert [str(m) for m in rnd.legal_moves()] == ["[1|5] on [1|4] low", "draw"]
    assert rnd.observation(1)["points"] == [0, 0]
    turn = rnd.draw()
    assert str(turn.move) == "draw" and turn.seat == 1 and turn.points == 0 and turn.events == []
    assert rnd.seat_to_move == 1 and rnd.drawn_before_move == [(0, 0)] and rnd.must_play is None
    rnd.play("draw")
    assert [str(m) for m in rnd.legal_moves()] == ["[1|5] on [1|4] low", "[4|4] on [1|4] high", "draw"]
    turn = rnd.play("[4|4] on [1|4] high")
    assert turn.drawn == [(0, 0), (4, 4)]
    rnd.play("draw")  # seat 0 draws the last tile
    assert "draw" not in [str(m) for m in rnd.legal_moves()]
    with pytest.raises(IllegalMove) as e:
        rnd.play("draw")
    assert e.value.code == "boneyard-empty"


def test_no_draw_over_a_drawn_tile_that_must_be_placed():
    rnd = Round(cfg(), 2, [["[1|4]", "[2|2]"], ["[6|6]", "[3|3]"]], ["[0|0]", "[1|2]", "[5|5]"], opener=0)
    rnd.play("[1|4]")  # seat 1 cannot place: it draws [0|0], then [1|2], which fits
    assert rnd.must_play == (1, 2)
    assert [str(m) for m in rnd.legal_moves()] == ["[1|2] on [1|4] low"]
    with pytest.raises(IllegalMove) as e:
        rnd.play("draw")
    assert e.value.code == "must-play-drawn"


def test_the_reserve_is_never_drawn_by_a_draw_move():
    text = DRAWING + "reserve 2 tiles\n"
    rnd = small_round(cfg(text))
    rnd.play("[1|4]")
    assert str(rnd.legal_moves()[-1]) == "draw"
    rnd.play("draw")  # the one drawable tile; the last two are the reserve
    assert "draw" not in [str(m) for m in rnd.legal_moves()]
    assert rnd.drawable == 0


def test_move_notation_and_codes():
    m = Move.parse("draw")
    assert m.draw and str(m) == "draw" and m.code() == DRAW_CODE and Move.parse(" draw ") is m
    placements = [Move.parse("[1|5] on [1|4] low"), Move.parse("[0|1]")]
    assert sorted([m, *placements], key=Move.sort_key)[-1] is m


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_players_draw_and_the_transcripts_replay(players):
    drew = 0
    for seed in range(12):
        m = Match(cfg(), players, seed, record=True)
        m.run([random_player(seed * 7 + s) for s in range(players)])
        t = m.transcript()
        drew += sum(turn["move"] == "draw" for r in t["rounds"] for turn in r["turns"])
        assert replay(t).over
    assert drew > 0


def test_the_greedy_player_never_draws_while_able_to_place():
    for seed in range(10):
        m = Match(cfg(), 3, seed, record=True)
        m.run([greedy_player(seed), greedy_player(seed + 1), greedy_player(seed + 2)])
        moves = [turn["move"] for r in m.transcript()["rounds"] for turn in r["turns"]]
        assert "draw" not in moves
    # through the observation too
    rnd = small_round(cfg())
    rnd.play("[1|4]")
    legal = rnd.legal_moves()
    assert str(greedy_player(1)(rnd.observation(1), legal)) == "[1|5] on [1|4] low"


def test_the_rule_off_leaves_seeded_matches_unchanged():
    base = rulelang.compile_bundled("muggins")
    on = cfg()
    for seed in range(5):
        a = Match(base, 2, seed, record=True).run([greedy_player(seed), greedy_player(seed + 1)])
        b = Match(on, 2, seed, record=True).run([greedy_player(seed), greedy_player(seed + 1)])
        # greedy never draws: the same games, told by two configurations
        assert a.scores == b.scores and len(a.rounds) == len(b.rounds)


def test_strong_players_search_with_draw_moves_and_read_voluntary_draws():
    from rulelang.players.arena import play_match
    from rulelang.tools.playernames import make_player

    config = cfg()
    players = [make_player("pimc:2", config, 1), make_player("random", config, 2), make_player("ismcts:10", config, 3)]
    out = play_match(config, 3, 4, players, max_rounds=2)
    assert out["rounds"] >= 1
    assert players[0].failed == 0 and players[2].failed == 0  # every history had a consistent sample


def test_play_reads_draw(tmp_path):
    path = tmp_path / "h.rules"
    path.write_text(DRAWING, encoding="utf-8")
    res = CliRunner().invoke(main, ["play", str(path), "--seed", "3", "--seat", "0=human,1=greedy"],
                             input="1\ndraw\nq\n\n")
    assert "4) draw" in res.output or ") draw" in res.output
    assert "seat 0 (you) draws [" in res.output and "instead of placing" in res.output


# -- the adapter -----------------------------------------------------------------------------------

def test_the_adapter_applies_a_draw_step_only_where_the_rule_offers_it():
    setup = {"hands": [["[1|4]", "[4|5]"], ["[1|5]", "[6|6]"]], "boneyard": ["[0|0]"], "opener": 0}
    steps = [{"play": "[1|4]"}, {"draw": True}, {"draw": True}]
    off = run_case({"config": rulelang.compile_bundled("muggins"), "players": 2, "setup": setup, "steps": steps})
    assert [s.get("reject") for s in off["steps"]] == [None, "must-place", "must-place"]
    on = run_case({"config": cfg(), "players": 2, "setup": setup, "steps": steps})
    assert [s.get("reject") for s in on["steps"]] == [None, None, "boneyard-empty"]
    assert on["steps"][1]["offered"] == ["[1|5] on [1|4] low", "draw"] and on["steps"][1]["seat"] == 1


# -- the engine: the heaviest hand only ---------------------------------------------------------------

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
    rnd = Round(cfg(HEAVIEST), 3, [["[6|6]", "[0|1]"], ["[2|4]", "[3|5]"], ["[1|2]", "[3|3]"]], [], opener=0)
    rnd.play("[6|6]")
    assert rnd.result is not None and rnd.result.kind == "blocked" and rnd.result.seat == 0
    assert [(e.side, e.raw) for e in rnd.result.settlement] == [(0, 15)]


def test_the_playground_offers_draw_as_a_button_and_tells_it():
    from rulelang.playground.games import Game

    for seed in range(20):
        game = Game(cfg(), 2, ["greedy"], seed)
        state = game.state("g")
        if state["your_turn"] and state["legal"][-1]["move"] == "draw":
            break
    else:
        pytest.fail("no seed gave the human a draw")
    assert state["legal"][-1]["tile"] is None and state["legal"][-1]["target"] is None
    game.play("draw")
    state = game.state("g")
    assert any("draws a tile instead of placing" in line for line in state["log"])
    replay(game.transcript())  # a match in progress, checked step by step (TranscriptMismatch otherwise)


def test_drawing_while_able_with_the_muggins_rule():
    text = 'ruleset h "H"\nsource "a test"\nbased on muggins-claims\na player may draw while able to place\n'
    config = rulelang.compile_text(text, "h.rules")
    drew = 0
    for seed in range(6):
        m = Match(config, 3, seed, record=True)
        m.run([random_player(seed), greedy_player(seed), random_player(seed + 5)])
        t = m.transcript()
        drew += sum(turn["move"] == "draw" for r in t["rounds"] for turn in r["turns"])
        replay(t)  # a draw move claims nothing; transcripts still replay step by step
    assert drew > 0
