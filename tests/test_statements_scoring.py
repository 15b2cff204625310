"""The statements of scoring and the target (rulelang/language/statements/scoring.py: scoring in play, unit, target, floor,
round end): written back, explained and checked."""
from __future__ import annotations

from ruleset_text import HEAD, child_errors, compiled, refused

import rulelang
from rulelang.language.explain import diff_configs, explain_text
from rulelang.language.formatter import config_to_text, format_text


def _stated(config: dict) -> list[str]:
    """The lines `config_to_text` writes for a configuration (what `rulelang new --base` and diff show)."""
    return [line.strip() for line in config_to_text({**config, "based_on": None}).splitlines()]


def _explained(config: dict) -> list[str]:
    return explain_text(config).splitlines()


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


def test_a_round_ending_when_both_partners_go_out_is_explained_without_partners_too():
    config = compiled("allfives", "players 2 to 4, no partnerships\nthe round ends when both partners go out\n")
    assert ("- The round ends when a player goes out (without partners, both partners out means the same)."
            in _explained(config))


def _stated_lines(config: dict) -> list[str]:
    """The lines `config_to_text` writes for a configuration (what fmt and diff show)."""
    return config_to_text({**config, "based_on": None}).splitlines()


def test_the_scoring_unit_is_written_raw_or_as_a_ratio():
    assert "5 raw points make 1 shown point" in _stated_lines(compiled("pagat", "hand 5 tiles\n"))
    raw = compiled("pagat", "points are shown raw\ntarget at least 305 points\n")
    assert "points are shown raw" in _stated_lines(raw)
    assert not any("raw points make" in line for line in _stated_lines(raw))


def test_a_target_that_is_not_whole_shown_points_names_it():
    (e,) = refused(HEAD.format(base="pagat") + "target at least 303 raw points\n")
    assert (e.code, e.line) == ("target-not-multiple", 4)
    assert e.message == "a target of 303 raw points is not a whole number of shown points"
    assert e.hint == "with 5 raw points to 1 shown point, use a multiple of 5"


def test_a_target_of_1_point_is_allowed_and_0_is_not():
    assert compiled("allfives", "target at least 1 points\n")["target"]["raw"] == 1
    (e,) = refused(HEAD.format(base="allfives") + "target at least 0 points\n")
    assert (e.code, e.message) == ("bad-number", "the target must be at least 1 point")


def test_a_target_per_player_count_in_shown_points_is_kept_raw():
    config = compiled("pagat", "target at least 61 shown points with 2 players, 41 with 3 or 4\n")
    assert config["target"]["raw"] == 305
    assert config["target"]["raw_by_count"] == {"2": 305, "3": 205, "4": 205}


def test_the_round_end_is_written_just_before_the_settlement():
    config = compiled("pagat", "the round ends when both partners go out\n")
    keys = list(config)
    assert keys.index("round_end") == keys.index("settlement") - 1
    assert keys.index("round_end") > keys.index("score_floor")


def test_a_target_per_count_names_its_first_count_that_is_not_whole_shown_points():
    (e,) = refused(HEAD.format(base="pagat") + "target at least 305 raw points with 2 players, 303 with 3, 307 with 4\n")
    assert (e.code, e.message) == ("target-not-multiple", "a target of 303 raw points is not a whole number of shown points")
    assert e.hint == "with 5 raw points to 1 shown point, use multiples of 5"


def test_a_unit_of_2_refuses_placements_scoring_multiples_of_5():
    errors = refused(HEAD.format(base="pagat") + "2 raw points make 1 shown point\ntarget at least 122 shown points\n")
    assert "placements scoring multiples of 5 can give raw scores that are not multiples of 2 (inherited from `pagat`)" \
        in [e.message for e in errors]


def test_a_bad_number_of_rounds_does_not_hide_the_overshoot_error_of_the_target_in_force():
    # the bad `the match lasts 0 rounds` is left out of the configuration: the at-least target stays in force
    assert [(code, line) for code, line, _, _, _ in child_errors("allfives", "overshoot bounces back\n"
                                                                         "the match lasts 0 rounds\n")] == [
        ("overshoot-needs-exact", 4), ("bad-number", 5)]


def test_a_target_per_player_count_may_be_1_point_but_not_0():
    config = compiled("allfives", "players 2 to 3\ntarget at least 150 points with 2 players, 1 with 3\n")
    assert config["target"]["raw_by_count"] == {"2": 150, "3": 1}
    assert child_errors("allfives", "players 2 to 3\ntarget at least 150 points with 2 players, 0 with 3\n") == [
        ("bad-number", 5, 1, "the target must be at least 1 point", None)]


def test_a_target_of_0_points_for_the_first_player_count_is_reported_once():
    assert child_errors("allfives", "players 2 to 3\ntarget at least 0 points with 2 players, 150 with 3\n") == [
        ("bad-number", 5, 1, "the target must be at least 1 point", None)]


PUBLISHED_HEAD = 'ruleset h "H"\nsource "a test"\nbased on allfives\n'


def published_cfg(text: str) -> dict:
    return rulelang.compile_text(text, "h.rules")


TIE = PUBLISHED_HEAD + "check the target after settlement\nties at the top: the side that opened the round wins\n"


def test_ties_to_the_round_opener_compile_round_trip_are_explained_and_need_a_tie():
    assert published_cfg(TIE)["target"]["ties"] == "round-opener"
    assert published_cfg(format_text(TIE)) == published_cfg(TIE)
    assert "the side that opened the round wins" in explain_text(published_cfg(TIE))
    # checked after every event the first side to reach the target wins: no tie can arise
    errors = rulelang.check_text(PUBLISHED_HEAD + "ties at the top: the side that opened the round wins\n", "h.rules")
    assert [e.code for e in errors] == ["ties-contradict-check"]
    rounds = rulelang.compile_text(TIE + "the match lasts 3 rounds\n", "h.rules")
    assert "the side that opened the last round wins" in explain_text(rounds)


STARTED = TIE.replace("the side that opened the round wins", "the side that started the match wins")


def test_ties_to_the_match_starter_compile_round_trip_are_explained_and_need_a_tie():
    assert published_cfg(STARTED)["target"]["ties"] == "match-opener"
    assert published_cfg(format_text(STARTED)) == published_cfg(STARTED)
    assert "the side that opened the first round of the match wins" in explain_text(published_cfg(STARTED))
    errors = rulelang.check_text(PUBLISHED_HEAD + "ties at the top: the side that started the match wins\n", "h.rules")
    assert [e.code for e in errors] == ["ties-contradict-check"]
    rounds = rulelang.compile_text(STARTED + "the match lasts 3 rounds\n", "h.rules")
    assert "the side that opened the first round wins" in explain_text(rounds)
    diff = {what: (a, b) for what, a, b in diff_configs(published_cfg(TIE), published_cfg(STARTED))}
    assert "opened the first round of the match" in diff["ties at the top"][1]


# Gareth Edwards, "Learning fives and threes in the pub": "So if the open ends total 15, that's 15 points. Six adds
# up to 6 points." A count that is a multiple of 5 or of 3 scores its own value, once.
ONCE = PUBLISHED_HEAD.replace("allfives", "threes-and-fives") + "placements score multiples of 5 or 3 at face value, once\n"


def test_face_value_once_compiles_round_trips_and_is_explained():
    c = published_cfg(ONCE)
    assert (c["scoring"]["formula"], c["scoring"]["divisors"]) == ("face-value-once", [5, 3])
    assert published_cfg(format_text(ONCE)) == c
    assert "placements score multiples of 5 or 3 at face value, once" in format_text(ONCE)
    said = explain_text(c)
    assert "a positive sum scores itself once when 5 or 3 divides it (15 scores 15, not 15 + 15)" in said
    assert "(15 scores 15 + 15 = 30)" in explain_text(rulelang.compile_bundled("threes-and-fives"))  # unchanged
    diff = {what: (a, b) for what, a, b in diff_configs(rulelang.compile_bundled("threes-and-fives"), c)}
    assert "15 scores 15" in diff["scoring in play"][1]


def test_face_value_once_with_one_divisor_is_the_multiple_itself():
    c = published_cfg(PUBLISHED_HEAD + "placements score multiples of 5 at face value, once\n"
                      "points are shown raw\ntarget at least 305 points\n")
    assert (c["scoring"]["formula"], c["scoring"].get("divisors", [5])) == ("face-value-once", [5])
    assert "a positive sum scores itself once when 5 divides it" in explain_text(c)


def test_face_value_once_needs_raw_points_and_is_offered_for_an_ambiguous_formula():
    errors = rulelang.check_text(PUBLISHED_HEAD.replace("allfives", "exact61")
                                 + "placements score multiples of 5 or 3 at face value, once\n", "h.rules")
    assert [(e.code, e.message) for e in errors] == [(
        "formula-needs-raw-points", "placements scoring at face value, once are already shown points: they cannot "
        "be divided by 5")]
    (e,) = refused(PUBLISHED_HEAD.replace("allfives", "threes-and-fives") + "placements score multiples of 5 or 3\n")
    assert e.code == "ambiguous-formula"
    assert "or `placements score multiples of 5 or 3 at face value, once` (15 scores 15)" in (e.hint or "")
