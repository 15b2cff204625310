"""Statements of the family's house rules of the match (family.md 3, docs/design/family.md).

Each is optional: not written, its field is omitted from the configuration and
the engine keeps today's behaviour, so existing configurations stay the same.
"""
from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from typing import NamedTuple

from rulelang.language.statements.phrase import fill
from rulelang.language.statements.scoring import MEASURES, counts_named_twice, measure_words, points_text, with_player_counts
from rulelang.language.statements.table import Doc, FieldDecl, Fields, Issue, Part, Phrase, StatementDef, at_least, flag, number, reads_field, sets_field
from rulelang.language.statements.values import Measure

__all__ = ["SCORING", "PARTS", "Entry"]


class Entry(NamedTuple):
    """`10 points to get in`: the threshold and the measure it was written in."""

    amount: int
    measure: Measure


def _unit(c: Fields) -> int:
    u = c.unit
    return u if isinstance(u, int) and u >= 1 else 1  # else `bad-unit` said so


# Readers of the parts of `target ... with 2 players, 150 with 3 or 4` (family.md 3.6): the counts of
# each group, and the amounts after the first with their groups (the first amount is the target's own).
PARTS = (
    Part("target_counts", ("with {count_group} players (, {N} with {count_group})+",),  # `with 2 players, 150 with 3 or 4`
         lambda p: (tuple(p.numbers), tuple(p.parts))),
    Part("count_group", ("{N} (or {N})*",), lambda p: tuple(p.numbers)),
)


# -- the entry threshold (family.md 3.1, reading 26) ---------------------------------

ENTRY = "{N} {target_measure} to get in"

def _read_entry(p: Phrase) -> Entry:
    return Entry(p.numbers[0], MEASURES[p.parts[0].text])


def _check_entry(v: Entry) -> Iterator[Issue]:
    if v.amount < 1:
        yield Issue("bad-number", "the entry threshold must be at least 1 point", f"write `{fill(ENTRY, 10, 'points')}`")


def _set_entry(v: Entry, c: Fields) -> Fields:
    return replace(c, entry=v.amount if v.measure == "raw" else v.amount * _unit(c))


def _measured(raw: int, unit: int) -> tuple[int, Measure]:
    """A raw amount as a text writes it: in shown points where the unit divides it, else points or raw points."""
    if unit > 1 and raw % unit == 0:
        return raw // unit, "shown"
    return raw, "points" if unit == 1 else "raw"


def _entry_from_config(c: Fields) -> Entry | None:
    raw = c.entry
    return Entry(*_measured(raw, c.unit)) if raw else None


def _explain_entry(v: Entry | None, c: Fields) -> str:
    raw = c.entry
    if not raw:
        return "A side scores from its first point: there is no entry threshold."
    amount = points_text(raw, c.unit)
    return (f"A side whose score is exactly 0 is off the board: every event for it worth less than {amount} "
            f"(negative ones too) is discarded; the first event of at least {amount} puts it on the board.")


# -- a fixed number of rounds (family.md 3.3, reading 27) ----------------------------

ROUNDS = "the match lasts {N:3,1} round[s]"

def _set_rounds(v: int, c: Fields) -> Fields:
    return replace(c, target_mode="rounds", rounds=v)


def _explain_rounds(v: int | None, c: Fields) -> str:
    if c.target_mode != "rounds" or c.rounds is None:
        return "The match is played to its target, however many rounds that takes."
    n = c.rounds
    ties = {"extra-rounds": "further complete rounds are played until one side alone has the highest score",
            "draw": "the match is drawn between them",
            "round-opener": "the side that opened the last round wins (if it is not among them, the first of them "
                            "in turn after the opener)",
            "match-opener": "the side that opened the first round wins (if it is not among them, the first of "
                            "them in turn after that opener)"}.get(c.ties, "the match is drawn between them")
    return (f"The match lasts {n} round{'s' if n != 1 else ''}, with no target and no overshoot: after the last "
            f"round the single highest score wins; if it is shared, {ties}.")


# -- no winning score on the lead (family.md 3.8, Teesdale) ----------------------------

def _explain_lead_win(v: bool | None, c: Fields) -> str:
    if c.lead_cannot_win:
        return ("The opening placement of a round cannot win: its event is discarded if it would reach the "
                "target.")
    return "The opening placement of a round can win like any other."


# -- the knock bonus (family.md 3.8, Sadman) ------------------------------------------

KNOCK = "the next player to place scores {N:1,5} point[s] per knock"

def _explain_knock(v: int | None, c: Fields) -> str:
    raw = c.knock_bonus
    if not raw:
        return "A knock (a pass) scores nothing for anyone."
    unit = _unit(c)
    amount = f"{raw // unit} shown point{'s' if raw != unit else ''} ({raw} raw)" if unit > 1 else \
        f"{raw} point{'s' if raw != 1 else ''}"
    return (f"The next player to place after one or more knocks (passes) scores {amount} for each knock since "
            "the last placement, in the same event as that placement.")


# -- one half of a double left in hand (family.md reading 20, a Trademark Games manual) ---------

HAND_DOUBLES = {"a double left in hand counts one half": "one-half",
                "a double left in hand counts both halves": "both-halves"}


def _explain_hand_doubles(v: str, c: Fields) -> str:
    if v == "one-half":
        return ("At the end of a round a double left in hand counts one half ([4|4] counts 4) wherever hands "
                "are counted: the settlement's amounts and who has the lightest hand or side.")
    return "At the end of a round a double left in hand counts both halves ([4|4] counts 8)."


# -- a placement that scores only from N points up ("no fives": 5 never counts, 10 and up do) ----------------------

MINIMUM = "a placement scores only from {N} {target_measure} up"


class Minimum(NamedTuple):
    """`a placement scores only from 10 points up`: the least a placement scores, and the measure it was written in."""

    amount: int
    measure: Measure


def _check_minimum(v: Minimum) -> Iterator[Issue]:
    if v.amount < 2:
        yield Issue("bad-number", "a placement that scores at all scores at least 1 point: the least must be 2 or "
                    "more", f"write `{fill(MINIMUM, 10, 'points')}`")


def _set_minimum(v: Minimum, c: Fields) -> Fields:
    return replace(c, minimum=v.amount if v.measure == "raw" else v.amount * _unit(c))


def _minimum_from_config(c: Fields) -> Minimum | None:
    raw = c.minimum
    return Minimum(*_measured(raw, _unit(c))) if raw else None


def _explain_minimum(v: Minimum | None, c: Fields) -> str:
    raw = c.minimum
    if not raw:
        return "A placement scores whatever its count earns, however little."
    amount = points_text(raw, _unit(c))
    return (f"A placement scores only when it earns at least {amount}: a placement that would earn less scores "
            "nothing (and under the muggins rule there is nothing to claim for it).")


# -- a fixed number of extra rounds on a tie (family.md reading 18, dominorules All Fives) ---

TIE_ROUNDS = "a tie at the top plays {N} extra round[s]"


class TieRounds(NamedTuple):
    """`a tie at the top plays N extra rounds [with 2 players, M with 3 ...]`: (amount, counts) groups;
    one group with no counts when the same for every player count."""

    groups: tuple[tuple[int, tuple[int, ...]], ...]


def _read_tie_rounds(p: Phrase) -> TieRounds:
    if not p.parts:
        return TieRounds(((p.numbers[0], ()),))
    later, groups = p.parts[0]  # PHRASES["target_counts"]
    return TieRounds(tuple(zip((p.numbers[0],) + later, groups)))


def _fmt_tie_rounds(v: TieRounds) -> list[str]:
    first, counts = v.groups[0]
    head = f"a tie at the top plays {first} extra rounds" if counts else fill(TIE_ROUNDS, first)
    return [with_player_counts(head, v.groups)] if counts else [head]


def _check_tie_rounds(v: TieRounds) -> Iterator[Issue]:
    if counts_named_twice(v.groups):
        yield Issue("per-count", "a player count is given two numbers of extra rounds", "name each player count once")
    if any(amount < 1 for amount, _ in v.groups):
        yield Issue("bad-number", "a tie must play at least 1 extra round",
                    f"write `{fill(TIE_ROUNDS, 2)}`")


def _set_tie_rounds(v: TieRounds, c: Fields) -> Fields:
    if v.groups[0][1]:
        by = {n: amount for amount, counts in v.groups for n in counts}
    else:  # the same for every allowed count (the players statement is resolved before this one)
        by = dict.fromkeys(c.counts, v.groups[0][0])
    return replace(c, tie_rounds={n: by[n] for n in sorted(by)})


def _tie_rounds_from_config(c: Fields) -> TieRounds | None:
    by = c.tie_rounds
    if not by:
        return None
    if len(set(by.values())) == 1:
        return TieRounds(((next(iter(by.values())), ()),))
    groups: dict[int, list[int]] = {}
    for n in sorted(by):
        groups.setdefault(by[n], []).append(n)
    return TieRounds(tuple((amount, tuple(ns)) for amount, ns in groups.items()))


def _explain_tie_rounds(v: TieRounds | None, c: Fields) -> str:
    by = c.tie_rounds
    if not by:
        return "A shared highest score is settled as `ties at the top` says, one round at a time."
    per = "; ".join(f"{k} with {n} players" for n, k in by.items())
    return (f"When the highest score is shared where the match would end, a fixed number of extra rounds is "
            f"played ({per}) without checking the target; after them the single highest score wins, and a "
            "highest score still shared plays as many again.")


SCORING: tuple[StatementDef, ...] = (
    StatementDef(
        key="entry", words="the entry threshold", group=4,
        phrases={"entry_stmt": (ENTRY,)},
        read=_read_entry, fmt=lambda v: [fill(ENTRY, v.amount, measure_words(v.amount, v.measure))],
        explain=_explain_entry, resolve=_set_entry,
        from_config=_entry_from_config, check=_check_entry,
        examples=("10 points to get in", "2 shown points to get in", "10 raw points to get in"),
        docs=(Doc("`10 points to get in` / `2 shown points to get in` / `10 raw points to get in`",
                  "ten to get in: while a side's score is exactly 0, an event for it below the threshold is "
                  "discarded (negative ones too); not written, no threshold",
                  "`target.entry` (raw; omitted when 0)"),),
        tags=("entry-threshold",), required=False, meta={"default": None}),
    number(
        "rounds", "the number of rounds", 4, "rounds_stmt", ROUNDS,
        explain=_explain_rounds, resolve=_set_rounds,
        from_config=lambda c: c.rounds if c.target_mode == "rounds" else None,
        check=at_least(1, "the match must last at least 1 round", ROUNDS, 3),
        docs=(Doc("`the match lasts 3 rounds`", "a fixed number of rounds: no target check and no overshoot; after "
                  "the last round the single highest score wins, a shared one follows `ties at the top` (the "
                  "target statement is kept but not used)", "`target.mode: rounds`, `target.rounds`"),),
        tags=("fixed-rounds",), required=False, meta={"default": None}),
    flag(
        "lead_cannot_win", "no winning score on the lead", 4, "lead_win_stmt", "the opening placement cannot win",
        explain=_explain_lead_win,
        docs=(Doc("`the opening placement cannot win`", "the round's opening placement cannot reach the target: "
                  "such an event is discarded (Teesdale); not written, it can", "`target.lead_cannot_win: true` "
                  "(omitted when false)"),),
        tags=("lead-cannot-win",), required=False, meta={"default": None}),
    number(
        "knock_bonus", "the knock bonus", 4, "knock_stmt", KNOCK,
        explain=_explain_knock, check=at_least(1, "a knock must score at least 1 point", KNOCK, 1),
        docs=(Doc("`the next player to place scores 1 point per knock`", "the knock bonus (Sadman): the player "
                  "who places after one or more knocks (passes) scores N raw points per knock since the last "
                  "placement, in that placement's event; not written, knocks score nothing",
                  "`scoring.knock_bonus` (raw; omitted when 0)"),),
        field=FieldDecl("scoring.knock_bonus", "Natural", "raw points the next placer scores per pass", default=0),
        features={"knock-bonus": "scoring.knock_bonus (`the next player to place scores N points per knock`): the "
                  "player who places after one or more knocks (passes) scores N raw per knock since the last "
                  "placement, in that placement's event (folded into the domino event with the last placement) "
                  "(family.md 3.8, Sadman)"},
        required=False, meta={"default": None}),
    StatementDef(
        key="placement_minimum", words="the least a placement scores", group=4,
        phrases={"minimum_stmt": (MINIMUM,)},
        read=lambda p: Minimum(p.numbers[0], MEASURES[p.parts[0].text]),
        fmt=lambda v: [fill(MINIMUM, v.amount, measure_words(v.amount, v.measure))],
        explain=_explain_minimum, resolve=_set_minimum, from_config=_minimum_from_config, check=_check_minimum,
        examples=("a placement scores only from 10 points up", "a placement scores only from 2 shown points up",
                  "a placement scores only from 10 raw points up"),
        docs=(Doc("`a placement scores only from 10 points up`", "no fives: a placement that would earn fewer "
                  "points scores nothing (an open-source engine and a club's rules: 5 never counts, 10 and up "
                  "do); not written, every scoring count scores", "`scoring.minimum` (raw; omitted when 0)"),),
        tags=("placement-minimum",), required=False, meta={"default": None}),
    StatementDef(
        key="hand_doubles", words="what a double left in hand counts", group=4,
        phrases={"hand_doubles_stmt": tuple(HAND_DOUBLES)},
        read=lambda p: HAND_DOUBLES[p.text], fmt=lambda v: [{x: k for k, x in HAND_DOUBLES.items()}[v]],
        explain=_explain_hand_doubles,
        resolve=sets_field("hand_doubles"), from_config=reads_field("hand_doubles"),
        examples=tuple(HAND_DOUBLES),
        docs=(Doc("`a double left in hand counts one half`", "at the end of a round a double in hand counts one "
                  "half ([4|4] counts 4): in every settlement amount and in who is lightest (a Trademark Games "
                  "manual)", "`scoring.hand_doubles: one-half`"),
              Doc("`a double left in hand counts both halves`", "a double in hand counts its pips (the default)",
                  "`scoring.hand_doubles: both-halves` (omitted)")),
        tags=("hand-doubles-one-half",), required=False, meta={"default": "both-halves"}),
    StatementDef(
        key="tie_rounds", words="the number of extra rounds on a tie", group=4,
        phrases={"tie_rounds_stmt": (TIE_ROUNDS, "a tie at the top plays {N} extra rounds {target_counts}")},
        read=_read_tie_rounds, fmt=_fmt_tie_rounds, explain=_explain_tie_rounds,
        resolve=_set_tie_rounds,
        from_config=_tie_rounds_from_config, check=_check_tie_rounds,
        examples=("a tie at the top plays 2 extra rounds with 2 players, 3 with 3, 4 with 4",
                  "a tie at the top plays 3 extra rounds", "a tie at the top plays 1 extra round"),
        docs=(Doc("`a tie at the top plays 2 extra rounds with 2 players, 3 with 3, 4 with 4` / `a tie at the top "
                  "plays 3 extra rounds`", "with `ties at the top: play extra rounds`, a shared highest score plays "
                  "that many extra rounds (per player count, each allowed count once) before the single highest "
                  "score wins; still shared, as many again (dominorules); not written, one round at a time",
                  "`target.tie_rounds` (per count; omitted when not stated)"),),
        tags=("tie-rounds",), required=False, meta={"default": None}),
)
