"""The parsed form of a ruleset: frozen dataclasses that keep their source spans.

A `Ruleset` is a sequence of `Statement`s, each with a `key` (what it states,
e.g. ``"players"``), a `value` in the vocabulary of the compiled configuration,
and the `Span` of its line. The values are small immutable objects (strings,
ints, tuples, `PerCount`, `Term`), so a ruleset can be hashed and compared.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

__all__ = ["Span", "PerCount", "Term", "Statement", "Ruleset", "STATEMENTS", "StatementInfo"]


@dataclass(frozen=True)
class Span:
    """Where a piece of text is: 1-based line and column, end exclusive."""

    line: int
    column: int
    end_line: int
    end_column: int


NO_SPAN = Span(1, 1, 1, 1)


@dataclass(frozen=True)
class PerCount:
    """A number of tiles: the same for every player count, or one per count."""

    uniform: int | None = None
    by_count: tuple[tuple[int, int], ...] = ()

    def expand(self, counts: list[int]) -> dict[str, int]:
        if self.uniform is not None:
            return {str(n): self.uniform for n in counts}
        return {str(n): v for n, v in self.by_count}


@dataclass(frozen=True)
class Term:
    """One settlement term (docs/config.md, Settlement)."""

    kind: str  # "hands" | "differences"
    hands: str | None = None  # opponents | partner | own | everyone
    pooling: str | None = None  # pooled | each
    rounding: str = "round5"  # round5 | none
    to: str = "owner"  # winner | owner
    sign: str = "credit"  # credit | debit
    span: Span = field(default=NO_SPAN, compare=False, repr=False)
    rounding_number: int = field(default=5, compare=False)  # as written, for the check

    def to_dict(self) -> dict[str, Any]:
        if self.kind == "differences":
            return {"kind": "differences", "rounding": self.rounding, "to": "owner", "sign": "credit"}
        return {
            "kind": "hands",
            "hands": self.hands,
            "pooling": self.pooling,
            "rounding": self.rounding,
            "to": self.to,
            "sign": self.sign,
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Term:
        if d["kind"] == "differences":
            return cls("differences", rounding=d["rounding"])
        return cls("hands", d["hands"], d["pooling"], d["rounding"], d["to"], d["sign"])

    def mentions_winner(self) -> bool:
        return self.kind == "hands" and (self.to == "winner" or self.hands != "everyone")


@dataclass(frozen=True)
class Statement:
    """One stated rule: `key` names it, `value` says it, `span` is its line."""

    key: str
    value: Any
    span: Span = field(compare=False)
    section: str | None = field(default=None, compare=False)  # "domino" / "block" for settlement lines


@dataclass(frozen=True)
class Ruleset:
    """A parsed ruleset text (not yet resolved against its base)."""

    filename: str
    text: str = field(repr=False)
    statements: tuple[Statement, ...]
    sections: tuple[tuple[str, Span], ...] = ()  # ("domino", span of `on domino:`), ...

    @property
    def name(self) -> str | None:
        st = self.get("ruleset")
        return st.value[0] if st else None

    @property
    def based_on(self) -> str | None:
        st = self.get("based_on")
        return st.value[1] if st else None

    def get(self, key: str) -> Statement | None:
        """The first statement with this key, or None."""
        for st in self.statements:
            if st.key == key:
                return st
        return None

    def keys(self) -> list[str]:
        return [st.key for st in self.statements]

    def compile(self) -> dict[str, Any]:
        """Resolve the base and compile to the configuration dict (raises RulesetError)."""
        from rulelang.compiler import compile_ruleset

        return compile_ruleset(self)


@dataclass(frozen=True)
class StatementInfo:
    """What a statement key is called in messages, an example, and its group in `fmt`."""

    key: str
    words: str
    example: str
    group: int
    section: str | None = None


# Canonical order: the order `fmt` writes and the order of checks.
STATEMENTS: tuple[StatementInfo, ...] = (
    StatementInfo("ruleset", "the ruleset's name and title", 'ruleset my-fives "My Fives"', 0),
    StatementInfo("source", "the source of the rules", 'source "where these rules come from"', 0),
    StatementInfo("based_on", "the base ruleset", "based on allfives", 0),
    StatementInfo("players", "the player counts", "players 2 to 4, partnerships with 4", 1),
    StatementInfo("hand", "the hand size", "hand 5 tiles", 1),
    StatementInfo("reserve", "the reserve", "no reserve", 1),
    StatementInfo("drawing", "the drawing rule", "draw until playable", 1),
    StatementInfo("opener_first", "the opener of the first round", "opener of the first round: lottery", 2),
    StatementInfo("opener_domino", "the opener after a domino", "opener after a domino: the dominoer", 2),
    StatementInfo("opener_block", "the opener after a block", "opener after a block: lottery", 2),
    StatementInfo("lead", "what the opener leads", "opener leads any tile", 2),
    StatementInfo("branching", "which doubles branch", "every double branches", 3),
    StatementInfo("branch_sides", "when branches open", "branches open after the line", 3),
    StatementInfo("terminal_count", "what a terminal double counts", "a terminal double counts both halves", 3),
    StatementInfo("scoring", "scoring in play", "placements score multiples of 5", 4),
    StatementInfo("unit", "the scoring unit", "5 raw points make 1 shown point", 4),
    StatementInfo("target", "the target", "target at least 61 shown points", 4),
    StatementInfo("check", "when the target is checked", "check the target after every event", 4),
    StatementInfo("overshoot", "the overshoot rule", "no overshoot rule", 4),
    StatementInfo("ties", "ties at the top", "ties at the top: impossible", 4),
    StatementInfo("floor", "the score floor", "no score floor", 4),
    StatementInfo("domino_terms", "what is settled on a domino",
                  "credit opponents' hands separately, rounded to 5, to the winner", 5, "domino"),
    StatementInfo("domino_events", "how a domino's settlement makes events", "as one event", 5, "domino"),
    StatementInfo("block_winner", "the winner of a block", "winner: the lightest hand, ties not broken", 6, "block"),
    StatementInfo("block_terms", "what is settled on a block",
                  "credit opponents' hands separately, rounded to 5, to the winner", 6, "block"),
    StatementInfo("block_events", "how a block's settlement makes events", "as one event", 6, "block"),
)

INFO: dict[str, StatementInfo] = {s.key: s for s in STATEMENTS}
ORDER: dict[str, int] = {s.key: i for i, s in enumerate(STATEMENTS)}
