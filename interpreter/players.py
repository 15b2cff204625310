"""Players: callables `(observation, legal) -> Move`.

The bundled players also have `pick(round, codes)`, which the engine calls
instead when it plays them (no observation or Move objects are built). Both
entry points make the same choice from the same sorted list, so a game plays
identically either way. `pick` is given the `Round` itself (typed by the `Scorer`
protocol here: the round calls its players, so this module cannot name it without a cycle).
"""
from __future__ import annotations

import random as _random
from collections.abc import Mapping, Sequence
from typing import Protocol, TypeAlias

from .tiles import DRAW_CODE, Move

Seed: TypeAlias = int | float | str | bytes | bytearray | None  # what `random.Random` is seeded with


class Scorer(Protocol):
    """What `pick` asks of the round: the raw points of its legal move codes."""

    def code_points(self, codes: Sequence[int]) -> list[int]: ...


class FastPlayer:
    """Base class of players the engine may call through `pick`."""

    def __init__(self, seed: Seed = None):
        self.rng = _random.Random(seed)

    def pick(self, rnd: Scorer, codes: list[int]) -> int:  # pragma: no cover - abstract
        """The chosen move code among the round's legal `codes`."""
        raise NotImplementedError

    def __call__(self, observation: Mapping[str, object], legal: list[Move]) -> Move:
        raise NotImplementedError  # pragma: no cover


class RandomPlayer(FastPlayer):
    """Picks uniformly among the legal moves."""

    def pick(self, rnd: Scorer, codes: list[int]) -> int:
        return codes[int(self.rng.random() * len(codes))]

    def __call__(self, observation: Mapping[str, object], legal: list[Move]) -> Move:
        return legal[int(self.rng.random() * len(legal))]

    def __repr__(self) -> str:
        return "random_player"


class GreedyPlayer(FastPlayer):
    """Picks a move with the largest immediate raw points; ties broken by its own generator.

    It never draws while able to place (`a player may draw while able to place` offers a draw scoring
    nothing now; the greedy player places)."""

    def pick(self, rnd: Scorer, codes: list[int]) -> int:
        if codes[-1] == DRAW_CODE:
            codes = codes[:-1]  # never the draw move: a placement is always offered with it
        if len(codes) == 1:
            self.rng.random()  # a single candidate: the generator advances as `_choose` would make it
            return codes[0]
        return codes[self._choose(rnd.code_points(codes))]

    def __call__(self, observation: Mapping[str, object], legal: list[Move]) -> Move:
        pts = observation.get("points")
        if not isinstance(pts, list) or len(pts) != len(legal):
            raise ValueError("greedy_player needs the observation's 'points' for the legal moves")
        if legal and legal[-1].draw:  # never the draw move, always last
            legal, pts = legal[:-1], pts[:-1]
        return legal[self._choose(pts)]

    def _choose(self, pts: Sequence[int]) -> int:
        best = max(pts)
        top = [i for i, p in enumerate(pts) if p == best]
        return top[int(self.rng.random() * len(top))]

    def __repr__(self) -> str:
        return "greedy_player"


def random_player(seed: Seed = None) -> RandomPlayer:
    """A player that picks uniformly, from its own seeded generator."""
    return RandomPlayer(seed)


def greedy_player(seed: Seed = None) -> GreedyPlayer:
    """A player that takes the most immediate points, ties broken by its own seeded generator."""
    return GreedyPlayer(seed)
