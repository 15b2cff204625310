"""The values statements hold: small immutable, hashable types named after what they say.

Two texts that state the same rule read to equal values (`players 2 to 4`
and `players 2 to 4, no partnerships` both have no partnerships), so `fmt`
can prove that the canonical text states the same rules.
"""
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Literal, NamedTuple, cast

from rulelang.config.fields import Term as ConfigTerm
from rulelang.config.fields import divisor_of
from rulelang.config.rules import mentions_winner
from rulelang.config.vocabulary import (
    BlockWinner,
    Events,
    Formula,
    HandSet,
    PartnersTie,
    Pooling,
    Receiver,
    Rounding,
    Sign,
    TargetMode,
    TermKind,
    TieBreak,
)

__all__ = ["Measure", "Span", "NO_SPAN", "PerCount", "Term", "Counts", "Players", "Named", "Based", "Scoring",
           "UnitValue", "Target", "EventsValue", "Winner"]


Measure = Literal["points", "shown", "raw"]  # how an amount is written: shown points (the unit's), or raw


@dataclass(frozen=True, slots=True)
class Span:
    """Where a piece of text is: 1-based line and column, end exclusive."""

    line: int
    column: int
    end_line: int
    end_column: int


NO_SPAN = Span(1, 1, 1, 1)


class Named(NamedTuple):
    """`ruleset NAME "TITLE"`."""

    name: str
    title: str


class Based(NamedTuple):
    """`based on NAME` (kind `name`) or `based on "PATH"` (kind `path`)."""

    kind: Literal["name", "path"]
    ref: str


class Counts(NamedTuple):
    """Player counts as written: a range `lo to hi` or a list `a or b`."""

    kind: Literal["range", "list"]
    numbers: tuple[int, ...]

    def expand(self) -> list[int]:
        """The counts, sorted (a range is expanded: call only once it is checked)."""
        if self.kind == "range":
            return list(range(self.numbers[0], self.numbers[1] + 1))
        return sorted(set(self.numbers))


class Players(NamedTuple):
    """The player counts and the counts at which partners play (`()` when nobody does)."""

    counts: Counts
    partnerships: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class PerCount:
    """A number of tiles: the same for every player count, or one per count."""

    uniform: int | None = None
    by_count: tuple[tuple[int, int], ...] = ()

    def expand(self, counts: Iterable[int]) -> dict[int, int]:
        """Per count, as the configuration holds it (only the counts given)."""
        if self.uniform is not None:
            return dict.fromkeys(counts, self.uniform)
        return dict(self.by_count)


class Scoring(NamedTuple):
    """Whether placements score, the multiple they score (None: not stated), and the formula.

    `formula` is "value" (the count scores itself), "per-multiple", "face-value", "face-value-once", or
    "ambiguous" (several divisors without an ending: an error); `divisors` is empty
    for "value" (the configuration's default, `[multiple]`).
    """

    in_play: bool
    multiple: int | None
    formula: Formula | Literal["ambiguous"] = "value"
    divisors: tuple[int, ...] = ()


class UnitValue(NamedTuple):
    """`RAW raw points make SHOWN shown point`; `points are shown raw` is (1, 1)."""

    raw: int
    shown: int


class Target(NamedTuple):
    """`target MODE AMOUNT MEASURE`; the measure is `points`, `shown` or `raw`."""

    mode: TargetMode
    amount: int
    measure: Measure
    # a target per player count, `... with 2 players, 150 with 3 or 4`: (amount, counts) groups, the first amount first
    by_count: tuple[tuple[int, tuple[int, ...]], ...] = ()


class EventsValue(NamedTuple):
    """How a settlement makes events, and whether the last placement joins it."""

    grouping: Events
    with_last_placement: bool


class Winner(NamedTuple):
    """Who wins a block, how a tie is broken, and whether partners sharing the lightest hand win."""

    winner: BlockWinner
    tie_break: TieBreak
    partners_tie: PartnersTie = "side-wins"  # or "no-winner" (`partners' ties too`)


@dataclass(frozen=True, slots=True)
class Term:
    """One settlement term (docs/config.md, Settlement)."""

    kind: TermKind
    hands: HandSet | None = None
    pooling: Pooling | None = None
    rounding: Rounding = "round5"
    to: Receiver = "owner"
    sign: Sign = "credit"
    span: Span = field(default=NO_SPAN, compare=False, repr=False)
    rounding_number: int = field(default=5, compare=False)  # as written, for the check
    divisor: int = 1  # "rounded to N and divided by D": D
    per_tile: int = 0  # a `tiles` term: the raw points of each tile
    divided_by: int | None = field(default=None, compare=False)  # D as written (None: not written), for the check

    @property
    def rounds_to(self) -> int | None:
        """N of a term `rounded to N` (None when not rounded)."""
        return None if self.rounding == "none" else int(self.rounding[len("round"):])

    def to_dict(self) -> ConfigTerm:
        """The term as the configuration writes it (`divisor` only when not 1)."""
        return cast(ConfigTerm, self._dict())  # the shapes of rulelang/config/fields.py: `check` ensures them

    def _dict(self) -> dict[str, object]:
        divided = {"divisor": self.divisor} if self.divisor != 1 else {}
        if self.kind == "differences":
            return {"kind": "differences", "rounding": self.rounding, **divided, "to": "owner", "sign": "credit"}
        if self.kind == "heaviest":  # family.md reading 12
            return {"kind": "heaviest", "rounding": self.rounding, **divided, "to": "winner", "sign": "credit"}
        if self.kind == "net":
            return {"kind": "net", "rounding": self.rounding, **divided, "to": "winner", "sign": "credit"}
        if self.kind == "tiles":
            return {"kind": "tiles", "hands": self.hands, "pooling": self.pooling, "per_tile": self.per_tile,
                    "to": self.to, "sign": self.sign}
        return {"kind": "hands", "hands": self.hands, "pooling": self.pooling, "rounding": self.rounding,
                **divided, "to": self.to, "sign": self.sign}

    @classmethod
    def from_dict(cls, d: ConfigTerm) -> Term:
        """A term of a configuration."""
        if d["kind"] == "tiles":
            return cls("tiles", d["hands"], d["pooling"], "none", d["to"], d["sign"], per_tile=d["per_tile"])
        divisor = divisor_of(d)
        if d["kind"] == "differences":
            return cls("differences", rounding=d["rounding"], divisor=divisor)
        if d["kind"] == "heaviest":
            return cls("heaviest", rounding=d["rounding"], to="winner", divisor=divisor)
        if d["kind"] == "net":
            return cls("net", rounding=d["rounding"], to="winner", divisor=divisor)
        return cls("hands", d["hands"], d["pooling"], d["rounding"], d["to"], d["sign"], divisor=divisor)

    def mentions_winner(self) -> bool:
        """Whether the term gives to or takes from the winner (so needs one): the configuration rules' test."""
        return mentions_winner(self.to_dict())
