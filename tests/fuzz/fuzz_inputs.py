#!/usr/bin/env python3
"""Fuzz rulelang with hostile inputs and report every internal error, hang and memory peak.

    python tests/fuzz/fuzz_inputs.py --count 100000 [--seed S] [--jobs J] [--kinds mutated,grammar,case,answer,hostile]

Each input is made from (seed, index), so any finding can be replayed with
`--replay INDEX` (same seed and kinds). Inputs are run in-process in worker
processes (fuzzlib.run_input); every `--cli-every`-th ruleset text or hostile
file also goes through the real command line (`rulelang check` and `compile` in a
subprocess), whose exit status must be 0, 1 or 2.

Reported: inputs run and their rate; internal errors by crash class (exception
type and innermost project frame) with the owner of the fix (`language`:
parser/compiler; `runner/cli`: everything else) and the first input of each
class saved under --save-dir; hangs (an input over --time-bound seconds of CPU);
stalls (no answer from a worker within a wall-clock bound); the peak memory
(maximum resident set) of any worker, with the inputs that raised it past
--memory-bound MB. Workers run under an address-space limit (--rlimit MB), so a
runaway input ends in MemoryError (reported) instead of taking the machine.
"""
from __future__ import annotations

import argparse
import json
import multiprocessing as mp
import os
import random
import resource
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path[:0] = [str(ROOT), str(HERE)]

import fuzzlib  # noqa: E402

_OPTS: dict[str, Any] = {}


class Hang(Exception):
    """The input ran past the CPU-time bound."""


def _on_hang(signum: int, frame: Any) -> None:
    raise Hang(f"over {_OPTS['time_bound']:g} s of CPU time")


def _worker_init(opts: dict[str, Any]) -> None:
    _OPTS.update(opts)
    if opts["rlimit"]:
        limit = opts["rlimit"] * 1024 * 1024
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGVTALRM, _on_hang)
    from rulelang.base.procs import die_with_parent

    die_with_parent(os.getppid())
    for warm in fuzzlib.KINDS:  # load the grammar, the cases and the schema before measuring memory
        fuzzlib.run_input(warm, fuzzlib.make_input(warm, random.Random(0)), random.Random(0))


def _rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _kind_of(index: int, kinds: list[str]) -> str:
    return kinds[index % len(kinds)]


def run_task(index: int) -> dict[str, Any]:
    """Make input `index` and run it; the outcome with its CPU time and memory high-water mark."""
    kinds = _OPTS["kinds"]
    kind = _kind_of(index, kinds)
    rng = random.Random(f"{_OPTS['seed']}/{index}")
    try:
        value = fuzzlib.make_input(kind, rng)
    except Exception as exc:  # noqa: BLE001 - a fault of the fuzzer, not of rulelang: counted apart
        return {"index": index, "kind": kind, "status": "generator", "class": f"generator {type(exc).__name__}",
                "owner": "fuzzer", "detail": str(exc)[:200], "cpu": 0.0, "rss_before": _rss_mb(),
                "rss_after": _rss_mb(), "size": 0}
    before = _rss_mb()
    t0 = time.process_time()
    signal.setitimer(signal.ITIMER_VIRTUAL, _OPTS["time_bound"])
    try:
        outcome = fuzzlib.run_input(kind, value, rng)
    except Hang as exc:
        outcome = fuzzlib.Outcome("hang", "Hang", "", str(exc))
    finally:
        signal.setitimer(signal.ITIMER_VIRTUAL, 0)
    if outcome.status == "internal" and outcome.crash_class.startswith("Hang"):
        outcome = fuzzlib.Outcome("hang", "Hang", "", outcome.detail)
    seconds = time.process_time() - t0
    after = _rss_mb()
    result: dict[str, Any] = {"index": index, "kind": kind, "status": outcome.status, "class": outcome.crash_class,
                              "owner": outcome.owner, "detail": outcome.detail, "cpu": seconds,
                              "rss_before": before, "rss_after": after, "size": _size(value)}
    if outcome.status != "ok" or (after > _OPTS["memory_bound"] >= before):
        result["input"] = _printable(value)
    cli_every = _OPTS["cli_every"]
    if kind in ("mutated", "grammar", "hostile") and cli_every and index % cli_every == 0:
        result["cli"] = _cli_exit(value)
    return result


def _size(value: Any) -> int:
    if isinstance(value, (str, bytes)):
        return len(value)
    if isinstance(value, tuple):
        return len(value[1])
    return 0


def _printable(value: Any) -> Any:
    if isinstance(value, bytes):  # a hostile file: its bytes, undecodable ones as \\xNN
        return value.decode("utf-8", "backslashreplace")
    return list(value) if isinstance(value, tuple) else value


def _cli_exit(value: str | bytes) -> list[int]:
    """Exit statuses of `rulelang check FILE` and `rulelang compile FILE` (-1: over the time bound)."""
    codes = []
    data = value if isinstance(value, bytes) else value.encode("utf-8", "surrogatepass")
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "fuzz.rules")
        with open(path, "wb") as fh:
            fh.write(data)
        for command in ("check", "compile"):
            try:
                res = subprocess.run([sys.executable, "-m", "rulelang", command, path], cwd=ROOT, capture_output=True,
                                     timeout=max(30, 3 * _OPTS["time_bound"]), stdin=subprocess.DEVNULL)
                codes.append(res.returncode)
            except subprocess.TimeoutExpired:
                codes.append(-1)
    return codes


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--count", type=int, default=1000, help="inputs to run")
    ap.add_argument("--start", type=int, default=0, help="first input index")
    ap.add_argument("--seed", default="0")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--kinds", default=",".join(fuzzlib.KINDS), help=f"comma-separated, of {', '.join(fuzzlib.KINDS)}")
    ap.add_argument("--time-bound", type=float, default=10.0, help="CPU seconds an input may take")
    ap.add_argument("--memory-bound", type=float, default=200.0, help="MB of peak memory an input may reach")
    ap.add_argument("--rlimit", type=int, default=1024, help="address-space limit of a worker, MB (0: none)")
    ap.add_argument("--cli-every", type=int, default=500, help="run every Nth ruleset text through the CLI too (0: never)")
    ap.add_argument("--save-dir", default=os.path.join(tempfile.gettempdir(), "rulelang-fuzz"))
    ap.add_argument("--out", help="write the summary as JSON here")
    ap.add_argument("--replay", type=int, help="run only this input index, in this process, and print it")
    ap.add_argument("--progress", type=int, default=5000, help="print a progress line every N inputs")
    args = ap.parse_args(argv)
    kinds = [k for k in args.kinds.split(",") if k]
    if not kinds or any(k not in fuzzlib.KINDS for k in kinds):
        ap.error(f"--kinds: choose among {', '.join(fuzzlib.KINDS)}")
    opts = {"kinds": kinds, "seed": args.seed, "time_bound": args.time_bound, "memory_bound": args.memory_bound,
            "rlimit": args.rlimit, "cli_every": args.cli_every}
    if args.replay is not None:
        _OPTS.update(opts)
        signal.signal(signal.SIGVTALRM, _on_hang)
        if args.rlimit:  # the same address-space bound as a worker: a runaway input must not take the machine
            resource.setrlimit(resource.RLIMIT_AS, (args.rlimit << 20, args.rlimit << 20))
        r = run_task(args.replay)
        if isinstance(r.get("input"), str) and len(r["input"]) > 5000:
            r["input"] = r["input"][:5000] + f"... ({len(r['input'])} characters)"
        print(json.dumps(r, indent=1, default=str))
        return 0 if r["status"] == "ok" else 1
    return _campaign(args, opts)


def _campaign(args: argparse.Namespace, opts: dict[str, Any]) -> int:
    save = Path(args.save_dir)
    save.mkdir(parents=True, exist_ok=True)
    t0 = time.monotonic()
    done = 0
    by_kind: Counter[str] = Counter()
    classes: dict[str, dict[str, Any]] = {}
    hangs: list[dict[str, Any]] = []
    stalls = 0
    lost = 0
    cli_runs = 0
    generator_faults = 0
    cli_bad: list[dict[str, Any]] = []
    over_memory: list[dict[str, Any]] = []
    peak = {"rss_mb": 0.0, "index": None, "kind": None}
    max_cpu = {"cpu": 0.0, "index": None, "kind": None}
    baseline = None
    indices = list(range(args.start, args.start + args.count))
    batch = 500
    ctx = mp.get_context("fork")
    from rulelang.base.procs import prepare

    prepare()
    pool = ctx.Pool(args.jobs, initializer=_worker_init, initargs=(opts,), maxtasksperchild=500)
    try:
        for b in range(0, len(indices), batch):
            part = indices[b:b + batch]
            got = 0
            it = pool.imap_unordered(run_task, part)  # chunksize 1: its iterator takes a timeout
            while got < len(part):
                try:
                    r = it.next(timeout=max(120.0, 10 * args.time_bound))
                except mp.TimeoutError:
                    stalls += 1
                    lost += len(part) - got
                    print(f"stall: no answer within the wall-clock bound; {len(part) - got} inputs of "
                          f"{part[0]}..{part[-1]} lost", flush=True)
                    pool.terminate()
                    pool = ctx.Pool(args.jobs, initializer=_worker_init, initargs=(opts,), maxtasksperchild=500)
                    break
                got += 1
                done += 1
                by_kind[r["kind"]] += 1
                baseline = r["rss_before"] if baseline is None else min(baseline, r["rss_before"])
                if r["rss_after"] > peak["rss_mb"]:
                    peak = {"rss_mb": r["rss_after"], "index": r["index"], "kind": r["kind"]}
                if r["cpu"] > max_cpu["cpu"]:
                    max_cpu = {"cpu": round(r["cpu"], 3), "index": r["index"], "kind": r["kind"]}
                if r["rss_after"] > args.memory_bound >= r["rss_before"]:
                    over_memory.append({k: r[k] for k in ("index", "kind", "rss_after", "size")})
                if r["status"] == "internal":
                    c = classes.setdefault(r["class"], {"count": 0, "owner": r["owner"], "first": r["index"],
                                                        "kind": r["kind"], "detail": r["detail"]})
                    c["count"] += 1
                    if c["count"] == 1:
                        _save(save, r)
                elif r["status"] == "generator":
                    generator_faults += 1
                elif r["status"] == "hang":
                    hangs.append({k: r[k] for k in ("index", "kind", "detail")})
                    _save(save, r)
                if "cli" in r:
                    cli_runs += 1
                    if any(code not in (0, 1, 2) for code in r["cli"]):
                        cli_bad.append({"index": r["index"], "exits": r["cli"]})
                        _save(save, r)
                if args.progress and done % args.progress == 0:
                    rate = done / (time.monotonic() - t0)
                    errors = sum(c["count"] for c in classes.values())
                    print(f"{done} inputs, {rate:.0f}/s, {errors} internal errors in {len(classes)} classes, "
                          f"{len(hangs)} hangs, peak {peak['rss_mb']:.0f} MB", flush=True)
    finally:
        _stop(pool)
    elapsed = time.monotonic() - t0
    summary = {
        "seed": args.seed, "inputs": done, "by_kind": dict(by_kind), "seconds": round(elapsed, 1),
        "rate_per_s": round(done / elapsed, 1) if elapsed else None,
        "internal_errors": sum(c["count"] for c in classes.values()),
        "classes": dict(sorted(classes.items(), key=lambda kv: -kv[1]["count"])),
        "hangs": hangs, "stalls": stalls, "lost": lost, "generator_faults": generator_faults,
        "cli_runs": cli_runs, "cli_bad_exits": cli_bad,
        "peak_rss_mb": round(peak["rss_mb"], 1), "peak_at": peak, "baseline_rss_mb": round(baseline or 0, 1),
        "over_memory_bound": over_memory, "max_cpu_s": max_cpu, "save_dir": str(args.save_dir),
    }
    text = json.dumps(summary, indent=1, default=str)
    if args.out:
        Path(args.out).write_text(text + "\n", encoding="utf-8")
    print(text)
    bad = summary["internal_errors"] or hangs or stalls or cli_bad or over_memory
    return 1 if bad else 0


def _stop(pool: Any) -> None:
    """End the workers without Pool.terminate's wait: that can block forever on a queue lock a dead worker held."""
    import threading

    for proc in list(getattr(pool, "_pool", [])):
        try:
            proc.kill()
        except (OSError, ValueError):
            pass
    threading.Thread(target=pool.terminate, daemon=True).start()  # tidies what it can; never waited for long
    time.sleep(0.5)


def _save(folder: Path, r: dict[str, Any]) -> None:
    name = f"{r['kind']}-{r['index']}.json"
    (folder / name).write_text(json.dumps(r, indent=1, default=str, ensure_ascii=False), encoding="utf-8",
                               errors="surrogatepass")


if __name__ == "__main__":
    code = main()
    sys.stdout.flush()
    os._exit(code)  # no interpreter teardown: multiprocessing's exit hooks could wait on the killed workers
