"""rulelang simulate: determinism across --jobs, statistics on known answers, outputs."""
from __future__ import annotations

import contextlib
import csv
import hashlib
import json
import os
import signal
import subprocess
import sys
import time
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from cli_run import run as run_guarded
from click.testing import CliRunner

from rulelang.cli import main
from rulelang.tools import simulation as sim
from rulelang.tools.configs import load_engine_config


def run(*args):
    res = CliRunner().invoke(main, list(args))
    return res


def test_same_table_for_any_number_of_jobs():
    one = run("simulate", "exact61", "--matches", "24", "--seed", "11", "--jobs", "1")
    two = run("simulate", "exact61", "--matches", "24", "--seed", "11", "--jobs", "2")
    assert one.exit_code == 0, one.output
    assert two.exit_code == 0, two.output
    assert one.output == two.output
    assert "win rate seat 0" in one.output and "95% CI" in one.output


def test_raw_results_identical_across_jobs():
    data, cfg = load_engine_config("allfives")
    a = sim.run_matches(data, 3, ["random", "greedy", "random"], 5, 12, jobs=1)
    b = sim.run_matches(data, 3, ["random", "greedy", "random"], 5, 12, jobs=3)
    assert a == b
    assert [r["index"] for r in a] == list(range(12))
    c = sim.run_matches(data, 3, ["random", "greedy", "random"], 6, 12, jobs=1)
    assert a != c  # another seed, other games


@pytest.mark.parametrize("variant, players", [("exact61", 2), ("pagat", 3), ("allfives", 2), ("exact61", 4)])
def test_symmetric_win_rates_sum_to_one(variant, players):
    data, cfg = load_engine_config(variant)
    results = sim.run_matches(data, players, ["greedy"] * players, 1, 30)
    s = sim.summarize(results, cfg, players)
    assert s.unfinished == 0
    assert s.draws == 0  # none of the bundled variants can end drawn
    assert sum(s.wins) == s.matches == 30
    assert sum(s.win_rate(side) for side in range(s.sides)) == pytest.approx(1.0)
    assert s.sides == (2 if players == 4 and variant != "allfives" else players)
    for side in range(s.sides):
        lo, hi = s.win_ci(side)
        assert lo <= s.win_rate(side) <= hi


def test_summary_counts_are_consistent():
    data, cfg = load_engine_config("exact61")
    results = sim.run_matches(data, 2, ["random", "random"], 3, 20)
    s = sim.summarize(results, cfg, 2)
    assert s.rounds_total == sum(r["rounds"] for r in results) == len(s.turns_per_round)
    assert 0 <= s.blocked_rounds <= s.rounds_total
    assert 0 <= s.discarded_events <= s.events_total
    assert s.discarded_events > 0  # Exact 61 discards overshooting events
    assert all(r["scores"][r["winner"]] == 305 for r in results)  # exact target


def test_out_jsonl_and_csv(tmp_path):
    jl = tmp_path / "r.jsonl"
    res = run("simulate", "pagat", "-n", "6", "--seed", "2", "--out", str(jl))
    assert res.exit_code == 0, res.output
    rows = [json.loads(line) for line in jl.read_text().splitlines()]
    assert [r["index"] for r in rows] == list(range(6))
    assert {"winner", "rounds", "round_details", "scores", "seed"} <= set(rows[0])
    cs = tmp_path / "r.csv"
    res = run("simulate", "pagat", "-n", "6", "--seed", "2", "--out", str(cs))
    assert res.exit_code == 0, res.output
    with open(cs, newline="") as fh:
        table = list(csv.DictReader(fh))
    assert len(table) == 6 and table[0]["variant"] == "pagat"
    assert [int(r["rounds"]) for r in table] == [r["rounds"] for r in rows]


def test_plots_are_svg(tmp_path):
    d = tmp_path / "plots"
    res = run("simulate", "allfives", "-n", "8", "--plots", str(d), "--vs", "exact61")
    assert res.exit_code == 0, res.output
    files = sorted(p.name for p in d.iterdir())
    assert "allfives-score-race.svg" in files and "exact61-rounds-per-match.svg" in files
    for p in d.iterdir():
        root = ET.parse(p).getroot()
        assert root.tag.endswith("svg")


def test_vs_marks_significant_differences():
    res = run("simulate", "pagat", "-n", "40", "--seed", "1", "--vs", "allfives")
    assert res.exit_code == 0, res.output
    assert "vs allfives" in res.output
    # Pagat matches run to 61 shown = 305 raw with deductions; All Fives to 150: far more rounds
    line = next(l for l in res.output.splitlines() if "rounds per match" in l)
    assert "paired t" in line and "*" in line
    assert "McNemar" in res.output and "Holm" in res.output
    assert "p = 0" not in res.output and " 0 *" not in line


def test_vs_pairs_matches_and_never_prints_p_zero():
    """The same seeds: a variant against itself has no discordant pair and no difference at all."""
    data, cfg = load_engine_config("exact61")
    a = sim.summarize(sim.run_matches(data, 2, ["greedy", "greedy"], 1, 20), cfg, 2)
    tests = dict(sim.paired_tests(a, a))
    assert tests["win rate seat 0"].test == "mcnemar" and tests["win rate seat 0"].p_value == 1.0
    assert all(t.p_value == 1.0 for t in tests.values())
    pagat_data, pagat = load_engine_config("pagat")
    b = sim.summarize(sim.run_matches(pagat_data, 2, ["greedy", "greedy"], 1, 20), pagat, 2)
    rows = sim.comparison_rows(a, b)
    assert all(not r[4].startswith(("0.000", "0 ")) for r in rows)  # tiny p-values print as "< 0.001"
    assert any(r[4].startswith("< 0.001") for r in rows)  # pagat and exact61 differ in rounds per match


def test_comparison_of_a_variant_with_itself_is_not_significant():
    data, cfg = load_engine_config("exact61")
    a = sim.summarize(sim.run_matches(data, 2, ["greedy", "greedy"], 1, 20), cfg, 2)
    rows = sim.comparison_rows(a, a)
    assert not any(r[4].endswith("*") for r in rows)


@pytest.mark.parametrize("args, needle", [
    (["simulate", "nosuchvariant", "-n", "2"], "unknown variant"),
    (["simulate", "exact61", "-n", "2", "--players", "7"], "not 7"),
    (["simulate", "exact61", "-n", "2", "--bots", "clever"], "unknown bot"),
    (["simulate", "exact61", "-n", "2", "--bots", "random,greedy,random"], "3 bots for 2 players"),
    (["simulate", "exact61", "-n", "0"], "--matches"),
    (["simulate", "missing.json", "-n", "2"], "no such file"),
    (["simulate", "exact61", "-n", "2", "--vs", "nosuch"], "unknown variant"),
    (["simulate", "exact61"], "--matches"),
])
def test_simulate_bad_inputs(args, needle):
    res = run(*args)
    assert res.exit_code != 0
    assert needle in res.output
    assert "Traceback" not in res.output


# -- the points of muggins calls (their own kind), and every other variant's output unchanged --------------

PINNED = Path(__file__).parent / "data" / "simulate"
ALLFIVES_3P = ["allfives", "-n", "6", "--seed", "3", "--players", "3", "--bots", "random,greedy,random"]
PAGAT_VS = ["pagat", "-n", "4", "--seed", "3", "--vs", "allfives"]
PLAIN_ENV = {"COLUMNS": "120", "NO_COLOR": "1", "RULELANG_NO_PROGRESS": "1"}


def _simulated(args: list[str], *extra: str) -> str:
    res = CliRunner().invoke(main, ["simulate", *args, *extra], env=PLAIN_ENV)
    assert res.exit_code == 0, res.output
    return res.stdout


def _carries(recorded: object, actual: object, where: str = "") -> None:
    """`actual` carries every value of `recorded` (a later field may be added, none changed or lost)."""
    if isinstance(recorded, dict):
        assert isinstance(actual, dict), where
        for key, value in recorded.items():
            assert key in actual, f"{where}/{key} is missing"
            _carries(value, actual[key], f"{where}/{key}")
    elif isinstance(recorded, list):
        assert isinstance(actual, list) and len(actual) == len(recorded), where
        for i, (r, a) in enumerate(zip(recorded, actual)):
            _carries(r, a, f"{where}/{i}")
    else:
        assert actual == recorded, f"{where}: {actual!r}, recorded {recorded!r}"


def _no_call(value: object) -> bool:
    """No key, value or column anywhere names a call."""
    return "call" not in json.dumps(value)


def test_the_results_table_of_a_variant_without_calls_renders_as_recorded():
    """The rendering of the results table, byte for byte as recorded before the points of calls were reported
    (tests/data/simulate/, recorded with COLUMNS=120): no row of calls."""
    assert _simulated(ALLFIVES_3P) == (PINNED / "allfives-3p.table").read_text(encoding="utf-8")


@pytest.mark.parametrize("args, recorded", [(ALLFIVES_3P, "allfives-3p.json"), (PAGAT_VS, "pagat-vs-allfives.json")])
def test_the_json_of_a_variant_without_calls_carries_the_recorded_results(args, recorded):
    doc = json.loads(_simulated(args, "--json"))
    assert doc["format"] == "rulelang-simulate/1"
    _carries(json.loads((PINNED / recorded).read_text(encoding="utf-8")), doc)
    assert _no_call(doc)


def test_the_match_files_of_a_variant_without_calls_carry_the_recorded_matches(tmp_path):
    jsonl, table = tmp_path / "results.jsonl", tmp_path / "results.csv"
    _simulated(ALLFIVES_3P, "-o", str(jsonl))
    _simulated(ALLFIVES_3P, "-o", str(table))
    matches = [json.loads(line) for line in jsonl.read_text(encoding="utf-8").splitlines()]
    _carries([json.loads(line) for line in (PINNED / "allfives-3p.jsonl").read_text(encoding="utf-8").splitlines()],
             matches)
    rows = list(csv.DictReader(table.read_text(encoding="utf-8").splitlines()))
    _carries(list(csv.DictReader((PINNED / "allfives-3p.csv").read_text(encoding="utf-8").splitlines())), rows)
    assert _no_call(matches) and _no_call(rows)


def test_the_comparison_table_carries_each_test_and_its_p_value():
    """`--vs`: a row per metric with its test and p-value (a star where significant), as the JSON gives them."""
    tests = json.loads(_simulated(PAGAT_VS, "--json"))["tests"]
    rows = {line.split("|")[1].strip(): line for line in _simulated(PAGAT_VS).splitlines() if line.startswith("| ")}
    assert tests and set(rows) >= {t["metric"] for t in tests}
    for t in tests:
        shown = "McNemar (exact)" if t["test"] == "mcnemar" else t["test"]
        cells = [c.strip() for c in rows[t["metric"]].split("|")]
        assert cells[-3:-1] == [shown, t["p"] + (" *" if t["significant"] else "")], rows[t["metric"]]
    assert "call" not in _simulated(PAGAT_VS)


def test_arena_record_of_a_variant_without_calls_is_unchanged():
    """`balance`'s matches (the arena): the same record as recorded on main, without a `call` entry."""
    from rulelang.players.arena import play_match
    from rulelang.tools.playernames import make_player

    data, cfg = load_engine_config("allfives")
    rec = play_match(data, 2, 5, [make_player("greedy", cfg, 1), make_player("random", cfg, 2)], race=True)
    assert json.dumps(rec, sort_keys=True) + "\n" == (PINNED / "arena-allfives.json").read_text()


def _derived(*parts) -> int:
    """The seeds of docs/tools.md: int(sha256("match/S/i")[:15 hex digits]) and alike."""
    return int(hashlib.sha256("/".join(str(p) for p in parts).encode()).hexdigest()[:15], 16)


def _replayed(variant: str, seed: int, matches: int, miss_rate: float) -> list[list[dict[str, int]]]:
    """Each match of `simulate VARIANT --seed S --miss-rate R` (greedy bots) played again on the engine,
    and per round the score changes of its accepted events, by the event's kind."""
    from rulelang.interpreter import Config, Match, greedy_player
    from rulelang.interpreter.claims import set_miss_rate

    data, cfg = load_engine_config(variant)
    out = []
    for i in range(matches):
        bots = [set_miss_rate(greedy_player(_derived("bot", seed, i, s)), miss_rate,
                              _derived("miss", seed, i, s)) for s in range(2)]
        match = Match(Config.from_dict(data), 2, _derived("match", seed, i))
        rounds = []
        while not match.over:
            rnd = match.round
            score = list(rnd.scores)  # the sides' scores when the round starts
            match.run(bots, max_rounds=len(match.rounds) + 1)
            gained: dict[str, int] = {}
            for e in rnd.events:
                if e.accepted:
                    gained[e.kind] = gained.get(e.kind, 0) + e.score_after - score[e.side]
                    score[e.side] = e.score_after
            assert score == list(rnd.scores)
            rounds.append(gained)
        assert [sum(sum(r.values()) for r in rounds)] == [sum(match.scores)]  # every point came from an event
        out.append(rounds)
    return out


def test_points_of_calls_add_up_to_the_scores(tmp_path):
    """Under the muggins rule, play + settlement + call points are the score changes of every round."""
    out = tmp_path / "r.jsonl"
    res = CliRunner().invoke(main, ["simulate", "muggins-claims", "-n", "8", "--seed", "4", "--miss-rate", "0.3",
                                    "-o", str(out)], env=PLAIN_ENV)
    assert res.exit_code == 0, res.output
    assert "points per round: call" in res.output and "taken by muggins calls" in res.output
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    replayed = _replayed("muggins-claims", 4, 8, 0.3)
    assert [r["rounds"] for r in rows] == [len(m) for m in replayed]
    called = 0
    for row, rounds in zip(rows, replayed):
        for d, gained in zip(row["round_details"], rounds):
            assert set(gained) <= {"placement", "domino", "block", "call"}
            assert d["placement"] == gained.get("placement", 0)
            assert d["settlement"] == gained.get("domino", 0) + gained.get("block", 0)
            assert d["call"] == gained.get("call", 0)
            called += d["call"]
        assert sum(d["placement"] + d["settlement"] + d["call"] for d in row["round_details"]) == sum(row["scores"])
    assert called > 0  # bots missed points and were called: without the call kind the sums fall short

    # the same matches in the other outputs: a call_points column, a "call" spread
    csv_out = tmp_path / "r.csv"
    res = CliRunner().invoke(main, ["simulate", "muggins-claims", "-n", "8", "--seed", "4", "--miss-rate", "0.3",
                                    "-o", str(csv_out), "--json"], env=PLAIN_ENV)
    assert res.exit_code == 0, res.output
    with open(csv_out, newline="") as fh:
        table = list(csv.DictReader(fh))
    assert list(table[0])[-2:] == ["settlement_points", "call_points"]
    for r, rounds in zip(table, replayed):
        assert int(r["placement_points"]) + int(r["settlement_points"]) + int(r["call_points"]) == sum(
            int(x) for x in r["scores"].split())
        assert int(r["call_points"]) == sum(g.get("call", 0) for g in rounds)
    points = json.loads(res.stdout)["summary"]["points_per_round"]
    assert set(points) == {"play", "settlement", "call"}
    n = points["call"]["n"]
    assert n == sum(len(m) for m in replayed) == points["play"]["n"]
    total = sum(points[k]["mean"] * n for k in points)
    assert total == pytest.approx(sum(sum(int(x) for x in r["scores"].split()) for r in table))


def test_call_row_in_vs_and_mixed_csv(tmp_path):
    """--vs a variant without calls: a call row (0 per round for that variant), its column empty in the CSV."""
    csv_out = tmp_path / "r.csv"
    res = CliRunner().invoke(main, ["simulate", "muggins-claims", "-n", "6", "--seed", "4", "--miss-rate", "0.3",
                                    "--vs", "muggins", "-o", str(csv_out)], env=PLAIN_ENV)
    assert res.exit_code == 0, res.output
    line = next(x for x in res.output.splitlines() if "points per round: call (raw)" in x)
    assert "0.00 ± 0.00" in line and "paired t" in line
    with open(csv_out, newline="") as fh:
        table = list(csv.DictReader(fh))
    assert {r["variant"] for r in table if r["call_points"] == ""} == {"muggins"}
    assert {r["variant"] for r in table if r["call_points"] != ""} == {"muggins-claims"}
    data, cfg = load_engine_config("muggins-claims")
    plain_data, plain = load_engine_config("muggins")
    a = sim.summarize(sim.run_matches(data, 2, ["greedy"] * 2, 4, 6, miss_rate=0.3), cfg, 2)
    b = sim.summarize(sim.run_matches(plain_data, 2, ["greedy"] * 2, 4, 6), plain, 2)
    assert b.call_per_round is None and a.call_per_round is not None and sum(a.call_per_round) > 0
    tests = dict(sim.paired_tests(a, b))
    assert "points per round: call (raw)" in tests
    assert "points per round: call (raw)" not in dict(sim.paired_tests(b, b))


def test_arena_keeps_calls_apart_from_the_settlement():
    """`balance`'s matches: a call's points are the round's `call`, not its `settle`; they add up to the scores."""
    from rulelang.interpreter import greedy_player
    from rulelang.interpreter.claims import set_miss_rate
    from rulelang.players.arena import play_match

    data, cfg = load_engine_config("muggins-claims")
    bots = [set_miss_rate(greedy_player(s), 0.5, 10 + s) for s in range(2)]
    rec = play_match(data, 2, 3, bots)
    called = 0
    for rd in rec["round_details"]:
        for side in range(2):
            assert rd["play"][side] + rd["settle"][side] + rd["call"][side] == rd["end"][side] - rd["start"][side]
        called += sum(rd["call"])
    assert called > 0


def _workers_of(pid: int) -> list[str] | None:
    """The child processes of `pid` (Linux's /proc), or None where they cannot be seen."""
    try:
        return Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    except OSError:
        return None


def _sigint_after(args, seconds):
    """Ctrl-C to `rulelang ARGS` once its workers run, or after `seconds` where they cannot be seen.

    Bounds are generous (a loaded machine starts the workers slowly): the test is that the run_guarded ends, with 130
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


def test_simulate_checks_out_and_plots_before_simulating(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    res = run_guarded("simulate", "exact61", "-n", "2", "--out", str(tmp_path / "no" / "r.csv"))
    assert res.exit_code == 1 and "no such folder" in res.output and "matches" not in res.output
    res = run_guarded("simulate", "exact61", "-n", "2", "--plots", str(blocker / "sub"))
    assert res.exit_code == 1 and "is a file" in res.output


@pytest.mark.parametrize("alpha", ["2", "0", "-1", "nan"])
def test_simulate_rejects_a_significance_level_outside_0_1(alpha):
    res = run_guarded("simulate", "exact61", "-n", "2", "--alpha", alpha)
    assert res.exit_code == 2 and "--alpha" in res.output


@pytest.mark.parametrize("args", [
    ["simulate", "pagat", "-n", "100000", "--jobs", "2"],
    ["balance", "pagat", "-n", "4000", "--jobs", "2"],
    ["balance", "pagat", "--ladder", "--rungs", "random,greedy", "--link-matches", "4000", "--jobs", "2"],
], ids=["simulate", "balance", "ladder"])
def test_ctrl_c_stops_a_parallel_simulation(args):
    code, err = _sigint_after(args, 2.0)
    assert code == 130 and "Traceback" not in err, err
