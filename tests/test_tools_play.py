"""rulelang play / replay: a real terminal session (pexpect), transcripts, bad input."""
from __future__ import annotations

import json
import os
import re
import sys

import pexpect
import pytest
from cli_run import run
from click.testing import CliRunner

from rulelang.cli import main

ENV = dict(os.environ, NO_COLOR="1", COLUMNS="100", PYTHONUNBUFFERED="1")


def spawn(*args, cwd=None):
    child = pexpect.spawn(sys.executable, ["-m", "rulelang", *args], env=ENV, encoding="utf-8",
                          timeout=20, cwd=cwd, dimensions=(50, 120))
    return child


def test_terminal_round_against_a_bot_with_bad_input_and_end_of_input(tmp_path):
    child = spawn("play", "exact61", "--seed", "3", "--seat", "0=human,1=greedy", "--tally")
    child.expect("Exact 61 Five Up")
    child.expect(r"Your move \[")
    # bad input: not a move, out of range, a tile not in hand; then help
    child.sendline("hello")
    child.expect("Cannot read 'hello'")
    child.expect(r"Your move \[")
    child.sendline("99")
    child.expect("No move 99")
    child.expect(r"Your move \[")
    child.sendline("[6|6] on [0|0] line-b")
    child.expect(r"Illegal move \(|fits in several|Cannot read")
    child.expect(r"Your move \[")
    child.sendline("?")
    child.expect("canonical notation")
    child.expect(r"Your move \[")
    # play the first legal move until round 1 is over
    moves = 0
    while True:
        child.sendline("1")
        moves += 1
        i = child.expect([r"Your move \[", r"Round 1 over: [^\r\n]*", pexpect.EOF])
        if i == 1:
            break
        assert i == 0, child.before
        assert moves < 40
    child.expect("Scores:")
    child.expect(r"Your move \[")  # round 2 starts and asks again
    child.sendeof()
    child.expect(r"Game stopped \(end of input\)")
    child.expect("Save the transcript")  # Ctrl-D at a terminal: offered, as q
    child.sendline("")
    child.expect("Transcript not saved")
    child.expect(pexpect.EOF)
    out = child.before
    child.close()
    assert child.exitstatus == 0
    assert "Traceback" not in out


def test_interrupt_offers_to_save_and_replay_reads_it(tmp_path):
    path = tmp_path / "stopped.json"
    child = spawn("play", "pagat", "--seed", "5")
    for _ in range(3):
        child.expect(r"Your move \[")
        child.sendline("1")
    child.expect(r"Your move \[")
    child.sendintr()
    child.expect("Game stopped")
    child.expect("Save the transcript")
    child.sendline(str(path))
    child.expect("Transcript saved to")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 130  # interrupted, as shells expect
    data = json.loads(path.read_text())
    assert data["result"]["over"] is False
    res = CliRunner().invoke(main, ["replay", str(path)])
    assert res.exit_code == 0, res.output
    assert "stopped before its end" in res.output
    assert "Turn 1:" in res.output


def test_quit_command_and_empty_answer(tmp_path):
    res = CliRunner().invoke(main, ["play", "allfives", "--seed", "1"], input="q\n\n")
    assert res.exit_code == 0, res.output
    assert "Game stopped (you quit)" in res.output
    assert "Transcript not saved" in res.output


@pytest.fixture(scope="module")
def finished_game(tmp_path_factory):
    path = tmp_path_factory.mktemp("game") / "game.json"
    res = CliRunner().invoke(main, ["play", "exact61", "--seed", "8", "--seat", "0=greedy,1=random",
                                    "--save", str(path), "--tally"])
    assert res.exit_code == 0, res.output
    assert "Match over:" in res.output
    assert "Transcript saved to" in res.output
    return path, res.output


def test_bots_only_game_shows_events_and_tally(finished_game):
    _, out = finished_game
    assert "event: placement" in out
    assert "=== Round 2 ===" in out
    assert " X " in out  # the paper tally draws tens as a big X


def test_replay_prints_the_game(finished_game):
    path, _ = finished_game
    res = CliRunner().invoke(main, ["replay", str(path)])
    assert res.exit_code == 0, res.output
    assert "Turn 1:" in res.output and "Match over:" in res.output
    res = CliRunner().invoke(main, ["replay", "--check-only", str(path)])
    assert res.exit_code == 0 and "consistent with the rules" in res.output


def test_replay_of_a_contradicting_transcript_names_the_step(finished_game, tmp_path):
    path, _ = finished_game
    data = json.loads(path.read_text())
    turn = data["rounds"][0]["turns"][2]
    turn["points"] = turn["points"] + 5  # a score the rules do not give
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data))
    res = CliRunner().invoke(main, ["replay", str(bad)])
    assert res.exit_code == 1
    assert "contradicts the rules at step 2" in res.output
    assert "/rounds/0/turns/2" in res.output
    assert "Traceback" not in res.output
    data = json.loads(path.read_text())
    data["rounds"][1]["turns"][0]["move"] = "[6|6] on [0|0] line-b"
    bad.write_text(json.dumps(data))
    res = CliRunner().invoke(main, ["replay", str(bad)])
    assert res.exit_code == 1 and "contradicts the rules at step" in res.output


def test_render_from_transcript(finished_game, tmp_path):
    from rulelang.tools.svg import svg_tile_rects

    path, _ = finished_game
    out = tmp_path / "t.svg"
    res = CliRunner().invoke(main, ["render", "--transcript", str(path), "--turn", "5", "-o", str(out)])
    assert res.exit_code == 0, res.output
    assert len(svg_tile_rects(out.read_text())) >= 1
    res = CliRunner().invoke(main, ["render", "--transcript", str(path), "--turn", "100000", "-o", str(out)])
    assert res.exit_code != 0 and "only" in res.output


@pytest.mark.parametrize("args, needle", [
    (["play", "nosuchvariant"], "unknown variant"),
    (["play", "exact61", "--seat", "0=wizard"], "bad --seat"),
    (["play", "exact61", "--seat", "5=human"], "bad --seat"),
    (["play", "exact61", "--seat", "human"], "bad --seat"),
    (["play", "exact61", "--seat", "x=human"], "bad --seat"),
    (["play", "exact61", "--players", "6"], "not 6"),
    (["play", "missing.rules"], "no such file"),
    (["replay", "missing.json"], "no such file"),
])
def test_play_bad_inputs(args, needle, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    res = CliRunner().invoke(main, args, input="")
    assert res.exit_code != 0
    assert needle in res.output
    assert "Traceback" not in res.output


def test_replay_of_a_non_transcript(tmp_path):
    p = tmp_path / "x.json"
    p.write_text("[1, 2]")
    res = CliRunner().invoke(main, ["replay", str(p)])
    assert res.exit_code == 1 and "not a rulelang transcript" in res.output
    p.write_text("{nope")
    res = CliRunner().invoke(main, ["replay", str(p)])
    assert res.exit_code == 1
    assert res.output == f"Error: {p} is not a rulelang transcript: it is not JSON (line 1, column 2)\n"
    p.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00")  # a file of another kind altogether
    res = CliRunner().invoke(main, ["replay", str(p)])
    assert res.exit_code == 1 and "is not a rulelang transcript: not UTF-8 text" in res.output


def _first_prompt(seed: int) -> list[str]:
    """The legal moves listed at the first prompt of `play pagat --seed SEED`."""
    res = CliRunner().invoke(main, ["play", "pagat", "--seed", str(seed)], input="q\n\n")
    listed = res.output.split("Legal moves:")[1].split("Your move")[0]
    return re.findall(r"^\s*\d+\) (\S+(?: on \S+ \S+)?)", listed, flags=re.M)


def _seed_with_a_unique_tile() -> tuple[int, list[str], str]:
    for seed in range(1, 40):
        moves = _first_prompt(seed)
        tiles = [m.split()[0] for m in moves]
        unique = [t for t in tiles if tiles.count(t) == 1]
        if unique:
            return seed, moves, unique[0]
    raise AssertionError("no seed gives a tile that fits in one place")  # pragma: no cover


def test_two_digits_name_a_tile_and_hash_names_a_move_number():
    seed, moves, tile = _seed_with_a_unique_tile()
    a, b = tile[1], tile[3]
    for typed in (f"{a}{b}", f"{b}{a}"):
        child = spawn("play", "pagat", "--seed", str(seed))
        child.expect(r"Your move \[")
        child.sendline(typed)
        child.expect(r"Turn 1: seat 0 \(you\) plays ([^;]+);")
        assert child.match.group(1).startswith(tile)
        child.sendline("q")
        child.expect("Save the transcript")
        child.sendline("")
        child.expect(pexpect.EOF)
    res = CliRunner().invoke(main, ["play", "pagat", "--seed", str(seed)], input="#1\nq\n\n")
    assert f"Turn 1: seat 0 (you) plays {moves[0]};" in res.output
    absent = next(f"{x}{y}" for x in "0123456" for y in "0123456"
                  if x <= y and f"[{x}|{y}]" not in {m.split()[0] for m in moves})
    res = CliRunner().invoke(main, ["play", "pagat", "--seed", str(seed)], input=f"{absent}\n#99\n#x\nq\n\n")
    assert f"is not playable now (move number {absent} is written #{absent})" in res.output
    assert "No move 99" in res.output
    assert "Cannot read '#x': write a move number as #3" in res.output
    assert "Traceback" not in res.output


def test_ctrl_d_at_a_terminal_offers_to_save_and_ctrl_c_exits_130(tmp_path):
    path = tmp_path / "eof.json"
    child = spawn("play", "pagat", "--seed", "5")
    child.expect(r"Your move \[")
    child.sendeof()
    child.expect(r"Game stopped \(end of input\)")
    child.expect("Save the transcript")
    child.sendline(str(path))
    child.expect("Transcript saved to")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0 and path.exists()
    child = spawn("play", "pagat", "--seed", "5")
    child.expect(r"Your move \[")
    child.sendintr()
    child.expect("Save the transcript")
    child.sendline("")
    child.expect("Transcript not saved")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 130


def test_play_and_replay_announce_a_seat_going_out_while_its_partner_plays_on(tmp_path):
    # under "the round ends when both partners go out" the first partner out is announced
    path = tmp_path / "f3.json"
    res = CliRunner().invoke(main, ["play", "fives-and-threes", "-p", "4", "--seed", "1", "--save", str(path),
                                    "--seat", "0=greedy,1=greedy,2=greedy,3=greedy"])
    assert res.exit_code == 0, res.output
    line = "  seat 1 (greedy) goes out; seat 3 (greedy) plays on (the round ends when both partners go out)"
    assert line in res.output.splitlines()
    replay = CliRunner().invoke(main, ["replay", str(path)])
    assert replay.exit_code == 0, replay.output
    announced = [x for x in replay.output.splitlines() if "goes out;" in x]
    assert len(announced) == res.output.count("goes out;") and announced
    assert "  seat 1 goes out; seat 3 plays on (the round ends when both partners go out)" in announced
    # a seat going out ends the round where one player out is enough: nothing to announce
    pagat = CliRunner().invoke(main, ["play", "pagat", "-p", "4", "--seed", "1",
                                      "--seat", "0=greedy,1=greedy,2=greedy,3=greedy"])
    assert pagat.exit_code == 0 and "goes out;" not in pagat.output


def test_play_checks_the_save_path_before_the_game(tmp_path):
    res = run("play", "exact61", "--seed", "1", "--save", str(tmp_path / "no" / "g.json"), input="1\n")
    assert res.exit_code == 1 and "no such folder" in res.output
    assert "Round 1" not in res.output  # refused before the game starts


def test_play_never_saves_over_the_variant_file(tmp_path):
    from rulelang.language.bundled import bundled_text

    src = tmp_path / "v.rules"
    src.write_text(bundled_text("exact61"))
    res = run("play", str(src), "--save", str(src), input="")
    assert res.exit_code == 1 and "would replace it" in res.output
    assert src.read_text() == bundled_text("exact61")


def test_play_asks_again_when_the_file_name_given_on_quit_cannot_be_written(tmp_path):
    good = tmp_path / "g.json"
    res = run("play", "exact61", "--seed", "1", input=f"q\n{tmp_path}/no/x.json\n{good}\n")
    assert res.exit_code == 0
    assert "Cannot save" in res.output and "Another file name" in res.output
    assert json.loads(good.read_text())["format"] == "rulelang-transcript/1"


def test_play_unreadable_move_message_says_it_once():
    res = run("play", "exact61", "--seed", "1", input="zz\n")
    assert "Cannot read 'zz': write a lead as" in res.output
    assert "cannot read move" not in res.output


def test_naming_a_human_seat_seats_no_second_human():
    from rulelang.tools.session import parse_seats

    assert parse_seats("1=human", 2) == ["greedy", "human"]
    assert parse_seats("2=human,1=random", 3) == ["greedy", "random", "human"]
    assert parse_seats("1=random", 2) == ["human", "random"]
    assert parse_seats(None, 2) == ["human", "greedy"]


@pytest.mark.parametrize("bots", ["", "greedy,", ",random"])
def test_an_empty_bot_name_is_refused(bots):
    res = CliRunner().invoke(main, ["simulate", "allfives", "--matches", "2", "--bots", bots])
    assert res.exit_code != 0 and "--bots" in res.output and "Traceback" not in res.output


@pytest.mark.parametrize("mutate, needle", [
    (lambda t: t.update(rounds="x"), "/rounds must be a list"),
    (lambda t: t["rounds"][0]["turns"].__setitem__(0, "x"), "/rounds/0/turns/0 must be an object"),
    (lambda t: t["rounds"][0].update(deal=None), "/rounds/0/deal must be an object"),
    (lambda t: t.update(config=[1]), "/config must be an object"),
])
def test_replay_and_render_report_a_transcript_of_the_wrong_shape(game, tmp_path, mutate, needle):
    t = json.loads(game.read_text())
    mutate(t)
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(t))
    for args in (["replay", str(bad)], ["render", "--transcript", str(bad), "-o", str(tmp_path / "x.svg")]):
        res = run(*args)
        assert res.exit_code == 1 and needle in res.output


def test_replay_checks_the_result_and_carried_scores_of_a_game_stopped_early(game, tmp_path):
    t = json.loads(game.read_text())
    assert t["result"]["over"] is False and len(t["rounds"]) > 1
    t["result"]["scores"] = [999, 5]
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(t))
    res = run("replay", "--check-only", str(bad))
    assert res.exit_code == 1 and "/result/scores/0" in res.output
    t = json.loads(game.read_text())
    t["rounds"][1]["deal"]["scores"] = [200, 0]
    bad.write_text(json.dumps(t))
    res = run("replay", "--check-only", str(bad))
    assert res.exit_code == 1 and "/rounds/1/deal/scores/0" in res.output


def test_replay_rejects_a_deal_with_a_tile_twice(game, tmp_path):
    t = json.loads(game.read_text())
    bone = t["rounds"][0]["deal"]["boneyard"]
    bone[-1] = t["rounds"][0]["deal"]["hands"][0][0]
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(t))
    res = run("replay", str(bad))
    assert res.exit_code == 1 and "dealt twice" in res.output


def test_replay_prints_odd_metadata_without_crashing(game, tmp_path):
    t = json.loads(game.read_text())
    t["x-play"]["seats"] = ["human", 1]
    path = tmp_path / "meta.json"
    path.write_text(json.dumps(t))
    assert run("replay", str(path)).exit_code == 0


def test_match_with_an_explicit_deal_rejects_a_tile_twice():
    import rulelang
    from rulelang.interpreter import Match

    with pytest.raises(ValueError, match="dealt twice"):
        Match(rulelang.compile_bundled("allfives"), 2, seed=0,
              deal=[{"hands": [["[1|2]"], ["[1|2]"]], "boneyard": [], "opener": 0}])


DRAW_HEAD = 'ruleset h "H"\nsource "a test"\nbased on muggins\n'


DRAW_WHILE_ABLE = DRAW_HEAD + "a player may draw while able to place\n"


def test_play_reads_draw(tmp_path):
    path = tmp_path / "h.rules"
    path.write_text(DRAW_WHILE_ABLE, encoding="utf-8")
    res = CliRunner().invoke(main, ["play", str(path), "--seed", "3", "--seat", "0=human,1=greedy"],
                             input="1\ndraw\nq\n\n")
    assert "4) draw" in res.output or ") draw" in res.output
    assert "seat 0 (you) draws [" in res.output and "instead of placing" in res.output
