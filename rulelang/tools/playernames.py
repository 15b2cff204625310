"""Player names for the command line: `random`, `greedy`, `pimc[:N]`, `ismcts[:N]`, `strong` (N: strength; `Ns`: seconds per move)."""
from __future__ import annotations

from rulelang.interpreter import Config
from rulelang.interpreter.players import FastPlayer
from rulelang.players.ismcts import InformationSetMCTS
from rulelang.players.pimc import DeterminizedSearch
from rulelang.players.searchbase import SearchPlayer
from rulelang.tools.bots import BOTS
from rulelang.tools.configs import ToolError

PLAYER_NAMES = ("random", "greedy", "pimc", "ismcts", "strong")
Player = FastPlayer | SearchPlayer
"""A player a seat can take: a bundled bot (it picks by move code) or a search player (called with what it sees)."""
STRONG = "pimc:12"  # what `strong` means (the search player whose strength bench/README.md measures)
# the playground's `strong` bot: a count, not seconds, so a seeded game replays; sized by bench/bench_strong.py
# --latency so that 95% of its decisions take under 0.3 s (bench/README.md)
PLAYGROUND_STRONG = "pimc:100"


def make_player(spec: str, config: Config, seed: int) -> Player:
    """A player from its name, e.g. `greedy`, `pimc:24`, `ismcts:300`, `pimc:0.05s`; ToolError if unknown."""
    name, _, arg = spec.strip().partition(":")
    if name == "strong":
        name, _, arg2 = STRONG.partition(":")
        arg = arg or arg2
    if name in ("random", "greedy"):
        if arg:
            raise ToolError(f"player {spec!r}: {name} takes no strength")
        return BOTS[name](seed)
    if name not in ("pimc", "ismcts"):
        raise ToolError(f"unknown player {spec!r} (players: {', '.join(PLAYER_NAMES)}; e.g. pimc:12, ismcts:200)")
    seconds = None
    count = None
    try:
        if arg.endswith("s"):
            seconds = float(arg[:-1])
            if not seconds > 0:
                raise ValueError
        elif arg:
            count = int(arg)
            if count < 1:
                raise ValueError
    except ValueError:
        raise ToolError(f"player {spec!r}: the strength is a positive count (pimc:12) or seconds per move (pimc:0.05s)") from None
    if name == "pimc":
        return DeterminizedSearch(config, seed, determinizations=count or 12, seconds=seconds)
    return InformationSetMCTS(config, seed, iterations=count or 200, seconds=seconds)
