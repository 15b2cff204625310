"""What the statement table shows an author where no golden file looks: the lines a configuration is written
back as (`rulelang new`, `diff`), explain sentences with shown points, the hints of a missing statement, and
the checks of settlement terms."""
from __future__ import annotations

from pathlib import Path

import pytest
from ruleset_text import HEAD, compiled, refused

import rulelang
from rulelang.language.compiler import analyse
from rulelang.language.explain import explain_text
from rulelang.language.formatter import config_to_text
from rulelang.language.parser import parse


def _stated(config: dict) -> list[str]:
    """The lines `config_to_text` writes for a configuration (what `rulelang new --base` and diff show)."""
    return [line.strip() for line in config_to_text({**config, "based_on": None}).splitlines()]


def _explained(config: dict) -> list[str]:
    return explain_text(config).splitlines()


# -- configurations written back as text ----------------------------------------------------------------------

@pytest.mark.parametrize("name", rulelang.bundled_names())
def test_every_bundled_ruleset_survives_the_trip_to_text_and_back(name):
    config = {**rulelang.compile_bundled(name), "based_on": None}
    again = analyse(config_to_text(config), f"{name}.rules")
    assert again.errors == [], [e.message for e in again.errors]
    assert again.config == config


def test_a_ruleset_whose_placements_score_nothing_is_written_so():
    stated = _stated(rulelang.compile_bundled("allfives-block"))
    assert "placements score nothing" in stated
    assert not any(line.startswith("placements score multiples") for line in stated)


def test_a_target_per_player_count_in_plain_points_is_written_as_stated():
    config = compiled("allfives", "target at least 100 points with 2 players, 150 with 3 or 4\n")
    assert "target at least 100 points with 2 players, 150 with 3 or 4" in _stated(config)


def test_a_target_per_player_count_is_written_from_the_smallest_count_up_past_9():
    config = compiled("allfives", "tiles double-twelve\nplayers 9 to 10\nhand 5 tiles\n"
                                   "target at least 100 points with 9 players, 150 with 10\n")
    assert "target at least 100 points with 9 players, 150 with 10" in _stated(config)


def test_one_point_per_tile_is_singular_and_more_are_plural():
    one = compiled("allfives", "on domino:\n  credit opponents' hands pooled, 1 point per tile, to the winner\n"
                                "  as one event\n")
    assert "credit opponents' hands pooled, 1 point per tile, to the winner" in _stated(one)
    five = compiled("allfives", "on domino:\n  credit opponents' hands pooled, 5 points per tile, to the winner\n"
                                 "  as one event\n")
    assert "credit opponents' hands pooled, 5 points per tile, to the winner" in _stated(five)


# -- explain sentences ----------------------------------------------------------------------------------------

def _bonus(amount: int) -> dict:
    return compiled("muggins", f"on domino:\n  bonus {amount} points to the winner\n"
                                "  credit opponents' hands pooled, rounded to 5, to the winner\n  as one event\n")


def test_a_bonus_of_one_unit_is_explained_as_1_shown_point():
    assert ("- The player who goes out scores a bonus of 1 shown point (5 raw), in the same event as the "
            "settlement.") in _explained(_bonus(5))


def test_a_bonus_of_two_units_is_explained_as_2_shown_points():
    assert ("- The player who goes out scores a bonus of 2 shown points (10 raw), in the same event as the "
            "settlement.") in _explained(_bonus(10))


def test_a_spinner_always_laid_endwise_is_explained_so():
    config = compiled("sniff", "the spinner is always laid endwise\n")
    assert ("- The spinner is always laid endwise: it lies in the line like a non-double and counts its half for "
            "each free in-line side; its branches open after the line.") in _explained(config)


# -- errors -----------------------------------------------------------------------------------------------------

def test_a_tile_left_in_hand_cannot_count_0_points():
    (e,) = refused(HEAD.format(base="allfives") + "on domino:\n  credit opponents' hands pooled, 0 points per "
                   "tile, to the winner\n  as one event\n")
    assert (e.code, e.message, e.hint) == ("bad-number", "a tile left in hand cannot count 0 points",
                                           "write `1 point per tile` or more, or leave the line out")


def test_a_child_must_still_name_itself():
    (e,) = refused('source "s"\nbased on allfives\n')
    assert (e.code, e.message, e.hint) == ("missing-statement", "missing statement: the ruleset's name and title",
                                           'add a line such as `ruleset my-fives "My Fives"`')


def test_a_missing_opener_after_a_domino_suggests_the_dominoer():
    text = config_to_text({**rulelang.compile_bundled("allfives"), "based_on": None})
    without = "\n".join(line for line in text.splitlines() if not line.startswith("opener after a domino"))
    (e,) = refused(without + "\n")
    assert (e.code, e.message, e.hint) == ("missing-statement", "missing statement: the opener after a domino",
                                           "add a line such as `opener after a domino: the dominoer`")


# -- values -----------------------------------------------------------------------------------------------------

def test_a_settlement_term_prints_the_same_wherever_it_is_written():
    """A statement's value is its meaning, not its place: fmt orders and compares statements by value."""
    text = (Path(rulelang.__file__).parent / "rulesets" / "muggins.rules").read_text(encoding="utf-8")
    first, _ = parse(text, "muggins.rules")
    moved, _ = parse("\n\n" + text, "muggins.rules")
    assert first is not None and moved is not None

    def terms(ruleset):
        return [repr(s.value) for s in ruleset.statements if s.key.endswith("_terms")]
    assert terms(first) and terms(first) == terms(moved)


def test_a_hand_larger_than_the_largest_set_names_its_size():
    (e,) = refused(HEAD.format(base="allfives") + "tiles double-twelve\nplayers 2\nhand 92 tiles\n")
    assert (e.code, e.message) == ("too-many-tiles", "a double-twelve set, the largest, has only 91 tiles")


def test_a_round_ending_when_both_partners_go_out_is_explained_without_partners_too():
    config = compiled("allfives", "players 2 to 4, no partnerships\nthe round ends when both partners go out\n")
    assert ("- The round ends when a player goes out (without partners, both partners out means the same)."
            in _explained(config))
