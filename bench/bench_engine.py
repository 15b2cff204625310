"""Engine speed: random rounds and whole matches per variant and player count, against the yardstick.

    python bench/bench_engine.py [CONFIG.json ...] [--rounds N] [--matches M] [--repeat R]
                                 [--yardstick PATH] [--seed S] [--bundled] [--only-ratio] [--json]

Plays N random rounds (dealt, opened and settled by the real engine; random
players through the engine's fast path; no transcript) and M whole matches for
every bundled variant (tests/data/configs/*.json) and every configuration given
on the command line, at each allowed player count; prints rounds/s,
placements/s and peak traced memory. In the same run it times the yardstick
(/work/shared/bench/minimal_allfives.py, i.e. ../shared/bench relative to the
repository) on the same number of rounds and prints the ratio engine/yardstick
for 2-player All Fives random rounds. Timings are CPU time of this process
(time.process_time: other jobs on a shared machine do not count), the median
of R runs; the ratio is the median over R interleaved engine/yardstick pairs
(wall-clock ratio shown beside it).
"""
from __future__ import annotations

import argparse
import importlib.util
import json
import pathlib
import random
import statistics
import sys
import time
import tracemalloc

REPO = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from interpreter import Config, Match, Round, load_config, random_player  # noqa: E402

BUNDLED = REPO / "tests" / "data" / "configs"
DEFAULT_YARDSTICK = REPO.parent / "shared" / "bench" / "minimal_allfives.py"


def play_random_rounds(cfg, players: int, n: int, seed: int) -> tuple[int, int]:
    """Deal and play `n` rounds with random players; return (placements, draws)."""
    rng = random.Random(seed)
    bots = [random_player(seed * 8 + s) for s in range(players)]
    placements = draws = 0
    for _ in range(n):
        rnd = Round.deal(cfg, players, rng)
        rnd.run(bots)
        placements += rnd.placements
        draws += rnd.draws
    return placements, draws


def play_random_matches(cfg, players: int, n: int, seed: int) -> tuple[int, int]:
    """Play `n` whole matches with random players; return (rounds, placements)."""
    rounds = placements = 0
    for i in range(n):
        bots = [random_player((seed + i) * 8 + s) for s in range(players)]
        m = Match(cfg, players, seed + i)
        while not m.over:
            m.round.run(bots)
            placements += m.round.placements
            m.finish_round()
        rounds += len(m.rounds)
    return rounds, placements


def timed(fn, *args):
    """(CPU seconds of this process, wall seconds, result) of one call."""
    c, t = time.process_time(), time.perf_counter()
    out = fn(*args)
    return time.process_time() - c, time.perf_counter() - t, out


def peak_memory(fn, *args) -> int:
    """Peak traced memory (bytes) of one call."""
    tracemalloc.start()
    try:
        fn(*args)
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def load_yardstick(path: pathlib.Path):
    spec = importlib.util.spec_from_file_location("minimal_allfives", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod.play_rounds


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("configs", nargs="*", help="extra configuration JSON files")
    ap.add_argument("--rounds", type=int, default=3000)
    ap.add_argument("--matches", type=int, default=30)
    ap.add_argument("--repeat", type=int, default=7)
    ap.add_argument("--seed", type=int, default=12345)
    ap.add_argument("--yardstick", type=pathlib.Path, default=DEFAULT_YARDSTICK)
    ap.add_argument("--only-ratio", action="store_true", help="time only the 2-player All Fives ratio")
    ap.add_argument("--bundled", action="store_true",
                    help="also every ruleset bundled with the language (rulelang.compile_bundled)")
    ap.add_argument("--json", action="store_true", help="print the figures as JSON on stdout (the table goes to stderr)")
    args = ap.parse_args(argv)

    def say(*parts) -> None:
        print(*parts, file=sys.stderr if args.json else sys.stdout)

    configs = {p.stem: load_config(p) for p in sorted(BUNDLED.glob("*.json"))}
    if args.bundled:
        import rulelang
        from rulelang.bundled import bundled_names

        for name in bundled_names():
            if name not in configs:
                configs[name] = Config.from_dict(rulelang.compile_bundled(name))
    for p in args.configs:
        c = load_config(p)
        configs[c.name if c.name not in configs else f"{c.name}:{p}"] = c
    report = {"rounds": args.rounds, "matches": args.matches, "repeat": args.repeat, "variants": []}

    # 1. the ratio: 2-player All Fives random rounds, no transcript, against the yardstick
    ratio = None
    if args.yardstick and args.yardstick.exists() and "allfives" in configs:
        yard = load_yardstick(args.yardstick)
        eng_t, yard_t = [], []
        for k in range(args.repeat):
            eng_t.append(timed(play_random_rounds, configs["allfives"], 2, args.rounds, args.seed + k)[:2])
            yard_t.append(timed(yard, args.rounds, args.seed + k)[:2])
        # the ratio of each interleaved pair, then the median, so slow drifts of a shared machine
        # cancel; CPU time of this process (time.process_time) is the figure, wall time is shown too
        ratio = statistics.median(y[0] / e[0] for e, y in zip(eng_t, yard_t))
        wall_ratio = statistics.median(y[1] / e[1] for e, y in zip(eng_t, yard_t))
        e = statistics.median(x[0] for x in eng_t)
        y = statistics.median(x[0] for x in yard_t)
        report["yardstick"] = {"path": str(args.yardstick), "rounds_per_s": args.rounds / y,
                               "engine_rounds_per_s": args.rounds / e, "ratio": ratio,
                               "wall_ratio": wall_ratio}
        say(f"yardstick {args.yardstick.name}: {args.rounds / y:,.0f} rounds/s; engine (allfives, 2p, "
              f"random, no transcript): {args.rounds / e:,.0f} rounds/s (CPU time)")
        say(f"ratio engine/yardstick = {ratio:.2f} (CPU time; wall clock {wall_ratio:.2f}; median of "
              f"{args.repeat} interleaved pairs; requirement >= 0.33, aim 0.50)")
    else:
        print(f"yardstick not found at {args.yardstick}: no ratio", file=sys.stderr)
    if args.only_ratio:
        if args.json:
            print(json.dumps(report, indent=1))
        return 0

    # 2. every variant and player count: rounds, matches, memory
    say(f"{'variant':<15} {'n':>2} {'rounds/s':>10} {'placements/s':>13} {'us/round':>9} "
          f"{'matches/s':>10} {'rounds/match':>12} {'peak KiB':>9}")
    for name, cfg in configs.items():
        for players in cfg.counts:
            times = []
            for k in range(args.repeat):
                t, _wall, (pl, _dr) = timed(play_random_rounds, cfg, players, args.rounds, args.seed + k)
                times.append((t, pl))
            t, pl = sorted(times)[len(times) // 2]
            mt, _wall, (mr, _mp) = timed(play_random_matches, cfg, players, args.matches, args.seed)
            peak = peak_memory(play_random_matches, cfg, players, max(1, args.matches // 5), args.seed)
            row = {"variant": name, "players": players, "rounds_per_s": args.rounds / t,
                   "placements_per_s": pl / t, "us_per_round": 1e6 * t / args.rounds,
                   "matches_per_s": args.matches / mt, "rounds_per_match": mr / args.matches,
                   "match_rounds_per_s": mr / mt, "peak_kib": peak / 1024}
            report["variants"].append(row)
            say(f"{name:<15} {players:>2} {row['rounds_per_s']:>10,.0f} {row['placements_per_s']:>13,.0f} "
                  f"{row['us_per_round']:>9.1f} {row['matches_per_s']:>10,.1f} {row['rounds_per_match']:>12.1f} "
                  f"{row['peak_kib']:>9.0f}")
    if args.json:
        print(json.dumps(report, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
