"""The statements of the players and the deal (rulelang/language/statements/deal.py: tile set, player counts, hand size,
reserve): written back, explained, and the hints of a deal that does not fit."""
from __future__ import annotations

import tomllib
from pathlib import Path

import pytest
from ruleset_text import HEAD, child_errors, compiled, refused

import rulelang
from rulelang.language.compiler import analyse
from rulelang.language.explain import diff_configs, explain_text
from rulelang.language.formatter import config_to_text, format_text


def _file_errors(tmp_path: Path, base: str, extra: str = "") -> list[tuple[str, int | None, str, str | None]]:
    """(code, line, message, hint) of each error of tmp_path/t.rules, based on `base` (a quoted path)."""
    result = analyse(HEAD.format(base=base) + extra, str(tmp_path / "t.rules"))
    assert result.config is None and result.errors
    return [(e.code, e.line, e.message, e.hint) for e in result.errors]


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


# a bad ruleset and the one error it gets: tests/data/rulesets/one-error.toml
ONE_ERROR = tomllib.loads((Path(__file__).parent / "data" / "rulesets" / "one-error.toml").read_text(encoding="utf-8"))[
    "ruleset"]


def test_the_table_of_rulesets_with_one_error_is_found():
    assert ONE_ERROR


@pytest.mark.parametrize("case", ONE_ERROR, ids=[case["id"] for case in ONE_ERROR])
def test_a_bad_ruleset_gets_its_one_error(case):
    expected = (case["code"], case["line"], case["column"], case["message"], case["hint"])
    assert child_errors(case["base"], case["text"]) == [expected]


def test_a_hand_rounded_to_one_number_and_divided_by_another_keeps_both():
    config = compiled("allfives", "on domino:\n  credit opponents' hands separately, rounded to 10 and divided by 5, "
                                  "to the winner\n  as one event\n")
    [term] = config["settlement"]["domino"]["terms"]
    assert (term["rounding"], term["divisor"]) == ("round10", 5)
    assert "credit opponents' hands separately, rounded to 10 and divided by 5, to the winner" in \
        config_to_text({**config, "based_on": None})


def _stated(config: dict) -> list[str]:
    """The lines `config_to_text` writes for a configuration (what fmt and diff show)."""
    return config_to_text({**config, "based_on": None}).splitlines()


def _explained_lines(config: dict) -> list[str]:
    return explain_text(config).splitlines()


def test_player_counts_are_written_back_as_a_range_or_a_list():
    def players(extra: str) -> list[str]:
        return [line for line in _stated(compiled("muggins", extra)) if line.startswith("players")]
    assert players("players 3 to 4\n") == ["players 3 to 4, no partnerships"]
    assert players("players 2 or 3\n") == ["players 2 to 3"]
    assert players("players 2 or 4\n") == ["players 2 or 4, no partnerships"]
    assert players("players 4\n") == ["players 4, no partnerships"]
    assert players("players 2 to 5\nhand 5 tiles\n") == ["players 2 to 5, no partnerships"]  # 4 inside the range
    assert players("players 4 to 5\nhand 5 tiles\n") == ["players 4 to 5, no partnerships"]  # 4 its first count


def test_a_reserve_is_explained_per_player_count():
    config = compiled("allfives", "reserve 2 tiles\n")
    assert "reserve 2 tiles" in _stated(config)
    assert ("- The last tiles of the boneyard are never drawn: 2 with 2 players, 2 with 3 players, "
            "2 with 4 players.") in _explained_lines(config)


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


def test_a_backwards_range_of_players_is_an_error():
    (e,) = refused(HEAD.format(base="muggins") + "players 4 to 2\n")
    assert (e.code, e.message, e.hint) == ("player-count", "`4 to 2` counts backwards", "write `players 2 to 4`")


def test_double_six_stated_compiles_as_the_default():
    assert compiled("muggins", "tiles double-six\n") == compiled("muggins", "no reserve\n")
    assert "tiles" not in compiled("muggins", "tiles double-six\n")
    assert compiled("muggins", "tiles double-nine\nhand 7 tiles\n")["tiles"] == 9


def test_a_deal_too_large_for_a_double_twelve_set_offers_the_larger_sets():
    # 2 x 50 = 100 of 91: the double-fifteen and double-eighteen sets are larger
    assert child_errors("allfives", "tiles double-twelve\nplayers 2\nhand 50 tiles\n") == [(
        "too-many-tiles", 6, 1, "2 hands of 50 tiles need 2 x 50 = 100 tiles, but a double-twelve set has 91",
        "deal at most 45 tiles to each of 2 players (2 x 45 = 90 of 91), or write `tiles double-fifteen` / "
        "`tiles double-eighteen`")]


def test_a_deal_too_large_for_a_double_eighteen_set_offers_no_larger_set():
    # 2 x 100 = 200 of 190: double-eighteen is the largest set, so the hint names no other
    assert child_errors("allfives", "tiles double-eighteen\nplayers 2\nhand 100 tiles\n") == [(
        "too-many-tiles", 6, 1, "2 hands of 100 tiles need 2 x 100 = 200 tiles, but a double-eighteen set has 190",
        "deal at most 95 tiles to each of 2 players (2 x 95 = 190 of 190)")]


def test_a_reserve_per_player_count_must_name_exactly_the_allowed_counts():
    assert child_errors("allfives", "players 2 to 3\nreserve 4 tiles with 2 players, 2 with 3, 1 with 4\n") == [
        ("per-count", 5, 1, "the reserve is given for 4 players, who cannot play", "the ruleset allows 2 or 3 players")]
    assert child_errors("allfives", "reserve 4 tiles with 2 players, 2 with 3\n") == [
        ("per-count", 4, 1, "the reserve for 4 players is not given",
         "add `, N with 4` or give one size for every count")]


def test_a_hand_of_1_tile_is_allowed_and_of_0_tiles_refused():
    assert compiled("allfives", "hand 1 tiles\n")["hand_size"] == {"2": 1, "3": 1, "4": 1}
    assert child_errors("allfives", "hand 0 tiles\n") == [
        ("bad-number", 4, 1, "a hand needs at least 1 tile", "write e.g. `hand 5 tiles`")]


def test_a_hand_larger_than_the_largest_set_names_its_size():
    (e,) = refused(HEAD.format(base="allfives") + "tiles double-eighteen\nplayers 2\nhand 191 tiles\n")
    assert (e.code, e.message) == ("too-many-tiles", "a double-eighteen set, the largest, has only 190 tiles")


PUBLISHED_HEAD = 'ruleset h "H"\nsource "a test"\nbased on allfives\n'


REDEAL = PUBLISHED_HEAD + "the tiles are dealt again when a hand holds 4 or more doubles\n"


def published_cfg(text: str) -> dict:
    return rulelang.compile_text(text, "h.rules")


def published_codes(text: str) -> list[str]:
    return [e.code for e in rulelang.check_text(text, "h.rules")]


def test_redeal_doubles_compiles_round_trips_and_is_omitted_when_not_written():
    assert published_cfg(REDEAL)["redeal_doubles"] == 4
    assert "redeal_doubles" not in rulelang.compile_bundled("allfives")
    assert "the tiles are dealt again when a hand holds 4 or more doubles" in format_text(REDEAL)
    assert published_cfg(format_text(REDEAL)) == published_cfg(REDEAL)
    assert published_cfg(REDEAL.replace("4 or more doubles", "5 or more double"))["redeal_doubles"] == 5


def test_redeal_doubles_is_explained_and_diffed():
    assert "one hand holds 4 or more doubles is thrown in" in explain_text(published_cfg(REDEAL))
    diff = {what: (a, b) for what, a, b in diff_configs(rulelang.compile_bundled("allfives"), published_cfg(REDEAL))}
    assert "4 or more doubles" in diff["the deal thrown in for a hand of doubles"][1]


def test_redeal_doubles_that_cannot_apply_is_an_error():
    assert published_codes(REDEAL.replace("4 or more", "1 or more")) == ["bad-number"]
    never = rulelang.check_text(REDEAL.replace("4 or more", "8 or more"), "h.rules")
    assert [e.code for e in never] == ["redeal-doubles-cannot-apply"]
    assert "no hand can hold 8 doubles" in never[0].message and never[0].hint == "write a number from 2 to 7"
    # a hand of 7 tiles of the double-six set can hold 7 doubles; the double-nine set has 10
    assert published_codes(REDEAL.replace("4 or more", "7 or more")) == []
    # 2 hands of 12 of the 28 tiles hold at least 3 of the 7 doubles: every deal would be thrown in
    always = PUBLISHED_HEAD + "hand 12 tiles with 2 players, 6 with 3, 5 with 4\n" + REDEAL.removeprefix(PUBLISHED_HEAD).replace("4 or", "2 or")
    assert published_codes(always) == ["redeal-doubles-cannot-apply"]
    assert published_codes(always.replace("2 or more", "3 or more")) == []


DRAW_HEAD = 'ruleset h "H"\nsource "a test"\nbased on muggins\n'


DRAW_WHILE_ABLE = DRAW_HEAD + "a player may draw while able to place\n"


HEAVIEST_ONLY = DRAW_HEAD + "on block:\n  credit the heaviest opponent's hand only, rounded to 5, to the winner\n"


def draw_cfg(text: str = DRAW_WHILE_ABLE) -> dict:
    return rulelang.compile_text(text, "h.rules")


def test_the_statements_compile_round_trip_and_are_omitted_when_not_written():
    assert draw_cfg()["draw_while_able"] is True
    assert "draw_while_able" not in rulelang.compile_bundled("muggins")
    for text in (DRAW_WHILE_ABLE, HEAVIEST_ONLY):
        assert draw_cfg(format_text(text)) == draw_cfg(text)
    assert "a player may draw while able to place" in format_text(DRAW_WHILE_ABLE)
    assert "credit the heaviest opponent's hand only, rounded to 5, to the winner" in format_text(HEAVIEST_ONLY)


def test_explain_and_diff_say_what_changes():
    assert "may draw instead" in explain_text(draw_cfg())
    assert "heaviest single opponent's hand" in explain_text(draw_cfg(HEAVIEST_ONLY))
    diff = {what: (a, b) for what, a, b in diff_configs(rulelang.compile_bundled("muggins"), draw_cfg())}
    assert diff["drawing while able to place"][0] == "A player draws only when no tile fits."
    assert "may draw instead" in diff["drawing while able to place"][1]


def test_drawing_while_able_needs_drawing():
    errors = rulelang.check_text(DRAW_HEAD + "no drawing\na player may draw while able to place\n", "h.rules")
    assert [e.code for e in errors] == ["draw-while-able-needs-drawing"]
    assert "draw until playable" in errors[0].hint


FIVE = 'ruleset h "H"\nsource "a test"\nbased on muggins\nplayers 2 to 5\n'


def test_a_deal_that_does_not_fit_says_the_arithmetic():
    errors = rulelang.check_text(FIVE + "hand 6 tiles\n", "h.rules")
    assert [e.code for e in errors] == ["too-many-tiles"]
    assert errors[0].message == "5 hands of 6 tiles need 5 x 6 = 30 tiles, but a double-six set has 28"
    assert errors[0].hint.startswith("deal at most 5 tiles to each of 5 players (5 x 5 = 25 of 28), "
                                     "or allow at most 4 players with 6 tiles each")
    errors = rulelang.check_text(FIVE + "hand 5 tiles\nreserve 4 tiles\n", "h.rules")
    assert errors[0].message == ("5 hands of 5 tiles and a reserve of 4 need 5 x 5 + 4 = 29 tiles, "
                                 "but a double-six set has 28")
    assert "(5 x 4 + 4 = 24 of 28)" in errors[0].hint


def test_draw_one_tile_and_pass_compiles_round_trips_and_is_explained():
    # FIDO (dominospiel.de): "Kann sie keinen Stein anlegen, zieht sie einen aus dem Stock und setzt aus"
    config = compiled("muggins", "draw 1 tile and pass\n")
    assert config["drawing"] == "draw-and-pass" and "draw_limit" not in config
    assert "draw 1 tile and pass" in config_to_text(config)
    assert ("A player who cannot place draws one tile from the boneyard and passes, even when the drawn tile fits "
            "(it may be placed in a later turn); with nothing left to draw, the player passes.") in explain_text(config)
    [error] = refused(HEAD.format(base="muggins") + "draw 2 tiles and pass\n")
    assert error.code == "bad-number" and "draw 1 tile and pass" in (error.hint or "")
