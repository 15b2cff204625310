"""Regressions found by a QA pass: every bad input gets a message and an exit status, never a
traceback or an internal error, and nothing already written is lost."""
from __future__ import annotations

import contextlib
import json
import os
import signal
import stat
import subprocess
import sys
import time
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from click.testing import CliRunner

from rulelang.cli import main

PAGAT_CASE = "pagat-diagram-22"


def run(*args, input=None):
    res = CliRunner().invoke(main, list(args), input=input)
    assert res.exit_code != 70, res.output  # the last guard: "internal error"
    assert "Traceback" not in res.output
    if res.exception is not None:
        assert isinstance(res.exception, SystemExit), repr(res.exception)
    return res


def _engine(tmp_path: Path, name: str, body: str) -> str:
    path = tmp_path / name
    path.write_text(body)
    return f"{sys.executable} {path}"


@pytest.fixture
def game(tmp_path) -> Path:
    """A saved game stopped early (end of input after a few moves)."""
    path = tmp_path / "game.json"
    res = run("play", "exact61", "--seed", "1", "--save", str(path), input="1\n" * 8)
    assert res.exit_code == 0 and path.exists(), res.output
    return path


# ---------------------------------------------------------------------------
# output files: checked before the work, written atomically, never over an input


def test_compile_output_in_a_missing_folder_names_the_folder_not_a_temp_file(tmp_path):
    res = run("compile", "exact61", "-o", str(tmp_path / "nope" / "x.json"))
    assert res.exit_code == 1
    assert "no such folder" in res.output and ".tmp" not in res.output


def test_compile_output_gets_ordinary_permissions(tmp_path):
    out = tmp_path / "new.json"
    assert run("compile", "exact61", "-o", str(out)).exit_code == 0
    assert stat.S_IMODE(out.stat().st_mode) & 0o044  # readable by others (umask permitting), not 0600


def test_compile_refuses_to_write_over_its_own_input(tmp_path):
    from rulelang.language.bundled import bundled_text

    src = tmp_path / "x.rules"
    text = bundled_text("exact61")
    src.write_text(text)
    res = run("compile", str(src), "-o", str(src))
    assert res.exit_code == 2 and "would replace it" in res.output
    assert src.read_text() == text


def test_render_refuses_to_write_over_its_input(game):
    before = game.read_text()
    res = run("render", "--transcript", str(game), "-o", str(game))
    assert res.exit_code == 2 and "input file" in res.output
    assert game.read_text() == before


def test_render_checks_the_output_folder_first(game, tmp_path):
    res = run("render", "--transcript", str(game), "-o", str(tmp_path / "no" / "x.svg"))
    assert res.exit_code == 1 and "no such folder" in res.output


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


def test_simulate_checks_out_and_plots_before_simulating(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    res = run("simulate", "exact61", "-n", "2", "--out", str(tmp_path / "no" / "r.csv"))
    assert res.exit_code == 1 and "no such folder" in res.output and "matches" not in res.output
    res = run("simulate", "exact61", "-n", "2", "--plots", str(blocker / "sub"))
    assert res.exit_code == 1 and "is a file" in res.output


@pytest.mark.parametrize("alpha", ["2", "0", "-1", "nan"])
def test_simulate_rejects_a_significance_level_outside_0_1(alpha):
    res = run("simulate", "exact61", "-n", "2", "--alpha", alpha)
    assert res.exit_code == 2 and "--alpha" in res.output


def test_conform_checks_report_paths_before_the_run(tmp_path):
    for opt in ("--report", "--junit"):
        res = run("conform", "--id", PAGAT_CASE, opt, str(tmp_path / "no" / "r"))
        assert res.exit_code == 2 and "no such folder" in res.output
        assert "conformance" not in res.output  # nothing ran
    res = run("conform", "--id", PAGAT_CASE, "--report", str(tmp_path / "r"), "--junit", str(tmp_path / "r"))
    assert res.exit_code == 2 and "also the --report file" in res.output


def test_conform_report_replaces_an_existing_file_whole(tmp_path):
    report = tmp_path / "r.json"
    report.write_text("old")
    assert run("conform", "--id", PAGAT_CASE, "--report", str(report)).exit_code == 0
    assert json.loads(report.read_text())["ok"] is True
    assert not [p for p in os.listdir(tmp_path) if p.endswith(".tmp")]


# ---------------------------------------------------------------------------
# conform: options


@pytest.mark.parametrize("opt, content, needle", [
    ("--baseline", "{", "cannot read"),
    ("--baseline", "[1, 2]", "not a conformance report"),
    ("--expected-failures", "{", "cannot read"),
    ("--expected-failures", "[1]", "not an expected-failures file"),
    ("--expected-failures", '{"a": 1}', "not an expected-failures file"),
    ("--expected-failures", '{"expected_failures": [{"id": 1}]}', "not an expected-failures file"),
])
def test_conform_bad_json_options_are_usage_errors(tmp_path, opt, content, needle):
    path = tmp_path / "f.json"
    path.write_text(content)
    res = run("conform", "--id", PAGAT_CASE, opt, str(path))
    assert res.exit_code == 2 and needle in res.output


@pytest.mark.parametrize("value", ["0", "-1", "nan", "inf", "1e300"])
def test_conform_timeout_must_be_a_positive_number(value):
    res = run("conform", "--id", PAGAT_CASE, "--timeout", value)
    assert res.exit_code == 2 and "--timeout" in res.output


@pytest.mark.parametrize("cmd, needle", [("", "empty command"), ('python3 "', "cannot split")])
def test_conform_engine_command_that_is_empty_or_unbalanced(cmd, needle):
    res = run("conform", "--id", PAGAT_CASE, "--engine", cmd)
    assert res.exit_code == 2 and needle in res.output
    assert "engine: rulelang" not in res.output  # the built-in engine did not run instead


def test_conform_unknown_id_or_variant_is_named():
    res = run("conform", "--id", PAGAT_CASE, "--id", "no-such-case")
    assert res.exit_code == 2 and "no case with id no-such-case" in res.output
    res = run("conform", "--variant", "nope")
    assert res.exit_code == 2 and "unknown variant" in res.output and "pagat" in res.output


def test_conform_engine_that_hangs_at_start_costs_one_start_timeout_not_one_per_case(tmp_path):
    engine = _engine(tmp_path, "hang.py", "import time\ntime.sleep(60)\n")
    t0 = time.monotonic()
    # 12 diagram cases: one start timeout per case would take at least 12 s
    res = run("conform", "--variant", "pagat", "--tag", "diagram", "--engine", engine, "--timeout", "1",
              "--start-timeout", "1")
    assert time.monotonic() - t0 < 8
    assert res.exit_code == 1 and "did not start" in res.output


def test_conform_garbage_engine_shows_the_line(tmp_path):
    engine = _engine(tmp_path, "garbage.py", "import sys\nfor line in sys.stdin:\n    print('hello garbage', flush=True)\n")
    res = run("conform", "--id", PAGAT_CASE, "--engine", engine, "--timeout", "5")
    assert res.exit_code == 1 and "hello garbage" in res.output


def test_conform_engine_with_a_malformed_start_answer(tmp_path):
    body = ("import json, sys\nfor line in sys.stdin:\n"
            "    print(json.dumps({'version': 1, 'implementation': 'x', 'capabilities': [1]}), flush=True)\n")
    res = run("conform", "--id", PAGAT_CASE, "--engine", _engine(tmp_path, "bad.py", body), "--timeout", "5")
    assert res.exit_code == 1 and "capabilities" in res.output


def _exit_status_when_reader_leaves(args):
    p = subprocess.Popen([sys.executable, "-m", "rulelang", *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         env={**os.environ, "RULELANG_NO_PROGRESS": "1"})
    assert p.stdout is not None and p.stderr is not None
    # The reader leaves before the command has written anything (it is still starting up):
    # reading a line first would race, as a short output can fit whole in the pipe's buffer.
    p.stdout.close()
    err = p.stderr.read().decode()
    return p.wait(), err


@pytest.mark.parametrize("args", [["conform", "--variant", "pagat"], ["simulate", "pagat", "-n", "5"]])
def test_rich_output_into_a_closed_pipe_ends_like_the_other_commands(args):
    code, err = _exit_status_when_reader_leaves(args)
    assert code == 141 and "Traceback" not in err  # not 1, which reads as "a case failed"


# ---------------------------------------------------------------------------
# engine-adapter


def test_engine_adapter_survives_requests_of_the_wrong_shape():
    requests = [{"cmd": "start", "version": 1}, {"cmd": "run", "seq": 1, "case": 5}, [1], "x",
                {"cmd": ["start"]}, {"cmd": "stop"}]
    res = run("engine-adapter", input="\n".join(json.dumps(r) for r in requests) + "\n")
    assert res.exit_code == 0
    answers = [json.loads(line) for line in res.output.splitlines()]
    assert len(answers) == 5
    assert answers[1] == {"seq": 1, "errored": {"message": "bad request: `case` must be a JSON object"}}
    assert all("errored" in a for a in answers[2:])


# ---------------------------------------------------------------------------
# replay and render: transcripts and case files of the wrong shape


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


@pytest.mark.parametrize("doc", [{"cases": [1]}, {"description": "d", "ruleset": "pagat", "cases": [{"id": "x"}]}])
def test_render_reports_a_case_file_of_the_wrong_shape(tmp_path, doc):
    path = tmp_path / "c.json"
    path.write_text(json.dumps(doc))
    res = run("render", "--case", str(path), "-o", str(tmp_path / "x.svg"))
    assert res.exit_code == 1 and "not a valid conformance case file" in res.output


# ---------------------------------------------------------------------------
# the language commands


@pytest.mark.parametrize("content, needle", [(b"\xff\xfe\x00bin", "not UTF-8"), (None, "is a folder")])
def test_based_on_an_unreadable_file_is_an_error_not_a_crash(tmp_path, content, needle):
    base = tmp_path / "base.rules"
    if content is None:
        base.mkdir()
    else:
        base.write_bytes(content)
    house = tmp_path / "house.rules"
    house.write_text('ruleset house "House"\nsource "s"\nbased on "base.rules"\n')
    res = run("check", str(house))
    assert res.exit_code == 1 and needle in res.output


def test_check_accepts_a_compiled_configuration_like_compile_and_explain(tmp_path):
    good, bad = tmp_path / "good.json", tmp_path / "bad.json"
    assert run("compile", "pagat", "-o", str(good)).exit_code == 0
    bad.write_text('"str"')
    res = run("check", str(good))
    assert res.exit_code == 0 and "ok" in res.output
    res = run("check", str(bad))
    assert res.exit_code == 1 and "not a rulelang configuration" in res.output


def test_fmt_of_a_bundled_name_says_it_rewrites_files():
    res = run("fmt", "exact61")
    assert res.exit_code == 1 and "bundled ruleset" in res.output


def test_fmt_of_comments_alone_adds_no_leading_blank_lines():
    import rulelang

    assert rulelang.format_text("# just a comment\n") == "# just a comment\n"


# ---------------------------------------------------------------------------
# play


def test_play_unreadable_move_message_says_it_once():
    res = run("play", "exact61", "--seed", "1", input="zz\n")
    assert "Cannot read 'zz': write a lead as" in res.output
    assert "cannot read move" not in res.output


def _workers_of(pid: int) -> list[str] | None:
    """The child processes of `pid` (Linux's /proc), or None where they cannot be seen."""
    try:
        return Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    except OSError:
        return None


def _sigint_after(args, seconds):
    """Ctrl-C to `rulelang ARGS` once its workers run, or after `seconds` where they cannot be seen.

    Bounds are generous (a loaded machine starts the workers slowly): the test is that the run ends, with 130
    and nothing left of its process group, not how fast."""
    p = subprocess.Popen([sys.executable, "-m", "rulelang", *args], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                         start_new_session=True, env={**os.environ, "RULELANG_NO_PROGRESS": "1"})
    try:
        if _workers_of(p.pid) is None:
            time.sleep(seconds)
        else:
            deadline = time.monotonic() + 120
            while not _workers_of(p.pid) and p.poll() is None and time.monotonic() < deadline:
                time.sleep(0.02)
            time.sleep(0.2)  # the workers are playing
        with contextlib.suppress(ProcessLookupError):  # (it ended already: its status says how)
            os.killpg(p.pid, signal.SIGINT)  # as Ctrl-C in a terminal: the whole process group
        try:
            _out, err = p.communicate(timeout=120)
        except subprocess.TimeoutExpired:
            pytest.fail(f"Ctrl-C did not stop `rulelang {' '.join(args)}`")
        assert _group_gone(p.pid), "a process of the run outlived it"
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(p.pid, signal.SIGKILL)
        p.wait()
    return p.returncode, err.decode()


def _group_gone(pgid: int, within: float = 30.0) -> bool:
    """Whether no process of group `pgid` is left (waiting up to `within` seconds for the dying)."""
    deadline = time.monotonic() + within
    while True:
        try:
            os.killpg(pgid, 0)
        except ProcessLookupError:
            return True
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)


@pytest.mark.parametrize("args", [
    ["simulate", "pagat", "-n", "100000", "--jobs", "2"],
    ["balance", "pagat", "-n", "4000", "--jobs", "2"],
    ["balance", "pagat", "--ladder", "--rungs", "random,greedy", "--link-matches", "4000", "--jobs", "2"],
], ids=["simulate", "balance", "ladder"])
def test_ctrl_c_stops_a_parallel_simulation(args):
    code, err = _sigint_after(args, 2.0)
    assert code == 130 and "Traceback" not in err, err


def _one_case_file(tmp_path, **changes) -> Path:
    case = {"id": "qa-case", "description": "a lead and a placement", "players": 2,
            "setup": {"hands": [["[1|4]", "[6|6]"], ["[4|4]", "[0|3]"]], "boneyard": ["[0|0]"], "opener": 0},
            "steps": [{"play": "[1|4]"}, {"play": "[4|4] on [1|4] high"}]}
    case.update(changes)
    path = tmp_path / "c.json"
    path.write_text(json.dumps({"description": "d", "ruleset": "pagat", "cases": [case]}))
    return path


@pytest.mark.parametrize("changes, needle", [
    ({"steps": [{"play": 5}]}, "step 1"),
    ({"steps": [{"play": "x"}]}, "step 1"),
    ({"steps": [{"play": "[1|4]"}, {"play": None}]}, "step 2"),
    ({"description": {"a": 1}}, "wrote"),
])
def test_render_a_case_with_malformed_steps(tmp_path, changes, needle):
    res = run("render", "--case", str(_one_case_file(tmp_path, **changes)), "-o", str(tmp_path / "x.svg"))
    assert needle in res.output


def test_render_a_case_file_without_cases(tmp_path):
    path = tmp_path / "c.json"
    path.write_text(json.dumps({"cases": []}))
    res = run("render", "--case", str(path), "-o", str(tmp_path / "x.svg"))
    assert res.exit_code == 1 and "holds no case" in res.output


def test_fmt_through_a_symbolic_link_keeps_the_link(tmp_path):
    real = tmp_path / "real.rules"
    real.write_text('ruleset x "X"\nsource "s"\nbased on exact61\ntarget   exactly 61 shown points\n')
    link = tmp_path / "link.rules"
    link.symlink_to(real)
    assert run("fmt", str(link)).exit_code == 0
    assert link.is_symlink()
    assert "target exactly 61 shown points" in real.read_text()


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
@pytest.mark.parametrize("args", [["compile", "exact61"], ["list"], ["explain", "pagat"]])
def test_a_full_disk_on_stdout_is_an_error_not_a_bug(args):
    with open("/dev/full", "w") as full:
        p = subprocess.run([sys.executable, "-m", "rulelang", *args], stdout=full, stderr=subprocess.PIPE, text=True)
    assert p.returncode == 1
    assert "No space left on device" in p.stderr and "bug" not in p.stderr and "Traceback" not in p.stderr


def test_naming_a_human_seat_seats_no_second_human():
    from rulelang.tools.session import parse_seats

    assert parse_seats("1=human", 2) == ["greedy", "human"]
    assert parse_seats("2=human,1=random", 3) == ["greedy", "random", "human"]
    assert parse_seats("1=random", 2) == ["human", "random"]
    assert parse_seats(None, 2) == ["human", "greedy"]


def test_an_engine_name_is_never_a_path_to_an_expected_failures_file(tmp_path):
    from rulelang.conformance.cases import load_expected_failures

    (tmp_path / "x.json").write_text("[1, 2]")  # would crash if read
    sub = tmp_path / "sub"
    sub.mkdir()
    assert load_expected_failures("../x", sub) == {}
    assert load_expected_failures(".hidden", sub) == {}


def test_baseline_with_a_selection_lists_no_unselected_case_as_changed(tmp_path):
    full = tmp_path / "full.json"
    assert run("conform", "--report", str(full)).exit_code == 0
    doc = json.loads(full.read_text())
    doc["cases"].append({"id": "gone-from-the-suite", "outcome": "pass"})
    full.write_text(json.dumps(doc))
    res = run("conform", "--variant", "pagat", "--tag", "diagram", "--baseline", str(full))
    assert res.exit_code == 0
    assert "gone-from-the-suite: pass -> -" in res.output
    assert "allfives" not in res.output  # not selected: no change to report


def test_render_a_turn_of_a_transcript_without_turns(tmp_path):
    saved = tmp_path / "g.json"
    assert run("play", "exact61", "--seed", "1", input=f"q\n{saved}\n").exit_code == 0
    res = run("render", "--transcript", str(saved), "--turn", "1", "-o", str(tmp_path / "x.svg"))
    assert res.exit_code == 1 and "no turns" in res.output
    assert run("render", "--transcript", str(saved), "--turn", "0", "-o", str(tmp_path / "x.svg")).exit_code == 0


def test_a_dash_as_output_means_standard_output(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    res = CliRunner().invoke(main, ["compile", "allfives-pooled", "-o", "-"])
    assert res.exit_code == 0 and json.loads(res.output)["name"] == "allfives-pooled"
    res = CliRunner().invoke(main, ["render", "--case", "pagat-diagram-13", "-o", "-"])
    assert res.exit_code == 0 and res.output.lstrip().startswith("<")
    ET.fromstring(res.output)
    assert not (tmp_path / "-").exists()


@pytest.mark.parametrize("bots", ["", "greedy,", ",random"])
def test_an_empty_bot_name_is_refused(bots):
    res = CliRunner().invoke(main, ["simulate", "allfives", "--matches", "2", "--bots", bots])
    assert res.exit_code != 0 and "--bots" in res.output and "Traceback" not in res.output
