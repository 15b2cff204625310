"""The house rules of the match (rulelang/language/statements/house.py: entry threshold, least placement, doubles left in
hand, extra rounds on a tie, draw limit, knock bonus, number of rounds): written back, explained and checked."""
from __future__ import annotations

from ruleset_text import HEAD, compiled, refused

import rulelang
from rulelang.language.analysis import analyse as analyse_for_tools
from rulelang.language.explain import diff_configs, explain_text
from rulelang.language.formatter import config_statements, config_to_text, format_text


def _stated(config: dict) -> list[str]:
    """The lines `config_to_text` writes for a configuration (what fmt and diff show)."""
    return config_to_text({**config, "based_on": None}).splitlines()


def _explained(config: dict) -> list[str]:
    return explain_text(config).splitlines()


def test_per_count_tie_rounds_are_written_back_per_count():
    config = compiled("pagat", "a tie at the top plays 2 extra rounds with 2 players, 3 with 3, 4 with 4\n")
    assert config["target"]["tie_rounds"] == {"2": 2, "3": 3, "4": 4}
    assert "a tie at the top plays 2 extra rounds with 2 players, 3 with 3, 4 with 4" in _stated(config)
    same = compiled("pagat", "a tie at the top plays 3 extra rounds\n")
    assert same["target"]["tie_rounds"] == {"2": 3, "3": 3, "4": 3}
    assert "a tie at the top plays 3 extra rounds" in _stated(same)


def test_an_entry_threshold_is_written_back_in_the_ruleset_s_points():
    assert "2 shown points to get in" in _stated(compiled("pagat", "10 raw points to get in\n"))
    assert "10 points to get in" in _stated(compiled("allfives", "10 points to get in\n"))


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


def test_tie_rounds_are_explained_per_player_count():
    config = compiled("pagat", "a tie at the top plays 2 extra rounds with 2 players, 3 with 3, 4 with 4\n")
    assert any("(2 with 2 players; 3 with 3 players; 4 with 4 players)" in s for s in _explained(config))


def test_a_knock_bonus_in_plain_points_says_point_or_points():
    one = compiled("allfives", "the next player to place scores 1 point per knock\n")
    assert any("scores 1 point for each knock" in s for s in _explained(one))
    two = compiled("allfives", "the next player to place scores 2 points per knock\n")
    assert any("scores 2 points for each knock" in s for s in _explained(two))


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


def test_an_entry_threshold_of_one_point_compiles():
    assert compiled("allfives", "1 points to get in\n")["target"]["entry"] == 1


def test_the_editor_explains_a_knock_bonus_of_a_text_that_states_no_unit_yet():
    text = 'ruleset t "t"\nsource "s"\nthe next player to place scores 5 points per knock\n'
    analysis = analyse_for_tools(text, "t.rules")
    assert analysis.config is None
    statement = analysis.statement_at(3)
    assert analysis.sentence_of(statement) == (
        "The next player to place after one or more knocks (passes) scores 5 points for each knock since the last "
        "placement, in the same event as that placement.")


def _sentences(config: dict) -> list[str]:
    """The sentences of `rulelang explain` (without the title, source and headings)."""
    return [line[2:] for line in explain_text(config).splitlines() if line.startswith("- ")]


def test_a_diff_says_what_the_default_of_each_optional_house_rule_means():
    # the side that does not state a rule is explained by its default: crosswise spinner, a lead that can win,
    # no claims
    plain = compiled("allfives", "")
    house = compiled("allfives", "the spinner is always laid endwise\npoints must be claimed; missed points are lost\n"
                                 "the opening placement cannot win\n")
    assert diff_configs(plain, house) == [
        ("how the spinner is laid", "The spinner is laid crosswise, like every double.",
         "The spinner is always laid endwise: it lies in the line like a non-double and counts its half for each "
         "free in-line side; its branches open after the line."),
        ("no winning score on the lead", "The opening placement of a round can win like any other.",
         "The opening placement of a round cannot win: its event is discarded if it would reach the target."),
        ("the muggins rule", "A placement's points are scored without being claimed.",
         "A placement scores only what its player claims with the move (in points): a claim up to the score is "
         "credited (claiming exactly the score credits it all; no claim claims 0); a claim above the score earns "
         "nothing. Points not claimed are lost.")]


def test_extra_rounds_on_a_tie_are_explained_in_the_order_of_the_player_counts():
    # 9 and 10 players: counts past 9 must not sort as text ("10" before "9")
    config = compiled("allfives", "tiles double-twelve\nplayers 9 to 10\nhand 5 tiles\n"
                                  "check the target after settlement\nties at the top: play extra rounds\n"
                                  "a tie at the top plays 2 extra rounds with 9 players, 3 with 10\n")
    assert ("When the highest score is shared where the match would end, a fixed number of extra rounds is played "
            "(2 with 9 players; 3 with 10 players) without checking the target; after them the single highest score "
            "wins, and a highest score still shared plays as many again.") in _sentences(config)


def test_a_stated_house_rule_reads_back_from_the_configuration_as_the_value_its_text_reads():
    text = HEAD.format(base="allfives") + "the opening placement cannot win\n"
    [read] = [st.value for st in rulelang.loads(text).statements if st.key == "lead_cannot_win"]
    assert read is True
    assert dict(config_statements(compiled("allfives", "the opening placement cannot win\n")))["lead_cannot_win"] \
        is True


FAMILY_HEAD = 'ruleset h "H"\nsource "a test"\nbased on muggins\n'


def family_compiled(body: str) -> dict:
    return rulelang.compile_text(FAMILY_HEAD + body, "h.rules")


def family_codes(body: str) -> list[str]:
    return [e.code for e in rulelang.check_text(FAMILY_HEAD + body, "h.rules")]


def first_error(line: str):
    errors = rulelang.check_text(FAMILY_HEAD + line + "\n", "h.rules")
    assert errors, line
    return errors[0]


F3 = 'ruleset h "H"\nsource "a test"\nbased on fives-and-threes\n'


KNOCK = "the next player to place scores 1 point per knock\n"


HALF = "a double left in hand counts one half\n"


PAGAT = 'ruleset h "H"\nsource "a test"\nbased on pagat\n'


TIE3 = "a tie at the top plays 2 extra rounds with 2 players, 3 with 3, 4 with 4\n"


def test_knock_bonus_compiles_round_trips_and_is_omitted_when_not_written():
    cfg = rulelang.compile_text(F3 + KNOCK, "h.rules")
    assert cfg["scoring"]["knock_bonus"] == 1
    assert "knock_bonus" not in rulelang.compile_bundled("fives-and-threes")["scoring"]
    assert "the next player to place scores 1 point per knock" in format_text(F3 + "the next  player to place "
                                                                                   "scores 1 point per knock\n")
    assert "for each knock" in explain_text(cfg)
    assert [e.code for e in rulelang.check_text(F3 + "the next player to place scores 0 points per knock\n",
                                                "h.rules")] == ["bad-number"]
    # muggins shows raw points in fives: a knock of 1 raw point is not a whole shown point
    assert family_codes("the next player to place scores 1 point per knock\n") == ["unit-mismatch"]
    assert family_compiled("the next player to place scores 5 points per knock\n")["scoring"]["knock_bonus"] == 5


def test_hand_doubles_compiles_and_is_omitted_at_its_default():
    assert family_compiled(HALF)["scoring"]["hand_doubles"] == "one-half"
    assert "hand_doubles" not in family_compiled("a double left in hand counts both halves\n")["scoring"]
    assert "[4|4] counts 4" in explain_text(family_compiled(HALF))
    # once stated by the language, the phrase is no longer reported as outside it
    assert first_error("a double left in hand counts one halve").code != "outside-language"


def test_tie_rounds_compile_per_count_and_need_extra_rounds():
    cfg = rulelang.compile_text(PAGAT + TIE3, "h.rules")
    assert cfg["target"]["tie_rounds"] == {"2": 2, "3": 3, "4": 4}
    same = rulelang.compile_text(PAGAT + "a tie at the top plays 3 extra rounds\n", "h.rules")
    assert same["target"]["tie_rounds"] == {"2": 3, "3": 3, "4": 3}
    assert "a tie at the top plays 3 extra rounds" in format_text(PAGAT + "a tie at the top  plays 3 extra rounds\n")
    assert "fixed number of extra rounds" in explain_text(cfg)
    assert "tie_rounds" not in rulelang.compile_bundled("pagat")["target"]
    errors = rulelang.check_text(PAGAT + "a tie at the top plays 2 extra rounds with 2 players, 3 with 3\n", "h.rules")
    assert [e.code for e in errors] == ["per-count"]
    assert family_codes("a tie at the top plays 2 extra rounds\n") == ["tie-rounds-need-extra-rounds"]  # muggins: impossible


PUBLISHED_HEAD = 'ruleset h "H"\nsource "a test"\nbased on allfives\n'


def published_cfg(text: str) -> dict:
    return rulelang.compile_text(text, "h.rules")


def published_codes(text: str) -> list[str]:
    return [e.code for e in rulelang.check_text(text, "h.rules")]


NO_FIVES = PUBLISHED_HEAD + "a placement scores only from 10 points up\n"


def test_placement_minimum_compiles_round_trips_and_is_explained():
    assert published_cfg(NO_FIVES)["scoring"]["minimum"] == 10
    assert "minimum" not in rulelang.compile_bundled("allfives")["scoring"]
    assert published_cfg(format_text(NO_FIVES)) == published_cfg(NO_FIVES)
    assert "a placement scores only from 10 points up" in format_text(NO_FIVES)
    assert "scores only when it earns at least 10 points" in explain_text(published_cfg(NO_FIVES))
    # in shown points where points are shown (muggins: 5 raw to 1 shown), and back
    shown = 'ruleset h "H"\nsource "a test"\nbased on muggins\na placement scores only from 2 points up\n'
    assert published_cfg(shown)["scoring"]["minimum"] == 10
    assert "a placement scores only from 2 points up" in format_text(shown)
    assert published_cfg(shown.replace("2 points", "10 raw points")) == published_cfg(shown)


def test_placement_minimum_that_cannot_apply_is_an_error():
    assert published_codes(NO_FIVES.replace("10 points", "1 point")) == ["bad-number"]
    errors = rulelang.check_text(NO_FIVES.replace("10 points", "5 points"), "h.rules")
    assert [e.code for e in errors] == ["placement-minimum-cannot-apply"]
    assert "every placement that scores earns at least 5 raw points" in errors[0].message
    assert published_codes(NO_FIVES + "placements score nothing\n") == ["placement-minimum-cannot-apply"]
    # one point per multiple (fives and threes): a count of 5 or 3 earns 1, so `from 2 points up` applies
    assert published_codes('ruleset h "H"\nsource "a test"\nbased on fives-and-threes\na placement scores only from 2 points '
                 'up\n') == []
