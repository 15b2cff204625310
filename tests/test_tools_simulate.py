"""rulelang simulate: determinism across --jobs, statistics on known answers, outputs."""
from __future__ import annotations

import csv
import json
import xml.etree.ElementTree as ET

import pytest
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
