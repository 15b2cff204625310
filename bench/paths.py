"""The paths users and tools take through the engine, timed on the same games.

Each function plays or replays prepared games and returns the number of
placements it made, so that the caller can divide its time per placement.
They use only the engine's public API (and `rulelang.tools.simulation` for the
simulate harness), so the same functions time an older checkout of the engine
(`bench_engine.py --engine-root`).
"""
from __future__ import annotations

import random
from typing import Any

from rulelang.interpreter import Config, Match, Move, Round, greedy_player, random_player


def record_games(cfg: Config, players: int, n: int, seed: int) -> list[tuple[dict[str, Any], list[Move]]]:
    """`n` random rounds, recorded: (the deal as a transcript gives it, the moves) per round."""
    rng = random.Random(seed)
    bots = [random_player(seed * 8 + s) for s in range(players)]
    games = []
    for _ in range(n):
        rnd = Round.deal(cfg, players, rng, record=True)
        rnd.run(bots)
        games.append((rnd.deal_dict(), [Move.parse(str(t.move)) for t in rnd.turns]))
    return games


def fast_path(cfg: Config, games: list[tuple[dict[str, Any], list[Move]]], seed: int) -> int:
    """The same deals played by random players through the engine's own loop (`run`), no transcript."""
    bots = [random_player(seed * 8 + s) for s in range(4)]
    placements = 0
    for deal, _moves in games:
        rnd = round_from_deal(cfg, deal)
        rnd.run(bots[:deal["players"]])
        placements += rnd.placements
    return placements


def public_replay(cfg: Config, games: list[tuple[dict[str, Any], list[Move]]]) -> int:
    """The recorded games replayed through the public API: `Round(...)` from the deal, `play(move)` each move."""
    placements = 0
    for deal, moves in games:
        rnd = round_from_deal(cfg, deal)
        for m in moves:
            rnd.play(m)
        placements += len(moves)
    return placements


def public_replay_listing(cfg: Config, games: list[tuple[dict[str, Any], list[Move]]]) -> int:
    """As `public_replay`, and the legal moves listed (`legal_moves()`) before each move, as a player is shown them."""
    placements = 0
    for deal, moves in games:
        rnd = round_from_deal(cfg, deal)
        for m in moves:
            rnd.legal_moves()
            rnd.play(m)
        placements += len(moves)
    return placements


def round_from_deal(cfg: Config, deal: dict[str, Any]) -> Round:
    return Round(cfg, deal["players"], deal["hands"], deal["boneyard"], deal["opener"], deal["scores"],
                 opening=deal["opening"])


def positions(cfg: Config, games: list[tuple[dict[str, Any], list[Move]]]) -> list[tuple[Round, list[Move]]]:
    """Every position of the games with the moves legal there (copies, made once, untimed)."""
    out = []
    for deal, moves in games:
        rnd = round_from_deal(cfg, deal)
        for m in moves:
            out.append((rnd.clone(), rnd.legal_moves()))
            rnd.play(m)
    return out


def clones(pos: list[tuple[Round, list[Move]]]) -> int:
    """One `clone()` of every position; returns the number of clones."""
    for rnd, _legal in pos:
        rnd.clone()
    return len(pos)


def search(pos: list[tuple[Round, list[Move]]]) -> int:
    """As a one-ply search does: for every legal move of every position, `clone()` then `play(move)`."""
    n = 0
    for rnd, legal in pos:
        for m in legal:
            rnd.clone().play(m)
        n += len(legal)
    return n


def greedy_matches(cfg: Config, players: int, n: int, seed: int) -> int:
    """`n` whole matches between greedy players through `Match.run`; returns the placements."""
    placements = 0
    for i in range(n):
        m = Match(cfg, players, seed + i)
        bots = [greedy_player((seed + i) * 8 + s) for s in range(players)]
        while not m.over:
            rnd = m.round
            m.run(bots, max_rounds=len(m.rounds) + 1)
            placements += rnd.placements
    return placements


def simulate_bare(cfg: Config, players: int, n: int, seed: int) -> int:
    """The matches `simulate` plays (same seeds, greedy players), played by the bare engine."""
    from rulelang.tools.simulation import bot_seed, match_seed

    placements = 0
    for i in range(n):
        m = Match(cfg, players, match_seed(seed, i))
        bots = [greedy_player(bot_seed(seed, i, s)) for s in range(players)]
        while not m.over and len(m.rounds) < 400:
            rnd = m.round
            m.run(bots, max_rounds=len(m.rounds) + 1)
            placements += rnd.placements
    return placements


def simulate_harness(cfg: Config, players: int, n: int, seed: int) -> int:
    """The same matches through `simulate`'s harness (`run_matches`, one process); returns the placements."""
    from rulelang.tools.simulation import run_matches

    results = run_matches(cfg.to_dict(), players, ["greedy"] * players, seed, n, jobs=1)
    return sum(d["turns"] for r in results for d in r["round_details"])
