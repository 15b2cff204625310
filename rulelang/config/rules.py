"""The rules a configuration must follow beyond its schema: one validator for the language and the engine.

Each rule is small, has one stable code and names the statements it involves
(`keys`): the compiler points its message at one of them (`at`, the first
stated in the file being compiled, else the first) and skips a rule when one of
its statements already has an error of its own; the engine (`Fields.from_dict`)
runs the same rules through `config_problems`, so exactly the same
configurations are valid for both. A rule reads the typed record of the
configuration (`Fields`: every optional field holding its value or its
default), never its JSON. A fault's `path` is the JSON pointer of the first
field its statement sets (rulelang/config/fields.py).
"""
from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterator, Mapping
from typing import Any

from rulelang.config.declared import declared, statement_pointer
from rulelang.config.fields import LAST_PLACEMENT_NEEDS_DOMINOER, CrossField, Fields, Term, divisor_of
from rulelang.config.reading import read_record, thaw
from rulelang.config.validation import schema_problems
from rulelang.config.vocabulary import DOUBLE_OPENERS, SET_NAMES, SET_TILES

__all__ = ["Problem", "Rule", "RULES", "config_problems", "rule_problems", "mentions_winner"]



@dataclasses.dataclass(frozen=True, slots=True)
class Problem:
    """One fault of a configuration: its code, words, and where it lies."""

    code: str
    message: str
    hint: str | None = None
    at: tuple[str, ...] = ()  # statement keys to point at (the language); empty for schema faults
    index: int | None = None  # which term of a terms statement
    path: str = ""  # JSON pointer (the engine)


@dataclasses.dataclass(frozen=True, slots=True)
class Rule:
    """A rule over several statements (or over the configuration they make)."""

    code: str
    keys: tuple[str, ...]
    find: Callable[[Fields], Iterator[Problem]]


RULES: list[Rule] = []


def rule(code: str, *keys: str) -> Callable[[Callable[[Fields], Iterator[Problem]]], Callable[[Fields], Iterator[Problem]]]:
    """Register a rule (in the order of this file: the order its messages come in)."""
    def register(find: Callable[[Fields], Iterator[Problem]]) -> Callable[[Fields], Iterator[Problem]]:
        RULES.append(Rule(code, keys, find))
        return find
    return register


def _p(code: str, message: str, hint: str | None, *at: str, index: int | None = None) -> Problem:
    path = statement_pointer(at[0])
    return Problem(code, message, hint, at, index, path + (f"/{index}" if index is not None else ""))


def mentions_winner(term: Term) -> bool:
    """Whether a settlement term gives to or takes from the winner (so needs one)."""
    if term["kind"] == "hands" or term["kind"] == "tiles":
        return term["to"] == "winner" or term["hands"] != "everyone"
    return term["kind"] in ("heaviest", "net")


def _whole_shown(code: str, key: str, what: str, amount: Callable[[Fields], int], plural: bool = False) -> None:
    """Register the rule that a raw amount of statement `key` is a whole number of shown points (a multiple of the
    unit): `what` names it in the message (`a bonus`); `plural` writes `points` even for 1."""
    @rule(code, "unit", key)
    def find(c: Fields) -> Iterator[Problem]:
        n, unit = amount(c), c.unit
        if n % unit:
            points = "points" if plural or n != 1 else "point"
            yield _p(code, f"{what} of {n} raw {points} is not a whole number of shown points",
                     f"with {unit} raw points to 1 shown point, use a multiple of {unit}", key)


def _join(nums: list[int]) -> str:
    words = [str(n) for n in nums]
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1]


# -- the tile set bounds the deal: as many players as its tiles deal (hands and reserve must fit)

def _playable(c: Fields) -> list[int]:
    """The allowed counts (a count whose deal does not fit gets one `too-many-tiles` fault, nothing more)."""
    return list(c.counts)


@rule("partnerships-need-4", "players")
def _partnerships(c: Fields) -> Iterator[Problem]:
    if c.partnerships and 4 not in c.counts:
        yield _p("partnerships-need-4", "partnerships need 4 players, but 4 players are not allowed",
                 "write `players 2 to 4, partnerships with 4` or `no partnerships`", "players")


def _per_count(key: str, place: Callable[[Fields], Mapping[int, int]], words: str) -> None:
    @rule("per-count", "players", key)
    def find(c: Fields) -> Iterator[Problem]:
        counts, given = _playable(c), place(c)
        for n in sorted(given):
            if n not in counts:
                yield _p("per-count", f"{words} is given for {n} players, who cannot play",
                         f"the ruleset allows {_join(counts)} players", key)
        for n in counts:
            if n not in given:
                yield _p("per-count", f"{words} for {n} players is not given",
                         f"add `, N with {n}` or give one size for every count", key)


_per_count("hand", lambda c: c.hand_sizes, "the hand size")
_per_count("reserve", lambda c: c.reserves, "the reserve")


@rule("too-many-tiles", "players", "hand", "reserve")
def _tiles(c: Fields) -> Iterator[Problem]:
    top = c.tiles
    in_set = SET_TILES[top]
    for n in _playable(c):
        hand, reserve = c.hand_sizes.get(n), c.reserves.get(n)
        if hand is None or reserve is None or n * hand + reserve <= in_set:
            continue
        extra = f" and a reserve of {reserve}" if reserve else ""
        at = ("hand", "reserve") if reserve else ("hand",)
        fit = (in_set - reserve) // n  # the most tiles each of n hands can have
        most = (in_set - reserve) // hand  # the most hands of this size the set deals
        hint = (f"deal at most {fit} tiles to each of {n} players ({n} x {fit}"
                f"{f' + {reserve}' if reserve else ''} = {n * fit + reserve} of {in_set})" if fit >= 1 else
                "deal fewer tiles for this player count")
        if 2 <= most < n:
            hint += f", or allow at most {most} players with {hand} tiles each"
        larger = {6: "double-nine` / `tiles double-twelve", 9: "double-twelve",
                  12: "double-fifteen` / `tiles double-eighteen", 15: "double-eighteen"}.get(top)
        if larger:
            hint += f", or write `tiles {larger}`"
        yield _p("too-many-tiles", f"{n} hands of {hand} tiles{extra} need {n} x {hand}"
                 f"{f' + {reserve}' if reserve else ''} = {n * hand + reserve} tiles, "
                 f"but a {SET_NAMES[top]} set has {in_set}", hint, *at)


@rule("per-count", "players", "tie_rounds")
def _tie_rounds_counts(c: Fields) -> Iterator[Problem]:
    by, counts = c.tie_rounds, sorted(c.counts)
    if by and sorted(by) != counts:
        yield _p("per-count", "the extra rounds on a tie are not given for exactly the allowed player counts",
                 f"give a number for each of {', '.join(map(str, counts))} players", "tie_rounds")


@rule("tie-rounds-need-extra-rounds", "tie_rounds", "ties")
def _tie_rounds_ties(c: Fields) -> Iterator[Problem]:
    if c.tie_rounds and c.ties != "extra-rounds":
        yield _p("tie-rounds-need-extra-rounds", "extra rounds on a tie need ties at the top to play extra rounds",
                 "write `ties at the top: play extra rounds`", "tie_rounds", "ties")


_whole_shown("target-not-multiple", "target", "a target", lambda c: c.target, plural=True)


@rule("unit-mismatch", "unit", "scoring")
def _unit_scoring(c: Fields) -> Iterator[Problem]:
    unit = c.unit  # placement points must be multiples of the unit
    if c.formula != "value":
        return  # `formula-needs-raw-points` says what is wrong
    if unit > 1 and c.in_play and c.multiple % unit:
        yield _p("unit-mismatch", f"placements scoring multiples of {c.multiple} can give raw scores "
                 f"that are not multiples of {unit}",
                 f"with {unit} raw points to 1 shown point, score multiples of {unit} ({unit}, {2 * unit}...)",
                 "scoring")


@rule("unit-mismatch", "unit", "floor")
def _unit_floor(c: Fields) -> Iterator[Problem]:
    floor, unit = c.score_floor, c.unit
    if unit > 1 and floor is not None and floor % unit:
        yield _p("unit-mismatch", f"a score floor of {floor} is not a multiple of {unit}",
                 f"with {unit} raw points to 1 shown point, use a multiple of {unit}", "floor")


def _terms_of(section: str) -> Callable[[Fields], tuple[Term, ...]]:
    """The terms of `settlement.SECTION`."""
    return (lambda c: c.domino_terms) if section == "domino" else (lambda c: c.block_terms)


def _unit_terms(section: str, key: str) -> None:
    terms_of = _terms_of(section)

    @rule("unit-mismatch", "unit", key)
    def find(c: Fields) -> Iterator[Problem]:
        unit = c.unit
        if unit == 1:
            return
        for i, term in enumerate(terms_of(c)):
            if term["kind"] == "tiles":  # "N points per tile": N must be a multiple of the unit
                if term["per_tile"] % unit:
                    n = term["per_tile"]
                    yield _p("unit-mismatch", f"{n} point{'' if n == 1 else 's'} per tile can give raw scores that are "
                             f"not multiples of {unit}", f"with {unit} raw points to 1 shown point, count a multiple "
                             f"of {unit} per tile", key, index=i)
                continue
            divisor = divisor_of(term)
            if divisor != 1:  # "rounded to N and divided by D": N / D must be a multiple of the unit
                n = int(term["rounding"][len("round"):])
                if (n // divisor) % unit:
                    yield _p("unit-mismatch", f"a hand rounded to {n} and divided by {divisor} can give raw scores "
                             f"that are not multiples of {unit}", "a settlement in another unit than play needs "
                             "play to score raw: write `points are shown raw`", key, index=i)
                continue
            if term["rounding"] == "none":
                yield _p("unit-mismatch", f"an unrounded hand can give raw scores that are not multiples of {unit}",
                         f"with {unit} raw points to 1 shown point, write `rounded to {unit}`", key, index=i)
            elif int(term["rounding"][len("round"):]) % unit:  # rounded to N: N must be a multiple of the unit
                n = int(term["rounding"][len("round"):])
                yield _p("unit-mismatch", f"a hand rounded to {n} can give raw scores that are not multiples of "
                         f"{unit}", f"with {unit} raw points to 1 shown point, write `rounded to {unit}`",
                         key, index=i)


_unit_terms("domino", "domino_terms")
_unit_terms("block", "block_terms")


# -- scoring formulas, bonuses and drawing ------------------------------------------------

_FORMULA_WORDS = {"per-multiple": "one point per multiple", "face-value": "at face value",
                  "face-value-once": "at face value, once"}


@rule("formula-needs-raw-points", "unit", "scoring")
def _formula_unit(c: Fields) -> Iterator[Problem]:
    formula = c.formula
    if c.in_play and formula != "value" and c.unit != 1:
        yield _p("formula-needs-raw-points", f"placements scoring {_FORMULA_WORDS[formula]} "
                 f"are already shown points: they cannot be divided by {c.unit}",
                 "write `points are shown raw`", "scoring")


_whole_shown("unit-mismatch", "domino_bonus", "a bonus", lambda c: c.domino_bonus)
_whole_shown("unit-mismatch", "knock_bonus", "a knock bonus", lambda c: c.knock_bonus)  # raw, like the domino bonus


@rule("draw-while-able-needs-drawing", "draw_while_able", "drawing")
def _draw_while_able(c: Fields) -> Iterator[Problem]:
    if c.draw_while_able and c.drawing == "none":
        yield _p("draw-while-able-needs-drawing", "without drawing there is nothing to draw while able to place",
                 "write `draw until playable`, or remove this line", "draw_while_able")


@rule("redeal-doubles-cannot-apply", "redeal_doubles", "hand")
def _redeal_doubles(c: Fields) -> Iterator[Problem]:
    # "the tiles are dealt again when a hand holds N or more doubles": a rule no deal can meet says nothing, and
    # one every deal meets would deal again for ever
    least = c.redeal_doubles
    if least is None:
        return
    top = c.tiles
    doubles, in_set = top + 1, SET_TILES[top]
    sizes = {n: c.hand_sizes[n] for n in _playable(c) if n in c.hand_sizes}
    if sizes and all(least > min(h, doubles) for h in sizes.values()):
        most = min(max(sizes.values()), doubles)
        yield _p("redeal-doubles-cannot-apply", f"no hand can hold {least} doubles: a hand has at most "
                 f"{max(sizes.values())} tiles and a {SET_NAMES[top]} set {doubles} doubles",
                 f"write a number from 2 to {most}" if most >= 2 else "remove this line", "redeal_doubles")
    for n, h in sorted(sizes.items()):
        dealt = max(0, doubles - (in_set - n * h))  # the doubles some hand must hold, whatever the shuffle
        if dealt > n * (least - 1):
            yield _p("redeal-doubles-cannot-apply", f"every deal to {n} players would be dealt again: {n} hands "
                     f"of {h} tiles hold at least {dealt} doubles, so one hand always holds {least} or more",
                     f"write {-(-dealt // n) + 1} or more, or deal fewer tiles", "redeal_doubles")


@rule("placement-minimum-cannot-apply", "placement_minimum", "scoring")
def _placement_minimum(c: Fields) -> Iterator[Problem]:
    # "a placement scores only from N points up" where placements score nothing, or where none scores below N
    least = c.minimum
    if not least:
        return
    if not c.in_play:
        yield _p("placement-minimum-cannot-apply", "placements score nothing, so no placement scores too little",
                 "remove this line, or state how placements score", "placement_minimum")
        return
    lowest = {"value": c.multiple, "per-multiple": 1}.get(c.formula) or min(c.divisors)
    if least <= lowest:
        unit = c.unit if isinstance(c.unit, int) and c.unit >= 1 else 1
        shown = f" ({lowest // unit} shown)" if unit > 1 and lowest % unit == 0 else ""
        yield _p("placement-minimum-cannot-apply", f"every placement that scores earns at least {lowest} raw "
                 f"point{'s' if lowest != 1 else ''}{shown}, so scoring only from {least} raw up changes nothing",
                 f"write a least above {lowest} raw point{'s' if lowest != 1 else ''}{shown}, or remove this line",
                 "placement_minimum")


@rule("series-opener-cannot-apply", "game_opener", "series_games", "opener_first", "players")
def _game_opener(c: Fields) -> Iterator[Problem]:
    # "opener of a later game: ..." (docs/design/series.md): there must be later games; the loser of a draw and
    # the loser or winner of a game are one player only with 2 players; a draw for the opener is the lottery's
    v = c.game_opener
    if v == "first-round":
        return
    if c.series_games is None:
        yield _p("series-opener-cannot-apply", "a match of one game has no later game to open",
                 "write `the match is the best of 3 games`, or remove this line", "game_opener")
        return
    if tuple(c.counts) != (2,):
        yield _p("series-opener-cannot-apply", "the loser or winner of a draw or a game is one player only with 2 "
                 "players", "write `players 2`, or `opener of a later game: as the first game`", "game_opener")
    if v == "draw-loser" and c.opener_first != "lottery":
        yield _p("series-opener-cannot-apply", "the players draw for the opener only under `opener of the first "
                 "round: lottery`", "write `opener of the first round: lottery`, or another game opener",
                 "game_opener")


@rule("exact-needs-overshoot", "target", "overshoot")
def _exact(c: Fields) -> Iterator[Problem]:
    if c.target_mode == "exact" and c.overshoot == "none":
        yield _p("exact-needs-overshoot", "an exact target needs an overshoot rule",
                 "write `overshoot discards the event` or `overshoot bounces back`", "overshoot")


@rule("overshoot-needs-exact", "target", "overshoot")
def _at_least(c: Fields) -> Iterator[Problem]:
    if c.target_mode == "at-least" and c.overshoot in ("discard", "bounce"):
        yield _p("overshoot-needs-exact", "an at-least target cannot be overshot",
                 "write `no overshoot rule`, or `target exactly ...`", "overshoot")


@rule("ties-contradict-check", "check", "ties")
def _ties(c: Fields) -> Iterator[Problem]:
    if c.target_mode == "rounds":
        return  # `rounds-need-ties` says what a fixed number of rounds needs
    if c.target_check == "every-event" and c.ties != "impossible":
        yield _p("ties-contradict-check", "when the target is checked after every event, the first side to "
                 "reach it wins, so ties at the top are impossible", "write `ties at the top: impossible`", "ties")
    if c.target_check == "after-settlement" and c.ties == "impossible":
        yield _p("ties-contradict-check", "when the target is checked after settlement, two sides can tie at "
                 "the top", "write `ties at the top: play extra rounds`, `ties at the top: draw` or `ties at the top: "
                 "the side that opened the round wins`", "ties")


@rule("forced-lead-unused", "lead", "opener_first", "opener_domino", "opener_block")
def _forced(c: Fields) -> Iterator[Problem]:
    # "...: the heaviest tile" has a deciding tile too: the heaviest tile itself
    if c.lead == "forced" and not {*DOUBLE_OPENERS, "heaviest-tile"} & {c.opener_first, c.opener_after_domino,
                                                                       c.opener_after_block}:
        yield _p("forced-lead-unused", "a forced lead needs a round opened by a double (the highest double, the "
                 "double six, the rotating double or the lowest double) or by the heaviest tile",
                 "write `opener leads any tile`", "lead")


@rule("opener-needs-winner", "opener_block", "block_winner")
def _opener_winner(c: Fields) -> Iterator[Problem]:
    if c.opener_after_block == "block-winner" and c.block_winner == "none":
        yield _p("opener-needs-winner", "a block has no winner to open the next round",
                 "write `opener after a block: lottery` or give the block a winner", "opener_block")


@rule("last-placement-needs-one-event", "domino_events")
def _last(c: Fields) -> Iterator[Problem]:
    if c.domino_with_last_placement and c.domino_events != "one":
        yield _p("last-placement-needs-one-event", "the last placement can join the settlement only as one event",
                 "write `as one event with the last placement`", "domino_events")


def _object(c: Fields, where: tuple[str, ...]) -> dict[str, Any]:
    """The JSON object at `where` with every field written (defaults included), as a schema keyword reads it."""
    return {d.spec.path[-1]: thaw(getattr(c, d.attr)) for d in declared() if d.spec.path[:-1] == where}


def _cross_field(declared: CrossField) -> None:
    """Register a rule declared with its schema keywords (rulelang/config/fields.py): the schema's condition, in
    the language's words."""
    validator: list[Callable[[object], bool]] = []  # built on first use: jsonschema costs start-up time

    @rule(declared.code, *declared.statements)
    def find(c: Fields) -> Iterator[Problem]:
        if not validator:
            import jsonschema

            validator.append(jsonschema.Draft202012Validator(dict(declared.keywords)).is_valid)
        if not validator[0](_object(c, tuple(declared.where.split(".")))):
            yield _p(declared.code, declared.message, declared.hint, *declared.statements)


_cross_field(LAST_PLACEMENT_NEEDS_DOMINOER)


@rule("terms-need-winner", "block_winner", "block_terms")
def _terms_winner(c: Fields) -> Iterator[Problem]:
    if c.block_winner != "none":
        return
    for i, term in enumerate(c.block_terms):
        if mentions_winner(term):
            yield _p("terms-need-winner", "a block without a winner gives nothing to this term",
                     "give the block a winner, or settle `everyone's hands separately` with each owner",
                     "block_terms", index=i)


def _section_rules(section: str, key: str) -> None:
    terms_of = _terms_of(section)

    @rule("partner-needs-partnerships", "players", key)
    def partner(c: Fields) -> Iterator[Problem]:
        if c.partnerships:
            return
        for i, term in enumerate(terms_of(c)):
            if (term["kind"] == "hands" or term["kind"] == "tiles") and term["hands"] == "partner":
                yield _p("partner-needs-partnerships", "there is no partner without partnerships",
                         "remove this line or play `partnerships with 4`", key, index=i)

    @rule("pooled-to-owner", key)
    def pooled(c: Fields) -> Iterator[Problem]:
        for i, term in enumerate(terms_of(c)):
            if (term["kind"] == "hands" or term["kind"] == "tiles") and term["pooling"] == "pooled" \
                    and term["to"] == "owner":
                yield _p("pooled-to-owner", "a pooled amount has no single owner",
                         "write `separately` to score each hand for its owner, or `the winner`", key, index=i)


_section_rules("domino", "domino_terms")
_section_rules("block", "block_terms")


@rule("no-scoring", "scoring", "domino_terms", "block_terms")
def _no_scoring(c: Fields) -> Iterator[Problem]:
    credits = [t for t in c.domino_terms + c.block_terms if t["sign"] == "credit"]
    if not c.in_play and not credits:
        yield _p("no-scoring", "nobody can ever score: placements score nothing and no settlement credits points",
                 "write `placements score multiples of 5` or credit hands in a settlement", "scoring")


# -- house rules of the match ----------------------------------------------------------------

_whole_shown("unit-mismatch", "entry", "an entry threshold", lambda c: c.entry, plural=True)


@rule("rounds-no-overshoot", "rounds", "overshoot")
def _rounds_overshoot(c: Fields) -> Iterator[Problem]:
    if c.target_mode == "rounds" and c.overshoot != "none":
        yield _p("rounds-no-overshoot", "a match of a fixed number of rounds has no target to overshoot",
                 "write `no overshoot rule`", "rounds")


@rule("rounds-need-ties", "rounds", "ties")
def _rounds_ties(c: Fields) -> Iterator[Problem]:
    if c.target_mode == "rounds" and c.ties == "impossible":
        yield _p("rounds-need-ties", "after the last round two sides can share the highest score",
                 "write `ties at the top: draw` or `ties at the top: play extra rounds`", "rounds")


@rule("per-count", "players", "target")
def _target_counts(c: Fields) -> Iterator[Problem]:
    by = c.target_by_count
    if not by:
        return
    counts = sorted(c.counts)
    if sorted(by) != counts:
        yield _p("per-count", "the target is not given for exactly the allowed player counts",
                 f"give a target for each of {', '.join(map(str, counts))} players", "target")
    elif by[counts[0]] != c.target:
        yield _p("per-count", "the target's raw value is not the one for the smallest player count",
                 "write the target per player count in one statement", "target")


@rule("target-not-multiple", "unit", "target")
def _target_counts_unit(c: Fields) -> Iterator[Problem]:
    unit = c.unit
    bad = [raw for raw in c.target_by_count.values() if raw % unit]
    if bad:
        yield _p("target-not-multiple", f"a target of {bad[0]} raw points is not a whole number of shown points",
                 f"with {unit} raw points to 1 shown point, use multiples of {unit}", "target")


# -- the muggins rule ------------------------------------------------------------------------

@rule("claims-need-scoring", "claims", "scoring")
def _claims_scoring(c: Fields) -> Iterator[Problem]:
    if c.claims != "none" and not c.in_play:
        yield _p("claims-need-scoring", "points must be claimed, but placements score nothing: there is nothing "
                 "to claim", "write `placements score multiples of 5`, or leave out the muggins rule", "claims")


# -- the sniff: the first double as the only spinner --------------------------------------------

_BRANCHING_WORDS = {"every": "every double branches", "none": "no double branches",
                    "lead": "only a leading double branches", "all-but-lead": "every double but the lead branches"}


def _sniff_rule(key: str, what: str) -> None:
    """A rule of the sniff (statement `key`) away from its declared default needs the first double alone to branch."""
    field = next(d for d in declared() if d.spec.statement == key)

    @rule("sniff-needs-first-double", "branching", key)
    def find(c: Fields) -> Iterator[Problem]:
        if getattr(c, field.attr) != field.spec.default and c.branching != "first":
            yield _p("sniff-needs-first-double", f"{what} is a rule of the sniff, the first double of the round "
                     f"and the only one that branches; here {_BRANCHING_WORDS[c.branching]}",
                     "write `only the first double branches`, or remove this line", key)


_sniff_rule("spinner_orientation", "how the spinner is laid")
_sniff_rule("spinner_count", "what the spinner counts")
_sniff_rule("branch_length", "how long the spinner's branches are")


def rule_problems(config: Fields, skip: frozenset[str] | set[str] = frozenset()) -> list[Problem]:
    """The faults of a configuration's record (one that matches the schema), skipping rules that involve `skip`."""
    out: list[Problem] = []
    for r in RULES:
        if not skip.intersection(r.keys):
            out.extend(r.find(config))
    return out


def config_problems(config: object) -> list[Problem]:
    """Every fault of a configuration (JSON data): the schema's (code `invalid-config`), else the rules'."""
    found = schema_problems(config)
    if found:
        return [Problem("invalid-config", message, path=path) for path, message in found]
    assert isinstance(config, dict)  # the schema says it is an object
    return rule_problems(read_record(config))
