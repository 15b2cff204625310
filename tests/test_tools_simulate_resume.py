"""`simulate -o FILE` writes each match as it finishes, so an interrupted run keeps them; `--resume` goes on."""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
ENV = dict(os.environ, RULELANG_NO_PROGRESS="1")


def _simulate(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "rulelang", "simulate", "exact61", "--seed", "5", *args], cwd=ROOT,
                          env=ENV, capture_output=True, text=True, timeout=300)


def _lines(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").splitlines() if path.exists() else []


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_an_interrupted_run_keeps_its_matches_and_resume_finishes_it(tmp_path, jobs):
    whole, part = tmp_path / "whole.jsonl", tmp_path / "part.jsonl"
    assert _simulate("-n", "60", "-o", str(whole)).returncode == 0
    proc = subprocess.Popen([sys.executable, "-m", "rulelang", "simulate", "exact61", "--seed", "5", "-n", "100000",
                             "-j", jobs, "-o", str(part)], cwd=ROOT, env=ENV,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        for _ in range(1200):
            if len(_lines(part)) >= 10:
                break
            time.sleep(0.05)
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait()
    kept = _lines(part)
    assert len(kept) >= 10, "no match was written while the run went on"
    with part.open("a", encoding="utf-8") as fh:
        fh.write('{"index": 7, "seed"')  # a line cut short by the interruption
    res = _simulate("-n", "60", "-o", str(part), "--resume")
    assert res.returncode == 0, res.stderr
    assert part.read_text(encoding="utf-8") == whole.read_text(encoding="utf-8")
    assert {json.loads(line)["index"] for line in kept} <= set(range(100000))


def test_resume_refuses_a_file_of_another_run(tmp_path):
    out = tmp_path / "run.jsonl"
    assert _simulate("-n", "5", "-o", str(out)).returncode == 0
    res = subprocess.run([sys.executable, "-m", "rulelang", "simulate", "exact61", "--seed", "6", "-n", "5", "-o",
                          str(out), "--resume"], cwd=ROOT, env=ENV, capture_output=True, text=True, timeout=300)
    assert res.returncode != 0 and "another study" in res.stderr and "Traceback" not in res.stderr


def test_resume_needs_a_json_lines_file(tmp_path):
    res = _simulate("-n", "5", "-o", str(tmp_path / "run.csv"), "--resume")
    assert res.returncode != 0 and "--resume needs -o FILE" in res.stderr


def _sim(variant: str, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "rulelang", "simulate", variant, *args], cwd=ROOT, env=ENV,
                          capture_output=True, text=True, timeout=300)


@pytest.mark.parametrize("first, second", [
    (("muggins", "-n", "3"), ("allfives", "-n", "4")),  # another ruleset
    (("muggins-claims", "-n", "3", "--miss-rate", "0.3"), ("muggins-claims", "-n", "4")),  # other options
    (("muggins-claims", "-n", "3"), ("muggins-claims", "-n", "4", "--miss-rate", "0.3")),
    (("exact61", "-n", "3", "--vs", "allfives"), ("exact61", "-n", "4")),  # the other variant's matches
])
def test_resume_refuses_a_file_of_another_study_and_leaves_it_as_it_is(tmp_path, first, second):
    out = tmp_path / "m.jsonl"
    assert _sim(*first, "-o", str(out)).returncode == 0
    before = out.read_bytes()
    res = _sim(*second, "-o", str(out), "--resume")
    assert res.returncode == 1 and "holds another study" in res.stderr and "Traceback" not in res.stderr, res.stderr
    assert out.read_bytes() == before


@pytest.mark.parametrize("text", ["my notes\nabout the study\n", "one line, no line end", '{"a": 1}\nnot json\n',
                                  "[1, 2]\n", "\u00ff\u00fe".encode("latin-1").decode("latin-1")])
def test_resume_refuses_a_file_that_is_not_simulate_results(tmp_path, text):
    out = tmp_path / "notes.jsonl"
    out.write_text(text, encoding="latin-1" if "\u00ff" in text else "utf-8")
    before = out.read_bytes()
    res = _sim("allfives", "-n", "2", "-o", str(out), "--resume")
    assert res.returncode == 1 and "is not a simulate results file" in res.stderr, res.stderr
    assert "Traceback" not in res.stderr and out.read_bytes() == before


def test_resume_goes_on_with_a_study_of_two_variants_and_a_miss_rate(tmp_path):
    whole, part = tmp_path / "whole.jsonl", tmp_path / "part.jsonl"
    args = ("muggins-claims", "--vs", "allfives", "--miss-rate", "0.3", "--seed", "2")
    assert _sim(*args, "-n", "6", "-o", str(whole)).returncode == 0
    assert _sim(*args, "-n", "3", "-o", str(part)).returncode == 0
    res = _sim(*args, "-n", "6", "-o", str(part), "--resume")
    assert res.returncode == 0, res.stderr
    assert part.read_text(encoding="utf-8") == whole.read_text(encoding="utf-8")
