"""Where a game of the `dominoes` comparison goes: set-up, the moves before the last, the last move.

    python bench/dominoes_phases.py              # the source of this checkout
    python bench/dominoes_phases.py --installed  # the installed rulelang (compiled by pip install .)

The same recorded 4-player block games as `bench_engine.py` (dominoes_compare.py),
each timed in three parts for the engine (`Round(...)` from the deal; `play` of
each move but the last; `play` of the last move, which settles the round) and
for `dominoes` (`Game(...)`; `make_move`; the last `make_move`). The garbage
collector is off while timing, so that a collection does not land in one part.
Three runs each, per game or per move, in microseconds (wall clock).
"""
from __future__ import annotations

import argparse
import gc
import pathlib
import sys
import time

REPO = pathlib.Path(__file__).resolve().parent.parent
if "--installed" not in sys.argv:
    sys.path.insert(0, str(REPO))

import dominoes_compare as dc  # noqa: E402
from paths import round_from_deal  # noqa: E402

from rulelang import compile_bundled  # noqa: E402
from rulelang.interpreter import Config  # noqa: E402


def engine(cfg: Config, games: list) -> tuple[float, float, float]:
    t = time.perf_counter()
    rounds = [round_from_deal(cfg, deal) for deal, _ in games]
    setup = (time.perf_counter() - t) / len(games)
    t = time.perf_counter()
    n = 0
    for rnd, (_deal, moves) in zip(rounds, games):
        for m in moves[:-1]:
            rnd.play(m)
        n += len(moves) - 1
    move = (time.perf_counter() - t) / n
    t = time.perf_counter()
    for rnd, (_deal, moves) in zip(rounds, games):
        rnd.play(moves[-1])
    return setup, move, (time.perf_counter() - t) / len(games)


def dominoes(dgames: list) -> tuple[float, float, float]:
    import dominoes as d

    t = time.perf_counter()
    started = []
    for hands, opener, _steps in dgames:
        hs = [d.Hand(h) for h in hands]
        started.append(d.Game(d.Board(), hs, [], opener, tuple((x, True) for x in hs[opener]), opener, None))
    setup = (time.perf_counter() - t) / len(dgames)
    t = time.perf_counter()
    n = 0
    for game, (_h, _o, steps) in zip(started, dgames):
        for x, left in steps[:-1]:
            game.make_move(x, left)
        n += len(steps) - 1
    move = (time.perf_counter() - t) / n
    t = time.perf_counter()
    for game, (_h, _o, steps) in zip(started, dgames):
        x, left = steps[-1]
        game.make_move(x, left)
    return setup, move, (time.perf_counter() - t) / len(dgames)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--installed", action="store_true", help="time the installed rulelang, not this checkout")
    args = ap.parse_args(argv)
    if not dc.available():
        print("dominoes_phases: the dominoes package is not installed (pip install '.[dev]')", file=sys.stderr)
        return 2
    from rulelang.interpreter.build import engine_build

    cfg, games, dgames = dc.prepare(Config.from_dict(compile_bundled("allfives")), args.games, args.seed)
    print(f"engine: {engine_build()}; {len(games)} games, "
          f"{sum(len(m) for _, m in games) / len(games):.1f} moves per game (us: set-up, a move, the last move)")
    gc.disable()
    for _ in range(3):
        e, o = engine(cfg, games), dominoes(dgames)
        print("engine   " + "  ".join(f"{1e6 * x:6.2f}" for x in e) + "    dominoes " +
              "  ".join(f"{1e6 * x:6.2f}" for x in o))
    gc.enable()
    return 0


if __name__ == "__main__":
    sys.exit(main())
