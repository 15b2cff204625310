"""Every field of `rulelang-config/1`, declared once: the engine's attribute, its place, type, default and meaning.

A field is one line of `Fields` (a frozen dataclass: the engine's `Config`
is built on it) made by `declare(PATH, DOC, STATEMENT, ...)`: PATH is its
dotted place in the JSON configuration, DOC one line of what it says,
STATEMENT the key of the statement that sets it; `default=` makes it
optional (the value an absent field stands for). The annotation is the
engine's type; the JSON Schema of the value follows from it (a `Literal` is
an enum, `Annotated[int, Schema({"minimum": 1})]` adds keywords) unless `schema=`
gives it. Required fields are in the order the compiler writes them; an
optional one is written after them, in the order of the statements, at the end
of its object or `before=` a sibling (rulelang/language/statements/record.py).
A new statement's field is declared in its statement entry instead (`field=`,
`FieldDecl`): the block at the end of `Fields` is generated from the entries
(rulelang/config/stated.py, `python -m rulelang.generate`).

`CONSTRAINTS` holds the schema's rules across fields of one object (a
JSON Schema `if`/`then`); one the language also reports in its own words is
a `CrossField`, declared once for both; the `TypedDict`s the shapes of a
settlement term.
"""
from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Annotated, Any, Literal, TypedDict

from rulelang.config.spec import Schema, declare
from rulelang.config.vocabulary import (
    BlockWinner,
    Branching,
    BranchSides,
    Claims,
    DominoWinner,
    Drawing,
    Events,
    Format,
    Formula,
    GameOpener,
    HandDoubles,
    HandSet,
    Lead,
    NoDouble,
    OpenerBlock,
    OpenerDomino,
    OpenerFirst,
    Overshoot,
    PartnersTie,
    PlayerCount,
    Pooling,
    Receiver,
    RoundEnd,
    Sign,
    SpinnerBranches,
    SpinnerCount,
    SpinnerOrientation,
    TargetCheck,
    TargetMode,
    TerminalCount,
    TieBreak,
    Ties,
    TileSet,
    literal_values,
)

__all__ = ["Fields", "Term", "divisor_of", "HandsTerm", "DifferencesTerm", "HeaviestTerm", "TilesTerm", "NetTerm", "CONSTRAINTS", "CrossField",
           "LAST_PLACEMENT_NEEDS_DOMINOER"]

Positive = Annotated[int, Schema({"minimum": 1})]
Natural = Annotated[int, Schema({"minimum": 0})]
Text = Annotated[str, Schema({"minLength": 1})]
RoundingRule = Annotated[str, Schema({"pattern": "^(none|round([2-9]|[1-9][0-9]+))$"})]  # N >= 2, as the language says
PER_COUNT = {"type": "object", "additionalProperties": False,
             "patternProperties": {"^([2-9]|1[012])$": {"type": "integer", "minimum": 0, "maximum": 190}},
             "minProperties": 1}
BY_COUNT = {"type": "object", "minProperties": 1,
            "patternProperties": {"^[1-9][0-9]*$": {"type": "integer", "minimum": 1}}, "additionalProperties": False}


def _sorted_tuple(value: list[int]) -> tuple[int, ...]:
    return tuple(sorted(value))


# `scoring.multiple` under the divisor formulas: the divisors say what scores, and the field keeps this value
DIVIDED_MULTIPLE = 5


def _formula_divides(config: Mapping[str, Any]) -> bool:
    return bool(config.get("scoring", {}).get("formula", "value") != "value")


def _one_multiple(config: Mapping[str, Any]) -> list[int]:
    """`[scoring.multiple]`"""
    return [config["scoring"]["multiple"]]


# The shapes of a settlement term (an item of `settlement.*.terms`); every key is required but `divisor`
# ("rounded to N and divided by D": the rounded amount divided by D; omitted when 1).

class Divided(TypedDict, total=False):
    """The optional key of a rounded term: "rounded to N and divided by D" divides the rounded amount by D."""

    divisor: Positive


def divisor_of(term: Divided) -> int:
    """What a rounded term's amount is divided by (1: not divided, the key omitted)."""
    return term.get("divisor", 1)


class HandsTerm(Divided):
    """Amounts from hands chosen relative to the winner: whose `hands`, `pooling` them or one per hand,
    the `rounding`, who receives them (`to`) and the `sign`."""

    kind: Literal["hands"]
    hands: HandSet
    pooling: Pooling
    rounding: RoundingRule
    to: Receiver
    sign: Sign


class DifferencesTerm(Divided):
    """Each hand's owner is credited the differences to the heavier opposing hands, rounded."""

    kind: Literal["differences"]
    rounding: RoundingRule
    to: Literal["owner"]
    sign: Literal["credit"]


class HeaviestTerm(Divided):
    """The winner's side is credited the heaviest opposing hand, rounded."""

    kind: Literal["heaviest"]
    rounding: RoundingRule
    to: Literal["winner"]
    sign: Literal["credit"]


class TilesTerm(TypedDict):
    """Amounts counted per tile, not per pip ("5 points for each bone left"): `per_tile` raw points for each
    tile of the hands chosen as a `hands` term chooses them; never rounded."""

    kind: Literal["tiles"]
    hands: HandSet
    pooling: Pooling
    per_tile: Positive
    to: Receiver
    sign: Sign


class NetTerm(Divided):
    """The winner's side is credited the opponents' hands minus the winner's own hand, rounded once (a net
    below 0 gives nothing)."""

    kind: Literal["net"]
    rounding: RoundingRule
    to: Literal["winner"]
    sign: Literal["credit"]


Term = HandsTerm | DifferencesTerm | HeaviestTerm | TilesTerm | NetTerm


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True, eq=False, repr=False)
class Fields:
    """The fields of a configuration, as the engine reads them (docs/config.md says what each does)."""

    format: Format = declare("format", "the format's name and major version", empty="rulelang-config/1")
    name: Annotated[str, Schema({"pattern": "^[a-z][a-z0-9-]*$"})] = declare("name", "the ruleset's name", "ruleset",
                                                                             empty="")
    title: Text = declare("title", "the ruleset's title", "ruleset", empty="")
    source: Text = declare("source", "where the rules come from", "source", empty="")
    based_on: str | None = declare("based_on", "the base ruleset the text names (for explain)", "based_on")
    tiles: Literal[6, 9, 12, 15, 18] = declare("tiles", "the set's highest pip (double-six when absent)", "tiles", default=6,
                         schema={"enum": list(literal_values(TileSet))})
    counts: Annotated[tuple[PlayerCount, ...], Schema({"minItems": 1, "uniqueItems": True})] = declare(
        "players.counts", "the player counts the variant allows", "players", empty=[], read=_sorted_tuple)
    partnerships: Annotated[tuple[Literal[4], ...], Schema({"uniqueItems": True})] = declare(
        "players.partnerships", "the player counts at which seats 0+2 and 1+3 are teams", "players", empty=[])
    hand_sizes: Mapping[int, int] = declare("hand_size", "tiles dealt to each player, per player count", "hand",
                                            empty={}, schema=PER_COUNT)
    reserves: Mapping[int, int] = declare("reserve", "tiles of the boneyard never drawn, per player count",
                                          "reserve", empty={}, schema=PER_COUNT)
    redeal_doubles: Annotated[int, Schema({"minimum": 2})] | None = declare(
        "redeal_doubles", "a deal is thrown in when one hand holds this many doubles or more", "redeal_doubles",
        default=None)
    drawing: Drawing = declare("drawing", "whether a player who cannot place draws", "drawing")
    draw_limit: Positive | None = declare("draw_limit", "the most tiles a player draws in a turn", "drawing",
                                          default=None)
    draw_while_able: bool = declare("draw_while_able", "a player may draw while able to place", "draw_while_able",
                                    default=False, schema={"const": True})
    opener_first: OpenerFirst = declare("opener.first_round", "who opens the first round", "opener_first")
    opener_after_domino: OpenerDomino = declare("opener.after_domino", "who opens the round after a domino",
                                                "opener_domino")
    opener_after_block: OpenerBlock = declare("opener.after_block", "who opens the round after a block",
                                              "opener_block")
    lead: Lead = declare("opener.lead", "what the opener may lead", "lead")
    no_double: NoDouble = declare("opener.no_double", "who leads a round opened by a double when nobody holds it",
                                  "no_double", default="heaviest-tile")
    branching: Branching = declare("doubles.branching", "which doubles are spinners", "branching")
    branch_sides: BranchSides = declare("doubles.branch_sides", "when a spinner's branches open", "branch_sides")
    terminal_count: TerminalCount = declare("doubles.terminal_count", "what a double at an end of the line counts",
                                            "terminal_count")
    spinner_orientation: SpinnerOrientation = declare(
        "doubles.spinner_orientation", "how the spinner is laid", "spinner_orientation", default="crosswise")
    spinner_count: SpinnerCount = declare("doubles.spinner_count", "what the spinner counts", "spinner_count",
                                          default="terminal")
    branch_length: SpinnerBranches = declare("doubles.branch_length", "how long the spinner's branches grow",
                                             "branch_length", default="unlimited")
    in_play: bool = declare("scoring.in_play", "whether placements score", "scoring")
    formula: Formula = declare("scoring.formula", "what a placement whose count divides earns", "scoring",
                               default="value", before="multiple")
    multiple: Positive = declare("scoring.multiple", "the multiple a placement's count must be to score "
                                 f"(under the divisor formulas, {DIVIDED_MULTIPLE}: the divisors decide)", "scoring",
                                 empty=5)
    divisors: Annotated[tuple[Positive, ...], Schema({"minItems": 1, "uniqueItems": True})] = declare(
        "scoring.divisors", "the divisors of the formulas per-multiple, face-value and face-value-once", "scoring",
        default=_one_multiple, used_when=_formula_divides, before="unit")
    unit: Positive = declare("scoring.unit", "the raw points that make one shown point", "unit")
    minimum: Annotated[int, Schema({"minimum": 2})] | None = declare(
        "scoring.minimum", "the raw points a placement must earn to score (fewer score nothing)", "placement_minimum",
        default=None)
    hand_doubles: HandDoubles = declare("scoring.hand_doubles", "what a double left in hand counts", "hand_doubles",
                                        default="both-halves")
    target: Positive = declare("target.raw", "the target, in raw points", "target")
    target_mode: TargetMode = declare("target.mode", "how the target is reached, or a fixed number of rounds",
                                      "target")
    target_check: TargetCheck = declare("target.check", "when the target is checked", "check")
    overshoot: Overshoot = declare("target.overshoot", "what an event past an exact target does", "overshoot")
    ties: Ties = declare("target.ties", "what a shared highest score at the end does", "ties")
    entry: Natural = declare("target.entry", "raw points a side's first event needs to count", "entry", default=0)
    rounds: Positive | None = declare("target.rounds", "the number of rounds of a match of fixed length", "rounds",
                                      default=None)
    lead_cannot_win: bool = declare("target.lead_cannot_win", "the round's opening placement cannot reach the target",
                                    "lead_cannot_win", default=False, schema={"const": True})
    target_by_count: Mapping[int, int] = declare("target.raw_by_count", "the raw target per player count", "target",
                                                 default={}, schema=BY_COUNT)
    tie_rounds: Mapping[int, int] = declare("target.tie_rounds", "the extra rounds a tie at the top plays, per count",
                                            "tie_rounds", default={}, schema=BY_COUNT)
    score_floor: int | None = declare("score_floor", "the lowest a score can fall (null: no floor)", "floor")
    round_end: RoundEnd = declare("round_end", "when a player going out ends the round", "round_end",
                                  default="player-out", before="settlement")
    claims: Claims = declare("claims", "whether a placement's points must be claimed", "claims", default="none",
                          before="settlement")
    domino_winner: DominoWinner = declare("settlement.domino.winner", "who wins a domino", "domino_winner",
                                          default="dominoer", before="terms")
    domino_terms: tuple[Term, ...] = declare("settlement.domino.terms", "the amounts a domino pays", "domino_terms",
                                             empty=[])
    domino_events: Events = declare("settlement.domino.events", "how a domino's amounts make events",
                                    "domino_events")
    domino_with_last_placement: bool = declare(
        "settlement.domino.with_last_placement", "the last placement joins the domino's event", "domino_events",
        empty=False)
    block_winner: BlockWinner = declare("settlement.block.winner", "who wins a block", "block_winner")
    block_tie_break: TieBreak = declare("settlement.block.tie_break", "how tied lightest hands are told apart",
                                        "block_winner")
    block_partners_tie: PartnersTie = declare("settlement.block.partners_tie", "whether partners sharing the "
                                              "lightest hand win together", "block_winner", default="side-wins",
                                              before="terms")
    block_terms: tuple[Term, ...] = declare("settlement.block.terms", "the amounts a block pays", "block_terms",
                                            empty=[])
    block_events: Events = declare("settlement.block.events", "how a block's amounts make events", "block_events")
    # BEGIN fields declared by statement entries (python -m rulelang.generate writes them; edit the entry)
    knock_bonus: Natural = declare(
        "scoring.knock_bonus", "raw points the next placer scores per pass", "knock_bonus", default=0)
    series_games: Positive | None = declare(
        "target.games",
        "the number of games of a series (best of N); not written, a match is one game",
        "series_games",
        default=None)
    game_opener: GameOpener = declare(
        "target.game_opener", "who opens each game of a series after the first", "game_opener", default="first-round")
    domino_bonus: Natural = declare(
        "settlement.domino.bonus", "raw points the winner's side earns for a domino", "domino_bonus", default=0)
    # END fields declared by statement entries


@dataclasses.dataclass(frozen=True, slots=True)
class CrossField:
    """A rule across the fields of one object, declared once: its JSON Schema `if`/`then` (what the schema, and so
    any engine validating with it, refuses) and the code and words the language reports it with
    (rulelang/config/rules.py registers it as a rule over `statements`)."""

    where: str  # the object's dotted path
    keywords: Mapping[str, Any]  # the JSON Schema keywords of that object
    code: str
    message: str
    hint: str
    statements: tuple[str, ...]  # the statements it involves: the message points at the first


LAST_PLACEMENT_NEEDS_DOMINOER = CrossField(
    "settlement.domino",
    {"if": {"required": ["winner"], "properties": {"winner": {"const": "lightest-side"}}},
     "then": {"properties": {"with_last_placement": {"const": False}}}},
    "last-placement-needs-dominoer", "the last placement can join the settlement only when the dominoer wins it: "
    "with `winner: the lightest side` another side may win", "write `as one event` (the last placement is then its "
    "own event)", ("domino_winner", "domino_events"))

# Rules across the fields of one object, as JSON Schema keywords of that object ("" is the whole configuration).
CONSTRAINTS: dict[str, dict[str, Any]] = {
    "": {"if": {"required": ["draw_limit"]},
         "then": {"properties": {"drawing": {"const": "until-playable"}}}},
    "scoring": {"allOf": [
        {"if": {"properties": {"in_play": {"const": False}}},
         "then": {"properties": {"multiple": {"const": 5}, "formula": {"const": "value"},
                                 "divisors": {"const": [5]}}}},
        {"if": {"required": ["formula"], "properties": {"formula": {"enum": ["per-multiple", "face-value", "face-value-once"]}}},
         "then": {"properties": {"multiple": {"const": DIVIDED_MULTIPLE}}}}]},
    "target": {"if": {"properties": {"mode": {"const": "rounds"}}},
               "then": {"required": ["rounds"]},
               "else": {"not": {"required": ["rounds"]}}},
    "settlement.domino": dict(LAST_PLACEMENT_NEEDS_DOMINOER.keywords),
    "settlement.block": {
        "if": {"properties": {"winner": {"const": "none"}}},
        "then": {"properties": {"tie_break": {"const": "none"}, "partners_tie": {"const": "side-wins"}}},
        "allOf": [
            {"if": {"properties": {"winner": {"const": "fewest-tiles"}}},
             "then": {"properties": {"tie_break": {"const": "lightest-hand"}, "partners_tie": {"const": "side-wins"}}},
             "else": {"properties": {"tie_break": {"not": {"const": "lightest-hand"}}}}},
            {"if": {"properties": {"winner": {"const": "lightest-side"}}},
             "then": {"properties": {"tie_break": {"const": "none"}, "partners_tie": {"const": "side-wins"}}}},
        ]},
}
