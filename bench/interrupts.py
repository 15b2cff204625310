"""Ctrl-C at random moments: does every interrupted `rulelang ... --jobs N` exit 130, soon, leaving nothing behind?

Each trial starts a command in its own process group (as a shell starts a job), waits a random time,
sends SIGINT to the whole group (as Ctrl-C in a terminal does) and measures the time until the command
has exited. A trial that has not exited after `--hang-after` seconds is a hang: its group is killed
(SIGKILL) and counted. A process of the group still alive after the command exited is a leftover.

    python bench/interrupts.py                      # 1000 trials of `simulate pagat -n 100000 --jobs 2`
    python bench/interrupts.py --trials 50 --mix    # the balance and ladder commands too, in turn

Figures: exit statuses, hangs, leftovers, tracebacks on stderr, exits slower than `--limit` seconds, and
the time to exit (median, 95th percentile, max). A SIGINT in the first few tens of milliseconds lands in
Python's own start-up (`site` and its .pth files, `runpy`), before rulelang's Ctrl-C guard; such trials
are counted apart (`before_guard`: Python dies of the signal, prints its own traceback or drops the
interrupt, as for any Python program). `--earliest 0.1` leaves that window out.
Exit status 1 when any other trial was not a clean 130 within the limit.
"""
from __future__ import annotations

import argparse
import contextlib
import json
import os
import random
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import asdict, dataclass
from pathlib import Path

COMMANDS = {
    "simulate": ["simulate", "pagat", "-n", "100000", "--jobs", "2"],
    "balance": ["balance", "pagat", "-n", "4000", "--skill-matches", "400", "--jobs", "2"],
    "ladder": ["balance", "pagat", "--ladder", "--rungs", "random,greedy", "--link-matches", "4000",
               "--jobs", "2"],
}


@dataclass
class Trial:
    """One interrupted run."""

    command: str
    delay: float  # seconds from start to SIGINT
    status: int | None  # None: it hung and was killed
    seconds: float  # from SIGINT to exit (or to the kill)
    leftovers: int  # processes of its group alive after it exited
    traceback: bool
    ended_first: bool  # it had exited before the SIGINT
    before_guard: bool  # the SIGINT came while Python itself started, before rulelang's Ctrl-C guard
    stderr_tail: str


def run_trial(name: str, delay: float, hang_after: float, root: Path) -> Trial:
    """Start `rulelang NAME...`, SIGINT its group after `delay` seconds, and see how it ends."""
    env = {**os.environ, "RULELANG_NO_PROGRESS": "1", "PYTHONPATH": str(root)}
    with tempfile.TemporaryDirectory() as tmp, open(Path(tmp) / "err", "w+b") as err:
        proc = subprocess.Popen([sys.executable, "-m", "rulelang", *COMMANDS[name]], cwd=tmp, env=env,
                                stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=err,
                                start_new_session=True)
        try:
            time.sleep(delay)
            ended_first = proc.poll() is not None
            sent = time.monotonic()
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGINT)
            try:
                status: int | None = proc.wait(timeout=hang_after)
            except subprocess.TimeoutExpired:
                status = None
            seconds = time.monotonic() - sent
            leftovers = _group_size(proc.pid) if status is not None else 0
        finally:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGKILL)  # a hang, leftovers, this script stopped: nothing outlives it
            proc.wait()
        err.seek(0)
        text = err.read().decode(errors="replace")
    traceback = "Traceback" in text
    return Trial(name, round(delay, 3), status, round(seconds, 3), leftovers, traceback, ended_first,
                 _before_guard(status, text, root), text[-300:])


def _before_guard(status: int | None, stderr: str, root: Path) -> bool:
    """Whether the SIGINT came while Python itself started, before rulelang's Ctrl-C guard (rulelang/launch.py).

    Then Python does what it does for any program: it dies of the signal with nothing said (its handler not
    yet installed); it prints a KeyboardInterrupt traceback with no frame in the package (`site` imports and
    .pth files, `runpy` finding the module); or it drops the interrupt, reported as an error in a .pth file
    (`site`) or as an exception ignored in a callback (importlib's module locks), and the command runs on
    as if never interrupted, counted as a hang here once `--hang-after` passes.
    """
    if status == -signal.SIGINT and not stderr:
        return True
    package_frame = f'File "{root / "rulelang"}{os.sep}'
    if package_frame in stderr or "KeyboardInterrupt" not in stderr and "Remainder of file ignored" not in stderr:
        return False
    dropped = "Remainder of file ignored" in stderr or stderr.lstrip().startswith("Exception ignored in")
    return status in (1, -signal.SIGINT) or dropped


def _group_size(pgid: int, grace: float = 2.0) -> int:
    """How many processes of group `pgid` are still alive `grace` seconds after its leader exited."""
    deadline = time.monotonic() + grace
    while True:
        members = [p for p in _pids() if _pgid(p) == pgid]
        if not members or time.monotonic() >= deadline:
            return len(members)
        time.sleep(0.05)


def _pids() -> list[int]:
    return [int(d) for d in os.listdir("/proc") if d.isdigit()]


def _pgid(pid: int) -> int | None:
    try:
        return os.getpgid(pid)
    except OSError:
        return None


def summarise(trials: list[Trial], limit: float) -> dict[str, object]:
    """The figures over all trials."""
    times = sorted(t.seconds for t in trials if t.status is not None)
    return {
        "trials": len(trials),
        "by_command": dict(Counter(t.command for t in trials)),
        "statuses": {str(k): v for k, v in Counter(t.status for t in trials).items()},
        "hangs": sum(t.status is None for t in trials),
        "slower_than_limit": sum(t.status is not None and t.seconds > limit for t in trials),
        "leftovers": sum(t.leftovers for t in trials),
        "tracebacks": sum(t.traceback for t in trials),
        "ended_before_sigint": sum(t.ended_first for t in trials),
        "before_guard": sum(t.before_guard for t in trials),
        "hangs_before_guard": sum(t.before_guard and t.status is None for t in trials),
        "not_clean_after_guard": sum(not t.before_guard and not clean(t, limit) for t in trials),
        "exit_seconds": {
            "median": round(statistics.median(times), 3) if times else None,
            "p95": round(times[int(0.95 * (len(times) - 1))], 3) if times else None,
            "max": times[-1] if times else None,
        },
        "limit": limit,
    }


def clean(trial: Trial, limit: float) -> bool:
    """Exit 130 within `limit` seconds, no traceback, nothing left running."""
    return trial.status == 130 and trial.seconds <= limit and not trial.leftovers and not trial.traceback


def _stop(_signum: int, _frame: object) -> None:
    raise SystemExit(143)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--trials", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--earliest", type=float, default=0.0, help="earliest SIGINT, seconds after start")
    ap.add_argument("--latest", type=float, default=1.0, help="latest SIGINT, seconds after start")
    ap.add_argument("--limit", type=float, default=2.0, help="seconds to exit that count as prompt")
    ap.add_argument("--hang-after", type=float, default=15.0, help="seconds after which a trial is a hang")
    ap.add_argument("--mix", action="store_true", help="rotate simulate, balance and balance --ladder")
    ap.add_argument("--root", type=Path, default=Path(__file__).resolve().parent.parent,
                    help="the checkout whose rulelang runs (default: this one)")
    ap.add_argument("--json", type=Path, help="also write every trial and the summary here")
    args = ap.parse_args(argv)
    # Started in the background by a shell without job control, this script (and so every command it starts)
    # would ignore SIGINT: the commands must take it as from a terminal. SIGTERM stops the script cleanly.
    signal.signal(signal.SIGINT, signal.default_int_handler)
    signal.signal(signal.SIGTERM, _stop)

    rng = random.Random(args.seed)
    names = list(COMMANDS) if args.mix else ["simulate"]
    trials: list[Trial] = []
    started = time.monotonic()
    for i in range(args.trials):
        trial = run_trial(names[i % len(names)], rng.uniform(args.earliest, args.latest), args.hang_after, args.root)
        trials.append(trial)
        if not clean(trial, args.limit):
            print(f"trial {i}: {json.dumps(asdict(trial))}", file=sys.stderr, flush=True)
        if (i + 1) % 50 == 0:
            print(f"{i + 1} trials, {time.monotonic() - started:.0f} s", file=sys.stderr, flush=True)
    summary = summarise(trials, args.limit)
    summary["wall_seconds"] = round(time.monotonic() - started, 1)
    print(json.dumps(summary, indent=2))
    if args.json:
        args.json.write_text(json.dumps({"summary": summary, "trials": [asdict(t) for t in trials]}, indent=1))
    return 0 if all(t.before_guard or clean(t, args.limit) for t in trials) else 1


if __name__ == "__main__":
    sys.exit(main())
