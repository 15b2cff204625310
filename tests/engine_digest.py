"""A digest of what the engine does, printed as JSON, to compare two builds of it (tests/test_compiled.py).

Run by the interpreter whose `rulelang` is to be judged: the source in this
checkout, or an installed (compiled) package run from another folder. For every
bundled variant at each player count it plays seeded matches with random and
greedy players (whole transcripts), replays them, clones positions and plays
on the copies, and asks for illegal moves, recording the refusal codes; each
part is hashed. Equal digests mean the two builds played the same games.
"""
from __future__ import annotations

import hashlib
import json
import random
import sys

import rulelang
from rulelang.interpreter import Config, IllegalMove, Round, greedy_player, play_match, random_player, replay
from rulelang.interpreter.build import engine_build
from rulelang.interpreter.tiles import TILES, lead_code, move_from_code
from rulelang.language.bundled import bundled_names


def _hash(value: object) -> str:
    return hashlib.sha256(json.dumps(value, sort_keys=True).encode()).hexdigest()[:16]


def _matches(cfg: Config, players: int) -> list[dict]:
    out = []
    for seed in range(3):
        bots = [random_player(seed), greedy_player(seed + 1)] * 6
        m = play_match(cfg, players, seed, bots=bots[:players], record=True, max_rounds=6)
        t = json.loads(json.dumps(m.transcript()))
        replay(t)  # the build replays what it played
        out.append(t)
    return out


def _search(cfg: Config, players: int) -> list[object]:
    """Clones of every position, each legal move played on a copy, and illegal moves refused."""
    seen: list[object] = []
    rng = random.Random(players)
    rnd = Round.deal(cfg, players, rng)
    while not rnd.over:
        codes = rnd.legal_codes()
        for c in codes:
            copy = rnd.clone()
            copy.play_code(c)
            seen.append([c, copy.scores, copy.seat_to_move, copy.over])
        for c in rng.sample(range(len(TILES)), 3):  # leads of random tiles: mostly illegal
            try:
                rnd.clone().play(move_from_code(lead_code(c)))
                seen.append(["ok", c])
            except IllegalMove as e:
                seen.append([e.code, c])
        rnd.play(move_from_code(codes[int(rng.random() * len(codes))]))
    seen.append(rnd.result.to_dict() if rnd.result else None)
    return seen


def digest() -> dict[str, object]:
    out: dict[str, object] = {"build": engine_build()}
    for name in bundled_names():
        cfg = Config.from_dict(rulelang.compile_bundled(name))
        for players in cfg.counts[:3]:
            out[f"{name}/{players}"] = [_hash(_matches(cfg, players)), _hash(_search(cfg, players))]
    return out


if __name__ == "__main__":
    json.dump(digest(), sys.stdout, indent=1, sort_keys=True)
