"""The compiled configuration's vocabulary, shared by the statement table, the compiler and the engine.

Every closed set of values of `rulelang-config/1` is a `Literal` type here; the
JSON schema states the same sets (tests/test_statement_table.py proves it), so
the table, the compiler and the engine cannot drift apart.
"""
from __future__ import annotations

from functools import cache
from typing import Any, Literal, get_args

__all__ = [
    "FORMAT", "TILES_IN_SET", "SET_TILES", "SET_PLAYERS", "SET_NAMES", "TileSet", "config_schema", "schema_problems",
    "literal_values", "without_defaults",
    "Drawing", "Opener", "OpenerFirst", "OpenerDomino", "OpenerBlock", "Lead", "Branching", "BranchSides",
    "TerminalCount", "Unit", "TargetMode", "TargetCheck", "Overshoot", "Ties", "Events", "BlockWinner",
    "TieBreak", "HandSet", "Pooling", "Rounding", "Receiver", "Sign", "TermKind",
    "Formula", "RoundEnd", "PartnersTie", "SpinnerOrientation", "SpinnerCount", "SpinnerBranches",
    "DominoWinner", "HandDoubles", "Claims",
]

FORMAT = "rulelang-config/1"
TILES_IN_SET = 28
# -- larger sets (family.md 3.7): highest pip -> tiles in the set, and the most players it allows
SET_TILES: dict[int, int] = {6: 28, 9: 55, 12: 91}
SET_PLAYERS: dict[int, int] = {6: 4, 9: 10, 12: 12}
SET_NAMES: dict[int, str] = {6: "double-six", 9: "double-nine", 12: "double-twelve"}
TileSet = Literal[9, 12]  # double-six (6) is the default, never written
# -- end larger sets

Drawing = Literal["until-playable", "none"]
# "seat-0": family tier B, a fixed opening seat (family.md 3.9)
Opener = Literal["lottery", "highest-double", "dominoer", "next-seat", "block-winner", "seat-0"]
OpenerFirst = Literal["lottery", "highest-double", "seat-0"]
OpenerDomino = Literal["dominoer", "lottery", "highest-double", "next-seat", "seat-0"]
OpenerBlock = Literal["lottery", "highest-double", "next-seat", "block-winner", "seat-0"]
Lead = Literal["any", "forced"]
Branching = Literal["every", "first", "none"]
BranchSides = Literal["after-line", "at-once"]
TerminalCount = Literal["both-halves", "one-half"]
Unit = int  # any N >= 1 raw points make 1 shown point (was 1 or 5)
TargetMode = Literal["exact", "at-least", "rounds"]  # "rounds": family tier B, `the match lasts N rounds`
TargetCheck = Literal["every-event", "after-settlement"]
Overshoot = Literal["discard", "bounce", "none"]
Ties = Literal["extra-rounds", "draw", "impossible"]
Events = Literal["one", "per-term", "per-hand"]
BlockWinner = Literal["lightest-hand", "none", "fewest-tiles", "lightest-side"]  # the last two: family tier B
TieBreak = Literal["fewest-tiles", "none", "lightest-hand", "lightest-tile"]  # "lightest-hand": family tier B
# (with fewest-tiles); "lightest-tile": issue 9 (family.md reading 21, brogames)
HandSet = Literal["opponents", "partner", "own", "everyone"]
Pooling = Literal["pooled", "each"]
Rounding = str  # "none" or "roundN", N >= 2 (the schema's pattern)
Receiver = Literal["winner", "owner"]
Sign = Literal["credit", "debit"]
TermKind = Literal["hands", "differences", "heaviest"]
# -- the family's tier A (docs/design/family.md): optional fields, default = today's behaviour
Formula = Literal["value", "per-multiple", "face-value"]
RoundEnd = Literal["player-out", "side-out"]
PartnersTie = Literal["side-wins", "no-winner"]
# -- family tier C (docs/design/family.md): the muggins rule; "none" is the default, never written
Claims = Literal["none", "muggins", "forfeit"]
# -- the sniff (family tier C): optional fields, default = today's crosswise spinner counting while terminal
SpinnerOrientation = Literal["crosswise", "endwise", "choice"]
SpinnerCount = Literal["terminal", "uncovered-sides"]
SpinnerBranches = Literal["unlimited", "one-tile"]
DominoWinner = Literal["dominoer", "lightest-side"]  # family.md 3.9: team totals decide a domino too
HandDoubles = Literal["both-halves", "one-half"]  # family.md reading 20: a double left in hand


def without_defaults(config: dict[str, Any]) -> dict[str, Any]:
    """A copy of a configuration without the optional fields (family tier A) that hold their default.

    The compiler never writes them; a configuration written by hand may: both state the same rules.
    """
    import json  # imported when used: it costs start-up time

    out: dict[str, Any] = json.loads(json.dumps(config))
    sc = out.get("scoring", {})
    if sc.get("formula", "value") == "value":
        sc.pop("formula", None)
        sc.pop("divisors", None)
    elif sc.get("divisors") == [sc.get("multiple")]:
        del sc["divisors"]
    if sc.get("hand_doubles") == "both-halves":
        del sc["hand_doubles"]
    if out.get("round_end") == "player-out":
        del out["round_end"]
    if out.get("claims") == "none":
        del out["claims"]
    settlement = out.get("settlement", {})
    if settlement.get("domino", {}).get("bonus") == 0:
        del settlement["domino"]["bonus"]
    if settlement.get("domino", {}).get("winner") == "dominoer":
        del settlement["domino"]["winner"]
    if settlement.get("block", {}).get("partners_tie") == "side-wins":
        del settlement["block"]["partners_tie"]
    doubles = out.get("doubles", {})  # the sniff (family tier C)
    if doubles.get("spinner_orientation") == "crosswise":
        del doubles["spinner_orientation"]
    if doubles.get("spinner_count") == "terminal":
        del doubles["spinner_count"]
    if doubles.get("branch_length") == "unlimited":
        del doubles["branch_length"]
    return out


def literal_values(tp: Any) -> tuple[Any, ...]:
    """The values of a Literal type, in order."""
    return get_args(tp)


@cache
def _schema_text() -> str:
    from importlib import resources  # imported only here: it costs start-up time

    return resources.files("rulelang").joinpath("schema/config.schema.json").read_text(encoding="utf-8")


def config_schema() -> dict[str, Any]:
    """The JSON schema of the compiled configuration (a fresh copy)."""
    import json

    schema: dict[str, Any] = json.loads(_schema_text())
    return schema


@cache
def _validator() -> Any:
    import json

    import jsonschema  # imported only when a configuration is validated: it costs start-up time

    schema = json.loads(_schema_text())
    cls = jsonschema.validators.validator_for(schema)
    return cls(schema)


def schema_problems(config: Any) -> list[tuple[str, str]]:
    """Schema violations of a configuration as (JSON pointer, message), sorted by path."""
    out = []
    for err in sorted(_validator().iter_errors(config), key=lambda e: list(e.absolute_path)):
        out.append(("/" + "/".join(str(p) for p in err.absolute_path), err.message))
    return out
