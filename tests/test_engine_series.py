"""A match played as a series of games (interpreter/series.py; docs/design/series.md): each game a match from 0,
the first opener of each later game, the games won, and the series' transcripts."""
from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest
from ruleset_text import compiled

from rulelang.interpreter import Match, TranscriptMismatch, greedy_player, replay
from rulelang.interpreter.series import Series, new_match, series_result
from rulelang.language.api import compile_file

LEEK = Path(__file__).parent / "data" / "series" / "leek-singles.rules"


def _bots() -> list:
    return [greedy_player(0), greedy_player(1)]


def _series(config: dict, seed: int) -> Series:
    s = new_match(config, 2, seed, record=True)
    assert isinstance(s, Series)
    return s.run(_bots())


def test_without_a_series_a_match_is_a_plain_match_as_before():
    config = compiled("fives-and-threes", "")
    m = new_match(config, 2, 7, record=True)
    assert type(m) is Match
    assert m.run(_bots()).transcript() == Match(config, 2, 7, record=True).run(_bots()).transcript()


def test_the_first_game_is_the_plain_match_of_the_series_seed():
    config = compile_file(LEEK)
    for seed in range(5):
        s = _series(config, seed)
        alone = Match(config, 2, seed, record=True).run(_bots()).transcript()
        assert s.transcript()["games"][0]["rounds"] == alone["rounds"]
        assert s.games[0].winner == alone["result"]["winner"]


def test_the_first_side_to_win_two_games_of_three_wins_the_series():
    config = compile_file(LEEK)
    seen = set()
    for seed in range(8):
        s = _series(config, seed)
        wins = [g.winner for g in s.games]
        assert s.over and max(s.won) == 2 and s.winner == s.won.index(2)
        assert wins[-1] == s.winner and wins.count(s.winner) == 2 and len(wins) in (2, 3)
        assert all(g.scores[g.winner] == 61 for g in s.games)  # each game to the target from 0
        assert s.rounds == [r for g in s.games for r in g.rounds]
        seen.add(len(wins))
    assert seen == {2, 3}  # two games and three games both happen


def test_the_loser_of_the_first_draw_starts_game_two_and_game_three_is_drawn_again():
    # "Loser of the draw will start second game, if there is a third game, draw out again."
    config = compile_file(LEEK)
    for seed in range(8):
        s = _series(config, seed)
        first = [g.round_log[0] if g.round_log else g.round for g in s.games]
        assert first[0].opening == "lottery" and s.openers[0] is None
        assert s.openers[1] == 1 - first[0].opener and first[1].opener == s.openers[1]
        if len(s.games) == 3:
            assert s.openers[2] is None  # drawn for again, from game 3's own generator


@pytest.mark.parametrize("rule, winner", [("the loser of the last game", False), ("the winner of the last game", True)])
def test_the_loser_or_winner_of_the_last_game_starts_the_next(rule, winner):
    config = compiled("fives-and-threes", f"players 2\nthe match is the best of 3 games\nopener of a later game: {rule}\n")
    for seed in range(6):
        s = _series(config, seed)
        for k in range(1, len(s.games)):
            last = s.games[k - 1].winner
            assert s.openers[k] == (last if winner else 1 - last)
            assert (s.games[k].round_log[0]).opener == s.openers[k]


def test_as_the_first_game_every_game_draws_for_its_opener():
    config = compiled("fives-and-threes", "players 2\nthe match is the best of 5 games\n")
    s = _series(config, 3)
    assert s.openers == [None] * len(s.games) and max(s.won) == 3


def test_the_series_result_counts_a_majority_and_drawn_games():
    assert series_result([2, 0], 2, 3) == (True, 0)
    assert series_result([1, 1], 2, 3) == (False, None)
    assert series_result([1, 0], 3, 3) == (True, 0)  # two drawn games: the most games won
    assert series_result([1, 1], 3, 3) == (True, None)  # a drawn game and one each: the series is drawn
    assert series_result([0, 0, 0], 2, 3) == (False, None)


def test_a_series_transcript_replays_and_a_changed_game_opener_is_found():
    config = compile_file(LEEK)
    s = _series(config, 0)
    t = json.loads(json.dumps(s.transcript()))
    assert "rounds" not in t and [g.get("opener") for g in t["games"]][:2] == [None, {"seat": s.openers[1],
                                                                                       "by": "draw-loser"}]
    assert t["result"]["games_won"] == s.won and t["result"]["winner"] == s.winner
    again = replay(t)
    assert isinstance(again, Series) and again.winner == s.winner and again.won == s.won
    bad = copy.deepcopy(t)
    bad["games"][1]["opener"]["seat"] = 1 - bad["games"][1]["opener"]["seat"]
    with pytest.raises(TranscriptMismatch) as err:
        replay(bad)
    assert err.value.path == "/games/1/opener/seat"
    cut = copy.deepcopy(t)
    cut["result"]["winner"] = 1 - s.winner
    with pytest.raises(TranscriptMismatch):
        replay(cut)


def test_a_series_stopped_in_its_second_game_replays():
    config = compile_file(LEEK)
    s = new_match(config, 2, 0, record=True)
    first = Match(config, 2, 0).run(_bots())
    s.run(_bots(), max_rounds=len(first.rounds) + 1)
    assert not s.over and len(s.games) == 1
    t = json.loads(json.dumps(s.transcript()))
    assert len(t["games"]) == 2 and t["result"]["over"] is False
    assert replay(t).won == s.won


def test_a_match_transcript_has_no_games():
    config = compiled("fives-and-threes", "")
    t = Match(config, 2, 1, record=True).run(_bots()).transcript()
    assert "games" not in t and "games_won" not in t["result"]


def test_a_game_opener_given_by_the_series_is_not_thrown_in_for_want_of_a_double():
    # as a case's given opener (PROTOCOL.md 3.9): the deal stands and the given seat leads
    config = compiled("fives-and-threes", "players 2\nopener of the first round: the highest double\n"
                                          "if nobody holds the opening double: the tiles are dealt again\n"
                                          "the match is the best of 3 games\n"
                                          "opener of a later game: the loser of the last game\n")
    no_doubles = {"hands": [["[0|1]", "[0|2]", "[0|3]", "[0|4]", "[0|5]", "[0|6]", "[1|2]"],
                            ["[1|3]", "[1|4]", "[1|5]", "[1|6]", "[2|3]", "[2|4]", "[2|5]"]],
                  "boneyard": [], "scores": [0, 0]}
    s = Series(config, 2, 5, record=True, deals=[[], [no_doubles]]).run(_bots())
    second = s.transcript()["games"][1]["rounds"][0]
    assert "thrown_in" not in second
    assert second["deal"]["hands"] == no_doubles["hands"]
    assert second["deal"]["opener"] == s.openers[1] == 1 - s.games[0].winner
