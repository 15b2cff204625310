"""What an author reads where no other test looks: the hints of a deal that does not fit, rules pointed at the
line that states them, bases the editor or the file system cannot give, the hint of a text missing a few
statements, explain sentences of house rules, and the public values of the language's Python API."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from ruleset_text import HEAD, child_errors, compiled

import rulelang
import rulelang.language.compiler
from rulelang import langapi
from rulelang.config.rules import config_problems, mentions_winner
from rulelang.language.ast import Term
from rulelang.language.compiler import analyse
from rulelang.language.explain import explain_text
from rulelang.language.formatter import config_to_text
from rulelang.language.statements import docs

ROOT = Path(__file__).resolve().parent.parent


def _file_errors(tmp_path: Path, base: str, extra: str = "") -> list[tuple[str, int | None, str, str | None]]:
    """(code, line, message, hint) of each error of tmp_path/t.rules, based on `base` (a quoted path)."""
    result = analyse(HEAD.format(base=base) + extra, str(tmp_path / "t.rules"))
    assert result.config is None and result.errors
    return [(e.code, e.line, e.message, e.hint) for e in result.errors]


def _explained(config: dict[str, Any], start: str) -> str:
    [line] = [line for line in explain_text(config).splitlines() if line.startswith("- " + start)]
    return line[2:]


# -- a deal that does not fit the set: where the error points and what its hint offers -------------------

def test_a_reserve_that_overflows_the_set_is_reported_at_the_reserve_line():
    # allfives deals 5 tiles to each of 4 players: 4 x 5 + 10 = 30 of 28; the hand is inherited, the reserve not
    assert child_errors("allfives", "reserve 10 tiles\n") == [(
        "too-many-tiles", 4, 1,
        "4 hands of 5 tiles and a reserve of 10 need 4 x 5 + 10 = 30 tiles, but a double-six set has 28",
        # at most (28 - 10) // 4 = 4 tiles each, or (28 - 10) // 5 = 3 hands of 5
        "deal at most 4 tiles to each of 4 players (4 x 4 + 10 = 26 of 28), or allow at most 3 players with 5 "
        "tiles each, or write `tiles double-nine` / `tiles double-twelve`")]


def test_without_a_reserve_an_inherited_hand_is_reported_at_the_based_on_line_not_at_no_reserve():
    # double-nine-six deals 10 tiles to each of 3 players: 30 of a double-six set's 28
    errors = child_errors("double-nine-six", "tiles double-six\nno reserve\n")
    assert {line for _, line, _, _, _ in errors} == {3}
    code, _, _, message, hint = errors[0]
    assert (code, message) == ("too-many-tiles", "3 hands of 10 tiles need 3 x 10 = 30 tiles, but a double-six set "
                                                 "has 28 (inherited from `double-nine-six`)")
    assert hint is not None and hint.startswith("`double-nine-six` states `hand 10 tiles with 2 players, 10 with 3,")


def test_an_inherited_deal_quotes_the_hand_line_of_the_base_even_when_the_reserve_is_inherited_too(tmp_path):
    (tmp_path / "b.rules").write_text('ruleset b "b"\nsource "s"\nbased on allfives\ntiles double-nine\n'
                                      "hand 10 tiles\nreserve 4 tiles\n", encoding="utf-8")
    errors = _file_errors(tmp_path, '"b.rules"', "tiles double-six\n")
    assert [(code, line, message) for code, line, message, _ in errors] == [
        ("too-many-tiles", 3, "3 hands of 10 tiles and a reserve of 4 need 3 x 10 + 4 = 34 tiles, but a double-six "
                              "set has 28 (inherited from `b.rules`)"),
        ("too-many-tiles", 3, "4 hands of 10 tiles and a reserve of 4 need 4 x 10 + 4 = 44 tiles, but a double-six "
                              "set has 28 (inherited from `b.rules`)")]
    assert errors[0][3] == (f"`b.rules` states `hand 10 tiles` ({tmp_path / 'b.rules'}:5); restate it here to replace "
                            "it: deal at most 8 tiles to each of 3 players (3 x 8 + 4 = 28 of 28), or allow at most 2 "
                            "players with 10 tiles each, or write `tiles double-nine` / `tiles double-twelve`")


def test_an_inherited_rule_on_the_first_line_of_its_base_is_quoted(tmp_path):
    (tmp_path / "b.rules").write_text('hand 10 tiles\nruleset b "b"\nsource "s"\nbased on allfives\n'
                                      "tiles double-nine\n", encoding="utf-8")
    errors = _file_errors(tmp_path, '"b.rules"', "tiles double-six\n")
    assert [code for code, _, _, _ in errors] == ["too-many-tiles", "too-many-tiles"]
    hint = errors[0][3]
    assert hint is not None and hint.startswith(f"`b.rules` states `hand 10 tiles` ({tmp_path / 'b.rules'}:1); ")


# a bad ruleset and the one error it gets: (code, line, column, message, hint)
SINGLE_ERRORS = [
    # 28 // 20 = 1 hand of 20 tiles: fewer players cannot help, so the hint does not offer "at most 1 players"
    pytest.param("allfives", "players 2\nhand 20 tiles\n",
                 [(
        "too-many-tiles", 5, 1, "2 hands of 20 tiles need 2 x 20 = 40 tiles, but a double-six set has 28",
        "deal at most 14 tiles to each of 2 players (2 x 14 = 28 of 28), or write `tiles double-nine` / "
        "`tiles double-twelve`")],
                 id="a_hand_too_large_for_two_players_offers_no_smaller_player_count"),
    pytest.param("allfives", "overshoot bounces back\n",
                 [("overshoot-needs-exact", 4, 1, "an at-least target cannot be overshot",
                   "write `no overshoot rule`, or `target exactly ...`")],
                 id="an_at_least_target_cannot_bounce_back"),
    pytest.param("allfives", ("5 raw points make 1 shown point\non domino:\n"
                  "  credit opponents' hands separately, rounded to 5, to the winner\n"
                  "  credit opponents' hands pooled, 1 point per tile, to the winner\n  as one event\n"),
                 [("unit-mismatch", 7, 3, "1 point per tile can give raw scores that are not multiples of 5",
                   "with 5 raw points to 1 shown point, count a multiple of 5 per tile")],
                 id="one_point_per_tile_in_shown_points_is_singular_and_points_at_its_term_line"),
    pytest.param("allfives", ("5 raw points make 1 shown point\non domino:\n"
                  "  credit opponents' hands separately, rounded to 3, to the winner\n  as one event\n"),
                 [("unit-mismatch", 6, 3, "a hand rounded to 3 can give raw scores that are not multiples of 5",
                   "with 5 raw points to 1 shown point, write `rounded to 5`")],
                 id="a_hand_rounded_to_other_than_the_unit_cannot_be_shown"),
    pytest.param("muggins", "scores never fall below -7\n",
                 [("unit-mismatch", 4, 1, "a score floor of -7 is not a multiple of 5",
                   "with 5 raw points to 1 shown point, use a multiple of 5")],
                 id="a_score_floor_in_shown_points_must_be_a_multiple_of_the_unit"),
    pytest.param("allfives", "players 2 to 3\ntarget at least 100 points with 2 players, 150 with 3 or 4\n",
                 [("per-count", 5, 1, "the target is not given for exactly the allowed player counts",
                   "give a target for each of 2, 3 players")],
                 id="a_target_per_player_count_must_name_exactly_the_allowed_counts"),
    pytest.param("allfives", ("ties at the top: play extra rounds\ncheck the target after settlement\n"
                  "a tie at the top plays 2 extra rounds with 2 players, 3 with 2\n"),
                 [("per-count", 6, 1, "a player count is given two numbers of extra rounds",
                   "name each player count once")],
                 id="a_tie_rounds_line_naming_a_count_twice_is_refused"),
]


@pytest.mark.parametrize(("base", "text", "expected"), SINGLE_ERRORS)
def test_a_bad_ruleset_gets_its_one_error(base, text, expected):
    assert child_errors(base, text) == expected

# -- configuration rules an author breaks ------------------------------------------------------------------


def test_a_hand_rounded_to_one_number_and_divided_by_another_keeps_both():
    config = compiled("allfives", "on domino:\n  credit opponents' hands separately, rounded to 10 and divided by 5, "
                                  "to the winner\n  as one event\n")
    [term] = config["settlement"]["domino"]["terms"]
    assert (term["rounding"], term["divisor"]) == ("round10", 5)
    assert "credit opponents' hands separately, rounded to 10 and divided by 5, to the winner" in \
        config_to_text({**config, "based_on": None})


def test_an_entry_threshold_of_one_point_compiles():
    assert compiled("allfives", "1 points to get in\n")["target"]["entry"] == 1


def test_a_bad_number_of_rounds_does_not_hide_the_overshoot_error_of_the_target_in_force():
    # the bad `the match lasts 0 rounds` is left out of the configuration: the at-least target stays in force
    assert [(code, line) for code, line, _, _, _ in child_errors("allfives", "overshoot bounces back\n"
                                                                         "the match lasts 0 rounds\n")] == [
        ("overshoot-needs-exact", 4), ("bad-number", 5)]


def test_a_compiled_configuration_whose_raw_target_is_not_its_smallest_counts_is_refused(tmp_path):
    config = compiled("allfives", "target at least 100 points with 2 players, 150 with 3 or 4\n")
    assert config["target"]["raw"] == 100 and config["target"]["raw_by_count"] == {"2": 100, "3": 150, "4": 150}
    config["target"]["raw"] = 150
    path = tmp_path / "c.json"
    path.write_text(json.dumps(config), encoding="utf-8")
    with pytest.raises(rulelang.RulesetError) as err:
        rulelang.load_config_dict(str(path))
    assert [(e.code, e.message) for e in err.value.errors] == [
        ("per-count", "not a rulelang configuration: target/raw: the target's raw value is not the one for the "
                      "smallest player count")]


# -- bases that cannot be read --------------------------------------------------------------------------------

def test_a_base_open_in_the_editor_with_a_line_too_long_is_invalid(tmp_path):
    base = str(tmp_path / "o.rules")
    text = "# " + "x" * 600 + '\nruleset o "o"\nsource "s"\nbased on allfives\n'
    analysis = langapi.analyse(HEAD.format(base='"o.rules"'), str(tmp_path / "t.rules"), {base: text})
    assert [(e.code, e.line, e.message, e.hint) for e in analysis.errors] == [
        ("base-invalid", 3, "the base ruleset `o.rules` has errors", f"first: {base}:1:1: a syntax error "
                                                                     "(`line-too-long`)")]


def test_a_base_path_with_a_nul_byte_is_refused_with_the_byte_shown(tmp_path):
    assert _file_errors(tmp_path, '"a\0b.rules"') == [
        ("unknown-base", 3, "the path `a\\0b.rules` holds a NUL byte", "a file name cannot contain a NUL byte")]


def test_an_unknown_bundled_base_like_no_name_lists_the_bundled_ones():
    [(code, line, _, message, hint)] = child_errors("zzzzqqqq", "")
    assert (code, line, message) == ("unknown-base", 3, "there is no bundled ruleset `zzzzqqqq`")
    assert hint == f"bundled rulesets: {', '.join(rulelang.bundled_names())}; or give a file path in quotes"


# -- a text missing a few statements ---------------------------------------------------------------------------

def _allfives_without(lines: list[str]) -> list[tuple[str, str, str | None]]:
    text = (ROOT / "rulesets" / "allfives.rules").read_text(encoding="utf-8")
    kept = "\n".join(line for line in text.splitlines() if line.strip() not in lines) + "\n"
    result = analyse(kept, "t.rules")
    return [(e.code, e.message, e.hint) for e in result.errors]


def test_four_missing_statements_spell_out_a_line_for_each_and_five_do_not():
    four = ["draw until playable", "opener leads the deciding tile", "no overshoot rule", "no score floor"]
    start = rulelang.language.compiler.START_FROM_A_VARIANT
    assert _allfives_without(four) == [(
        "missing-statement", "missing 4 statements: the drawing rule; what the opener leads; the overshoot rule; "
                             "the score floor",
        f"{start}; or add a line such as `draw until playable`; a line such as `opener leads any tile`; "
        "a line such as `no overshoot rule`; a line such as `no score floor`")]
    assert _allfives_without([*four, "a terminal double counts both halves"]) == [(
        "missing-statement", "missing 5 statements: the drawing rule; what the opener leads; what a terminal double "
                             "counts; the overshoot rule; the score floor", start)]


# -- explain sentences of house rules ------------------------------------------------------------------------

def test_claims_lost_only_when_called_are_explained_as_such():
    config = compiled("allfives", "points must be claimed; missed points are lost only when an opponent calls\n")
    sentence = _explained(config, "A placement scores only what its player claims")
    assert "a claim above the score earns nothing at once." in sentence
    assert ("any opponent may call muggins: the points not claimed (after a claim too high, the whole score) are "
            "then lost, and the caller takes nothing.") in sentence


def test_an_opening_placement_that_cannot_win_is_explained():
    config = compiled("allfives", "the opening placement cannot win\n")
    assert _explained(config, "The opening placement") == (
        "The opening placement of a round cannot win: its event is discarded if it would reach the target.")


def test_a_bonus_with_partnerships_but_a_round_ending_when_one_player_goes_out_names_that_player():
    config = compiled("allfives", "players 4, partnerships with 4\nhand 5 tiles\non domino:\n"
                                  "  credit opponents' hands separately, rounded to 5, to the winner\n"
                                  "  bonus 10 points to the winner\n  as one event\n")
    assert _explained(config, "The player who goes out") == (
        "The player who goes out scores a bonus of 10 points, in the same event as the settlement.")


def test_the_editor_explains_a_knock_bonus_of_a_text_that_states_no_unit_yet():
    text = 'ruleset t "t"\nsource "s"\nthe next player to place scores 5 points per knock\n'
    analysis = langapi.analyse(text, "t.rules")
    assert analysis.config is None
    statement = langapi.statement_at(analysis, 3)
    assert langapi.sentence_of(analysis, statement) == (
        "The next player to place after one or more knocks (passes) scores 5 points for each knock since the last "
        "placement, in the same event as that placement.")


# -- the public values of the Python API ------------------------------------------------------------------

def test_a_schema_fault_points_at_no_statement():
    config = rulelang.compile_bundled("allfives")
    del config["target"]
    [problem] = config_problems(config)
    assert (problem.code, problem.at, problem.path) == ("invalid-config", (), "/")


def test_the_compilers_configuration_type_is_a_dict_of_names():
    assert rulelang.language.compiler.Config == dict[str, Any]


@pytest.mark.parametrize("line, needs_winner", [
    ("credit the heaviest opponent's hand only, rounded to 5, to the winner", True),
    ("credit opponents' hands minus own hand, rounded to 5, to the winner", True),
    ("credit opponents' hands separately, rounded to 5, to the winner", True),
    ("credit opponents' hands pooled, 5 points per tile, to the winner", True),
    ("debit everyone's hands separately, rounded to 5, from each owner", False),
    ("credit each hand the differences to heavier opponents' hands, rounded to 5", False),
])
def test_a_term_says_whether_it_needs_a_winner_as_the_configuration_rule_does(line, needs_winner):
    config = compiled("allfives", f"on domino:\n  {line}\n  as one event\n")
    [term] = config["settlement"]["domino"]["terms"]
    assert mentions_winner(term) is needs_winner
    assert Term.from_dict(term).mentions_winner() is needs_winner


def test_the_docs_tool_rewrites_stale_statement_tables(tmp_path):
    page = tmp_path / "language.md"
    page.write_text(f"# Language\n\n{docs.BEGIN}\nstale\n{docs.END}\n\nafter\n", encoding="utf-8")
    assert docs.rewrite(page) is True
    assert page.read_text(encoding="utf-8") == f"# Language\n\n{docs.statement_docs()}\n\nafter\n"
    assert docs.rewrite(page) is False
