"""Engine speed: random rounds, whole matches and the paths tools take, against the yardstick.

    python bench/bench_engine.py [CONFIG.json ...] [--rounds N] [--matches M] [--repeat R]
                                 [--yardstick PATH] [--seed S] [--bundled] [--only-ratio] [--no-paths] [--only-paths]
                                 [--engine-root DIR] [--json]

Plays N random rounds (dealt, opened and settled by the real engine; random
players through the engine's fast path; no transcript) and M whole matches for
every bundled variant (tests/data/configs/*.json) and every configuration given
on the command line, at each allowed player count; prints rounds/s,
placements/s and peak traced memory. In the same run it times the yardstick,
`../shared/bench/minimal_allfives.py` relative to the repository root, on the
same number of rounds and prints the ratio engine/yardstick for 2-player All
Fives random rounds, per round and per placement. Then (bench/paths.py) the
paths users and tools take, on the same 2-player All Fives games: the public
replay path, clone(), clone() + play() as a search does, greedy matches and the
simulate harness, each per placement as a multiple of the fast path's time and
as a ratio to the yardstick; and, when the optional `dominoes` package is
installed, the same recorded games replayed in both (bench/dominoes_compare.py).
Timings are CPU time of this process (time.process_time: other jobs on a shared
machine do not count), the median of R runs; the ratios are medians over R
interleaved pairs (wall-clock ratio shown beside the yardstick's).
`--engine-root DIR` times the engine (and rulelang) of another checkout, so
that an older commit and this one can be measured back to back.
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


def _engine_root(argv: list[str]) -> pathlib.Path | None:
    """The checkout whose engine is timed: --engine-root DIR, else this repository; None: --installed."""
    if "--installed" in argv:
        return None
    for i, a in enumerate(argv):
        if a == "--engine-root" and i + 1 < len(argv):
            return pathlib.Path(argv[i + 1]).resolve()
        if a.startswith("--engine-root="):
            return pathlib.Path(a.split("=", 1)[1]).resolve()
    return REPO


_ROOT = _engine_root(sys.argv[1:])
if _ROOT is not None:
    sys.path.insert(0, str(_ROOT))

from rulelang.interpreter import Config, Match, Round, load_config, random_player  # noqa: E402

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
            rnd = m.round
            m.run(bots, max_rounds=len(m.rounds) + 1)
            placements += rnd.placements
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


def median_ratio(pairs: list[tuple[float, float]]) -> float:
    """The median over interleaved pairs of first / second."""
    return statistics.median(a / b for a, b in pairs)


def time_paths(cfg, args, yard_us: float, say) -> dict:
    """The paths tools take, on the same 2-player games, each per placement against the fast path and the yardstick."""
    import paths

    n = max(10, args.rounds // 3)
    games = paths.record_games(cfg, 2, n, args.seed)
    pos = paths.positions(cfg, games[: max(5, n // 10)])
    runs: dict[str, list[tuple[float, int]]] = {k: [] for k in (
        "fast", "replay", "clone", "search", "greedy", "bare", "harness")}
    m = max(4, 2 * args.matches)  # matches per run of the greedy, bare and harness paths
    # warm up: the first call of a path pays for imports (rulelang.tools) and first-use tables
    paths.public_replay(cfg, games[:3])
    paths.simulate_harness(cfg, 2, 1, args.seed)
    for k in range(args.repeat):
        runs["fast"].append(_per(paths.fast_path, cfg, games, args.seed + k))
        runs["replay"].append(_per(paths.public_replay, cfg, games))
        runs["clone"].append(_per(paths.clones, pos))
        runs["search"].append(_per(paths.search, pos))
        runs["greedy"].append(_per(paths.greedy_matches, cfg, 2, m, args.seed + k))
    # the simulate harness against the bare engine: many short interleaved pairs on the same matches
    # (the order alternating within pairs), so that the median ratio is steady on a shared machine
    for k in range(HARNESS_PAIRS_PER_REPEAT * args.repeat):
        pair = [(paths.simulate_bare, "bare"), (paths.simulate_harness, "harness")]
        for fn, key in (pair if k % 2 == 0 else pair[::-1]):
            runs[key].append(_per(fn, cfg, 2, max(10, m // 2), args.seed + k))
    us = {k: 1e6 * statistics.median(t / c for t, c in v) for k, v in runs.items()}

    def vs_fast(key: str, base: str = "fast") -> float:
        # the median over the interleaved runs of this path's time per unit over the base's
        return median_ratio([(t / c, bt / bc) for (t, c), (bt, bc) in zip(runs[key], runs[base])])

    rows = [
        ("fast path (random players, run)", "fast", None, "-"),
        ("public replay: Round(...) + play(move)", "replay", vs_fast("replay"), "<= 1.5"),
        ("clone()", "clone", vs_fast("clone"), "< 1"),
        ("clone() + play(move), per move tried", "search", vs_fast("search"), "-"),
        ("greedy matches (Match.run)", "greedy", vs_fast("greedy"), "-"),
        ("simulate harness, greedy (run_matches)", "harness", None, "-"),
    ]
    out = {"games": n, "positions": len(pos), "us": us, "rows": []}
    say("")
    say(f"paths on the same allfives 2-player games ({n} rounds, {len(pos)} positions; per placement, or per clone):")
    say(f"{'path':<42} {'us':>7} {'x fast path':>12} {'target':>8} {'yardstick ratio':>16}")
    for label, key, ratio, target in rows:
        r = 1.0 if key == "fast" else (ratio if ratio is not None else us[key] / us["fast"])
        say(f"{label:<42} {us[key]:>7.2f} {r:>12.2f} {target:>8} {yard_us / us[key]:>16.2f}")
        out["rows"].append({"path": label, "key": key, "us": us[key], "x_fast": r, "yardstick_ratio": yard_us / us[key]})
    harness = vs_fast("harness", "bare")
    ratios = sorted(h[0] / h[1] / (b[0] / b[1]) for h, b in zip(runs["harness"], runs["bare"]))
    q = len(ratios) // 4
    say(f"simulate harness / the bare engine on the same matches and bots: {harness:.2f} (target <= 1.2; median of "
        f"{len(ratios)} interleaved pairs of {max(10, m // 2)} matches, middle half {ratios[q]:.2f}-{ratios[-q - 1]:.2f})")
    out["harness_vs_bare"] = harness
    out["harness_pairs"] = len(ratios)
    out["clone_vs_fast_placement"] = vs_fast("clone")
    out["replay_vs_fast"] = vs_fast("replay")
    return out


HARNESS_PAIRS_PER_REPEAT = 3  # interleaved pairs (bare engine, simulate harness) per --repeat


def time_dominoes(cfg, args, say) -> dict | None:
    """The same recorded 4-player block games replayed by the engine and by `dominoes`, when installed."""
    import dominoes_compare as dc

    if not dc.available():
        say("dominoes package not installed (pip install '.[dev]'): no comparison")
        return None
    import paths

    bcfg, games, dgames = dc.prepare(cfg, max(10, args.rounds // 3), args.seed)
    dc.replay_dominoes(dgames[:3])  # warm up
    paths.public_replay_listing(bcfg, games[:3])
    runs: dict[str, list[float]] = {"engine": [], "listing": [], "dominoes": []}
    for k in range(2 * args.repeat):
        # interleaved, the order alternating, so that a shared machine's drift falls on both sides
        trio = [("engine", paths.public_replay), ("listing", paths.public_replay_listing),
                ("dominoes", dc.replay_dominoes)]
        for key, fn in (trio if k % 2 == 0 else trio[::-1]):
            t, c = _per(fn, dgames if key == "dominoes" else bcfg, *(() if key == "dominoes" else (games,)))
            runs[key].append(t / c)
    ratio = median_ratio(list(zip(runs["dominoes"], runs["engine"])))
    listing = median_ratio(list(zip(runs["dominoes"], runs["listing"])))
    e_us, l_us, d_us = (1e6 * statistics.median(runs[k]) for k in ("engine", "listing", "dominoes"))
    say(f"same {len(games)} 4-player block games replayed (us/placement): engine public path (Round(...) + play) "
        f"{e_us:.2f}, with legal_moves() listed before each move {l_us:.2f}; dominoes (Game + make_move) {d_us:.2f}")
    say(f"  engine {ratio:.2f} times as fast as dominoes (target >= 2); {listing:.2f} with the legal moves listed")
    return {"games": len(games), "engine_us": e_us, "engine_listing_us": l_us, "dominoes_us": d_us, "ratio": ratio,
            "ratio_listing": listing}


def issue15(report: dict, say) -> dict:
    """Every speed ratio (bench/README.md) from this run, with its target and whether it is met."""
    rows = []
    p = report.get("paths")
    if p:
        rows += [("public replay / fast path, per placement", p["replay_vs_fast"], "<=", 1.5),
                 ("clone() / one fast-path placement", p["clone_vs_fast_placement"], "<", 1.0),
                 ("simulate harness / bare engine, same matches and bots", p["harness_vs_bare"], "<=", 1.2)]
    d = report.get("dominoes")
    if d:
        rows.append(("engine public replay vs dominoes, same games (times as fast)", d["ratio"], ">=", 2.0))
    out = {}
    say("")
    say("speed targets, this run:")
    for label, value, op, target in rows:
        met = value <= target if op == "<=" else value < target if op == "<" else value >= target
        say(f"  {label:<62} {value:>5.2f}  target {op} {target:<4g} {'met' if met else 'NOT MET'}")
        out[label] = {"value": value, "target": f"{op} {target:g}", "met": met}
    return out


def _per(fn, *args) -> tuple[float, int]:
    """(CPU seconds, the count the call returns)."""
    c = time.process_time()
    n = fn(*args)
    return time.process_time() - c, n


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("configs", nargs="*", help="extra configuration JSON files")
    ap.add_argument("--rounds", type=int, default=3000)
    ap.add_argument("--matches", type=int, default=30)
    ap.add_argument("--repeat", type=int, default=7)
    ap.add_argument("--seed", type=int, default=12345)
    ap.add_argument("--yardstick", type=pathlib.Path, default=DEFAULT_YARDSTICK)
    ap.add_argument("--only-ratio", action="store_true", help="time only the 2-player All Fives ratio")
    ap.add_argument("--no-paths", action="store_true", help="skip the public paths, search, greedy and simulate")
    ap.add_argument("--only-paths", action="store_true",
                    help="the ratio and the paths (every speed ratio), without the table of variants")
    ap.add_argument("--engine-root", type=pathlib.Path, default=REPO,
                    help="time the engine of another checkout (e.g. an older commit), for before/after figures")
    ap.add_argument("--installed", action="store_true",
                    help="time the installed rulelang (`pip install .`: the engine compiled by mypyc) instead of a checkout")
    ap.add_argument("--bundled", action="store_true",
                    help="also every ruleset bundled with the language (rulelang.compile_bundled)")
    ap.add_argument("--json", action="store_true", help="print the figures as JSON on stdout (the table goes to stderr)")
    args = ap.parse_args(argv)

    def say(*parts) -> None:
        print(*parts, file=sys.stderr if args.json else sys.stdout)

    configs = {p.stem: load_config(p) for p in sorted(BUNDLED.glob("*.json"))}
    if args.bundled:
        import rulelang
        from rulelang.language.bundled import bundled_names

        for name in bundled_names():
            if name not in configs:
                configs[name] = Config.from_dict(rulelang.compile_bundled(name))
    for p in args.configs:
        c = load_config(p)
        configs[c.name if c.name not in configs else f"{c.name}:{p}"] = c
    report = {"rounds": args.rounds, "matches": args.matches, "repeat": args.repeat,
              "engine_root": str(args.engine_root), "variants": []}
    import rulelang.interpreter as engine

    try:
        from rulelang.interpreter.build import engine_build
        build = engine_build()
    except ImportError:  # an older checkout (--engine-root): the source
        build = "pure Python"
    where = pathlib.Path(engine.__path__[0])
    report["engine"] = {"build": build, "path": str(where)}
    say(f"engine: {build}, from {where}")

    # 1. the ratio: 2-player All Fives random rounds, no transcript, against the yardstick
    yard_us = None
    if args.yardstick and args.yardstick.exists() and "allfives" in configs:
        yard = load_yardstick(args.yardstick)
        eng_t, yard_t = [], []
        for k in range(args.repeat):
            c, w, (pl, _dr) = timed(play_random_rounds, configs["allfives"], 2, args.rounds, args.seed + k)
            eng_t.append((c, w, pl))
            c, w, res = timed(yard, args.rounds, args.seed + k)
            yard_t.append((c, w, res[0]))
        # the ratio of each interleaved pair, then the median, so slow drifts of a shared machine
        # cancel; CPU time of this process (time.process_time) is the figure, wall time is shown too
        ratio = statistics.median(y[0] / e[0] for e, y in zip(eng_t, yard_t))
        wall_ratio = statistics.median(y[1] / e[1] for e, y in zip(eng_t, yard_t))
        per_placement = statistics.median((y[0] / y[2]) / (e[0] / e[2]) for e, y in zip(eng_t, yard_t))
        e = statistics.median(x[0] for x in eng_t)
        y = statistics.median(x[0] for x in yard_t)
        yard_us = 1e6 * statistics.median(x[0] / x[2] for x in yard_t)
        eng_us = 1e6 * statistics.median(x[0] / x[2] for x in eng_t)
        report["yardstick"] = {"path": str(args.yardstick), "rounds_per_s": args.rounds / y,
                               "engine_rounds_per_s": args.rounds / e, "ratio": ratio,
                               "wall_ratio": wall_ratio, "ratio_per_placement": per_placement,
                               "us_per_placement": yard_us, "engine_us_per_placement": eng_us}
        say(f"yardstick {args.yardstick.name}: {args.rounds / y:,.0f} rounds/s, {yard_us:.2f} us/placement; "
            f"engine (allfives, 2p, random, no transcript): {args.rounds / e:,.0f} rounds/s, {eng_us:.2f} us/placement "
            "(CPU time)")
        say(f"ratio engine/yardstick = {ratio:.2f} per round, {per_placement:.2f} per placement (CPU time; wall clock "
            f"{wall_ratio:.2f} per round; median of {args.repeat} interleaved pairs; requirement >= 0.33, aim 0.8 "
            "per placement)")
    else:
        print(f"yardstick not found at {args.yardstick}: no ratio", file=sys.stderr)
    if args.only_ratio:
        if args.json:
            print(json.dumps(report, indent=1))
        return 0

    # 2. the paths tools take, on the same games
    if not args.no_paths and "allfives" in configs:
        base_us = yard_us if yard_us is not None else float("nan")
        report["paths"] = time_paths(configs["allfives"], args, base_us, say)
        report["dominoes"] = time_dominoes(configs["allfives"], args, say)
        report["issue15"] = issue15(report, say)
        say("")
    if args.only_paths:
        if args.json:
            print(json.dumps(report, indent=1))
        return 0

    # 3. every variant and player count: rounds, matches, memory
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
