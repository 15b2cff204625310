"""`run_in_workers` stops its workers at once when the run ends early (an exception, Ctrl-C in the parent)."""
from __future__ import annotations

import multiprocessing
import os
import signal
import threading
import time
import traceback

import pytest

from rulelang.base.procs import run_in_workers


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


def _sigint_soon(seconds: float) -> threading.Timer:
    timer = threading.Timer(seconds, os.kill, (os.getpid(), signal.SIGINT))
    timer.start()
    return timer


def test_a_ctrl_c_is_raised_outside_the_pools_own_code():
    """A KeyboardInterrupt raised inside the pool's locks (`as_completed`, a future's condition) once left a
    lock held, and the pool's shutdown, then Python's exit, waited for it for ever. The
    Ctrl-C now comes out of `run_in_workers` itself, the workers stopped, nothing of the pool left behind."""
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    timer = _sigint_soon(0.5)
    try:
        with pytest.raises(KeyboardInterrupt) as info:
            run_in_workers(_slow, [30.0] * 6, 2, lambda _r: None)
    finally:
        timer.join()
        signal.signal(signal.SIGINT, previous)
    frames = [entry.filename for entry in traceback.extract_tb(info.value.__traceback__)]
    assert not [f for f in frames if "concurrent" in f or f.endswith("threading.py")], frames
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler  # the handler before is back
    _gone_soon(time.monotonic())
    assert [t for t in threading.enumerate() if t is not threading.main_thread() and not t.daemon] == []


def test_a_ctrl_c_while_the_pool_starts_is_taken_once_it_runs():
    """A Ctrl-C that comes while the workers are forked (held back then) stops the run as soon as it can."""
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        with pytest.raises(KeyboardInterrupt):
            run_in_workers(_interrupt_parent_then_sleep, [0, 1], 2, lambda _r: None)
    finally:
        signal.signal(signal.SIGINT, previous)
    _gone_soon(time.monotonic())


def _interrupt_parent_then_sleep(task: int) -> int:
    if task == 0:
        os.kill(os.getppid(), signal.SIGINT)
    time.sleep(30)
    return task
