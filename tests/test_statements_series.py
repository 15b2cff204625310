"""A match played as a series of games (rulelang/language/statements/series.py): the lines a configuration is
written back as, the `explain` sentences and the checks (docs/design/series.md)."""
from __future__ import annotations

from ruleset_text import child_errors, compiled

from rulelang.language.explain import explain_text
from rulelang.language.formatter import config_to_text

LEEK = "players 2\nthe match is the best of 3 games\nopener of a later game: the loser of the last draw\n"


def _stated(config: dict) -> list[str]:
    return config_to_text({**config, "based_on": None}).splitlines()


def test_a_best_of_three_with_the_loser_of_the_draw_is_compiled_written_back_and_explained():
    config = compiled("fives-and-threes", LEEK)
    assert config["target"]["games"] == 3
    assert config["target"]["game_opener"] == "draw-loser"
    lines = _stated(config)
    assert "the match is the best of 3 games" in lines
    assert "opener of a later game: the loser of the last draw" in lines
    text = explain_text(config)
    assert "The match is the best of 3 games" in text and "the first side to win 2 games wins" in text
    assert "The second game is started by the player who lost the draw for the first game's opener; a third " \
           "game is drawn for again" in text


def test_without_the_statements_the_configuration_and_its_explanation_are_unchanged():
    plain = compiled("fives-and-threes", "")
    assert "games" not in plain["target"] and "game_opener" not in plain["target"]
    assert not any("game" in line for line in _stated(plain))
    assert " game" not in explain_text(plain)


def test_the_default_game_opener_is_left_out_and_the_others_are_explained():
    same = compiled("fives-and-threes", "players 2\nthe match is the best of 5 games\n"
                                         "opener of a later game: as the first game\n")
    assert "game_opener" not in same["target"]
    assert "Each game's first round is opened as the first round of the match is" in explain_text(same)
    loser = compiled("fives-and-threes", "players 2\nthe match is the best of 3 games\n"
                                          "opener of a later game: the loser of the last game\n")
    assert "started by the player who lost the game before" in explain_text(loser)
    winner = compiled("fives-and-threes", "players 2\nthe match is the best of 3 games\n"
                                           "opener of a later game: the winner of the last game\n")
    assert "started by the player who won the game before" in explain_text(winner)


def test_a_series_is_the_best_of_an_odd_number_of_games_from_3():
    for n in (1, 2, 4):
        assert child_errors("fives-and-threes", f"the match is the best of {n} games\n") == [
            ("bad-number", 4, 1, "a series is the best of an odd number of games, at least 3",
             "write `the match is the best of 3 games`")]


def test_a_game_opener_that_cannot_apply_is_an_error_at_its_line():
    # no series: no later game
    assert child_errors("fives-and-threes", "players 2\nopener of a later game: the loser of the last game\n") == [
        ("series-opener-cannot-apply", 5, 1, "a match of one game has no later game to open",
         "write `the match is the best of 3 games`, or remove this line")]
    # the loser of a draw or a game is one player with 2 players only (fives-and-threes allows 2 to 4)
    codes = child_errors("fives-and-threes", "the match is the best of 3 games\n"
                                             "opener of a later game: the winner of the last game\n")
    assert [(c, line) for c, line, *_ in codes] == [("series-opener-cannot-apply", 5)]
    assert "2 players" in codes[0][3]
    # nobody draws for the opener under the highest double
    codes = child_errors("fives-and-threes", LEEK + "opener of the first round: the highest double\n")
    assert [(c, line) for c, line, *_ in codes] == [("series-opener-cannot-apply", 6)]
    assert "lottery" in codes[0][3]
