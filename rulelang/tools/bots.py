"""The engine's own bots by name, as `--bots`, `--seat` and the playground offer them."""
from __future__ import annotations

from collections.abc import Callable

from rulelang.interpreter import greedy_player, random_player
from rulelang.interpreter.players import FastPlayer

BotFactory = Callable[[int], FastPlayer]  # a seed -> a player

# bot name -> factory(seed) -> a player
BOTS: dict[str, BotFactory] = {"random": random_player, "greedy": greedy_player}
