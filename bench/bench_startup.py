"""Start-up cost of the command line, in CPU time, as a ratio to `python -c pass`.

    python bench/bench_startup.py            # --help, list, check one file, fmt one file, explain
    python bench/bench_startup.py --repeat 21

Each command runs --repeat times in a fresh interpreter, as an installed user
runs it: through the console script pip writes for `[project.scripts]`
(`rulelang = "rulelang.cli:..."` in pyproject.toml), with the checkout first
on the path, and with bytecode cached (pip compiles a package when it
installs it; here the warm-up run writes the bytecode to a temporary
PYTHONPYCACHEPREFIX, even when PYTHONDONTWRITEBYTECODE is set, so that no run
pays for compiling the sources and the checkout gets no __pycache__). The
commands take turns (one run of each, --repeat times), so that a change of
load on a shared machine falls on all of them alike. The CPU time of each
child (user + system, from os.wait4) is taken, and the median is compared
with the median of `python -c pass` (run the same way).
CPU time, not wall-clock time, so other jobs on a shared machine barely
count. Target (issue 12): `check one.rules` at most 3 times.
"""
from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
COMMANDS = {
    "python -c pass": ["-c", "pass"],
    "rulelang --help": ["--help"],
    "rulelang list": ["list"],
    "rulelang check rulesets/exact61.rules": ["check", "rulesets/exact61.rules"],
    "rulelang check allfives-pooled.rules": ["check", "rulesets/allfives-pooled.rules"],  # based on allfives
    "rulelang fmt FILE (already canonical)": ["fmt", "{copy}"],
    "rulelang explain exact61": ["explain", "exact61"],
}
# what pip writes as the `rulelang` console script (pip's template; the entry point from pyproject.toml)
SCRIPT = """import sys
from {module} import {attr}
if __name__ == "__main__":
    sys.argv[0] = sys.argv[0].removesuffix(".exe")
    sys.exit({attr}())
"""


def console_script(folder: str) -> str:
    """Write the `rulelang` console script into FOLDER; its path."""
    with open(ROOT / "pyproject.toml", "rb") as fh:
        entry = tomllib.load(fh)["project"]["scripts"]["rulelang"]
    module, attr = entry.split(":")
    path = os.path.join(folder, "rulelang")
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(SCRIPT.format(module=module, attr=attr))
    return path


def child_env(pycache: str) -> dict[str, str]:
    """The children's environment: the checkout first on the path, bytecode cached in PYCACHE."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONDONTWRITEBYTECODE", "PYTHONPYCACHEPREFIX")}
    env["PYTHONPYCACHEPREFIX"] = pycache
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), *filter(None, [os.environ.get("PYTHONPATH")])])
    return env


def cpu_of(args: list[str], env: dict[str, str] | None = None) -> float:
    """User + system CPU seconds of one run of `python ARGS`."""
    proc = subprocess.Popen([sys.executable, *args], cwd=ROOT, env=env, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
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
    with tempfile.TemporaryDirectory(prefix="bench-startup-") as folder:
        env = child_env(os.path.join(folder, "pycache"))
        script = console_script(folder)
        copy = os.path.join(folder, "exact61.rules")  # fmt rewrites files: a copy of a canonical one
        with open(ROOT / "rulesets" / "exact61.rules", encoding="utf-8") as src, open(copy, "w", encoding="utf-8") as dst:
            dst.write(src.read())
        argvs = {label: args if label.startswith("python") else [script, *(a.format(copy=copy) for a in args)]
                 for label, args in COMMANDS.items()}
        for argv in argvs.values():
            cpu_of(argv, env)  # warm the file cache and write the bytecode (and lark's parser cache, if used)
        times: dict[str, list[float]] = {label: [] for label in argvs}
        for _ in range(opts.repeat):  # interleaved, so that a change of load on a shared machine hits every command
            for label, argv in argvs.items():
                times[label].append(cpu_of(argv, env))
        medians = {label: statistics.median(t) for label, t in times.items()}
    base = medians["python -c pass"]
    for label, seconds in medians.items():
        print(f"{label:42s} {seconds * 1000:7.1f} ms CPU   ratio {seconds / base:5.1f}")


if __name__ == "__main__":
    main()
