"""Larger sets (family.md 3.7): the `tiles` statement, the engine on double-nine to double-eighteen, render and play."""
from __future__ import annotations

import os
import random
import sys

import pexpect
import pytest
from click.testing import CliRunner

import rulelang
from rulelang.cli import main
from rulelang.config.vocabulary import SET_NAMES
from rulelang.interpreter import Config, Move, Round
from rulelang.interpreter.tiles import SETS, TILES
from rulelang.tools.svg import svg_tile_rects

HEAD = 'ruleset x "X"\nsource "s"\nbased on muggins\n'
TWELVE = HEAD + "tiles double-twelve\nplayers 2 to 12, no partnerships\nhand 7 tiles\n"


def _codes(text: str) -> list[str]:
    return [e.code for e in rulelang.check_text(text, "x.rules")]


def test_the_default_set_is_omitted_and_larger_sets_compile():
    assert "tiles" not in rulelang.compile_bundled("muggins")
    assert rulelang.compile_bundled("double-nine-six")["tiles"] == 9
    assert rulelang.compile_text(TWELVE)["tiles"] == 12
    assert rulelang.compile_text(HEAD + "tiles double-six\n") == {**rulelang.compile_bundled("muggins"),
                                                                    "name": "x", "title": "X", "source": "s",
                                                                    "based_on": "muggins"}


def test_the_set_bounds_players_and_tiles():
    # a set seats as many players as its tiles deal: 6 x 5 = 30 do not fit in 28, 5 x 5 = 25 do
    errors = rulelang.check_text(HEAD + "players 2 to 6\nhand 5 tiles\n", "x.rules")
    assert [e.code for e in errors] == ["too-many-tiles"]
    assert "6 hands of 5 tiles need 6 x 5 = 30 tiles, but a double-six set has 28" in errors[0].message
    assert "tiles double-nine" in (errors[0].hint or "")
    assert _codes(HEAD + "players 2 to 5\nhand 5 tiles\n") == []
    assert _codes(HEAD + "tiles double-nine\nplayers 2 to 11\nhand 5 tiles\n") == []  # 11 x 5 = 55
    assert _codes(HEAD + "tiles double-nine\nplayers 2 to 11\nhand 6 tiles\n") == ["too-many-tiles"] * 2
    assert _codes(HEAD + "tiles double-ten\n") == ["unknown-set"]
    assert _codes(HEAD + "players 2 to 13\n") == ["player-count"]
    # 10 hands of 6 need 60 tiles: a double-nine set has 55
    errors = rulelang.check_text(HEAD + "tiles double-nine\nplayers 2 to 10\nhand 6 tiles\n", "x.rules")
    assert [e.code for e in errors] == ["too-many-tiles"] and "double-nine set has 55" in errors[0].message
    assert _codes(HEAD + "tiles double-nine\nplayers 2 to 6, partnerships with 4\nhand 8 tiles\n") == []


def test_fmt_explain_and_diff_say_the_set():
    text = rulelang.format_text(HEAD + "hand 5 tiles\ntiles double-nine\n")
    assert "tiles double-nine\n" in text
    from rulelang.language.explain import diff_configs, explain_text

    d9 = rulelang.compile_bundled("double-nine-six")
    assert "double-nine set: 55 tiles" in explain_text(d9)
    rows = diff_configs(rulelang.compile_bundled("muggins"), d9)
    assert ("the tile set", ) == tuple(r[0] for r in rows if r[0] == "the tile set")


@pytest.mark.parametrize("top,players", [(9, 6), (9, 10), (12, 12), (12, 2), (15, 4), (18, 2), (18, 12)])
def test_random_rounds_use_the_whole_set_and_only_it(top, players):
    cfg = Config.from_dict(rulelang.compile_bundled("double-nine-six") if top == 9 else rulelang.compile_text(
        TWELVE if top == 12 else TWELVE.replace("double-twelve", SET_NAMES[top])))
    for seed in range(20):
        rng = random.Random(seed)
        rnd = Round.deal(cfg, players, rng)
        dealt = [t for h in rnd.hands for t in h] + rnd.boneyard
        assert sorted(dealt) == sorted(TILES[:SETS[top]])
        assert all(h == sorted(h) for h in rnd.hands)
        while not rnd.over:
            legal = rnd.legal_moves()
            assert legal == sorted(legal, key=Move.sort_key)
            rnd.play(legal[rng.randrange(len(legal))])
        assert rnd.result is not None


def test_highest_double_opener_and_two_digit_notation():
    data = rulelang.compile_text(TWELVE)
    data["opener"]["first_round"] = "highest-double"
    cfg = Config.from_dict(data)
    rnd = Round(cfg, 3, [["[9|9]", "[1|2]"], ["[12|12]", "[0|11]"], ["[10|11]"]], [])
    assert rnd.seat_to_move == 1
    assert str(Move.parse("[12|10]")) == "[10|12]"
    rnd.play("[12|12]")
    assert rnd.over and rnd.result.kind == "blocked"  # nothing else fits a 12: everyone passes
    with pytest.raises(ValueError, match="not in the double-nine set"):
        Round(rulelang.compile_bundled("double-nine-six"), 2, [["[10|10]"], ["[1|1]"]], [], 0)
    with pytest.raises(ValueError):
        Move.parse("[19|1]")  # halves up to 18: the double-eighteen set


def test_render_a_six_player_double_nine_position(tmp_path):
    out = tmp_path / "d9.svg"
    res = CliRunner().invoke(main, ["render", "--case", "double-nine-six-complete-6p-seed4", "--step", "20",
                                    "-o", str(out)])
    assert res.exit_code == 0, res.output
    labels = [label for label, _ in svg_tile_rects(out.read_text())]
    assert len(labels) == 20 and any("9" in label for label in labels)


def test_play_double_nine_in_the_terminal():
    child = pexpect.spawn(sys.executable, ["-m", "rulelang", "play", "double-nine-six", "--players", "6",
                                           "--seed", "5", "--seat", "0=human"], encoding="utf-8", timeout=30,
                          env=dict(os.environ, NO_COLOR="1", COLUMNS="100", PYTHONUNBUFFERED="1"),
                          dimensions=(50, 120))
    child.expect("double-nine")
    child.expect(r"Your move \[")
    child.sendline("1")
    child.expect(r"Your move \[|Round 1 over")
    child.sendeof()
    child.expect("Save the transcript")
    child.sendline("")
    child.expect(pexpect.EOF)
    child.close()


def test_the_case_lint_accepts_larger_tiles_only_where_the_set_has_them(tmp_path):
    import json

    from rulelang.conformance import cases

    def case(ruleset: str, tile: str) -> dict:
        return {"id": f"x-{ruleset}", "description": "the tile is led and counts its pips", "source": {"text": "family.md", "where": "3.7"},
                "tags": ["larger-set"], "ruleset": ruleset, "players": 2,
                "setup": {"hands": [[tile], ["[0|0]"]], "boneyard": [], "opener": 0},
                "steps": [{"play": tile, "expect": {"seat": 0}}]}

    (tmp_path / "x").mkdir()
    doc = {"description": "larger tiles", "ruleset": "muggins",
           "cases": [case("muggins", "[7|7]"), case("double-nine-six", "[8|9]")]}
    (tmp_path / "x" / "t.json").write_text(json.dumps(doc), encoding="utf-8")
    report = cases.lint(tmp_path)
    assert report.errors == ["x/t.json: x-muggins: tile [7|7] is not in the case's set (halves 0 to 6)"]


@pytest.mark.parametrize("players", [2, 6, 10])
def test_a_double_nine_match_replays_and_lists_in_tile_order(players):
    import json

    from rulelang.interpreter import Match, greedy_player, replay

    match = Match(Config.from_dict(rulelang.compile_bundled("double-nine-six")), players, seed=players, record=True)
    bot = greedy_player(players)
    while not match.over:
        rnd = match.round
        for listing in (rnd.layout.attach_points(), rnd.layout.counted()):
            assert listing == sorted(listing, key=lambda e: (e[0], e[1]))
        match.play(bot(match.observation(match.seat_to_move), match.legal_moves()))
    transcript = json.loads(json.dumps(match.transcript()))
    for rnd in transcript["rounds"]:
        for turn in rnd["turns"]:
            offered = [Move.parse(m) for m in turn["offered"]]
            assert offered == sorted(offered, key=Move.sort_key)
    replay(transcript)


# -- the double-fifteen and double-eighteen sets (FIDO, dominospiel.de: "beim Doppel-Achtzehner wird auf den
# Divisor 11 gespielt; ... auf 110. Dies ergibt durch 11 geteilt den Wert 10")

FIDO = HEAD + ("tiles double-eighteen\nplayers 2 to 12, no partnerships\nhand 7 tiles\nevery double branches\n"
               "placements score multiples of 11\n11 raw points make 1 shown point\ntarget at least 100 shown points\n"
               "on domino:\n  credit opponents' hands separately, rounded to 11, to the winner\n  as one event\n"
               "on block:\n  winner: the lightest hand, ties broken by fewest tiles\n"
               "  credit opponents' hands separately, rounded to 11, to the winner\n  as one event\n")


def test_the_double_fifteen_and_double_eighteen_sets_compile_and_say_their_tiles():
    from rulelang.language.explain import explain_text

    assert rulelang.compile_text(HEAD + "tiles double-fifteen\n")["tiles"] == 15
    config = rulelang.compile_text(FIDO)
    assert config["tiles"] == 18 and "tiles double-eighteen\n" in rulelang.format_text(FIDO)
    assert "double-eighteen set: 190 tiles, halves 0 to 18" in explain_text(config)
    assert "double-fifteen set: 136 tiles" in explain_text(rulelang.compile_text(HEAD + "tiles double-fifteen\n"))
    assert _codes(HEAD + "tiles double-twenty\n") == ["unknown-set"]
    # 12 hands of 16 need 192 tiles: a double-eighteen set has 190
    errors = rulelang.check_text(HEAD + "tiles double-eighteen\nplayers 2 to 12\nhand 16 tiles\n", "x.rules")
    assert [e.code for e in errors] == ["too-many-tiles"] and "double-eighteen set has 190" in errors[0].message


def test_two_digit_halves_up_to_18_and_a_double_eighteen_match_on_divisor_11():
    import json

    from rulelang.interpreter import Match, greedy_player, replay

    assert str(Move.parse("[18|13]")) == "[13|18]"
    with pytest.raises(ValueError):
        Move.parse("[19|1]")
    rnd = Round(Config.from_dict(rulelang.compile_text(FIDO)), 2, [["[18|18]", "[1|2]"], ["[7|18]", "[0|0]"]], [], 0)
    rnd.play("[18|18]")
    rnd.play("[7|18] on [18|18] line-a")
    with pytest.raises(ValueError, match="not in the double-twelve set"):
        Round(rulelang.compile_text(TWELVE), 2, [["[13|13]"], ["[1|1]"]], [], 0)
    for players in (2, 5):
        match = Match(Config.from_dict(rulelang.compile_text(FIDO)), players, seed=players, record=True)
        bot = greedy_player(players)
        while not match.over:
            match.play(bot(match.observation(match.seat_to_move), match.legal_moves()))
        transcript = json.loads(json.dumps(match.transcript()))
        assert all(e["raw"] % 11 == 0 for r in transcript["rounds"] for t in r["turns"] for e in t.get("events", [])
                   if e["kind"] == "placement")
        replay(transcript)


def test_render_a_double_eighteen_position_with_its_pips(tmp_path):
    out = tmp_path / "d18.svg"
    res = CliRunner().invoke(main, ["render", "--case", "allfives-double-eighteen-divisor-11", "-o", str(out)])
    assert res.exit_code == 0, res.output
    svg = out.read_text()
    assert sorted(label for label, _ in svg_tile_rects(svg)) == ["[18|18]", "[8|18]"]
    assert svg.count('class="pip"') == 18 + 18 + 8 + 18  # every half drawn with its pips
