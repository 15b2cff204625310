"""`run_in_workers` stops its workers at once when the run ends early (an exception, Ctrl-C in the parent)."""
from __future__ import annotations

import multiprocessing
import time

import pytest

from rulelang.procs import run_in_workers


def _slow(seconds: float) -> float:
    time.sleep(seconds)
    return seconds


def _fails(task: int) -> int:
    if task == 0:
        raise ValueError("task 0 fails")
    time.sleep(60)
    return task


class _Stop(Exception):
    pass


def _stop(_result: object) -> None:
    raise _Stop


def test_results_reach_the_sink_and_the_workers_end():
    got: list[float] = []
    run_in_workers(_slow, [0.0, 0.01, 0.02, 0.0], 2, got.append)
    assert sorted(got) == [0.0, 0.0, 0.01, 0.02]
    assert multiprocessing.active_children() == []


def test_a_failing_sink_stops_busy_workers_at_once():
    started = time.monotonic()
    with pytest.raises(_Stop):
        run_in_workers(_slow, [0.0, 60.0, 60.0, 60.0], 2, _stop)  # one worker is busy for a minute
    _gone_soon(started)


def test_a_failing_task_stops_the_others_at_once():
    started = time.monotonic()
    with pytest.raises(ValueError, match="task 0 fails"):
        run_in_workers(_fails, [0, 1, 2], 2, lambda _r: None)
    _gone_soon(started)


def _gone_soon(started: float) -> None:
    for _ in range(100):
        if not multiprocessing.active_children():
            break
        time.sleep(0.05)
    assert multiprocessing.active_children() == [], "a worker outlived the run"
    assert time.monotonic() - started < 30, "the run waited for a busy worker's task"
