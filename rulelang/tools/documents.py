"""The JSON documents the tools write and read back, as TypedDicts: one match of `simulate -o`, one match of a
balance study or ladder (`balance -o`), the study each results file starts with, and the balance report
(`balance --json`). docs/tools.md describes them; the `--json` reports follow rulelang/schema/*.schema.json."""
from __future__ import annotations

from typing import NotRequired, TypedDict

from rulelang.base.jsontypes import ConfigJSON


class SimRound(TypedDict):
    """A round of a `simulate` match: how it ended and the accepted raw points by where they came from."""

    kind: str
    turns: int
    events: int
    discarded: int
    placement: int
    settlement: int
    call: NotRequired[int]  # the muggins rule only: points taken by calls


class SimMatch(TypedDict):
    """One line of `simulate -o FILE.jsonl` (the score race `race` only in memory, for plots)."""

    index: int
    seed: int
    variant: str
    players: int
    bots: list[str]
    finished: bool
    winner: int | None
    scores: list[int]
    shown_scores: list[float]
    rounds: int
    round_details: list[SimRound]
    games_won: NotRequired[list[int]]  # a series of games: games won per side (`winner` is the series')
    games: NotRequired[int]  # a series of games: the games played
    miss_rate: NotRequired[float]
    race: NotRequired[list[list[int]]]


class StudyRound(TypedDict):
    """A round of a study's match: its opener and the raw points per side from play, settlement and calls."""

    kind: str
    opener: int
    turns: int
    play: list[int]
    settle: list[int]
    call: NotRequired[list[int]]  # the muggins rule only


class StudyMatch(TypedDict):
    """One match line of `balance -o FILE.jsonl` (and of a ladder): which variant, part and index it is."""

    key: str
    part: str
    index: int
    focus: int | None
    finished: bool
    winner: int | None
    scores: list[int]
    rounds: int
    lead_changes: int
    round_details: list[StudyRound]
    race: NotRequired[list[list[int]]]


class LadderMatch(TypedDict):
    """One match line of `balance --ladder -o FILE.jsonl`: a link (`part`, "UPPER vs LOWER") and its result."""

    key: str
    part: str
    index: int
    focus: int
    winner: int | None
    finished: bool
    rounds: int
    scores: list[int]


class Study(TypedDict, total=False):
    """What a study plays: the header line of its results file (`balance`, or `mode: ladder`)."""

    mode: str
    variants: dict[str, ConfigJSON]
    players: int
    seed: int
    matches: int
    skill_matches: int
    field: str
    strong: str
    link_matches: int
    rungs: list[str]
    bars: list[float]


Parts = dict[str, dict[str, list[StudyMatch]]]
"""A study's matches by variant key ("a", "b") and part, in index order."""


class Figure(TypedDict):
    """One figure of `balance --json`: its value and 95% interval over `n` matches."""

    value: float
    ci95: list[float]
    n: int
    kind: str
    part: str


class ComparisonRow(TypedDict):
    metric: str
    a: float
    b: float
    difference: float
    test: str
    statistic: float
    p: float
    significant: bool


class Comparison(TypedDict):
    alpha: float
    correction: str
    rows: list[ComparisonRow]


class BalanceStudy(TypedDict):
    """What `balance --json` says it played (the study without its rulesets, and their names)."""

    players: int
    seed: int
    matches: int
    skill_matches: int
    field: str
    strong: str
    names: list[str]


class BalanceReport(TypedDict):
    """`balance --json`: the figures per variant name, the length spread, and with `--vs` the comparison."""

    variants: dict[str, dict[str, Figure]]
    length: dict[str, dict[str, float]]
    comparison: NotRequired[Comparison]
    study: NotRequired[BalanceStudy]  # set last, by the command


class Estimate(TypedDict):
    value: float
    ci95: list[float | None]


class LadderLink(TypedDict):
    lower: str
    upper: str
    matches: int
    upper_wins: int
    draws: int
    share: float
    ci95: list[float]
    head_to_head: float
    head_to_head_ci95: list[float]


class Chain(TypedDict):
    bar: float
    length: int
    ci95: list[float | None]


class Rating(TypedDict):
    player: str
    rating: float
    se: float
    ci95: list[float]
    elo: float
    elo_ci95: list[float]


class Ladder(TypedDict):
    """One ruleset's ladder in `balance --ladder --json` (rulelang/schema/ladder.schema.json, `ladder`)."""

    links: list[LadderLink]
    stopped: str
    chain: list[Chain]
    ratings: list[Rating]
    spread: Estimate
    coin_share: Estimate


class LadderTest(TypedDict):
    figure: str
    a: float
    b: float
    difference: float
    ci95: list[float | None] | None
    test: str
    statistic: float
    p: float
    significant: NotRequired[bool]  # set once Holm's correction has seen every row


class LadderComparison(TypedDict):
    alpha: float
    correction: str
    bootstrap: int
    rows: list[LadderTest]


class LadderStudy(TypedDict):
    players: int
    seed: int
    link_matches: int
    rungs: list[str]
    bars: list[float]
    sides: int
    partnerships: bool
    bootstrap: int
    names: list[str]


class LadderReport(TypedDict):
    """`balance --ladder --json` (rulelang/schema/ladder.schema.json)."""

    format: str
    version: int
    variants: dict[str, Ladder]
    comparison: NotRequired[LadderComparison]
    study: NotRequired[LadderStudy]  # set last, as the schema's required key


# --------------------------------------------------------------------------- transcripts (the engine's
# `Match.transcript()` and `Round.transcript()`, as `rulelang play` saves them and `rulelang replay` reads them)

class Deal(TypedDict):
    """A round's deal: the hands as dealt, the boneyard, who opens and how, the scores it starts from."""

    players: int
    opener: int
    hands: list[list[str]]
    boneyard: list[str]
    opening: NotRequired[str]
    scores: NotRequired[list[int] | None]
    tiebreak: NotRequired[bool]
    round: NotRequired[int]  # the rotating double: which double opens it
    opening_draws: NotRequired[list[tuple[int, str]]]  # [seat, tile drawn]
    first_opener: NotRequired[int]  # "ties at the top: the side that started the match wins": the match's first opener


class ThrownDeal(TypedDict):
    """A deal thrown in before a round's own ("the tiles are dealt again")."""

    hands: list[list[str]]
    boneyard: NotRequired[list[str]]


class TurnRecord(TypedDict, total=False):
    """A recorded turn (the engine's `Turn.to_dict()`)."""

    seat: int
    passed: list[int]
    pass_drawn: list[list[str]]
    drawn: list[str]
    offered: list[str]
    move: str
    counted: list[list[str | int]]  # [tile, end, value]
    count: int
    points: int
    events: list[dict[str, object]]
    call: dict[str, object]


class Result(TypedDict, total=False):
    """A transcript's result: the match's (over, winner, scores), or the round's in a transcript of one round."""

    over: bool
    winner: int | None
    scores: list[int]
    shown_scores: list[float]
    rounds: int
    kind: str
    games_won: list[int]  # a series of games: games won per side
    games: int  # a series of games: the games finished


class RoundRecord(TypedDict):
    """A round of a match transcript."""

    deal: Deal
    turns: NotRequired[list[TurnRecord]]
    result: NotRequired[Result | None]
    thrown_in: NotRequired[list[ThrownDeal]]


class GameOpener(TypedDict):
    """A game of a series whose first opener the series gave: the seat, and the rule (`target.game_opener`)."""

    seat: int
    by: str


class GameRecord(TypedDict):
    """A game of a series transcript: a match's seed, rounds and result (and its opener, when given)."""

    seed: object
    opener: NotRequired[GameOpener]
    rounds: list[RoundRecord]
    result: NotRequired[Result | None]


Transcript = TypedDict("Transcript", {
    "format": NotRequired[str],
    "config": ConfigJSON,
    "players": NotRequired[int],
    "seed": NotRequired[int],
    "rounds": NotRequired[list[RoundRecord]],  # a match's
    "games": NotRequired[list[GameRecord]],  # a series' ("the match is the best of N games")
    "deal": NotRequired[Deal],  # a single round's, with its turns and result at the top
    "turns": NotRequired[list[TurnRecord]],
    "result": NotRequired[Result | None],
    "x-play": NotRequired[dict[str, object]],  # `rulelang play`: the variant, seats and seed it was started with
})
"""A saved game: a match's rounds, a series' games, or one round (`deal`, `turns`, `result`)."""


class CallWindow(TypedDict):
    """The muggins rule: the open call window of an observation (`observation(seat)["call"]`)."""

    placer: int
    caller: int
    amount: int | None  # only for a seat that may call
    callers: NotRequired[list[int]]  # `any-opponent`: every seat that may, in turn order


# --------------------------------------------------------------------------- conformance cases, as rendering
# reads them (conformance/schema/case.schema.json has the whole shape; `rulelang conform` checks it)

class InlineRuleset(TypedDict):
    text: str
    filename: NotRequired[str]


class CaseStep(TypedDict, total=False):
    """A step of a case: a placement (`play`), a draw (`draw`), or else a pass."""

    play: str
    draw: object


class Case(TypedDict):
    id: str
    players: int
    setup: dict[str, object]  # the deal: `hands` and `boneyard` lists, and what else the engine's deal takes
    steps: NotRequired[list[CaseStep]]
    next_rounds: NotRequired[list[dict[str, object]]]
    ruleset: NotRequired[str | InlineRuleset]
    description: NotRequired[str]
    tags: NotRequired[list[str]]
    features: NotRequired[list[str]]


class CaseFile(TypedDict):
    cases: list[Case]
    ruleset: NotRequired[str | InlineRuleset]
