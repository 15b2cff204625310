"""Processes started by rulelang die with it: simulate's workers, and `play` without standard input."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _children(pid: int) -> list[int]:
    kids: list[int] = []
    try:
        for task in os.listdir(f"/proc/{pid}/task"):
            with open(f"/proc/{pid}/task/{task}/children") as fh:
                kids += [int(p) for p in fh.read().split()]
    except OSError:
        pass
    return kids


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as fh:
            return fh.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


@pytest.mark.skipif(not os.path.exists("/proc/self/task"), reason="needs Linux /proc")
def test_simulate_workers_die_when_their_parent_is_killed():
    proc = subprocess.Popen([sys.executable, "-m", "rulelang", "simulate", "exact61", "--matches", "1000000",
                             "--jobs", "2"], cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    workers: list[int] = []
    try:
        for _ in range(600):  # until both workers run
            workers = _children(proc.pid)
            if len(workers) >= 2:
                break
            time.sleep(0.05)
        assert len(workers) >= 2, "simulate never started its workers"
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait()
    left = workers
    for _ in range(200):
        left = [w for w in workers if _alive(w)]
        if not left:
            break
        time.sleep(0.05)
    for w in left:  # leave nothing to the next test
        os.kill(w, signal.SIGKILL)
    assert left == [], "a worker outlived its parent"


def test_play_with_standard_input_closed_says_so():
    res = subprocess.run([sys.executable, "-m", "rulelang", "play", "exact61", "--seed", "1"],
                         cwd=ROOT, capture_output=True, text=True, stdin=None, close_fds=True,
                         preexec_fn=lambda: os.close(0))
    assert res.returncode == 1
    assert "standard input is closed" in res.stderr
    assert "internal error" not in res.stderr


def test_play_between_bots_needs_no_standard_input():
    res = subprocess.run([sys.executable, "-m", "rulelang", "play", "exact61", "--seed", "1", "--seat", "0=greedy"],
                         cwd=ROOT, capture_output=True, text=True, preexec_fn=lambda: os.close(0))
    assert res.returncode == 0, res.stderr
