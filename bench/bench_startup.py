"""Start-up cost of the command line, in CPU time, as a ratio to `python -c pass`.

    python bench/bench_startup.py            # --help, list, check one file
    python bench/bench_startup.py --repeat 21

Each command runs --repeat times in a fresh interpreter (from the repository
root, so the checkout's code runs); the CPU time of each child (user + system,
from os.wait4) is taken, and the median is compared with the median of
`python -c pass`. CPU time, not wall-clock time, so other jobs on a shared
machine barely count. Target (issue 12): `check one.rules` at most 3 times.
"""
from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
COMMANDS = {
    "python -c pass": ["-c", "pass"],
    "rulelang --help": ["-m", "rulelang", "--help"],
    "rulelang list": ["-m", "rulelang", "list"],
    "rulelang check rulesets/exact61.rules": ["-m", "rulelang", "check", "rulesets/exact61.rules"],
}


def cpu_of(args: list[str]) -> float:
    """User + system CPU seconds of one run of `python ARGS`."""
    proc = subprocess.Popen([sys.executable, *args], cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _pid, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode != 0:
        raise SystemExit(f"python {' '.join(args)} exited {proc.returncode}")
    return usage.ru_utime + usage.ru_stime


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=11)
    opts = parser.parse_args()
    medians = {}
    for label, args in COMMANDS.items():
        cpu_of(args)  # warm the file cache (and lark's parser cache, if any)
        medians[label] = statistics.median(cpu_of(args) for _ in range(opts.repeat))
    base = medians["python -c pass"]
    for label, seconds in medians.items():
        print(f"{label:42s} {seconds * 1000:7.1f} ms CPU   ratio {seconds / base:5.1f}")


if __name__ == "__main__":
    main()
