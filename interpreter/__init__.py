"""The rulelang engine: plays any compiled configuration (docs/engine-api.md)."""
from .config import Config, as_config, load_config
from .errors import ConfigError, EngineError, IllegalMove, TranscriptMismatch
from .layout import Layout
from .match import Match, play_match, play_round
from .players import greedy_player, random_player
from .points import round5
from .records import Event, RoundResult, Turn, shown_points
from .round import Round
from .rules import Rules, rules_of
from .series import Series, new_match
from .settlement import Plan, block_winner, settle
from .tiles import Move, Tile, format_tile, parse_tile
from .transcript import first_difference, replay

__all__ = [
    "Config", "ConfigError", "EngineError", "Event", "IllegalMove", "Layout", "Match", "Move", "Plan",
    "Round", "RoundResult", "Rules", "Series", "Tile", "TranscriptMismatch", "Turn", "as_config", "block_winner",
    "format_tile", "first_difference", "greedy_player", "load_config", "new_match", "parse_tile", "play_match", "play_round",
    "random_player", "replay", "round5", "rules_of", "settle", "shown_points",
]
