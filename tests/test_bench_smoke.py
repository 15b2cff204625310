"""The benchmark script runs end to end and reports every variant and player count.

It measures nothing here (speed is the script's job, read by a person); this
only keeps the script working as the engine changes.
"""
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BENCH = ROOT / "bench" / "bench_engine.py"
YARDSTICK = ROOT.parent / "shared" / "bench" / "minimal_allfives.py"


def _run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(BENCH), "--rounds", "30", "--matches", "2", "--repeat", "1", *args],
                          capture_output=True, text=True, timeout=300, cwd=ROOT)


def test_the_benchmark_reports_every_variant_and_player_count_as_json():
    res = _run("--json", "--yardstick", str(YARDSTICK))
    assert res.returncode == 0, res.stderr
    report = json.loads(res.stdout)
    seen = {(row["variant"], row["players"]) for row in report["variants"]}
    # every configuration of tests/data/configs (the family's common variants too)
    names = {p.stem for p in (ROOT / "tests" / "data" / "configs").glob("*.json")}
    assert seen == {(v, n) for v in names for n in (2, 3, 4)}
    for row in report["variants"]:
        assert row["rounds_per_s"] > 0 and row["placements_per_s"] > 0 and row["peak_kib"] > 0
    if YARDSTICK.exists():
        assert report["yardstick"]["ratio"] > 0 and report["yardstick"]["ratio_per_placement"] > 0
    # the paths tools take, timed on the same games
    assert {r["key"] for r in report["paths"]["rows"]} == {"fast", "replay", "clone", "search", "greedy", "harness"}
    assert all(r["us"] > 0 for r in report["paths"]["rows"]) and report["paths"]["harness_vs_bare"] > 0
    assert report["dominoes"] is None or report["dominoes"]["ratio"] > 0 and report["dominoes"]["ratio_listing"] > 0
    # every speed ratio in one summary, with its target (the dominoes one when the package is installed)
    summary = report["issue15"]
    assert len(summary) == (3 if report["dominoes"] is None else 4)
    assert all(r["value"] > 0 and isinstance(r["met"], bool) for r in summary.values())


def test_a_missing_yardstick_is_said_and_the_run_goes_on():
    res = _run("--only-ratio", "--yardstick", str(ROOT / "no-such-yardstick.py"))
    assert res.returncode == 0
    assert "yardstick not found" in res.stderr


def test_the_balance_benchmark_compares_backends_on_the_same_matches():
    res = subprocess.run([sys.executable, str(ROOT / "bench" / "bench_balance.py"), "--matches", "4", "--skill-matches", "2",
                          "--strong", "pimc:2", "--backends", "jobs1,jobs2", "--json"],
                         capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert res.returncode == 0, res.stderr
    report = json.loads(res.stdout)
    assert set(report["backends"]) == {"jobs1", "jobs2"}
    assert report["backends"]["jobs1"]["ratio_to_jobs1"] == 1.0


def test_the_phases_of_the_dominoes_comparison_are_timed_or_the_missing_package_said():
    res = subprocess.run([sys.executable, str(ROOT / "bench" / "dominoes_phases.py"), "--games", "10"],
                         capture_output=True, text=True, timeout=300, cwd=ROOT)
    try:
        import dominoes  # noqa: F401
    except ImportError:
        assert res.returncode == 2 and "dominoes package is not installed" in res.stderr
        return
    assert res.returncode == 0, res.stderr
    lines = res.stdout.splitlines()
    assert lines[0].startswith(("engine: pure Python;", "engine: compiled (mypyc);")) and len(lines) == 4
    assert all(len(line.split()) == 8 for line in lines[1:])  # engine 3 figures, dominoes 3 figures
