"""Strong players against greedy and random: win rates with 95% Wilson intervals, and decisions per second.

    nice -n 10 python bench/bench_strong.py [--variants exact61,pagat,allfives] [--player strong]
                                            [--matches 400] [--out results.jsonl] [--json]
    python bench/bench_strong.py --latency [--variants allfives] [--player strong] [--players 2]
                                 [--matches 20]

With `--latency`, the player plays `--matches` matches against greedy per
variant at `--players` players (the other seats greedy) and prints the wall
and CPU time of each searched decision: median, 95th percentile and maximum
(what a player of the playground waits for its reply).

For each variant at 2 players, the player plays `--matches` matches against
`greedy` and as many against `random`, taking seat 0 in even matches and seat 1
in odd ones. Match i is dealt from a seed derived from (variant, opponent, i)
and the players are seeded likewise, so a run is reproducible. With `--out`,
each match is written as it finishes and a rerun resumes where it stopped.
Decisions per second count the player's searched decisions (more than one
legal move) over its own CPU time.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import pathlib
import sys
import time

REPO = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from rulelang import compile_bundled  # noqa: E402
from rulelang.players.arena import play_match  # noqa: E402
from rulelang.tools.playernames import make_player  # noqa: E402
from rulelang.tools.stats import wilson_interval  # noqa: E402


def derive(*parts) -> int:
    return int(hashlib.sha256("/".join(map(str, parts)).encode()).hexdigest()[:15], 16)


def one(cfg, variant: str, player: str, opponent: str, i: int) -> dict:
    me = i % 2
    strong = make_player(player, cfg, derive("player", variant, opponent, i))
    other = make_player(opponent, cfg, derive("opponent", variant, opponent, i))
    seats = [strong, other] if me == 0 else [other, strong]
    rec = play_match(cfg, 2, derive("match", variant, opponent, i), seats)
    return {"variant": variant, "opponent": opponent, "index": i, "seat": me, "won": rec["winner"] == me,
            "drawn": rec["winner"] is None, "rounds": rec["rounds"], "decisions": getattr(strong, "searched", 0),
            "cpu": getattr(strong, "busy", 0.0), "failed": getattr(strong, "failed", 0),
            "playouts": getattr(strong, "playouts", 0)}


class _Timed:
    """A player whose searched decisions (more than one legal move) are timed, wall clock and CPU."""

    wants_history = True

    def __init__(self, player):
        self.player = player
        self.wall: list[float] = []
        self.cpu: list[float] = []

    def __call__(self, obs, legal):
        w, c = time.perf_counter(), time.process_time()
        move = self.player(obs, legal)
        if len(legal) > 1:
            self.wall.append(time.perf_counter() - w)
            self.cpu.append(time.process_time() - c)
        return move


def _pct(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


def latency(variants: list[str], player: str, players: int, matches: int, as_json: bool) -> None:
    """Per-decision wall and CPU time of `player` against greedy seats."""
    from rulelang.interpreter import Config

    rows = []
    for variant in variants:
        cfg = Config.from_dict(compile_bundled(variant))
        timed = []
        for i in range(matches):
            me = i % players
            t = _Timed(make_player(player, cfg, derive("latency", variant, i)))
            seats = [t if s == me else make_player("greedy", cfg, derive("greedy", variant, i, s)) for s in range(players)]
            play_match(cfg, players, derive("match", variant, "latency", i), seats)
            timed.append(t)
        wall = [x for t in timed for x in t.wall]
        cpu = [x for t in timed for x in t.cpu]
        if not wall:
            print(f"{variant}: {player} had no decision with more than one legal move", file=sys.stderr)
            continue
        row = {"variant": variant, "player": player, "players": players, "decisions": len(wall),
               "wall": {"median": _pct(wall, 0.5), "p95": _pct(wall, 0.95), "max": max(wall)},
               "cpu": {"median": _pct(cpu, 0.5), "p95": _pct(cpu, 0.95), "max": max(cpu)}}
        rows.append(row)
        if not as_json:
            print(f"{variant:9} {player} at {players} players: {len(wall)} decisions; wall median "
                  f"{row['wall']['median']:.3f} s, p95 {row['wall']['p95']:.3f} s, max {row['wall']['max']:.3f} s; "
                  f"CPU median {row['cpu']['median']:.3f} s, p95 {row['cpu']['p95']:.3f} s", flush=True)
    if as_json:
        print(json.dumps(rows, indent=1))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--variants", default="exact61,pagat,allfives")
    ap.add_argument("--player", default="strong")
    ap.add_argument("--opponents", default="greedy,random")
    ap.add_argument("--matches", type=int, default=400)
    ap.add_argument("--out", default=None)
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--latency", action="store_true", help="time each decision against greedy seats instead")
    ap.add_argument("--players", type=int, default=2, help="--latency: players per match")
    a = ap.parse_args()
    if a.latency:
        latency(a.variants.split(","), a.player, a.players, a.matches, a.json)
        return
    from rulelang.interpreter import Config

    done: dict[tuple, dict] = {}
    if a.out and pathlib.Path(a.out).exists():
        for line in pathlib.Path(a.out).read_text().splitlines():
            try:
                r = json.loads(line)
            except ValueError:
                continue  # a line cut short by an interruption: played again
            done[(r["variant"], r["opponent"], r["index"])] = r
    sink = open(a.out, "a") if a.out else None
    rows = []
    for variant in a.variants.split(","):
        cfg = Config.from_dict(compile_bundled(variant))
        for opp in a.opponents.split(","):
            got = []
            for i in range(a.matches):
                r = done.get((variant, opp, i))
                if r is None:
                    r = one(cfg, variant, a.player, opp, i)
                    if sink:
                        sink.write(json.dumps(r) + "\n")
                        sink.flush()
                got.append(r)
            wins = sum(r["won"] for r in got)
            lo, hi = wilson_interval(wins, len(got))
            dec = sum(r["decisions"] for r in got)
            cpu = sum(r["cpu"] for r in got)
            rows.append({"variant": variant, "player": a.player, "opponent": opp, "matches": len(got), "wins": wins,
                         "rate": wins / len(got), "ci95": [lo, hi], "decisions_per_s": dec / cpu if cpu else None,
                         "fallbacks": sum(r["failed"] for r in got),
                         "playouts_per_decision": sum(r.get("playouts", 0) for r in got) / dec if dec else None,
                         "cpu_per_decision": cpu / dec if dec else None})
            if not a.json:
                r2 = rows[-1]
                print(f"{variant:9} {a.player} vs {opp:6}: {wins}/{len(got)} = {100 * r2['rate']:.1f}% "
                      f"[{100 * lo:.1f}%, {100 * hi:.1f}%]  {r2['decisions_per_s'] or 0:.0f} decisions/s, "
                      f"{r2['playouts_per_decision'] or 0:.0f} playouts/decision "
                      f"({r2['fallbacks']} fallbacks)", flush=True)
    if a.json:
        print(json.dumps(rows, indent=1))


if __name__ == "__main__":
    t = time.time()
    main()
    print(f"({time.time() - t:.0f} s)", file=sys.stderr)
