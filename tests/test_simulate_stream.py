"""`simulate -o -` writes each match as it ends, in match order, so a reader that leaves stops the run."""
from __future__ import annotations

import json
import os
import select
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from rulelang.cli import main

ROOT = Path(__file__).resolve().parents[1]
ENV = dict(os.environ, RULELANG_NO_PROGRESS="1")


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_closed_pipe_stops_the_run_with_141(jobs):
    # 200000 matches take many minutes; a run that notices the closed pipe ends after a few
    proc = subprocess.Popen([sys.executable, "-m", "rulelang", "simulate", "pagat", "-n", "200000", "-j", jobs,
                             "-o", "-"], cwd=ROOT, env=ENV, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert proc.stdout is not None
    ready, _, _ = select.select([proc.stdout], [], [], 90)
    if not ready:  # the first match is not written until every match is played
        proc.kill()
        proc.communicate()
        pytest.fail("no match written within 90 s")
    first = json.loads(proc.stdout.readline())
    proc.stdout.close()  # the reader leaves, as `| head -1` does
    try:
        _, err = proc.communicate(timeout=90)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.communicate()
        pytest.fail("the run went on after its reader left")
    assert first["index"] == 0
    assert proc.returncode == 141
    assert b"Traceback" not in err


def test_streamed_rows_are_the_rows_of_a_whole_run_in_match_order():
    one = CliRunner().invoke(main, ["simulate", "pagat", "-n", "7", "-o", "-", "--vs", "exact61"], env=ENV)
    two = CliRunner().invoke(main, ["simulate", "pagat", "-n", "7", "-j", "2", "-o", "-", "--vs", "exact61"],
                             env=ENV)
    assert one.exit_code == two.exit_code == 0
    assert one.stdout == two.stdout
    rows = [json.loads(line) for line in one.stdout.splitlines()]
    assert [(r["variant"], r["index"]) for r in rows] == [("pagat", i) for i in range(7)] + [
        ("exact61", i) for i in range(7)]
