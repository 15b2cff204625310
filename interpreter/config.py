"""The compiled configuration (docs/config.md) as an immutable object with precomputed tables."""
from __future__ import annotations

import copy
import json
import os
from collections.abc import Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from .errors import ConfigError

if TYPE_CHECKING:
    from .rules import Rules


def _freeze(value: Any) -> Any:
    if isinstance(value, dict):
        return MappingProxyType({k: _freeze(v) for k, v in value.items()})
    if isinstance(value, list):
        return tuple(_freeze(v) for v in value)
    return value


class Config:
    """A validated configuration; read fields as attributes or via `to_dict()`."""

    __slots__ = (
        "_data", "_json", "name", "title", "counts", "partnerships", "drawing", "opener_first",
        "opener_after_domino", "opener_after_block", "lead", "branching", "branch_sides",
        "terminal_count", "in_play", "multiple", "unit", "target", "target_mode", "target_check",
        "overshoot", "ties", "score_floor", "domino", "block", "_hand_size", "_reserve", "_rules",
        "formula", "divisors", "round_end",
        "claims",  # family tier C: the muggins rule
        "tiles",  # larger sets
        "spinner_orientation", "spinner_count", "branch_length",  # the sniff (family tier C)
        "entry", "rounds", "lead_cannot_win", "target_by_count", "tie_rounds", "draw_limit", "draw_while_able",
        "knock_bonus", "hand_doubles",
    )

    # The slots above, set once in __init__ through object.__setattr__ (declared here for type checkers;
    # annotations without values create no class attributes, so they do not clash with __slots__).
    _data: dict[str, Any]
    _json: str
    name: str
    title: str
    counts: tuple[int, ...]
    partnerships: tuple[int, ...]
    drawing: str
    opener_first: str
    opener_after_domino: str
    opener_after_block: str
    lead: str
    branching: str
    branch_sides: str
    terminal_count: str
    in_play: bool
    multiple: int
    unit: int
    target: int
    target_mode: str
    target_check: str
    overshoot: str
    ties: str
    score_floor: int | None
    domino: Mapping[str, Any]
    block: Mapping[str, Any]
    _hand_size: dict[int, int]
    _reserve: dict[int, int]
    _rules: Rules | None
    formula: str
    divisors: tuple[int, ...]
    round_end: str
    claims: str  # "none" / "muggins" / "forfeit" (family tier C, interpreter.claims)
    tiles: int  # larger sets: the highest pip of the set (6, 9, 12)
    spinner_orientation: str  # the sniff: "crosswise" (default) / "endwise" / "choice"
    spinner_count: str  # the sniff: "terminal" (default) / "uncovered-sides"
    branch_length: str  # the sniff: "unlimited" (default) / "one-tile"
    entry: int  # "N points to get in" (raw; 0 = none)
    rounds: int | None  # "the match lasts N rounds" (target mode "rounds"), else None
    lead_cannot_win: bool  # "the opening placement cannot win"
    target_by_count: Mapping[int, int]  # a raw target per player count, where it differs
    tie_rounds: Mapping[int, int]  # extra rounds a tie at the top plays, per player count
    draw_limit: int | None  # "draw until playable, at most K tiles"
    draw_while_able: bool  # "a player may draw while able to place"
    knock_bonus: int  # raw points the next placer scores per pass (0 = none)
    hand_doubles: str  # "both-halves" (default) / "one-half": a double left in hand

    def __init__(self, data: dict[str, Any]):
        """Use `Config.from_dict`, which validates; this trusts `data`."""
        data = copy.deepcopy(data)
        s = object.__setattr__
        s(self, "_data", data)
        s(self, "_rules", None)  # the engine's tables, built on first use (interpreter.rules)
        s(self, "_json", json.dumps(data, sort_keys=True))
        s(self, "name", data["name"])
        s(self, "title", data["title"])
        s(self, "counts", tuple(sorted(data["players"]["counts"])))
        s(self, "partnerships", tuple(data["players"]["partnerships"]))
        s(self, "_hand_size", {int(k): v for k, v in data["hand_size"].items()})
        s(self, "_reserve", {int(k): v for k, v in data["reserve"].items()})
        s(self, "drawing", data["drawing"])
        op = data["opener"]
        s(self, "opener_first", op["first_round"])
        s(self, "opener_after_domino", op["after_domino"])
        s(self, "opener_after_block", op["after_block"])
        s(self, "lead", op["lead"])
        d = data["doubles"]
        s(self, "branching", d["branching"])
        s(self, "branch_sides", d["branch_sides"])
        s(self, "terminal_count", d["terminal_count"])
        sc = data["scoring"]
        s(self, "in_play", sc["in_play"])
        s(self, "multiple", sc["multiple"])
        s(self, "unit", sc["unit"])
        t = data["target"]
        s(self, "target", t["raw"])
        s(self, "target_mode", t["mode"])
        s(self, "target_check", t["check"])
        s(self, "overshoot", t["overshoot"])
        s(self, "ties", t["ties"])
        s(self, "score_floor", data["score_floor"])
        s(self, "domino", _freeze(data["settlement"]["domino"]))
        s(self, "block", _freeze(data["settlement"]["block"]))
        # family tier A (docs/design/family.md): optional fields, read with their defaults
        s(self, "formula", sc.get("formula", "value"))
        s(self, "divisors", tuple(sc.get("divisors", [sc["multiple"]])))
        s(self, "round_end", data.get("round_end", "player-out"))
        s(self, "claims", data.get("claims", "none"))  # family tier C: the muggins rule
        s(self, "tiles", data.get("tiles", 6))  # larger sets: default double-six
        # the sniff (family tier C): optional, default today's crosswise spinner counting while terminal
        s(self, "spinner_orientation", d.get("spinner_orientation", "crosswise"))
        s(self, "spinner_count", d.get("spinner_count", "terminal"))
        s(self, "branch_length", d.get("branch_length", "unlimited"))
        s(self, "entry", t.get("entry", 0))
        s(self, "rounds", t.get("rounds") if t["mode"] == "rounds" else None)
        s(self, "lead_cannot_win", bool(t.get("lead_cannot_win")))
        s(self, "target_by_count", MappingProxyType({int(n): raw for n, raw in t.get("raw_by_count", {}).items()}))
        s(self, "tie_rounds", MappingProxyType({int(n): k for n, k in t.get("tie_rounds", {}).items()}))
        s(self, "draw_limit", data.get("draw_limit"))
        s(self, "draw_while_able", bool(data.get("draw_while_able")))
        s(self, "knock_bonus", sc.get("knock_bonus", 0))
        s(self, "hand_doubles", sc.get("hand_doubles", "both-halves"))

    def __setattr__(self, key: str, value: Any) -> None:
        raise AttributeError("Config is immutable")

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Config:
        """Validate `data` with the validator the language uses (rulelang/checks.py); build a Config."""
        if isinstance(data, Config):
            return data
        _check(data)
        return cls(data)

    def to_dict(self) -> dict[str, Any]:
        """The configuration as a JSON-ready dict (a copy)."""
        return copy.deepcopy(self._data)

    @property
    def rules(self) -> Rules:
        """The engine's tables for this configuration (interpreter.rules), built on first use."""
        r = self._rules
        if r is None:
            from .rules import Rules

            r = Rules(self)
            object.__setattr__(self, "_rules", r)
        return r

    def hand_size(self, players: int) -> int:
        """Tiles dealt to each of `players` players."""
        return self._hand_size[players]

    def reserve(self, players: int) -> int:
        """Tiles at the end of the boneyard that are never drawn."""
        return self._reserve.get(players, 0)

    def sides_of(self, players: int) -> tuple[int, ...]:
        """The side (score index) of each seat: seats 0+2 and 1+3 with partnerships."""
        if players in self.partnerships:
            return tuple(seat % 2 for seat in range(players))
        return tuple(range(players))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Config) and self._json == other._json

    def __hash__(self) -> int:
        return hash(self._json)

    def __repr__(self) -> str:
        return f"Config({self.name!r})"


def _check(data: dict[str, Any]) -> None:
    """The one validator the language uses too (rulelang/checks.py): the schema, then the rules.

    The error's `code` is the fault's own (`invalid-config` for the schema), as the language reports it.
    """
    from rulelang.checks import config_problems

    problems = config_problems(data)
    if problems:
        first = problems[0]
        error = ConfigError(first.message, first.path)
        error.code = first.code
        raise error


def load_config(path: str | os.PathLike[str]) -> Config:
    """Read and validate a configuration JSON file."""
    with open(path, encoding="utf-8") as f:
        try:
            data = json.load(f)
        except json.JSONDecodeError as e:
            error = ConfigError(f"not JSON: {e}", str(path))
            error.code = "invalid-config"  # the language's code for the same fault
            raise error from None
    return Config.from_dict(data)


def as_config(value: Any) -> Config:
    """Accept a Config, a dict or a path."""
    if isinstance(value, Config):
        return value
    if isinstance(value, dict):
        return Config.from_dict(value)
    return load_config(value)
