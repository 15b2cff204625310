"""The sniff (family.md, docs/design/family.md): orientation moves, counting by uncovered sides, the language, the tools.

Counts are worked by hand from family.md 2.4 (examples 1-5) and readings 22-23.
"""
from __future__ import annotations

import copy
import random

import pytest
from click.testing import CliRunner

import rulelang
from rulelang.cli import main
from rulelang.config.defaults import without_defaults
from rulelang.interpreter import Match, Move, Round, greedy_player
from rulelang.interpreter.config import Config
from rulelang.interpreter.errors import ConfigError, IllegalMove
from rulelang.interpreter.tiles import ENDWISE, move_from_code

SNIFF = rulelang.compile_bundled("sniff")


def _variant(**doubles: str) -> Config:
    data = copy.deepcopy(SNIFF)
    data["doubles"].update(doubles)
    return Config.from_dict(data)


def _round(hands, cfg=SNIFF, opener=0):
    return Round(cfg, len(hands), hands, [], opener=opener)


def _counted(turn):
    return [[f"[{t[0]}|{t[1]}]", e, v] for t, e, v in turn.counted]


# -- the engine: family.md 2.4's examples ------------------------------------------------------

def test_examples_1_and_2_a_crosswise_sniff_counts_each_uncovered_branch_side():
    r = _round([["[4|4]", "[1|4]", "[2|4]", "[0|3]"], ["[4|6]", "[4|5]", "[0|2]"]])
    assert [str(m) for m in r.legal_moves()] == ["[0|3]", "[1|4]", "[2|4]", "[4|4]", "[4|4] endwise"]
    assert r.play("[4|4]").count == 8
    assert r.play("[4|6] on [4|4] line-a").count == 4 + 4 + 6
    t = r.play("[1|4] on [4|4] line-b")
    assert (t.count, t.points) == (4 + 4 + 6 + 1, 15)  # with an ordinary spinner: 6 + 1 = 7
    t = r.play("[4|5] on [4|4] branch-a")
    assert t.count == 16 and [e for e in _counted(t) if e[0] == "[4|4]"] == [["[4|4]", "double", 4]]
    t = r.play("[2|4] on [4|4] branch-b")
    assert t.count == 6 + 1 + 5 + 2 and all(e[0] != "[4|4]" for e in _counted(t))


@pytest.mark.parametrize("suffix, counts", [("", (10, 11, 12)), (" endwise", (5, 1, 2))])
def test_examples_3_to_5_the_holder_chooses_the_orientation(suffix, counts):
    r = _round([["[0|5]", "[1|5]", "[3|4]"], ["[5|5]", "[1|1]", "[2|3]"]])
    r.play("[0|5]")
    legal = r.legal_moves()
    assert [str(m) for m in legal] == ["[5|5] on [0|5] high", "[5|5] on [0|5] high endwise"]
    assert [r.points_of(m) for m in legal] == [10, 5]  # what each would score, before choosing
    assert r.play("[5|5] on [0|5] high" + suffix).count == counts[0]
    assert r.play("[1|5] on [5|5] line-b").count == counts[1]
    t = r.play("[1|1] on [1|5] low")  # a second double: crosswise, 2 while terminal, never branches
    assert t.count == counts[2]
    assert r.layout.spinners() == [(5, 5)]
    assert ["[1|1]", "double", 2] in _counted(t)


def test_reading_22_a_sniff_lead_is_two_moves_that_count_the_same():
    for lead in ("[5|5]", "[5|5] endwise"):
        r = _round([["[5|5]", "[5|6]"], ["[0|5]", "[2|5]"]])
        assert r.play(lead).count == 10
    assert Move.parse("[5|5] endwise") != Move.parse("[5|5]")
    assert Move.parse("[5|5] crosswise") == Move.parse("[5|5]")


def test_reading_23_an_endwise_sniff_counts_its_free_line_sides_only():
    r = _round([["[5|5]", "[5|6]", "[1|3]"], ["[0|5]", "[2|5]", "[1|4]"]])
    r.play("[5|5] endwise")
    assert r.play("[0|5] on [5|5] line-a").count == 5
    t = r.play("[5|6] on [5|5] line-b")
    assert t.count == 6  # 0 + 6: the sniff counts nothing, although its branches are open
    assert [(s, v) for tile, s, v in r.layout.attach_points() if tile == (5, 5)] == [("branch-a", 5), ("branch-b", 5)]
    assert r.layout.endwise_spinner == (5, 5)


def test_always_endwise_offers_only_the_endwise_move():
    r = _round([["[0|5]", "[1|5]"], ["[5|5]", "[2|3]"]], _variant(spinner_orientation="endwise"))
    r.play("[0|5]")
    assert [str(m) for m in r.legal_moves()] == ["[5|5] on [0|5] high endwise"]
    with pytest.raises(IllegalMove) as e:
        r.play("[5|5] on [0|5] high")
    assert e.value.code == "orientation-not-allowed" and "endwise" in e.value.message


@pytest.mark.parametrize("move", ["[0|5] endwise", "[1|1] endwise"])
def test_an_orientation_that_is_not_allowed_is_refused(move):
    cfg = rulelang.compile_bundled("allfives-pagat")  # every spinner crosswise
    r = _round([["[0|5]", "[1|1]"], ["[5|5]", "[2|3]"]], cfg)
    with pytest.raises(IllegalMove) as e:
        r.play(move)
    assert e.value.code == "orientation-not-allowed"
    assert r.leading  # the state is unchanged


def test_the_orientation_is_checked_after_every_other_rule():
    r = _round([["[0|5]", "[1|5]"], ["[5|5]", "[2|3]"]])
    r.play("[0|5]")
    with pytest.raises(IllegalMove) as e:
        r.play("[5|5] on [0|5] low endwise")
    assert e.value.code == "no-match"
    r2 = _round([["[0|5]", "[1|5]", "[4|4]"], ["[5|5]", "[1|1]", "[2|3]"]])
    for m in ("[0|5]", "[5|5] on [0|5] high", "[1|5] on [5|5] line-b"):
        r2.play(m)
    with pytest.raises(IllegalMove) as e:
        r2.play("[1|1] on [1|5] low endwise")  # not the sniff: later doubles are crosswise
    assert e.value.code == "orientation-not-allowed" and "not the spinner" in e.value.message


def test_move_codes_and_text_round_trip():
    m = Move.parse("[5|5] on [0|5] high endwise")
    assert str(m) == "[5|5] on [0|5] high endwise" and m.endwise
    assert m.code() & ENDWISE and move_from_code(m.code()) == m
    assert move_from_code(Move.parse("[4|4] endwise").code()) == Move.parse("[4|4] endwise")
    assert repr(Move.parse("[1|2]")) == "Move(tile=(1, 2), target=None, side=None)"  # unchanged for crosswise


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_rounds_agree_with_themselves(players):
    """points_of previews the count play gives; codes and moves line up; a transcript replays."""
    from rulelang.interpreter import replay

    for seed in range(15):
        rng = random.Random(seed)
        r = Round.deal(SNIFF, players, rng, record=True, opener=0)
        while not r.over:
            codes = r.legal_codes()
            assert [move_from_code(c) for c in codes] == r.legal_moves()
            pts = r.code_points(codes)
            k = rng.randrange(len(codes))
            clone = r.clone()
            t = r.play(move_from_code(codes[k]))
            assert t.points == pts[k]
            clone.play_code(codes[k])
            assert clone.layout.count() == r.layout.count() == sum(v for _t, _e, v in r.layout.counted())
        replay(r.transcript())


def test_existing_configurations_are_unchanged_by_the_new_fields():
    for name in ("allfives", "allfives-pagat", "pagat", "muggins"):
        cfg = rulelang.compile_bundled(name)
        assert "spinner_orientation" not in cfg["doubles"] and "spinner_count" not in cfg["doubles"]
    data = copy.deepcopy(rulelang.compile_bundled("allfives-pagat"))
    data["doubles"].update(spinner_orientation="crosswise", spinner_count="terminal")
    assert without_defaults(data) == rulelang.compile_bundled("allfives-pagat")


def test_the_engine_refuses_a_sniff_without_a_first_double():
    data = copy.deepcopy(rulelang.compile_bundled("muggins"))
    data["doubles"]["spinner_count"] = "uncovered-sides"
    with pytest.raises(ConfigError) as e:
        Config.from_dict(data)
    assert e.value.code == "sniff-needs-first-double"


# -- the language --------------------------------------------------------------------------

HOUSE = """ruleset house "House"
source "a test"
based on allfives-pagat
the spinner counts each uncovered side
the spinner is always laid endwise
"""


def test_fmt_explain_and_diff():
    runner = CliRunner()
    fmt = runner.invoke(main, ["fmt", "--sort", "-"], input=HOUSE)  # the canonical order
    assert fmt.exit_code == 0, fmt.output
    assert fmt.output.index("always laid endwise") < fmt.output.index("counts each uncovered side")
    assert runner.invoke(main, ["fmt", "-"], input=HOUSE).output == HOUSE  # the author's order kept
    cfg = rulelang.compile_text(HOUSE)
    assert cfg["doubles"]["spinner_orientation"] == "endwise"
    assert cfg["doubles"]["spinner_count"] == "uncovered-sides"
    again = rulelang.compile_text(fmt.output)
    assert again == cfg
    explain = runner.invoke(main, ["explain", "sniff"])
    assert "crosswise or endwise, as they choose" in explain.output
    assert "for each branch side no tile covers yet" in explain.output
    diff = runner.invoke(main, ["diff", "allfives-pagat", "sniff"])
    assert "How the spinner is laid" in diff.output and "What the spinner counts" in diff.output
    assert "The spinner is laid crosswise, like every double." in diff.output


def test_a_sniff_statement_needs_the_first_double_to_branch():
    text = HOUSE.replace("allfives-pagat", "muggins")
    with pytest.raises(rulelang.RulesetError) as e:
        rulelang.compile_text(text)
    assert {x.code for x in e.value.errors} == {"sniff-needs-first-double"}
    assert "only the first double branches" in (e.value.hint or "")


def test_the_default_spellings_compile_to_nothing():
    text = HOUSE.replace("counts each uncovered side", "counts while terminal").replace(
        "always laid endwise", "always laid crosswise")
    assert rulelang.compile_text(text)["doubles"] == rulelang.compile_bundled("allfives-pagat")["doubles"]


# -- the tools -----------------------------------------------------------------------------

def _placed_rect(svg_text, tile):
    from rulelang.tools.svg import svg_tile_rects

    return dict(svg_tile_rects(svg_text))[tile]


@pytest.mark.parametrize("suffix, lies", [("", "across"), (" endwise", "along")])
def test_render_draws_an_endwise_sniff_in_line_and_a_crosswise_one_across(suffix, lies):
    from rulelang.tools.geometry import LayoutTree, check_no_overlap, place_layout
    from rulelang.tools.svg import round_svg

    r = _round([["[0|5]", "[1|5]", "[3|4]"], ["[5|5]", "[1|1]", "[2|3]"]])
    for m in ("[0|5]", "[5|5] on [0|5] high" + suffix, "[1|5] on [5|5] line-b"):
        r.play(m)
    svg = round_svg(r)
    x0, y0, x1, y1 = _placed_rect(svg, "[5|5]")
    lead = _placed_rect(svg, "[0|5]")
    line_horizontal = (lead[2] - lead[0]) > (lead[3] - lead[1])
    along = ((x1 - x0) > (y1 - y0)) == line_horizontal
    assert along == (lies == "along")
    placement = place_layout(LayoutTree.from_layout(r.layout))
    assert check_no_overlap(placement) == []
    assert placement[(5, 5)].crosswise == (lies == "across")


def test_render_of_many_sniff_rounds_never_overlaps():
    from rulelang.tools.geometry import LayoutTree, check_no_overlap, place_layout

    for seed in range(20):
        rnd = Round.deal(SNIFF, 2, random.Random(seed), opener=0)
        rng = random.Random(seed)
        while not rnd.over:
            legal = rnd.legal_moves()
            rnd.play(legal[rng.randrange(len(legal))])
        assert check_no_overlap(place_layout(LayoutTree.from_layout(rnd.layout))) == []


def test_the_text_board_marks_an_endwise_sniff():
    from rulelang.tools.textboard import layout_lines_of

    r = _round([["[5|5]", "[5|6]"], ["[0|5]", "[2|5]"]])
    r.play("[5|5] endwise")
    assert layout_lines_of(r.layout)[0].startswith("[5|5]* endwise")


def test_simulate_plays_sniff():
    res = CliRunner().invoke(main, ["simulate", "sniff", "--matches", "6", "--players", "3", "--seed", "2"])
    assert res.exit_code == 0, res.output
    assert "win rate seat 2" in res.output


def test_a_seeded_match_chooses_orientations_and_replays():
    from rulelang.interpreter import replay

    m = Match(SNIFF, 2, seed=2, record=True)
    m.run([greedy_player(1), greedy_player(2)], max_rounds=3)
    moves = [t["move"] for rnd in m.transcript()["rounds"] for t in rnd["turns"]]
    assert any(x.endswith(" endwise") for x in moves)
    replay(m.transcript())


def test_play_offers_both_orientations_and_takes_the_endwise_one():
    # seed 1: the human leads; [2|2], [5|5] and [6|6] are offered crosswise and endwise
    res = CliRunner().invoke(main, ["play", "sniff", "--seed", "1", "--seat", "0=human,1=greedy"],
                             input="[5|5] endwise\n")
    assert "7) [5|5]  +10 raw (2 shown)" in res.output and "8) [5|5] endwise  +10 raw (2 shown)" in res.output
    assert "seat 0 (you) plays [5|5] endwise; ends 10 = 10 -> 10 raw" in res.output
    assert "[5|5]* endwise" in res.output  # the board marks it


STUBBY = """ruleset stubby "Stubby"
source "a test"
based on sniff
the spinner is always laid endwise
each branch of the spinner takes one tile
"""


def test_reading_14_a_one_tile_branch_is_a_dead_end_that_still_counts():
    cfg = rulelang.compile_text(STUBBY)
    assert cfg["doubles"]["branch_length"] == "one-tile"
    r = _round([["[4|4]", "[1|4]", "[2|4]", "[5|6]"], ["[4|6]", "[4|5]", "[0|2]", "[6|6]"]], cfg)
    for m in ("[4|4] endwise", "[4|6] on [4|4] line-a", "[1|4] on [4|4] line-b"):
        r.play(m)
    t = r.play("[4|5] on [4|4] branch-a")
    assert t.count == 1 + 5 + 6 and ["[4|5]", "high", 5] in _counted(t)
    assert all(tile != (4, 5) for tile, _s, _v in r.layout.attach_points())
    with pytest.raises(IllegalMove) as e:
        r.play("[5|6] on [4|5] high")
    assert e.value.code == "dead-end"
    with pytest.raises(IllegalMove) as e:
        r.play("[5|6] on [4|5] low")  # its joined side
    assert e.value.code == "side-occupied"
    assert r.play("[2|4] on [4|4] branch-b").count == 1 + 2 + 5 + 6
    assert [str(m) for m in r.legal_moves()] == ["[6|6] on [4|6] high"]  # [0|2] cannot join the dead [2|4]
    assert r.play("[6|6] on [4|6] high").count == 1 + 2 + 5 + 12


def test_branch_length_in_the_language():
    runner = CliRunner()
    fmt = runner.invoke(main, ["fmt", "-"], input=STUBBY)
    assert fmt.exit_code == 0 and "each branch of the spinner takes one tile" in fmt.output
    assert rulelang.compile_text(fmt.output) == rulelang.compile_text(STUBBY)
    unlimited = STUBBY.replace("takes one tile", "grows without limit")
    assert "branch_length" not in rulelang.compile_text(unlimited)["doubles"]
    with pytest.raises(rulelang.RulesetError) as e:
        rulelang.compile_text(STUBBY.replace("based on sniff", "based on muggins").replace(
            "the spinner is always laid endwise\n", ""))
    assert e.value.code == "sniff-needs-first-double"
