"""What the search players share: the configuration they search under, their seeded generator, and the
accounting of their decisions (how many were searched, how many fell back, CPU seconds spent)."""
from __future__ import annotations

import random
import time
from typing import Any

from rulelang.base.jsontypes import ConfigJSON
from rulelang.interpreter import Config, Move
from rulelang.interpreter.players import Seed
from rulelang.players.rollout import scale_of


class SearchPlayer:
    """A player `(observation, legal) -> Move` that needs `observation["history"]` (see arena).

    Subclasses implement `_search(observation, legal)`; a single legal move is played without a search.
    """

    wants_history = True

    def __init__(self, config: Config | ConfigJSON, seed: Seed = 0, seconds: float | None = None):
        self.config = Config.from_dict(config) if isinstance(config, dict) else config
        self.rng = random.Random(seed)
        self.seconds = seconds
        self.scale = scale_of(self.config)
        self.failed = 0  # searches that found no consistent sample (the greedy choice instead)
        self.decisions = self.searched = 0  # calls, and calls with a choice to search
        self.busy = 0.0  # CPU seconds spent searching
        self.playouts = 0  # roll-outs played to the end of the round, over all decisions

    def __call__(self, obs: dict[str, Any], legal: list[Move]) -> Move:
        self.decisions += 1
        if len(legal) == 1:
            return legal[0]
        clock = time.process_time()
        try:
            return self._search(obs, legal)
        finally:
            self.searched += 1
            self.busy += time.process_time() - clock

    def _search(self, obs: dict[str, Any], legal: list[Move]) -> Move:  # pragma: no cover - abstract
        raise NotImplementedError
