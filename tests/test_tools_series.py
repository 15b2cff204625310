"""A match played as a series of games in the commands that play whole matches: `play` says each game and the
series' winner and saves a transcript `replay` checks and prints game by game; `simulate` and `balance` count the
series (docs/design/series.md)."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_run import run

from rulelang.interpreter import greedy_player
from rulelang.language.api import compile_file
from rulelang.players.arena import play_match
from rulelang.playground.games import Game
from rulelang.playground.limits import ApiError

LEEK = str(Path(__file__).parent / "data" / "series" / "leek-singles.rules")


def test_play_reports_each_game_and_the_series_and_replay_prints_it_back(tmp_path):
    save = tmp_path / "series.json"
    res = run("play", LEEK, "--seat", "0=greedy,1=greedy", "--seed", "0", "--save", str(save), "--color", "never")
    assert res.exit_code == 0, res.output
    out = res.output
    assert "##### Game 1 of at most 3 #####" in out and "##### Game 2 of at most 3 #####" in out
    # "Loser of the draw will start second game": seed 0's draw is won by seat 1
    assert "=== Round 1 ===  seat 1 opens (lottery)" in out
    assert "seat 0 (greedy) starts it (the loser of the last draw)." in out
    assert "=== Round 1 ===  seat 0 opens (the loser of the last draw)" in out
    assert "Game 1 over: seat 0 (greedy) wins it; games won: seat 0 (greedy) 1, seat 1 (greedy) 0." in out
    assert "Match over: seat 1 (greedy) wins the series, 2 games to 1 (best of 3)." in out
    t = json.loads(save.read_text())
    assert [g.get("opener") for g in t["games"]] == [None, {"seat": 0, "by": "draw-loser"}, None]
    assert t["result"]["winner"] == 1 and t["result"]["games_won"] == [1, 2]
    checked = run("replay", "--check-only", str(save))
    assert checked.exit_code == 0 and "consistent with the rules" in checked.output
    printed = run("replay", str(save))
    assert printed.exit_code == 0, printed.output
    assert "##### Game 3 of at most 3 #####" in printed.output
    assert "seat 0 starts it (the loser of the last draw)" in printed.output
    assert "Game 3 over: seat 1 wins it; games won: seat 0 1, seat 1 2" in printed.output
    assert printed.output.rstrip().splitlines()[-3] == "Match over: seat 1 wins the series, 2 games to 1 (best of 3)."


def test_replay_refuses_a_series_whose_game_opener_was_changed(tmp_path):
    save = tmp_path / "series.json"
    assert run("play", LEEK, "--seat", "0=greedy,1=greedy", "--seed", "0", "--save", str(save)).exit_code == 0
    t = json.loads(save.read_text())
    t["games"][1]["opener"]["seat"] = 1
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(t))
    res = run("replay", str(bad))
    assert res.exit_code == 1
    assert "/games/1/opener/seat" in res.output


def test_replay_says_where_a_series_transcript_is_malformed(tmp_path):
    t = {"config": compile_file(LEEK), "players": 2, "games": [{"seed": 0}]}
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(t))
    res = run("replay", str(bad))
    assert res.exit_code == 1
    assert "/games/0 must be an object with its rounds (a game)" in res.output


def test_simulate_counts_the_series_winner_and_its_games(tmp_path):
    out = tmp_path / "rows.jsonl"
    res = run("simulate", LEEK, "-n", "6", "--seed", "1", "-o", str(out))
    assert res.exit_code == 0, res.output
    assert "games per match" in res.output and "best of 3" in res.output
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    for r in rows:
        assert max(r["games_won"]) == 2 and r["winner"] == r["games_won"].index(2)
        assert r["games"] == sum(r["games_won"])


def test_balance_s_matches_are_series():
    config = compile_file(LEEK)
    rec = play_match(config, 2, 3, [greedy_player(0), greedy_player(1)])
    assert rec["finished"] and max(rec["games_won"]) == 2 and rec["winner"] == rec["games_won"].index(2)
    plain = play_match(compile_file(Path(LEEK).parent.parent.parent.parent / "rulesets" / "fives-and-threes.rules"),
                       2, 3, [greedy_player(0), greedy_player(1)])
    assert "games_won" not in plain


def test_the_playground_refuses_a_series_with_a_clear_message():
    with pytest.raises(ApiError) as err:
        Game(compile_file(LEEK), 2, ["greedy"], 1)
    assert err.value.status == 400
    assert "a match of 3 games, which the playground does not play yet" in str(err.value)


def test_simulate_json_has_the_games_per_match_and_keeps_its_schema():
    import jsonschema

    res = run("simulate", LEEK, "-n", "4", "--seed", "2", "--json")
    assert res.exit_code == 0, res.output
    doc = json.loads(res.output)
    assert doc["summary"]["games_per_match"]["n"] == 4 and 2 <= doc["summary"]["games_per_match"]["mean"] <= 3
    schema = json.loads((Path(__file__).parent.parent / "rulelang" / "schema" / "simulate.schema.json").read_text())
    jsonschema.validate(doc, schema)
    plain = json.loads(run("simulate", "fives-and-threes", "-n", "2", "--json").output)
    assert "games_per_match" not in plain["summary"]
