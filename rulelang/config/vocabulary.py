"""The closed sets of values of `rulelang-config/1`, as `Literal` types, and the tile sets.

The field declarations (rulelang/config/fields.py) type their fields with
these; the statement table, the compiler and the engine import them from
here, so a value cannot be spelled differently in two places.
"""
from __future__ import annotations

from typing import Any, Literal, get_args

__all__ = [
    "FORMAT", "TILES_IN_SET", "SET_TILES", "SET_NAMES", "TileSet", "PlayerCount", "literal_values",
    "Format", "Drawing", "Opener", "OpenerFirst", "OpenerDomino", "OpenerBlock", "Lead", "Branching", "BranchSides",
    "TerminalCount", "Unit", "TargetMode", "TargetCheck", "Overshoot", "Ties", "Events", "BlockWinner",
    "TieBreak", "HandSet", "Pooling", "Rounding", "Receiver", "Sign", "TermKind",
    "Formula", "RoundEnd", "PartnersTie", "SpinnerOrientation", "SpinnerCount", "SpinnerBranches",
    "DominoWinner", "HandDoubles", "GameOpener", "Claims", "DOUBLE_OPENERS", "NoDouble",
]

FORMAT = "rulelang-config/1"
Format = Literal["rulelang-config/1"]
TILES_IN_SET = 28
# The tile sets: highest pip -> tiles in the set, its name (a set seats as many players as its tiles deal).
SET_TILES: dict[int, int] = {6: 28, 9: 55, 12: 91, 15: 136, 18: 190}
SET_NAMES: dict[int, str] = {6: "double-six", 9: "double-nine", 12: "double-twelve", 15: "double-fifteen",
                             18: "double-eighteen"}
TileSet = Literal[9, 12, 15, 18]  # the sets a configuration may name; double-six (6) is the default, never written
PlayerCount = Literal[2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]

Drawing = Literal["until-playable", "none", "until-found", "draw-and-pass"]
Opener = Literal["lottery", "highest-double", "dominoer", "next-seat", "block-winner", "seat-0", "double-six",
                 "rotating-double", "lowest-double", "after-dominoer", "after-last-placer", "heaviest-tile",
                 "last-placer"]
OpenerFirst = Literal["lottery", "highest-double", "seat-0", "double-six", "rotating-double", "lowest-double",
                      "heaviest-tile"]
OpenerDomino = Literal["dominoer", "lottery", "highest-double", "next-seat", "seat-0", "double-six", "rotating-double",
                       "lowest-double", "after-dominoer", "heaviest-tile"]
OpenerBlock = Literal["lottery", "highest-double", "next-seat", "block-winner", "seat-0", "double-six",
                      "rotating-double", "lowest-double", "after-last-placer", "heaviest-tile", "last-placer"]
# the openers that name a double: who holds it leads (`opener.no_double` says what happens when nobody does)
DOUBLE_OPENERS = ("highest-double", "double-six", "rotating-double", "lowest-double")
NoDouble = Literal["heaviest-tile", "draw", "heaviest-hand", "next-seat", "redeal", "next-seat-double"]
Lead = Literal["any", "forced", "double"]
Branching = Literal["every", "first", "none", "lead", "all-but-lead"]
BranchSides = Literal["after-line", "at-once", "spinner-first"]
TerminalCount = Literal["both-halves", "one-half"]
Unit = int  # any N >= 1 raw points make 1 shown point
TargetMode = Literal["exact", "at-least", "rounds"]
TargetCheck = Literal["every-event", "after-settlement"]
Overshoot = Literal["discard", "bounce", "none"]
Ties = Literal["extra-rounds", "draw", "impossible", "round-opener", "match-opener"]
Events = Literal["one", "per-term", "per-hand"]
BlockWinner = Literal["lightest-hand", "none", "fewest-tiles", "lightest-side"]
TieBreak = Literal["fewest-tiles", "none", "lightest-hand", "lightest-tile"]
HandSet = Literal["opponents", "partner", "own", "everyone"]
Pooling = Literal["pooled", "each"]
Rounding = str  # "none" or "roundN", N >= 2 (the schema's pattern)
Receiver = Literal["winner", "owner"]
Sign = Literal["credit", "debit"]
TermKind = Literal["hands", "differences", "heaviest", "tiles", "net"]
Formula = Literal["value", "per-multiple", "face-value", "face-value-once"]
RoundEnd = Literal["player-out", "side-out"]
PartnersTie = Literal["side-wins", "no-winner"]
Claims = Literal["none", "muggins", "forfeit", "any-opponent", "lost-if-called"]
SpinnerOrientation = Literal["crosswise", "endwise", "choice"]
SpinnerCount = Literal["terminal", "uncovered-sides"]
SpinnerBranches = Literal["unlimited", "one-tile"]
DominoWinner = Literal["dominoer", "lightest-side"]
HandDoubles = Literal["both-halves", "one-half"]
# who opens a later game of a series (`opener of a later game: ...`, docs/design/series.md)
GameOpener = Literal["first-round", "draw-loser", "game-loser", "game-winner"]


def literal_values(tp: Any) -> tuple[Any, ...]:
    """The values of a Literal type, in order."""
    return get_args(tp)
