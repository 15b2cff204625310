"""Hostile engines leave nothing behind, cost a bounded time, and never crash the runner.

Every engine here runs with a marker in its environment; after each run, no
process carrying the marker (the engine, the supervisor, a daemon that left the
engine's session) may remain.
"""
from __future__ import annotations

import os
import signal
import stat
import subprocess
import sys
import threading
import time
import uuid
from pathlib import Path

import pytest

from rulelang.conformance import cases, runner
from rulelang.conformance.protocol import CONTAINED, InProcessEngine, SubprocessEngine

TOY = Path(__file__).parents[1] / "conformance" / "examples" / "toy_engine.py"
ROOT = Path(__file__).resolve().parent.parent
ALL = cases.lint().cases
PICK = [c for c in ALL if c.id in ("pagat-diagram-14", "pagat-diagram-22", "pagat-diagram-00")]
BAD = "pagat-diagram-22"

pytestmark = pytest.mark.skipif(not CONTAINED, reason="process-tree containment is Linux-only")


def _marked(mark: str) -> list[int]:
    """Live (not zombie) processes whose environment holds the marker."""
    needle = f"RULELANG_TEST_MARK={mark}".encode()
    found = []
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/environ", "rb") as fh:
                if needle not in fh.read().split(b"\0"):
                    continue
            with open(f"/proc/{name}/stat") as fh:
                if fh.read().rsplit(")", 1)[1].split()[0] == "Z":
                    continue
        except OSError:
            continue
        found.append(int(name))
    return found


def _none_left(mark: str) -> list[int]:
    """The marked processes still alive after a short grace (an empty list when all are gone)."""
    for _ in range(100):
        left = _marked(mark)
        if not left:
            return []
        time.sleep(0.05)
    for pid in left:  # do not leave them to the next test either
        try:
            os.kill(pid, signal.SIGKILL)
        except OSError:
            pass
    return left


@pytest.fixture
def marked(tmp_path, monkeypatch):
    mark = uuid.uuid4().hex
    monkeypatch.setenv("RULELANG_TEST_MARK", mark)
    monkeypatch.setenv("TOY_ORPHAN_PIDFILE", str(tmp_path / "daemon.pid"))
    yield mark
    assert _none_left(mark) == [], "a process of the engine outlived the run"


def _toy(*flags):
    return SubprocessEngine([sys.executable, str(TOY), *flags])


def _outcomes(result):
    return {r.case.id: r.outcome for r in result.results}


@pytest.mark.parametrize("mode,kind", [
    ("hang", "timeout"), ("crash", "crash"), ("garbage", "malformed"), ("huge", "oversized"),
    ("wrongseq", "protocol"), ("orphan", "timeout"), ("escape", "timeout"), ("nested", "malformed"),
    ("deep", "malformed"),
])
def test_a_hostile_engine_errors_its_case_and_leaves_no_process(mode, kind, marked):
    result = runner.run(_toy("--misbehave", f"{mode}:{BAD}"), PICK, timeout=3, expected_failures={})
    assert _outcomes(result) == {"pagat-diagram-14": "pass", BAD: "error", "pagat-diagram-00": "pass"}
    assert next(r for r in result.results if r.case.id == BAD).error["kind"] == kind


def test_a_wrong_version_leaves_no_process(marked):
    result = runner.run(_toy("--misbehave", "version"), PICK, timeout=3, expected_failures={})
    assert set(_outcomes(result).values()) == {"error"}


def test_a_daemon_that_left_the_session_is_killed_even_when_the_engine_answers(marked, tmp_path):
    result = runner.run(_toy("--misbehave", f"exit-escape:{BAD}"), PICK, timeout=5, expected_failures={})
    assert set(_outcomes(result).values()) == {"pass"}
    assert (tmp_path / "daemon.pid").read_text().strip()  # the daemon did start
    assert _none_left(marked) == []


def test_a_daemon_is_killed_when_the_runner_itself_is_killed(marked, tmp_path):
    pidfile = tmp_path / "daemon.pid"
    engine = f"{sys.executable} {TOY} --misbehave escape"
    proc = subprocess.Popen([sys.executable, "-m", "rulelang", "conform", "--engine", engine, "--timeout", "60"],
                            cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        for _ in range(600):
            if pidfile.exists() and pidfile.read_text().strip():
                break
            time.sleep(0.05)
        assert pidfile.read_text().strip(), "the engine never started its daemon"
    finally:
        proc.kill()
        proc.wait()
    # the supervisor hears of the runner's death (a parent-death signal) and kills the whole tree
    assert _none_left(marked) == []


def test_an_engine_that_stops_answering_is_given_up_after_three_timeouts(marked):
    picked = cases.select(ALL, ["pagat"], ["diagram"])[:6]
    result = runner.run(_toy("--misbehave", "hang"), picked, timeout=0.5, expected_failures={})
    kinds = [r.error["kind"] for r in result.results]
    assert kinds == ["timeout"] * runner.MAX_CONSECUTIVE_TIMEOUTS + ["abandoned"] * (6 - runner.MAX_CONSECUTIVE_TIMEOUTS)
    assert "3 cases in a row" in result.results[-1].error["message"]


def test_a_deadline_bounds_the_whole_run():
    from rulelang.conformance import builtin

    picked = cases.select(ALL, ["pagat"], ["diagram"])[:4]

    def run_case(case):
        if case["id"] == picked[1].id:
            while True:  # stuck: the deadline, not the per-case timeout, stops it
                pass
        return builtin.run_case(case)

    engine = InProcessEngine(run_case, {"name": "stuck"}, {})
    result = runner.run(engine, picked, timeout=600, expected_failures={}, deadline=1.0)
    assert [r.outcome for r in result.results] == ["pass", "error", "error", "error"]
    assert [r.error["kind"] for r in result.results[1:]] == ["timeout", "deadline", "deadline"]


def test_consecutive_timeouts_are_counted_in_a_row_only(marked):
    picked = cases.select(ALL, ["pagat"], ["diagram"])[:6]
    hang = ",".join(c.id for c in (picked[0], picked[1], picked[3], picked[4]))
    result = runner.run(_toy("--misbehave", f"hang:{hang}"), picked, timeout=0.5, expected_failures={})
    assert [r.outcome for r in result.results] == ["error", "error", "pass", "error", "error", "pass"]


KILLS_ITS_REAPER = """#!/bin/sh
setsid sh -c 'exec sleep 100004' &
sleep 0.2
kill -KILL $PPID
exec sleep 600
"""
STOPS_ITS_REAPER = """#!/bin/sh
setsid sh -c 'exec sleep 100004' &
sleep 0.2
kill -STOP $PPID
exec sleep 600
"""
KEEPS_ITS_REAPER_STOPPED = """#!/bin/sh
setsid sh -c 'exec sleep 100004' &
reaper=$PPID
while :; do kill -STOP $reaper; sleep 0.01; done
"""


def _script(tmp_path, text):
    path = tmp_path / "engine.sh"
    path.write_text(text)
    path.chmod(0o755)
    return path


@pytest.mark.parametrize("engine", [KILLS_ITS_REAPER, STOPS_ITS_REAPER, KEEPS_ITS_REAPER_STOPPED],
                         ids=["kills", "stops", "keeps-stopped"])
def test_an_engine_that_kills_or_stops_its_reaper_leaves_no_process(engine, marked, tmp_path):
    """What a dead or stopped reaper held comes back to the runner (a child subreaper), which kills it."""
    box = {}

    def run():  # in a thread: a runner left blocked on the engine's pipe fails the test instead of hanging it
        box["result"] = runner.run(SubprocessEngine([str(_script(tmp_path, engine))], start_timeout=2), PICK[:1],
                                   timeout=2, expected_failures={})

    worker = threading.Thread(target=run, daemon=True)
    worker.start()
    worker.join(60)
    assert "result" in box, "the runner did not come back from the engine"
    assert [r.outcome for r in box["result"].results] == ["error"]
    assert _none_left(marked) == []


def test_conform_kills_what_an_engine_that_killed_its_reaper_left(marked, tmp_path):
    engine = _script(tmp_path, KILLS_ITS_REAPER)
    res = subprocess.run([sys.executable, "-m", "rulelang", "conform", "--engine", str(engine), "--start-timeout", "3",
                          "--id", "pagat-diagram-14"], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert res.returncode == 1, res.stdout + res.stderr
    assert _none_left(marked) == []


CHATTY = """#!/bin/sh
head -c 40000000 /dev/zero | tr '\\0' x >&2
echo "the last words" >&2
exec "$@"
"""


def _open_file_sizes() -> list[int]:
    """The sizes of the regular files this process holds open (deleted temporary files included)."""
    sizes = []
    for fd in os.listdir("/proc/self/fd"):
        try:
            info = os.stat(f"/proc/self/fd/{fd}")
        except OSError:
            continue
        if stat.S_ISREG(info.st_mode):
            sizes.append(info.st_size)
    return sizes


def test_a_chatty_engine_s_stderr_is_kept_bounded_and_its_end_reported(marked, tmp_path):
    """40 MB of standard error before the engine answers: neither a file nor memory holds more than the bound."""
    from rulelang.conformance.protocol import STDERR_KEEP

    chatty = _script(tmp_path, CHATTY)
    engine = SubprocessEngine([str(chatty), sys.executable, str(TOY), "--misbehave", f"crash:{BAD}"])
    result = runner.run(engine, PICK, timeout=20, expected_failures={})
    assert _outcomes(result) == {"pagat-diagram-14": "pass", BAD: "error", "pagat-diagram-00": "pass"}
    crashed = next(r for r in result.results if r.case.id == BAD).error
    assert crashed["kind"] == "crash" and crashed["context"]["stderr"].endswith("the last words\n")
    engine.start()
    try:
        assert engine._stderr is not None and engine._stderr.size() <= STDERR_KEEP
        assert max(_open_file_sizes(), default=0) < 1_000_000  # no file piles the output up
    finally:
        engine.stop()
