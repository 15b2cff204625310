"""Start-up cost of the command line, in CPU time, as a ratio to `python -c pass` measured in the same run.

    python bench/bench_startup.py                  # this checkout
    python bench/bench_startup.py --repeat 21
    python bench/bench_startup.py --checkout before=/path/to/old/checkout --checkout after=.
    python bench/bench_startup.py --checkout click=/path@rulelang.cli:main   # another console script

Each command runs --repeat times in a fresh interpreter, as an installed user
runs it: through the console script pip writes for `[project.scripts]` in the
checkout's pyproject.toml (or the `@module:attr` given), with the checkout
first on the path, and with bytecode cached (pip compiles a package when it
installs it; here the warm-up run writes the bytecode to a temporary
PYTHONPYCACHEPREFIX, even when PYTHONDONTWRITEBYTECODE is set, so that no run
pays for compiling the sources and the checkout gets no __pycache__). An older
checkout that kept lark's parser in a cache file has it written by the warm-up
run, in a temporary XDG_CACHE_HOME, as a user's first run did. Every command of every checkout takes its turn once,
--repeat times, so that a change of load on a shared machine falls on all of
them alike. The CPU time of each child (user + system, from os.wait4) is
taken, and the median is compared with the median of `python -c pass`.
CPU time, not wall-clock time, so other jobs on a shared machine barely count.
Target: `check`, `fmt --check` and `explain` of one file at most 8 times
`python -c pass`.
"""
from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BASELINE = "python -c pass"
TARGET = 8.0
# label -> (arguments of the console script, extra environment)
COMMANDS: dict[str, tuple[list[str], dict[str, str]]] = {
    "rulelang --version": (["--version"], {}),
    "rulelang --help": (["--help"], {}),
    "rulelang list": (["list"], {}),
    "rulelang check rulesets/exact61.rules": (["check", "rulesets/exact61.rules"], {}),
    "rulelang check rulesets/allfives-pooled.rules": (["check", "rulesets/allfives-pooled.rules"], {}),  # based on allfives
    "rulelang fmt --check FILE": (["fmt", "--check", "{copy}"], {}),
    "rulelang explain exact61": (["explain", "exact61"], {}),
    "rulelang check FILE, no parser cache": (["check", "rulesets/exact61.rules"], {"RULELANG_NO_PARSER_CACHE": "1"}),
}
TARGETED = ("rulelang check rulesets/exact61.rules", "rulelang check rulesets/allfives-pooled.rules",
            "rulelang fmt --check FILE", "rulelang explain exact61")
# what pip writes as the `rulelang` console script (pip's template; the entry point from pyproject.toml)
SCRIPT = """import sys
from {module} import {attr}
if __name__ == "__main__":
    sys.argv[0] = sys.argv[0].removesuffix(".exe")
    sys.exit({attr}())
"""


def entry_point(checkout: Path) -> str:
    """The `rulelang` console script's entry point in CHECKOUT's pyproject.toml."""
    with open(checkout / "pyproject.toml", "rb") as fh:
        entry: str = tomllib.load(fh)["project"]["scripts"]["rulelang"]
    return entry


def console_script(folder: str, entry: str) -> str:
    """Write the `rulelang` console script for ENTRY ("module:attr") into FOLDER; its path."""
    module, attr = entry.split(":")
    os.makedirs(folder, exist_ok=True)
    path = os.path.join(folder, "rulelang")
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(SCRIPT.format(module=module, attr=attr))
    return path


def child_env(checkout: Path, scratch: str) -> dict[str, str]:
    """The children's environment: CHECKOUT first on the path, bytecode and lark's cache under SCRATCH."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONDONTWRITEBYTECODE", "PYTHONPYCACHEPREFIX")}
    env["PYTHONPYCACHEPREFIX"] = os.path.join(scratch, "pycache")
    env["XDG_CACHE_HOME"] = os.path.join(scratch, "cache")
    env["PYTHONPATH"] = os.pathsep.join([str(checkout), *filter(None, [os.environ.get("PYTHONPATH")])])
    return env


def cpu_of(argv: list[str], cwd: Path, env: dict[str, str]) -> float:
    """User + system CPU seconds of one run of `python ARGV`."""
    proc = subprocess.Popen([sys.executable, *argv], cwd=cwd, env=env, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    _pid, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode != 0:
        raise SystemExit(f"python {' '.join(argv)} exited {proc.returncode}")
    return usage.ru_utime + usage.ru_stime


def checkouts(specs: list[str]) -> dict[str, tuple[Path, str]]:
    """label -> (checkout, entry point) from `LABEL=PATH[@module:attr]` (none given: this checkout)."""
    found: dict[str, tuple[Path, str]] = {}
    for spec in specs or [f"this checkout={ROOT}"]:
        label, _, where = spec.rpartition("=")
        path, _, entry = where.partition("@")
        checkout = Path(path).resolve()
        found[label] = (checkout, entry or entry_point(checkout))
    return found


Run = tuple[list[str], Path, dict[str, str]]


def prepare(found: dict[str, tuple[Path, str]], folder: str) -> dict[tuple[str, str], Run]:
    """(checkout label, command label) -> the run: argv, folder to run in, environment."""
    runs: dict[tuple[str, str], Run] = {("", BASELINE): (["-c", "pass"], ROOT, child_env(ROOT, folder))}
    for n, (label, (checkout, entry)) in enumerate(found.items()):
        scratch = os.path.join(folder, str(n))
        script = console_script(scratch, entry)
        copy = os.path.join(scratch, "exact61.rules")  # fmt may rewrite files: a copy of a canonical one
        shutil.copyfile(checkout / "rulesets" / "exact61.rules", copy)
        for command, (args, extra) in COMMANDS.items():
            env = dict(child_env(checkout, scratch), **extra)
            runs[(label, command)] = ([script, *(a.format(copy=copy) for a in args)], checkout, env)
    return runs


def measure(runs: dict[tuple[str, str], Run], repeat: int) -> dict[tuple[str, str], float]:
    """The median CPU seconds of each run, every run taking its turn once per round."""
    for argv, cwd, env in runs.values():
        cpu_of(argv, cwd, env)  # warm the file cache, write the bytecode and lark's parser cache
    times: dict[tuple[str, str], list[float]] = {key: [] for key in runs}
    for _ in range(repeat):
        for key, (argv, cwd, env) in runs.items():
            times[key].append(cpu_of(argv, cwd, env))
    return {key: statistics.median(t) for key, t in times.items()}


def table(medians: dict[tuple[str, str], float], labels: list[str]) -> str:
    """A Markdown table: one row per command, per checkout its CPU time and its ratio to the baseline."""
    base = medians[("", BASELINE)]
    lines = ["| command | " + " | ".join(labels) + " |", "|---|" + "---:|" * len(labels),
             f"| `{BASELINE}` | " + " | ".join(f"{base * 1000:.0f} ms (1.0x)" for _ in labels) + " |"]
    for command in COMMANDS:
        cells = [f"{medians[(label, command)] * 1000:.0f} ms ({medians[(label, command)] / base:.1f}x)"
                 for label in labels]
        lines.append(f"| `{command}` | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=11)
    parser.add_argument("--checkout", action="append", default=[], metavar="LABEL=PATH[@module:attr]",
                        help="a checkout to measure (repeatable; default: this one)")
    opts = parser.parse_args()
    found = checkouts(opts.checkout)
    with tempfile.TemporaryDirectory(prefix="bench-startup-") as folder:
        medians = measure(prepare(found, folder), opts.repeat)
    print(table(medians, list(found)))
    base = medians[("", BASELINE)]
    over = [(label, c) for label in found for c in TARGETED if medians[(label, c)] / base > TARGET]
    for label, command in over:
        print(f"{label}: `{command}` is over {TARGET:g}x `{BASELINE}`")
    return 1 if over else 0


if __name__ == "__main__":
    sys.exit(main())
