"""What a skill ladder costs: CPU seconds per match and searched decisions per second, link by link.

    nice -n 10 python bench/bench_ladder.py [--variants exact61,pagat,allfives] [--link-matches 20]
                                            [--top pimc:80] [--rungs LIST] [--players 2] [--json]

Plays each link of the ladder of `rulelang balance VARIANT --ladder` (the
same code, serially in this process; every link, whether or not the ladder
would have stopped below it) and times it with the process's CPU clock;
decisions per second count the search players' searched decisions (more than
one legal move) over their own CPU time. Multiply the CPU per match by
`--link-matches` and add the links up for what a full ladder costs on one
core; `--jobs N` divides the wall time by up to N.
"""
from __future__ import annotations

import argparse
import json
import pathlib
import sys
import time
from typing import Any

REPO = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from rulelang.tools import ladder  # noqa: E402
from rulelang.tools import playernames as registry  # noqa: E402
from rulelang.tools.configs import load_engine_config  # noqa: E402


def bench(variant: str, players: int, link_matches: int, rungs: list[str], base_seed: int) -> list[dict[str, Any]]:
    data, cfg = load_engine_config(variant)
    params = {"mode": "ladder", "variants": {"a": data}, "players": players, "seed": base_seed,
              "link_matches": link_matches, "rungs": rungs, "bars": [0.6]}
    made: list[Any] = []
    real = registry.make_player

    def counting(spec: str, config: Any, seed: int) -> Any:
        p = real(spec, config, seed)
        made.append(p)
        return p

    rows: list[dict[str, Any]] = []
    state: dict[str, Any] = {}

    def close() -> None:
        if state:
            cpu = time.process_time() - state["cpu"]
            searched = sum(getattr(p, "searched", 0) for p in made)
            busy = sum(getattr(p, "busy", 0.0) for p in made)
            rows.append({"variant": variant, "link": state["name"], "matches": state["total"],
                         "cpu_per_match": cpu / max(1, state["total"]), "wall": time.perf_counter() - state["wall"],
                         "searched": searched, "decisions_per_s": searched / busy if busy else None})
            made.clear()

    def on_link(name: str, total: int) -> None:
        close()
        state.update(name=name, total=total, cpu=time.process_time(), wall=time.perf_counter())

    sides = max(cfg.sides_of(players)) + 1
    played: ladder.Rows = {}
    registry.make_player = counting
    try:
        for lower, upper in ladder.links(rungs):  # each link on its own: the ladder's stop does not apply here
            played |= ladder.climb({**params, "rungs": [lower, upper]}, sides, on_link=on_link)
            close()
            state.clear()
    finally:
        registry.make_player = real
    for r in rows:
        got = [m for k, m in played.items() if k[1] == r["link"]]
        r["share"] = sum(ladder.upper_score(m, sides) for m in got) / len(got)
    return rows


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--variants", default="exact61,pagat,allfives")
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--link-matches", type=int, default=20)
    ap.add_argument("--top", default=ladder.DEFAULT_TOP)
    ap.add_argument("--rungs", default=None)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args()
    rungs = ladder.parse_rungs(a.rungs) if a.rungs else ladder.default_rungs(a.top)
    rows = [r for v in a.variants.split(",") for r in bench(v, a.players, a.link_matches, rungs, a.seed)]
    if a.json:
        print(json.dumps(rows, indent=1))
        return
    print(f"{'variant':10} {'link':22} {'matches':>7} {'share':>6} {'cpu s/match':>11} {'decisions/s':>11}")
    for r in rows:
        dps = "-" if r["decisions_per_s"] is None else f"{r['decisions_per_s']:.0f}"
        print(f"{r['variant']:10} {r['link']:22} {r['matches']:7d} {100 * r['share']:5.1f}% {r['cpu_per_match']:11.3f} {dps:>11}")
    total = sum(r["cpu_per_match"] * r["matches"] for r in rows)
    print(f"total CPU {total:.1f} s for {sum(r['matches'] for r in rows)} matches")


if __name__ == "__main__":
    main()
