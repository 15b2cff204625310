"""Time the engine's hottest slice three ways: CPython, mypyc, Cython's pure-Python mode annotated.

The slice is `placement_codes` and `Layout.place` (bench/cyslice/slice_plain.py: a copy of
interpreter/layout.py's, compiled by mypyc as the engine's build does) and the same rules in Cython's
pure-Python mode with C arrays (bench/cyslice/slice_cy.py, option (B)). Both are replayed on the same
positions, recorded from random 2-player All Fives rounds played by the engine: at each placement the
legal placements of the hand to move, then the placement. Every variant must give the engine's own lists
and counted sums before anything is timed. The engine itself (`Round.deal(...).run(...)`) and the
yardstick are timed in the same loop, so that the slice's share of a placement and the whole engine's
ratio under (B) can be estimated.

    python bench/bench_slice_cython.py --build          # build the compiled slices into --build-dir
    python bench/bench_slice_cython.py [--engine-root COMPILED_CHECKOUT]

Needs Cython (`import cython`: the annotated file under CPython, and `--build`) and mypy (`--build`) in the
running environment: a throwaway one, e.g. `python3 -m venv /tmp/cy && /tmp/cy/bin/pip install cython
setuptools mypy`, with the checkout on PYTHONPATH.
"""
from __future__ import annotations

import argparse
import importlib
import importlib.util
import os
import pathlib
import random
import shutil
import statistics
import subprocess
import sys
import time

REPO = pathlib.Path(__file__).resolve().parent.parent
HERE = pathlib.Path(__file__).resolve().parent / "cyslice"
SLICES = ["slice_plain.py", "slice_cy.py"]


def build(out: pathlib.Path) -> None:
    """mypyc on slice_plain, cythonize on slice_cy and on a copy of slice_plain (unannotated Cython)."""
    out.mkdir(parents=True, exist_ok=True)
    for name in SLICES:
        shutil.copy(HERE / name, out / name)
    shutil.copy(HERE / "slice_plain.py", out / "slice_plain_cyc.py")
    run = [sys.executable, "-m"]
    subprocess.run(run + ["mypyc", "--strict", "slice_plain.py"], cwd=out, check=True)
    subprocess.run(run + ["Cython.Build.Cythonize", "-i", "-3", "slice_cy.py", "slice_plain_cyc.py"], cwd=out,
                   check=True)


def load_file(name: str, path: pathlib.Path):
    """A module from a .py file under its own name (the slices' source, run by CPython)."""
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def record(engine, cfg, rounds: int, seed: int) -> tuple[list[int], list[int], list[tuple[list[int], int]]]:
    """(hands, codes, the engine's trace): every placement of `rounds` random rounds played by the engine."""
    rng = random.Random(seed)
    hands: list[int] = []
    codes: list[int] = []
    trace: list[tuple[list[int], int]] = []
    for _ in range(rounds):
        rnd = engine.Round.deal(cfg, 2, rng)
        while not rnd.over:
            legal = list(rnd.legal_codes())
            code = legal[int(rng.random() * len(legal))]
            hands.append(rnd.hand_masks[rnd.seat_to_move])
            codes.append(code)
            lead = not rnd.layout.placed
            rnd.play_code(code)
            trace.append(([] if lead else legal, rnd.layout.total))
    return hands, codes, trace


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--build", action="store_true", help="build the compiled slices, then stop")
    ap.add_argument("--build-dir", type=pathlib.Path, default=pathlib.Path("/tmp/cyslice-build"))
    ap.add_argument("--engine-root", type=pathlib.Path, default=REPO,
                    help="the checkout whose engine records and is timed (a compiled one: setup.py build_ext --inplace)")
    ap.add_argument("--yardstick", type=pathlib.Path, default=REPO.parent / "shared" / "bench" / "minimal_allfives.py")
    ap.add_argument("--rounds", type=int, default=3000)
    ap.add_argument("--repeat", type=int, default=7)
    ap.add_argument("--seed", type=int, default=12345)
    args = ap.parse_args(argv)
    if args.build:
        build(args.build_dir)
        return 0
    sys.path.insert(0, str(args.engine_root))
    engine = importlib.import_module("rulelang.interpreter")
    from rulelang.interpreter.build import engine_build

    cfg = engine.load_config(REPO / "tests" / "data" / "configs" / "allfives.json")
    sys.path.insert(0, str(args.build_dir))
    variants = {
        "CPython, slice_plain.py": load_file("slice_plain_py", HERE / "slice_plain.py"),
        "CPython, slice_cy.py (annotated, shadow cython)": load_file("slice_cy_py", HERE / "slice_cy.py"),
        "mypyc, slice_plain.py (the engine's build)": importlib.import_module("slice_plain"),
        "Cython, slice_plain.py unannotated": importlib.import_module("slice_plain_cyc"),
        "Cython (B), slice_cy.py annotated, engine's list per call": importlib.import_module("slice_cy"),
        "Cython (B), slice_cy.py annotated, C array only": importlib.import_module("slice_cy"),
    }
    names = list(variants)
    for n in names[2:]:
        assert str(variants[n].__file__).endswith(".so"), f"{n}: not compiled ({variants[n].__file__})"
    lr = importlib.import_module("rulelang.interpreter.rules").rules_of(cfg).layout  # the engine's All Fives tables
    assert not (lr.sniff or lr.one_tile) and lr.n_tiles == 28
    flags = (lr.dv[:28], lr.branch_every, lr.branch_first, lr.branch_lead, lr.branch_after_lead, lr.at_once)
    tables = {n: (variants[n].Tables(*flags)) for n in names}
    hands, codes, want = record(engine, cfg, args.rounds, args.seed)
    steps = len(codes)
    print(f"engine: {engine_build()}, from {pathlib.Path(engine.__path__[0]).resolve()}")
    print(f"{args.rounds} rounds recorded, {steps} placements; load average {os.getloadavg()}")
    # the same results: each variant's lists and counted sums are the engine's, and the checksums agree
    for n in names:
        got = variants[n].trace(tables[n], hands, codes)
        if [(list(a), b) for a, b in got] != want:
            bad = next(i for i, (g, w) in enumerate(zip(got, want)) if (list(g[0]), g[1]) != w)
            print(f"DIFFERENT RESULTS: {n} at step {bad}: {got[bad]} != {want[bad]}")
            return 1
    replays = {n: variants[n].replay for n in names}
    replays[names[4]] = variants[names[4]].replay_lists
    sums = {n: replays[n](tables[n], hands, codes) for n in names}
    assert len(set(sums.values())) == 1, sums
    print(f"all {len(names)} variants give the engine's lists and counted sums at every step (checksum {sums[names[0]]})")

    yard = load_file("minimal_allfives", args.yardstick).play_rounds if args.yardstick.exists() else None
    bots = [engine.random_player(args.seed * 8 + s) for s in range(2)]
    slice_t: dict[str, list[float]] = {n: [] for n in names}
    loop_t: dict[str, list[float]] = {n: [] for n in names}
    eng_us: list[float] = []
    yard_us: list[float] = []
    for k in range(args.repeat):
        order = names[k % len(names):] + names[: k % len(names)]  # rotate the order each repeat
        for n in order:
            c = time.process_time()
            replays[n](tables[n], hands, codes)
            slice_t[n].append((time.process_time() - c) * 1e6 / steps)
            c = time.process_time()
            variants[n].loop_only(tables[n], hands, codes)
            loop_t[n].append((time.process_time() - c) * 1e6 / steps)
        rng = random.Random(args.seed + k)
        c = time.process_time()
        placed = 0
        for _ in range(args.rounds):
            rnd = engine.Round.deal(cfg, 2, rng)
            rnd.run(bots)
            placed += rnd.placements
        eng_us.append((time.process_time() - c) * 1e6 / placed)
        if yard is not None:
            c = time.process_time()
            res = yard(args.rounds, args.seed + k)
            yard_us.append((time.process_time() - c) * 1e6 / res[0])
    # net: the replay less its own loop (`loop_only`, the same module), per run
    net_t = {n: [a - b for a, b in zip(slice_t[n], loop_t[n])] for n in names}
    med = {n: statistics.median(v) for n, v in net_t.items()}
    raw = {n: statistics.median(v) for n, v in slice_t.items()}
    base = med[names[2]]
    print(f"\nthe slice per placement (placement_codes + place), CPU time, median of {args.repeat} rotated runs;"
          " net: less the replay's own loop (`loop_only`):\n")
    print("| variant | µs per placement, net | runs (net) | with the loop | mypyc / variant (net) |")
    print("| --- | --- | --- | --- | --- |")
    for n in names:
        runs = ", ".join(f"{x:.3f}" for x in net_t[n])
        print(f"| {n} | {med[n]:.3f} | {runs} | {raw[n]:.3f} | {base / med[n]:.2f} |")
    e = statistics.median(eng_us)
    print(f"\nthe engine, Round.deal(...).run(random players): {e:.3f} µs per placement; the mypyc slice is "
          f"{base / e:.0%} of it")
    if yard_us:
        y = statistics.median(yard_us)
        ratio = statistics.median(a / b for a, b in zip(yard_us, eng_us))
        print(f"yardstick {y:.3f} µs per placement: engine / yardstick {ratio:.2f} per placement")
        for n in names[4:]:
            est = y / (e - base + med[n])
            print(f"  with the slice as {n}: about {e - base + med[n]:.3f} µs, engine / yardstick about {est:.2f}")
        print(f"  with the slice free (0 µs): engine / yardstick at most {y / (e - base):.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
