"""What a placement scores: the raw points as a function of the counted sum, and rounding to 5."""
from __future__ import annotations

from collections.abc import Callable

from .config import Config
from .tiles import PIPS


def round5(x: int) -> int:
    """Round a pip total to the nearest 5: remainder 1-2 down, 3-4 up."""
    return (x + 2) // 5 * 5


def placement_scoring(cfg: Config) -> Callable[[int], int]:
    """The raw points a placement earns as a function of the counted sum (scoring.in_play, scoring.minimum)."""
    score = _scoring(cfg)
    least = cfg.minimum
    if least is None:
        return score

    def at_least(s: int) -> int:
        # "a placement scores only from N points up": fewer points score nothing ("no fives")
        got = score(s)
        return got if got >= least else 0

    return at_least


def _scoring(cfg: Config) -> Callable[[int], int]:
    if not cfg.in_play:
        return _nothing  # "placements score nothing"
    divisors = cfg.divisors
    if cfg.formula == "per-multiple":
        def per_multiple(s: int) -> int:
            # "placements score multiples of 5 or 3, one point per multiple": s/d for each divisor d of s
            return sum(s // d for d in divisors if s % d == 0) if s > 0 else 0
        return per_multiple
    if cfg.formula == "face-value":
        def face_value(s: int) -> int:
            # "placements score multiples of 5 or 3 at face value": s once for each divisor of s
            return s * sum(1 for d in divisors if s % d == 0) if s > 0 else 0
        return face_value
    if cfg.formula == "face-value-once":
        def face_value_once(s: int) -> int:
            # "placements score multiples of 5 or 3 at face value, once": s once when some divisor divides it
            return s if s > 0 and any(s % d == 0 for d in divisors) else 0
        return face_value_once
    n = cfg.multiple

    def multiples(s: int) -> int:
        # "placements score multiples of N": a positive sum divisible by N scores itself
        return s if s > 0 and s % n == 0 else 0

    return multiples


def points_table(score: Callable[[int], int]) -> tuple[int, ...]:
    """`score` tabulated for every counted sum (a counted sum never exceeds the pips of the whole set)."""
    return tuple(score(s) for s in range(sum(PIPS) + 1))


def _nothing(s: int) -> int:
    return 0
