"""The compiled configuration (docs/config.md) as the engine's typed, immutable `Config`.

Its fields are declared once, in rulelang/config/fields.py (the attribute,
its place in the JSON configuration, type, default and meaning); `Config`
adds what the engine asks of them. `Config.from_dict` validates with the one
validator the language uses too (rulelang/config/rules.py).
"""
from __future__ import annotations

import copy
import dataclasses
import json
import os
from collections.abc import Mapping

from rulelang.base.jsontypes import ConfigJSON
from rulelang.config.fields import Fields
from rulelang.config.reading import freeze, read_fields
from rulelang.config.rules import config_problems
from rulelang.config.spec import derived

from .errors import ConfigError

__all__ = ["Config", "load_config", "as_config"]


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True, eq=False, repr=False, weakref_slot=True)
class Config(Fields):
    """A validated configuration: every declared field as a read-only attribute; `to_dict()` gives the JSON."""

    domino: Mapping[str, object] = derived()  # settlement.domino, read-only (interpreter.settlement.Plan reads it)
    block: Mapping[str, object] = derived()  # settlement.block, read-only
    _data: ConfigJSON = derived()
    _json: str = derived()

    @classmethod
    def from_dict(cls, data: ConfigJSON) -> Config:
        """Validate `data` (the schema, then the rules); build a Config."""
        if isinstance(data, Config):
            return data
        _check(data)
        return cls.trusted(data)

    @classmethod
    def trusted(cls, data: ConfigJSON) -> Config:
        """A Config of `data` without validating it (use `from_dict`)."""
        data = copy.deepcopy(data)
        config = cls(**read_fields(data))
        s = object.__setattr__
        s(config, "domino", freeze(data["settlement"]["domino"]))
        s(config, "block", freeze(data["settlement"]["block"]))
        s(config, "_data", data)
        s(config, "_json", json.dumps(data, sort_keys=True))
        return config

    def to_dict(self) -> ConfigJSON:
        """The configuration as a JSON-ready dict (a copy)."""
        return copy.deepcopy(self._data)

    def hand_size(self, players: int) -> int:
        """Tiles dealt to each of `players` players."""
        return self.hand_sizes[players]

    def reserve(self, players: int) -> int:
        """Tiles at the end of the boneyard that are never drawn."""
        return self.reserves.get(players, 0)

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


def _check(data: ConfigJSON) -> None:
    """The one validator the language uses too: the schema, then the rules.

    The error's `code` is the fault's own (`invalid-config` for the schema), as the language reports it.
    """
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


def as_config(value: Config | ConfigJSON | str | os.PathLike[str]) -> Config:
    """Accept a Config, a dict or a path."""
    if isinstance(value, Config):
        return value
    if isinstance(value, dict):
        return Config.from_dict(value)
    return load_config(value)
