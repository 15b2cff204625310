"""Balance-study throughput: the Dask backend and --jobs 2 against --jobs 1, on the same work.

    nice -n 10 python bench/bench_balance.py [--variant exact61] [--matches 200] [--skill-matches 8]
                                             [--strong pimc:4] [--workers 2] [--backends jobs1,jobs2,dask] [--json]

Plays the same study (field and greedy-vs-random matches, strong-player
matches) once per backend: serially (`jobs1`), in 2 worker processes
(`jobs2`), and on a local Dask cluster of `--workers` single-threaded worker
processes (`dask`; its start-up is timed apart and not counted). Prints matches
per second (wall clock) and each backend's ratio to `jobs1`, and checks that
every backend played exactly the same matches. On a shared machine the ratios
depend on what else runs; they cannot exceed the free cores.
"""
from __future__ import annotations

import argparse
import json
import pathlib
import sys
import time

REPO = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from rulelang.tools import study  # noqa: E402
from rulelang.tools.configs import load_engine_config  # noqa: E402


def timed(params, **kw) -> tuple[float, list]:
    rows: list = []
    t = time.perf_counter()
    study.execute(study.plan(params, set()), on_result=rows.extend, **kw)
    return time.perf_counter() - t, sorted(rows, key=lambda r: (r["key"], r["part"], r["index"]))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--variant", default="exact61")
    ap.add_argument("--matches", type=int, default=200)
    ap.add_argument("--skill-matches", type=int, default=8)
    ap.add_argument("--strong", default="pimc:4")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--backends", default="jobs1,jobs2,dask")
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args()
    data, _ = load_engine_config(a.variant)
    params = {"variants": {"a": data}, "players": 2, "seed": 0, "matches": a.matches, "skill_matches": a.skill_matches,
              "field": "greedy", "strong": a.strong}
    total = 2 * a.matches + 2 * a.skill_matches
    out = {"variant": a.variant, "matches": total, "backends": {}}
    reference = None
    for name in a.backends.split(","):
        extra = {}
        if name == "dask":
            from distributed import Client, LocalCluster

            t = time.perf_counter()
            cluster = LocalCluster(n_workers=a.workers, threads_per_worker=1, dashboard_address=None)
            client = Client(cluster)
            extra["startup_s"] = time.perf_counter() - t
            try:
                secs, rows = timed(params, dask=client)
            finally:
                client.close()
                cluster.close()
        else:
            secs, rows = timed(params, jobs=int(name.removeprefix("jobs")))
        if reference is None:
            reference = rows
        elif rows != reference:
            raise SystemExit(f"{name} played different matches from {a.backends.split(',')[0]}")
        out["backends"][name] = {"seconds": secs, "matches_per_s": total / secs, **extra}
    base = out["backends"].get("jobs1")
    for row in out["backends"].values():
        row["ratio_to_jobs1"] = row["matches_per_s"] / base["matches_per_s"] if base else None
    if a.json:
        print(json.dumps(out, indent=1))
        return
    print(f"{a.variant}: {total} matches per backend (same matches on each: checked)")
    for name, row in out["backends"].items():
        ratio = f"{row['ratio_to_jobs1']:.2f}x jobs1" if row["ratio_to_jobs1"] else ""
        start = f" (+{row['startup_s']:.1f} s cluster start-up)" if "startup_s" in row else ""
        print(f"  {name:6} {row['seconds']:7.2f} s  {row['matches_per_s']:8.1f} matches/s  {ratio}{start}")


if __name__ == "__main__":
    main()
