"""rulelang balance: per-match statistics, paired tests, identical results on every backend, resume."""
from __future__ import annotations

import contextlib
import json
import math
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from rulelang.cli import main
from rulelang.tools import stats, study
from rulelang.tools.configs import load_engine_config

SMALL = ["--matches", "4", "--skill-matches", "2", "--strong", "pimc:2"]


def run(*args):
    return CliRunner().invoke(main, list(args))


def params(matches=4, skill=2, vs=False):
    data, _ = load_engine_config("exact61")
    variants = {"a": data}
    if vs:
        variants["b"] = load_engine_config("bounce61")[0]
    return {"variants": variants, "players": 2, "seed": 3, "matches": matches, "skill_matches": skill,
            "field": "greedy", "strong": "pimc:2"}


def play(p, **kw):
    rows = []
    study.execute(study.plan(p, set()), on_result=rows.extend, **kw)
    return sorted(rows, key=lambda r: (r["key"], r["part"], r["index"]))


# --- statistics on known answers

def test_t_quantile_and_mean_interval():
    assert stats.t_quantile(0.95, 10) == pytest.approx(2.228139, abs=1e-5)
    e = stats.mean_interval([1.0, 2.0, 3.0, 4.0])
    assert e.value == 2.5 and e.lo == pytest.approx(2.5 - 3.182446 * math.sqrt(5 / 3) / 2, abs=1e-5)


def test_mcnemar_exact_and_binomial():
    assert stats.mcnemar_exact(0, 0).p_value == 1.0
    assert stats.mcnemar_exact(10, 0).p_value == pytest.approx(2 / 1024)
    assert stats.mcnemar_exact(3, 7).p_value == pytest.approx(0.34375)
    assert 0 < stats.binomial_two_sided(0, 2000) < 1e-300 or stats.binomial_two_sided(0, 2000) == 0.0


def test_paired_t_sees_what_unpaired_misses():
    a = [10.0 + i for i in range(20)]
    b = [x + 0.5 + (0.1 if i % 2 else -0.1) for i, x in enumerate(a)]
    assert stats.paired_t(a, b).p_value < 1e-10
    assert stats.welch_t(a, b).p_value > 0.5


def test_ratio_interval_counts_matches_not_rounds():
    # one match has every blocked round: the interval is wide, as it should be with two units
    e = stats.ratio_interval([10, 0], [10, 10])
    assert e.value == 0.5 and e.hi - e.lo > 0.9
    assert stats.ratio_interval([], []).value != stats.ratio_interval([], []).value


def test_holm_and_p_formatting():
    assert stats.holm([0.01, 0.04, 0.03], 0.05) == [True, False, False]
    assert stats.holm([0.001, 0.02, 0.03], 0.05) == [True, True, True]
    assert stats.format_p(0.0) == "< 0.001" and stats.format_p(0.0123) == "0.012" and stats.format_p(float("nan")) == "-"


# --- backends and resume

def test_same_matches_serially_and_in_processes():
    p = params()
    assert play(p) == play(p, jobs=2)


def test_same_matches_on_a_local_dask_cluster():
    distributed = pytest.importorskip("distributed")
    p = params(matches=3, skill=2)
    with distributed.LocalCluster(n_workers=2, processes=False, threads_per_worker=1, dashboard_address=None) as cluster:
        with distributed.Client(cluster) as client:
            on_dask = play(p, dask=client)
    assert on_dask == play(p)


@pytest.mark.parametrize("sig", ["SIGKILL", "SIGTERM"])
def test_a_killed_dask_study_leaves_nothing_in_the_terminal(sig):
    """`balance --dask local` killed (SIGKILL) or terminated (SIGTERM): its workers printed CommClosedError
    tracebacks and the resource tracker "leaked semaphore" warnings into the terminal.
    Now nothing is written once the command is gone, and nothing of it is left running."""
    pytest.importorskip("distributed")
    proc = subprocess.Popen([sys.executable, "-m", "rulelang", "balance", "pagat", "-n", "4000", "--jobs", "2",
                             "--dask", "local"], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            start_new_session=True, env={**os.environ, "RULELANG_NO_PROGRESS": "1"})
    try:
        deadline = time.monotonic() + 120
        while len(_children(proc.pid)) < 3 and proc.poll() is None:  # the tracker and the two workers' nannies
            assert time.monotonic() < deadline, "the local cluster did not start"
            time.sleep(0.1)
        time.sleep(3)  # the workers have joined and play
        os.kill(proc.pid, getattr(signal, sig))
        _out, err = proc.communicate(timeout=120)  # until every process holding its stderr is gone
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
    text = err.decode(errors="replace")
    assert "leaked semaphore" not in text and "Traceback" not in text and "CommClosedError" not in text, text


def _children(pid: int) -> list[str]:
    """The child processes of `pid`, started by any of its threads (Dask starts its workers from another)."""
    tasks = Path(f"/proc/{pid}/task")
    if not tasks.is_dir():
        pytest.skip("child processes cannot be seen here (no /proc)")
    found = []
    for task in tasks.iterdir():
        with contextlib.suppress(OSError):
            found += (task / "children").read_text().split()
    return found


def test_an_interrupted_study_resumes_to_the_same_matches(tmp_path):
    p = params(matches=3, skill=2, vs=True)
    path = str(tmp_path / "study.jsonl")
    sink = study.Sink(path, p, [])
    tasks = study.plan(p, set())
    for t in tasks[:3]:
        sink.write(study.run_task(t))
    sink.close()
    with open(path, "a") as fh:
        fh.write('{"key": "a", "part": "lu')  # a write cut short by the interruption
    kept = study.read_done(path, p)
    done = {(r["key"], r["part"], r["index"]) for r in kept}
    left = study.plan(p, done)
    assert sum(len(t[3]) for t in left) == sum(len(t[3]) for t in tasks) - len(kept)
    sink = study.Sink(path, p, kept)
    rows = list(kept)
    study.execute(left, on_result=lambda c: (rows.extend(c), sink.write(c)))
    sink.close()
    assert sorted(rows, key=lambda r: (r["key"], r["part"], r["index"])) == play(p)
    lines = open(path).read().splitlines()
    assert len(lines) == 1 + len(rows)  # a header, then every match once
    other = dict(p, seed=4)
    with pytest.raises(Exception, match="another study"):
        study.read_done(path, other)


# --- the command

def test_balance_json_report_has_an_interval_on_every_figure():
    res = run("balance", "exact61", *SMALL, "--json")
    assert res.exit_code == 0, res.output
    rep = json.loads(res.output)
    figs = rep["variants"]["exact61"]
    assert "strong beats greedy" in figs and "blocked rounds" in figs and "lead changes per match" in figs
    for fig in figs.values():
        assert len(fig["ci95"]) == 2 and fig["n"] >= 2


def test_balance_vs_prints_paired_tests_and_writes_html(tmp_path):
    html = tmp_path / "r.html"
    res = run("balance", "exact61", "--vs", "bounce61", *SMALL, "--html", str(html))
    assert res.exit_code == 0, res.output
    assert "bounce61" in res.output and "mcnemar" in res.output and "paired t" in res.output
    assert "p = 0" not in res.output
    text = html.read_text()
    # three plots, each overlaying both rulesets (tests/test_report_plots.py looks inside them)
    assert text.count("<svg") == 3 and "http" not in text.replace('xmlns="http://www.w3.org/2000/svg"', "")


def test_balance_out_and_resume(tmp_path):
    out = str(tmp_path / "s.jsonl")
    first = run("balance", "exact61", *SMALL, "--json", "--out", out)
    assert first.exit_code == 0, first.output
    again = run("balance", "exact61", *SMALL, "--json", "--out", out)
    assert again.exit_code != 0 and "--resume" in again.output
    resumed = run("balance", "exact61", *SMALL, "--json", "--out", out, "--resume")
    assert resumed.exit_code == 0, resumed.output
    assert json.loads(resumed.output.split("\n", 1)[1] if resumed.output.startswith("results") else resumed.output) == \
        json.loads(first.output.split("\n", 1)[1] if first.output.startswith("results") else first.output)
    other = run("balance", "exact61", "--matches", "5", "--skill-matches", "2", "--strong", "pimc:2", "--out", out, "--resume")
    assert other.exit_code != 0 and "another study" in other.output


@pytest.mark.parametrize("args, words", [
    (["nosuchvariant"], "nosuchvariant"),
    (["exact61", "--strong", "wizard"], "unknown player"),
    (["exact61", "--resume"], "--out"),
    (["exact61", "--players", "7"], "not 7"),
    (["exact61", "--vs", "allfives", "--players", "4"], "4 players"),
])
def test_balance_bad_input_is_a_message(args, words):
    res = run("balance", *args)
    assert res.exit_code != 0 and words in res.output
    assert "Traceback" not in res.output


def test_a_bad_dask_address_is_a_message():
    pytest.importorskip("distributed")
    res = run("balance", "exact61", *SMALL, "--dask", "zz://nowhere")
    assert res.exit_code == 1 and "cannot reach the scheduler" in res.output
