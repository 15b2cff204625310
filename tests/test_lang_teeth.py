"""What a ruleset's author sees for statements no golden file shows: fmt lines, explain sentences, error
messages and spans, and configurations that survive the trip to text and back."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from ruleset_text import HEAD, compiled, refused

import rulelang
from rulelang.language.compiler import analyse
from rulelang.language.explain import explain_text
from rulelang.language.formatter import config_to_text

ROOT = Path(__file__).resolve().parent.parent
def _stated(config: dict) -> list[str]:
    """The lines `config_to_text` writes for a configuration (what fmt and diff show)."""
    return config_to_text({**config, "based_on": None}).splitlines()


def _explained(config: dict) -> list[str]:
    return explain_text(config).splitlines()


# -- round trips: a configuration written as text compiles back to itself -----------------------------------

def _case_rulesets() -> list[tuple[str, str]]:
    """The inline rulesets of the conformance cases (house rules the bundled rulesets do not state)."""
    found: dict[str, str] = {}
    for path in sorted((ROOT / "conformance" / "cases").glob("*/*.json")):
        for case in json.loads(path.read_text(encoding="utf-8")).get("cases", []):
            rs = case.get("ruleset")
            if isinstance(rs, dict) and "text" in rs:
                found.setdefault(rs["text"], rs.get("filename", case["id"]))
    return [(name, text) for text, name in found.items()]


def _good_files() -> list[tuple[str, str]]:
    paths = [p for p in sorted((ROOT / "tests" / "data").rglob("*.rules")) if "bad" not in p.parts]
    return [(str(p.relative_to(ROOT)), p.read_text(encoding="utf-8")) for p in paths]


def test_every_ruleset_the_suite_and_the_tests_use_survives_the_trip_to_text_and_back():
    checked = 0
    for name, text in _case_rulesets() + _good_files():
        result = analyse(text, name if name.endswith(".rules") else name + ".rules")
        if result.errors or result.config is None:
            continue  # a file of the tests that needs its neighbours (a base) is checked where it is used
        config = {**result.config, "based_on": None}
        again = analyse(config_to_text(config), "again.rules")
        assert again.errors == [], (name, [e.message for e in again.errors])
        assert again.config == config, name
        checked += 1
    assert checked > 40


@pytest.mark.parametrize("base, extra", [
    ("pagat", "a tie at the top plays 2 extra rounds with 2 players, 3 with 3, 4 with 4\n"),
    ("pagat", "a tie at the top plays 3 extra rounds\n"),
    ("pagat", "10 raw points to get in\n"),
    ("allfives", "10 points to get in\n"),
    ("muggins", "players 2 or 4\n"),
    ("muggins", "players 3 to 4\n"),
    ("allfives", "players 2 to 4\nreserve 2 tiles with 2 players, 1 with 3, 0 with 4\n"),
])
def test_house_rules_survive_the_trip_to_text_and_back(base, extra):
    config = {**compiled(base, extra), "based_on": None}
    assert analyse(config_to_text(config), "again.rules").config == config


def test_per_count_tie_rounds_are_written_back_per_count():
    config = compiled("pagat", "a tie at the top plays 2 extra rounds with 2 players, 3 with 3, 4 with 4\n")
    assert config["target"]["tie_rounds"] == {"2": 2, "3": 3, "4": 4}
    assert "a tie at the top plays 2 extra rounds with 2 players, 3 with 3, 4 with 4" in _stated(config)
    same = compiled("pagat", "a tie at the top plays 3 extra rounds\n")
    assert same["target"]["tie_rounds"] == {"2": 3, "3": 3, "4": 3}
    assert "a tie at the top plays 3 extra rounds" in _stated(same)


def test_player_counts_are_written_back_as_a_range_or_a_list():
    def players(extra: str) -> list[str]:
        return [line for line in _stated(compiled("muggins", extra)) if line.startswith("players")]
    assert players("players 3 to 4\n") == ["players 3 to 4, no partnerships"]
    assert players("players 2 or 3\n") == ["players 2 to 3"]
    assert players("players 2 or 4\n") == ["players 2 or 4, no partnerships"]
    assert players("players 4\n") == ["players 4, no partnerships"]
    assert players("players 2 to 5\nhand 5 tiles\n") == ["players 2 to 5, no partnerships"]  # 4 inside the range
    assert players("players 4 to 5\nhand 5 tiles\n") == ["players 4 to 5, no partnerships"]  # 4 its first count


def test_an_entry_threshold_is_written_back_in_the_ruleset_s_points():
    assert "2 shown points to get in" in _stated(compiled("pagat", "10 raw points to get in\n"))
    assert "10 points to get in" in _stated(compiled("allfives", "10 points to get in\n"))


# -- fmt lines and explain sentences ------------------------------------------------------------------------

def test_a_reserve_is_explained_per_player_count():
    config = compiled("allfives", "reserve 2 tiles\n")
    assert "reserve 2 tiles" in _stated(config)
    assert ("- The last tiles of the boneyard are never drawn: 2 with 2 players, 2 with 3 players, "
            "2 with 4 players.") in _explained(config)


def test_a_draw_limit_says_tile_or_tiles():
    one = compiled("allfives", "draw until playable, at most 1 tile\n")
    assert "draw until playable, at most 1 tile" in _stated(one)
    assert any("at most 1 tile a turn" in s and "after 1 draw without one" in s for s in _explained(one))
    two = compiled("allfives", "draw until playable, at most 2 tiles\n")
    assert "draw until playable, at most 2 tiles" in _stated(two)
    assert any("at most 2 tiles a turn" in s and "after 2 draws without one" in s for s in _explained(two))


def test_the_number_of_rounds_says_round_or_rounds():
    one = compiled("muggins", "the match lasts 1 round\nties at the top: draw\n")
    assert "the match lasts 1 round" in _stated(one)
    assert "- No target is played to (the match lasts 1 round); the target stated is not used." in _explained(one)
    three = compiled("muggins", "the match lasts 3 rounds\nties at the top: draw\n")
    assert "the match lasts 3 rounds" in _stated(three)
    assert ("- The match lasts 3 rounds, with no target and no overshoot: after the last round the single highest "
            "score wins; if it is shared, the match is drawn between them.") in _explained(three)


def test_a_knock_bonus_is_explained_in_shown_and_raw_points():
    config = compiled("pagat", "the next player to place scores 5 points per knock\n")
    assert "the next player to place scores 5 points per knock" in _stated(config)
    assert ("- The next player to place after one or more knocks (passes) scores 1 shown point (5 raw) for each "
            "knock since the last placement, in the same event as that placement.") in _explained(config)
    ten = compiled("pagat", "the next player to place scores 10 points per knock\n")
    assert any("scores 2 shown points (10 raw) for each knock" in s for s in _explained(ten))


def test_an_entry_threshold_is_explained_in_the_ruleset_s_points():
    shown = compiled("pagat", "2 shown points to get in\n")
    assert ("- A side whose score is exactly 0 is off the board: every event for it worth less than 2 shown points "
            "(10 raw) (negative ones too) is discarded; the first event of at least 2 shown points (10 raw) puts it "
            "on the board.") in _explained(shown)
    plain = compiled("allfives", "10 points to get in\n")
    assert ("- A side whose score is exactly 0 is off the board: every event for it worth less than 10 points "
            "(negative ones too) is discarded; the first event of at least 10 points puts it on the board."
            ) in _explained(plain)


def test_a_bonus_says_point_or_points():
    one = compiled("fives-and-threes", "on domino:\n  bonus 1 point to the winner\n")
    assert "  bonus 1 point to the winner" in _stated(one)
    assert any("scores a bonus of 1 point," in s for s in _explained(one))
    two = compiled("fives-and-threes", "on domino:\n  bonus 2 points to the winner\n")
    assert "  bonus 2 points to the winner" in _stated(two)
    assert any("scores a bonus of 2 points," in s for s in _explained(two))


def test_the_scoring_unit_is_written_raw_or_as_a_ratio():
    assert "5 raw points make 1 shown point" in _stated(compiled("pagat", "hand 5 tiles\n"))
    raw = compiled("pagat", "points are shown raw\ntarget at least 305 points\n")
    assert "points are shown raw" in _stated(raw)
    assert not any("raw points make" in line for line in _stated(raw))


def test_tie_rounds_are_explained_per_player_count():
    config = compiled("pagat", "a tie at the top plays 2 extra rounds with 2 players, 3 with 3, 4 with 4\n")
    assert any("(2 with 2 players; 3 with 3 players; 4 with 4 players)" in s for s in _explained(config))


# -- error messages and where they point ---------------------------------------------------------------------

def test_player_counts_in_a_hint_are_joined_with_commas_and_or():
    def hint(extra: str) -> str | None:
        return refused(HEAD.format(base="muggins") + extra)[0].hint
    assert hint("players 2 to 4\nhand 5 tiles with 2 players, 5 with 5\n") == "the ruleset allows 2, 3 or 4 players"
    assert hint("players 2 or 4\nhand 5 tiles with 2 players, 5 with 3, 5 with 4\n") == "the ruleset allows 2 or 4 players"
    assert hint("players 4\nhand 5 tiles with 3 players, 5 with 4\n") == "the ruleset allows 4 players"


def test_too_many_tiles_shows_the_arithmetic():
    (e,) = refused(HEAD.format(base="muggins") + "players 3\nhand 9 tiles\nreserve 2 tiles\n")
    assert e.code == "too-many-tiles"
    assert e.message == "3 hands of 9 tiles and a reserve of 2 need 3 x 9 + 2 = 29 tiles, but a double-six set has 28"
    assert e.hint is not None and e.hint.startswith("deal at most 8 tiles to each of 3 players (3 x 8 + 2 = 26 of 28)")


def test_a_target_that_is_not_whole_shown_points_names_it():
    (e,) = refused(HEAD.format(base="pagat") + "target at least 303 raw points\n")
    assert (e.code, e.line) == ("target-not-multiple", 4)
    assert e.message == "a target of 303 raw points is not a whole number of shown points"
    assert e.hint == "with 5 raw points to 1 shown point, use a multiple of 5"


def test_an_error_without_a_statement_points_at_the_first_character():
    (e,) = refused("players 2 to 4\n")
    assert (e.code, e.line, e.column, e.end_column, e.source_line) == ("missing-statement", 1, 1, 2, "players 2 to 4")


def test_an_error_on_a_statement_of_several_lines_underlines_its_first_line():
    errors = refused(HEAD.format(base="muggins") + "on block:  \n  winner: none\n  one event per hand\n"
                     "on block:\n  winner: none\n")
    first = errors[0]
    assert (first.code, first.line, first.column, first.end_column) == ("duplicate-statement", 7, 1, 10)
    assert first.source_line == "on block:"
    assert first.message == "the section `on block:` is given twice (first on line 4)"


def test_an_error_on_one_line_underlines_that_statement():
    errors = refused(HEAD.format(base="pagat") + "players 2 to 4, partnerships with 4  \nplayers 3\n")
    assert [(e.code, e.line, e.column, e.end_column) for e in errors][:1] == [("duplicate-statement", 5, 1, 10)]


def test_an_error_on_the_last_line_shows_that_line():
    (e,) = refused(HEAD.format(base="pagat") + "hand 5 tiles\nhand 6 tiles")
    assert (e.code, e.line, e.source_line) == ("duplicate-statement", 5, "hand 6 tiles")


def test_a_backwards_range_of_players_is_an_error():
    (e,) = refused(HEAD.format(base="muggins") + "players 4 to 2\n")
    assert (e.code, e.message, e.hint) == ("player-count", "`4 to 2` counts backwards", "write `players 2 to 4`")


def test_a_target_of_1_point_is_allowed_and_0_is_not():
    assert compiled("allfives", "target at least 1 points\n")["target"]["raw"] == 1
    (e,) = refused(HEAD.format(base="allfives") + "target at least 0 points\n")
    assert (e.code, e.message) == ("bad-number", "the target must be at least 1 point")


def test_a_target_per_player_count_in_shown_points_is_kept_raw():
    config = compiled("pagat", "target at least 61 shown points with 2 players, 41 with 3 or 4\n")
    assert config["target"]["raw"] == 305
    assert config["target"]["raw_by_count"] == {"2": 305, "3": 205, "4": 205}


def test_one_tile_spinner_branches_are_explained():
    config = compiled("allfives", "each branch of the spinner takes one tile\n")
    assert ("- Each branch side of the spinner takes one tile only: that tile's free end counts for the rest of the "
            "round, but nothing may join it.") in _explained(config)


def test_a_knock_bonus_in_plain_points_says_point_or_points():
    one = compiled("allfives", "the next player to place scores 1 point per knock\n")
    assert any("scores 1 point for each knock" in s for s in _explained(one))
    two = compiled("allfives", "the next player to place scores 2 points per knock\n")
    assert any("scores 2 points for each knock" in s for s in _explained(two))


def test_a_block_without_a_winner_refuses_a_term_that_takes_from_opponents():
    (e,) = refused(HEAD.format(base="muggins")
                   + "on block:\n  winner: none\n  debit opponents' hands separately, rounded to 5, from each owner\n")
    assert (e.code, e.line) == ("terms-need-winner", 6)
    assert e.message == "a block without a winner gives nothing to this term"


def test_the_round_end_is_written_just_before_the_settlement():
    config = compiled("pagat", "the round ends when both partners go out\n")
    keys = list(config)
    assert keys.index("round_end") == keys.index("settlement") - 1
    assert keys.index("round_end") > keys.index("score_floor")


def test_double_six_stated_compiles_as_the_default():
    assert compiled("muggins", "tiles double-six\n") == compiled("muggins", "no reserve\n")
    assert "tiles" not in compiled("muggins", "tiles double-six\n")
    assert compiled("muggins", "tiles double-nine\nhand 7 tiles\n")["tiles"] == 9


# -- a ruleset without a base, and the files a `based on` names ------------------------------------------------

def _muggins_without_block() -> str:
    from rulelang.language.bundled import bundled_text
    return bundled_text("muggins").split("on block:")[0]


def test_a_missing_section_is_named_with_a_line_it_could_hold():
    (e,) = refused(_muggins_without_block())
    assert (e.code, e.message) == ("missing-statement", "missing section `on block:`")
    assert e.hint == ("add a section such as `on block:` followed by lines like "
                      "`credit opponents' hands separately, rounded to 5, to the winner` and `as one event`")


def test_a_domino_section_of_a_bonus_alone_needs_its_events_line_and_the_rest_is_still_checked():
    import re
    text = re.sub(r"on domino:\n(  .*\n)+", "on domino:\n  bonus 1 point to the winner\n", _muggins_without_block())
    (e,) = refused(text)
    assert e.message == ("missing 2 statements: how a domino's settlement makes events in `on domino:`; "
                         "the section `on block:`")


def _based_on(tmp_path: Path, ref: str) -> rulelang.RulesetError:
    (tmp_path / "sub").mkdir(exist_ok=True)
    (tmp_path / "bad.rules").write_text(HEAD.format(base="muggins") + "hand 9 tiles\ntarget at least 0 points\n",
                                        encoding="utf-8")
    (tmp_path / "binary.rules").write_bytes(b"\xff\xfe")
    result = analyse(f'ruleset t "t"\nsource "s"\nbased on "{ref}"\n', str(tmp_path / "t.rules"))
    assert result.config is None
    return result.errors[0]


def test_a_base_that_cannot_be_read_says_why(tmp_path):
    where = f"the path is relative to this file's folder ({tmp_path})"
    cases = {"sub": "`sub` is a folder, not a ruleset file",
             "nope.rules": "there is no ruleset file `nope.rules`",
             "binary.rules": "cannot read the ruleset file `binary.rules`: not UTF-8 text",
             "/dev/null": "cannot read the ruleset file `/dev/null`: not a regular file (a device, pipe or socket)"}
    for ref, message in cases.items():
        if ref.startswith("/dev") and not Path(ref).exists():
            continue
        e = _based_on(tmp_path, ref)
        assert (e.code, e.line, e.message, e.hint) == ("unknown-base", 3, message, where), ref


def test_a_base_with_errors_names_its_first_error(tmp_path):
    e = _based_on(tmp_path, "bad.rules")
    assert (e.code, e.message) == ("base-invalid", "the base ruleset `bad.rules` has errors")
    assert e.hint == (f"first: {tmp_path / 'bad.rules'}:4:1: "
                      "4 hands of 9 tiles need 4 x 9 = 36 tiles, but a double-six set has 28")


def test_a_file_based_on_itself_is_a_cycle_of_one_step(tmp_path):
    path = tmp_path / "s.rules"
    path.write_text('ruleset s "s"\nsource "s"\nbased on "s.rules"\n', encoding="utf-8")
    (e,) = _errors_at(path.read_text(encoding="utf-8"), str(path))
    assert (e.code, e.message) == ("base-cycle", "a cycle of `based on`: `s.rules` -> `s.rules`")


def test_a_bundled_ruleset_based_on_its_own_name_is_a_cycle():
    (e,) = _errors_at('ruleset pagat "x"\nsource "s"\nbased on pagat\n', "rulesets/pagat.rules")
    assert (e.code, e.message) == ("base-cycle", "a cycle of `based on`: `pagat.rules` -> `pagat`")


def _errors_at(text: str, filename: str) -> list[rulelang.RulesetError]:
    result = analyse(text, filename)
    assert result.errors
    return result.errors


def test_a_target_per_count_names_its_first_count_that_is_not_whole_shown_points():
    (e,) = refused(HEAD.format(base="pagat") + "target at least 305 raw points with 2 players, 303 with 3, 307 with 4\n")
    assert (e.code, e.message) == ("target-not-multiple", "a target of 303 raw points is not a whole number of shown points")
    assert e.hint == "with 5 raw points to 1 shown point, use multiples of 5"


def test_a_unit_of_2_refuses_placements_scoring_multiples_of_5():
    errors = refused(HEAD.format(base="pagat") + "2 raw points make 1 shown point\ntarget at least 122 shown points\n")
    assert "placements scoring multiples of 5 can give raw scores that are not multiples of 2 (inherited from `pagat`)" \
        in [e.message for e in errors]


def test_a_configuration_file_breaking_a_rule_is_refused_with_the_rule(tmp_path):
    import json as _json

    config = rulelang.compile_bundled("muggins")
    config["hand_size"] = {"2": 9, "3": 9, "4": 9}
    path = tmp_path / "big.json"
    path.write_text(_json.dumps(config), encoding="utf-8")
    with pytest.raises(rulelang.RulesetError) as err:
        rulelang.load_config(str(path))
    assert err.value.code == "too-many-tiles"
    assert err.value.message.startswith("not a rulelang configuration: ")
    assert "3 hands of 9 tiles need 3 x 9 = 27 tiles" not in err.value.message  # 27 tiles fit in 28
    assert "4 hands of 9 tiles need 4 x 9 = 36 tiles, but a double-six set has 28" in err.value.message


def test_compiling_a_parsed_ruleset_gives_its_configuration_or_raises():
    from rulelang.language.compiler import compile_ruleset
    from rulelang.language.parser import parse

    ruleset, errors = parse(HEAD.format(base="pagat") + "hand 6 tiles\n", "t.rules")
    assert errors == [] and ruleset is not None
    assert compile_ruleset(ruleset) == compiled("pagat", "hand 6 tiles\n")
    bad, _ = parse(HEAD.format(base="pagat") + "hand 9 tiles\n", "t.rules")
    assert bad is not None
    with pytest.raises(rulelang.RulesetError):
        compile_ruleset(bad)


def test_a_missing_domino_section_is_named_with_a_settlement_line_it_could_hold():
    import re

    from rulelang.language.bundled import bundled_text
    text = re.sub(r"on domino:\n(  .*\n)+", "", bundled_text("muggins"))
    (e,) = refused(text)
    assert (e.code, e.message) == ("missing-statement", "missing section `on domino:`")
    assert e.hint == ("add a section such as `on domino:` followed by lines like "
                      "`credit opponents' hands separately, rounded to 5, to the winner` and `as one event`")


def test_a_partner_term_without_partnerships_is_pointed_at_on_its_own_line():
    (e,) = refused(HEAD.format(base="muggins") + "on domino:\n"
                   "  credit opponents' hands separately, rounded to 5, to the winner\n"
                   "  debit partner's hand pooled, rounded to 5, from the winner\n  as one event\n")
    assert (e.code, e.line, e.column) == ("partner-needs-partnerships", 6, 3)
    assert (e.message, e.hint) == ("there is no partner without partnerships",
                                   "remove this line or play `partnerships with 4`")


def test_an_entry_threshold_with_2_raw_points_to_a_shown_one_is_explained_in_both():
    config = compiled("pagat", "2 raw points make 1 shown point\nplacements score multiples of 2\n"
                       "target at least 150 shown points\n2 shown points to get in\n"
                       "on domino:\n  debit everyone's hands separately, rounded to 2, from each owner\n"
                       "  one event per hand\non block:\n  winner: none\n"
                       "  debit everyone's hands separately, rounded to 2, from each owner\n  one event per hand\n")
    assert any("worth less than 2 shown points (4 raw)" in s for s in _explained(config))


def test_a_knock_bonus_of_1_raw_point_under_a_unit_of_5_says_point():
    (e,) = refused(HEAD.format(base="pagat") + "the next player to place scores 1 point per knock\n")
    assert (e.code, e.message) == ("unit-mismatch", "a knock bonus of 1 raw point is not a whole number of shown points")
    (e,) = refused(HEAD.format(base="pagat") + "the next player to place scores 2 points per knock\n")
    assert e.message == "a knock bonus of 2 raw points is not a whole number of shown points"
