"""Statements of the two settlement sections (`on domino:`, `on block:`).

Each kind of line is its own statement of its section; consecutive term lines
together are one statement (the section's list of terms).
"""
from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

from rulelang.config.reading import with_field
from rulelang.config.vocabulary import Events, PartnersTie, Sign
from rulelang.language.statements.phrase import fill
from rulelang.language.statements.scoring import points_text
from rulelang.language.statements.table import (
    Doc,
    FieldDecl,
    Fields,
    Issue,
    Part,
    Phrase,
    StatementDef,
    field_of,
    number,
    reads_field,
    sets_field,
)
from rulelang.language.statements.values import EventsValue, Term, Winner

HAND_SETS = {"opponents' hands": "opponents", "partner's hand": "partner", "own hand": "own",
             "everyone's hands": "everyone"}
HAND_SET_WORDS = {v: k for k, v in HAND_SETS.items()}
GROUPINGS = {"one": "as one event", "per-term": "one event per term", "per-hand": "one event per hand"}


# -- phrases ---------------------------------------------------------------------

def _read_rounding(p: Phrase) -> tuple[str, int, int | None]:
    """(rounding, N as written, divisor): "rounded to N [and divided by D]" / "not rounded"."""
    if p.numbers:
        return f"round{p.numbers[0]}", p.numbers[0], p.numbers[1] if len(p.numbers) > 1 else None
    return "none", 5, None


POOLINGS = {"pooled": "pooled", "each": "separately"}
RECEIVERS = {"winner": "the winner", "owner": "each owner"}
# "rounded to N", "rounded to N and divided by D" (the rounded amount in another unit), "not rounded"
ROUNDED, DIVIDED, NOT_ROUNDED = "rounded to {N}", "rounded to {N} and divided by {N}", "not rounded"
PARTNERS_TIE = ", partners' ties too"  # partners sharing the lightest hand do not win
PARTS: tuple[Part, ...] = (
    Part("hand_set", tuple(HAND_SETS), lambda p: HAND_SETS[p.text]),
    Part("pooling", tuple(POOLINGS.values()), lambda p: "pooled" if p.has("POOLED") else "each"),
    Part("rounding", (ROUNDED, DIVIDED, NOT_ROUNDED), _read_rounding),
    Part("receiver", tuple(RECEIVERS.values()), lambda p: "winner" if p.has("WINNER") else "owner"),
    Part("event_grouping", ("per term", "per hand"), lambda p: "per-term" if p.has("TERM") else "per-hand"),
    Part("last_placement", ("with the last placement",), lambda p: True),
    Part("partners_tie", (PARTNERS_TIE,), lambda p: "no-winner"),
)
TERMS = {
    "hands_term": ("credit {hand_set} {pooling}, {rounding}, to {receiver}",
                   "debit {hand_set} {pooling}, {rounding}, from {receiver}"),
    "differences_term": ("credit each hand the differences to heavier opponents' hands, {rounding}",),
    "heaviest_term": ("credit the heaviest opponent's hand only, {rounding}, to the winner",),  # family.md reading 12
    # counted per tile ("5 points for each bone left in the losers' hands"), and a net rounded once
    "tiles_term": ("credit {hand_set} {pooling}, {N} point[s] per tile, to {receiver}",
                   "debit {hand_set} {pooling}, {N} point[s] per tile, from {receiver}"),
    "net_term": ("credit opponents' hands minus own hand, {rounding}, to the winner",),
    "nobody_line": ("nobody scores",),
}
# A winner line: the lightest hand's, by how a tie is broken (each may end with `{partners_tie}`), and the others
LIGHTEST_LINES = {"fewest-tiles": "winner: the lightest hand, ties broken by fewest tiles",
                  "none": "winner: the lightest hand, ties not broken",
                  "lightest-tile": "winner: the lightest hand, ties broken by lightest tile"}  # family.md reading 21
WINNER_LINES = {"none": "winner: none",
                "fewest-tiles": "winner: the fewest tiles, ties broken by lightest hand",  # family.md 3.4
                "lightest-side": "winner: the lightest side",  # team totals (family.md 3.5)
                "dominoer": "winner: the dominoer"}  # on domino: (the default)
WINNERS = ("winner_line", tuple(line + tie for line in LIGHTEST_LINES.values() for tie in ("", " {partners_tie}"))
           + tuple(WINNER_LINES.values()))
EVENTS = {"events_line": ("as? one event {event_grouping}? {last_placement}?",)}


# -- terms -------------------------------------------------------------------------

def _read_terms(p: Phrase) -> tuple[Term, ...]:
    """One line: a term, or `nobody scores` (no term)."""
    if p.has("NOBODY"):
        return ()
    sign: Sign = "credit" if p.has("CREDIT") else "debit"
    if p.has("DIFFERENCES"):
        rounding, number, divisor = p.parts[-1]
        return (Term("differences", rounding=rounding, span=p.span, rounding_number=number, divisor=divisor or 1,
                     divided_by=divisor),)
    if p.has("HEAVIEST"):  # family.md reading 12 (Pagat's Muggins)
        rounding, number, divisor = p.parts[0]
        return (Term("heaviest", rounding=rounding, to="winner", span=p.span, rounding_number=number,
                     divisor=divisor or 1, divided_by=divisor),)
    if p.has("MINUS"):  # "the opponents' hands minus his own, rounded"
        rounding, number, divisor = p.parts[0]
        return (Term("net", rounding=rounding, to="winner", span=p.span, rounding_number=number,
                     divisor=divisor or 1, divided_by=divisor),)
    if p.has("TILE"):  # "5 points for each bone left in the losers' hands"
        hands, pooling, to = p.parts
        return (Term("tiles", hands, pooling, "none", to, sign, p.span, per_tile=p.numbers[0]),)
    hands, pooling, (rounding, number, divisor), to = p.parts
    return (Term("hands", hands, pooling, rounding, to, sign, p.span, number, divisor=divisor or 1,
                 divided_by=divisor),)


def _rounding_text(term: Term) -> str:
    if term.rounds_to is None:
        return NOT_ROUNDED
    return fill(DIVIDED, term.rounds_to, term.divisor) if term.divisor != 1 else fill(ROUNDED, term.rounds_to)


def term_text(term: Term) -> str:
    """A settlement term as its line."""
    if term.kind in ("differences", "heaviest", "net"):
        return fill(TERMS[f"{term.kind}_term"][0], _rounding_text(term))
    line = TERMS[f"{term.kind}_term"][term.sign == "debit"]  # `credit ... to`, `debit ... from`
    amount: int | str = term.per_tile if term.kind == "tiles" else _rounding_text(term)
    return fill(line, HAND_SET_WORDS[term.hands or "opponents"], POOLINGS.get(term.pooling or "", "separately"),
                amount, RECEIVERS[term.to])


def _check_terms(v: tuple[Term, ...]) -> Iterator[Issue]:
    for term in v:
        if term.rounding != "none" and term.rounding_number < 2:  # any N >= 2
            yield Issue("bad-rounding", f"hands cannot be rounded to {term.rounding_number}",
                        "write `rounded to N` with N at least 2 (such as `rounded to 5`) or `not rounded`", term.span)
        d = term.divided_by
        if d is not None and (d < 2 or term.rounding_number % d):
            yield Issue("bad-division", f"hands rounded to {term.rounding_number} cannot be divided by "
                        f"{d} into whole points",
                        f"divide by a number of at least 2 that divides {term.rounding_number} (such as `rounded to "
                        f"5 and divided by 5`)", term.span)
        if term.kind == "tiles" and term.per_tile < 1:
            yield Issue("bad-number", "a tile left in hand cannot count 0 points",
                        "write `1 point per tile` or more, or leave the line out", term.span)
        if term.kind in ("hands", "tiles") and term.pooling == "pooled" and term.to == "owner":
            yield Issue("pooled-to-owner", "a pooled amount has no single owner",
                        "write `separately` to score each hand for its owner, or `the winner`", term.span)


HANDS = {
    "opponents": "the opponents' remaining pips",
    "partner": "the partner's remaining pips",
    "own": "the winner's own remaining pips",
    "everyone": "every player's remaining pips",
}


def _rounded_words(t: Term, once: bool = False) -> str:
    """How a term's amount is rounded, in plain English (with its division into another unit)."""
    if not t.rounds_to:
        return "not rounded"
    text = f"rounded{' once' if once else ''} to the nearest {t.rounds_to}"
    if t.divisor != 1:
        text += f" and then divided by {t.divisor}"
    return text


TILES = {
    "opponents": "the opponents' hands",
    "partner": "the partner's hand",
    "own": "the winner's own hand",
    "everyone": "every player's hand",
}


def term_sentence(t: Term) -> str:
    """A term in plain English."""
    if t.kind == "differences":
        return ("Each hand is credited to its owner with the sum of its differences to every heavier "
                f"opponent's hand, {_rounded_words(t, True)}; equal, lighter and partner hands give nothing.")
    if t.kind == "heaviest":
        return (f"The heaviest single opponent's hand ({_rounded_words(t)}) is credited to the winner's side; the "
                "other hands give nothing.")
    if t.kind == "net":
        return ("The opponents' remaining pips minus the winner's own remaining pips, the net "
                f"{_rounded_words(t, True)}, are credited to the winner's side (a net below 0 gives nothing).")
    whom = "the winner's side" if t.to == "winner" else "each hand's owner"
    verb = "are credited to" if t.sign == "credit" else "are deducted from"
    if t.kind == "tiles":
        amount = "the total is" if t.pooling == "pooled" else "each hand's amount is"
        verb = verb.replace("are ", "")
        return (f"Each tile left in {TILES[t.hands or 'opponents']} counts {t.per_tile} "
                f"point{'' if t.per_tile == 1 else 's'}, whatever its pips; {amount} {verb} {whom}.")
    if t.pooling == "pooled":
        how = "added together and " + _rounded_words(t, True) if t.rounds_to else "added together, not rounded"
    else:
        how = "each hand " + _rounded_words(t).replace("rounded", "rounded separately", 1) if t.rounds_to \
            else "each hand counted as it is, not rounded"
    what = HANDS[t.hands or "opponents"]
    return f"{what[0].upper()}{what[1:]}, {how}, {verb} {whom}."


def _explain_terms(v: tuple[Term, ...], c: Fields) -> str:
    if not v:
        return "Nothing is scored for the hands left."
    return " ".join(term_sentence(t) for t in v)


def _terms(key: str, section: str, group: int, words: str, tags: tuple[str, ...]) -> StatementDef:
    def resolve(v: tuple[Term, ...], c: Fields) -> Fields:
        return with_field(c, field_of(key).attr, tuple(t.to_dict() for t in v))

    def from_config(c: Fields) -> tuple[Term, ...]:
        return tuple(Term.from_dict(t) for t in (c.domino_terms if section == "domino" else c.block_terms))

    return StatementDef(
        key=key, words=words, group=group, section=section,
        phrases=TERMS,
        read=_read_terms,
        fmt=lambda v: [term_text(t) for t in v] if v else ["nobody scores"], explain=_explain_terms,
        resolve=resolve, check=_check_terms,
        from_config=from_config,
        examples=("credit opponents' hands separately, rounded to 5, to the winner",
                  "debit partner's hand pooled, rounded to 5, from the winner",
                  "debit everyone's hands separately, rounded to 5, from each owner",
                  "credit each hand the differences to heavier opponents' hands, rounded to 5",
                  "credit the heaviest opponent's hand only, rounded to 5, to the winner",
                  "credit opponents' hands pooled, 5 points per tile, to the winner",
                  "credit opponents' hands separately, rounded to 5 and divided by 5, to the winner",
                  "credit opponents' hands minus own hand, rounded to 5, to the winner",
                  "nobody scores"),
        docs=(Doc("`SIGN HANDS POOLING, ROUNDING, PREP RECEIVER`", "a term (one or more lines, in order)",
                  "a `hands` term"),
              Doc("`credit each hand the differences to heavier opponents' hands, ROUNDING`",
                  "for each hand, the sum of its differences to heavier opponents' hands, to its owner",
                  "a `differences` term"),
              Doc("`credit the heaviest opponent's hand only, ROUNDING, to the winner`",
                  "only the heaviest single hand of the winner's opponents, to the winner (family.md reading 12)",
                  "a `heaviest` term"),
              Doc("`SIGN HANDS POOLING, N points per tile, PREP RECEIVER`", "counted per tile, not per pip: N "
                  "raw points for each tile left in the hands chosen (\"5 points for each bone left in the losers' "
                  "hands\"); never rounded", "a `tiles` term, `per_tile: N`"),
              Doc("`..., rounded to N and divided by D, ...`", "(any rounded term) the rounded amount divided by D: "
                  "a settlement in another unit than play (\"rounded to the nearest five and then divided by "
                  "five\"); D divides N", "`divisor: D` (omitted when 1)"),
              Doc("`credit opponents' hands minus own hand, ROUNDING, to the winner`", "the opponents' hands "
                  "minus the winner's own, the net rounded once (not each part); a net below 0 gives nothing",
                  "a `net` term"),
              Doc("`nobody scores`", "the settlement has no terms", "`terms: []`")),
        tags=tags, meta={"merge": True})


# -- events ----------------------------------------------------------------------------

def _read_events(p: Phrase) -> EventsValue:
    grouping: Events = next((x for x in p.parts if x in ("per-term", "per-hand")), "one")
    return EventsValue(grouping, any(x is True for x in p.parts))


def _fmt_events(v: EventsValue) -> list[str]:
    return [GROUPINGS[v.grouping] + (" with the last placement" if v.with_last_placement else "")]


def _explain_events(v: EventsValue, c: Fields) -> str:
    if v.grouping == "one":
        text = "The amounts form one scoring event for each side that receives them"
        if v.with_last_placement:
            text += (", together with the score of the last placement: the placement and the settlement "
                     "are accepted or discarded together")
        return text + "."
    if v.grouping == "per-term":
        return "Each line of the settlement is its own scoring event for each side."
    return ("Each hand's amount is its own scoring event, lightest hand first (equal hands in clockwise "
            "order from the round's opener).")


def _set_domino_events(v: EventsValue, c: Fields) -> Fields:
    return replace(c, domino_events=v.grouping, domino_with_last_placement=v.with_last_placement)


def _set_block_events(v: EventsValue, c: Fields) -> Fields:
    return replace(c, block_events=v.grouping)


def _check_block_events(v: EventsValue) -> Iterator[Issue]:
    if v.with_last_placement:
        yield Issue("misplaced-line", "a block has no last placement to settle with",
                    "`with the last placement` belongs under `on domino:`")


EVENT_DOCS = (Doc("`as one event` / `one event per term` / `one event per hand`",
                  "how amounts are grouped into scoring events", "`events`: `one` / `per-term` / `per-hand`"),)


# -- the block's winner -------------------------------------------------------------------

def _read_winner(p: Phrase) -> Winner:
    if p.has("NONE"):
        return Winner("none", "none")
    if p.has("DOMINOER"):  # `winner: the dominoer` belongs under `on domino:` (the check says so)
        return Winner("dominoer", "none")  # type: ignore[arg-type]
    # `winner: the fewest tiles, ties broken by lightest hand` / `winner: the lightest side`
    if p.text.startswith("winner: the fewest tiles"):
        return Winner("fewest-tiles", "lightest-hand")
    if p.has("SIDE"):
        return Winner("lightest-side", "none")
    partners: PartnersTie = "no-winner" if "no-winner" in p.parts else "side-wins"
    if p.has("TILE"):  # `ties broken by lightest tile` (family.md reading 21)
        return Winner("lightest-hand", "lightest-tile", partners)
    return Winner("lightest-hand", "none" if p.has("NOT") else "fewest-tiles", partners)


def _fmt_winner(v: Winner) -> list[str]:
    if v.winner != "lightest-hand":
        return [WINNER_LINES[v.winner]]
    line = LIGHTEST_LINES.get(v.tie_break, LIGHTEST_LINES["none"])
    return [fill(line + " {partners_tie}", PARTNERS_TIE) if v.partners_tie == "no-winner" else line]


def _check_block_winner(v: Winner) -> Iterator[Issue]:
    written: str = v.winner  # `winner: the dominoer` reads to a value outside BlockWinner
    if written == "dominoer":
        yield Issue("misplaced-line", "a block has no dominoer: nobody went out",
                    "`winner: the dominoer` belongs under `on domino:`; a block's winner is, for example, "
                    "`winner: the lightest hand, ties not broken`")


def _explain_winner(v: Winner, c: Fields) -> str:
    if v.winner == "none":
        return "A block has no winner."
    if v.winner == "fewest-tiles":
        return ("The hand with the fewest tiles wins the block; a tie goes to the lighter hand (fewest pips); "
                "if still tied between sides, the round has no winner.")
    if v.winner == "lightest-side":
        return ("The side with the lightest total wins the block (with partners, the sum of both partners' "
                "pips); its first seat clockwise from the opener is the winner; equal totals: no winner.")
    text = "The lightest hand (fewest pips) wins the block"
    alone = v.partners_tie == "no-winner"  # `partners' ties too`
    if c.partnerships and not alone:
        text += "; partners tied for lightest win together"
    tie = "if opponents tie," if c.partnerships else "on a tie,"
    if c.partnerships and alone:
        tie = "on a tie, even between partners,"
    if v.tie_break == "fewest-tiles":
        return text + f"; {tie} the hand with fewer tiles wins; if still tied, the round has no winner."
    if v.tie_break == "lightest-tile":  # family.md reading 21
        return text + (f"; {tie} the hand holding the lightest single tile (fewest pips on one tile) wins; if "
                       "still tied, the round has no winner.")
    return text + f"; {tie} the round has no winner."


def _set_winner(v: Winner, c: Fields) -> Fields:
    return replace(c, block_winner=v.winner, block_tie_break=v.tie_break, block_partners_tie=v.partners_tie)


# -- the domino's winner (family.md 3.9: team totals decide a domino too) ----------------------

def _read_domino_winner(p: Phrase) -> str | Winner:
    """`winner: the dominoer` / `winner: the lightest side`; another winner line is kept to be reported."""
    if p.has("DOMINOER"):
        return "dominoer"
    block = _read_winner(p)
    return "lightest-side" if block.winner == "lightest-side" else block


def _check_domino_winner(v: str | Winner) -> Iterator[Issue]:
    if isinstance(v, Winner):
        yield Issue("misplaced-line", "a domino's winner is the player who dominoed, or with "
                    "`winner: the lightest side` the side with the lower pip total",
                    "move this line under `on block:`")


def _fmt_domino_winner(v: str | Winner) -> list[str]:
    if isinstance(v, Winner):
        return _fmt_winner(v)
    return [WINNER_LINES["lightest-side" if v == "lightest-side" else "dominoer"]]


def _explain_domino_winner(v: str, c: Fields) -> str:
    if v != "lightest-side":
        return "The player who dominoes wins the round, and the settlement is reckoned from that player."
    if c.partnerships:
        return ("After a domino the side with the lower pip total wins (with partners, the sum of both partners' "
                "pips), even when it is not the side that went out; the settlement is reckoned from its first "
                "seat clockwise from the dominoer. Equal totals: no winner, and terms that name the winner give "
                "nothing.")
    return ("After a domino the lightest hand wins (the player who went out holds nothing, so it wins unless "
            "an opponent's hand counts 0 too); equal hands: no winner, and terms that name the winner give "
            "nothing.")


# -- the domino bonus -------------------------------------------------------

def _explain_bonus(v: int, c: Fields) -> str:
    points = points_text(v, c.unit)
    if c.round_end == "side-out" and c.partnerships:
        who = "The player who goes out (with partners, the side of the second partner to go out)"
    else:
        who = "The player who goes out"
    joined = ", in the same event as the settlement" if c.domino_events == "one" else \
        ", as an event of its own before the settlement"
    return f"{who} scores a bonus of {points}{joined}."



STATEMENTS: tuple[StatementDef, ...] = (
    # family.md 3.9 (OpenSpiel): team totals decide a domino; equal hands score nothing
    StatementDef(
        key="domino_winner", words="the winner of a domino", group=5, section="domino",
        phrases=dict([WINNERS]), read=_read_domino_winner, fmt=_fmt_domino_winner,
        explain=_explain_domino_winner, check=_check_domino_winner,
        resolve=sets_field("domino_winner"), from_config=reads_field("domino_winner"),
        examples=("winner: the lightest side", "winner: the dominoer"),
        docs=(Doc("`winner: the lightest side`", "the side with the lower pip total wins the domino (team totals "
                  "with partners), even if it did not go out; equal totals: no winner (terms that name the "
                  "winner give nothing)", "`settlement.domino.winner: lightest-side`"),
              Doc("`winner: the dominoer`", "the player who goes out wins (the default)",
                  "`settlement.domino.winner: dominoer` (omitted)")),
        tags=("domino-lightest-side",), required=False, meta={"default": "dominoer"}),
    _terms("domino_terms", "domino", 5, "what is settled on a domino", ("settle-pooled", "settle-each", "partner-debit",
                                                                           "settle-tiles", "settle-divided")),
    # -- the bonus for going out
    number(
        "domino_bonus", "the bonus for going out", 5, "bonus_line", "bonus {N:1,10} point[s] to the winner",
        section="domino", explain=_explain_bonus,
        from_config=reads_field("domino_bonus"),  # 0 when not stated
        docs=(Doc("`bonus 1 point to the winner` / `bonus N points to the winner`", "the player (or side) that "
                  "goes out scores N raw points more, in the winner side's settlement event; a section with a "
                  "bonus line needs no term line", "`settlement.domino.bonus: N` (0, omitted, when not stated)"),),
        field=FieldDecl("settlement.domino.bonus", "Natural", "raw points the winner's side earns for a domino",
                        default=0),
        features={"domino-bonus": "settlement.domino.bonus: the side that goes out scores a fixed bonus (the Fives "
                  "and Threes chip-out point), in one event with the last placement when folded; a block gives no "
                  "bonus"},
        required=False, meta={"default": 0}),
    StatementDef(
        key="domino_events", words="how a domino's settlement makes events", group=5, section="domino",
        phrases=EVENTS, read=_read_events, fmt=_fmt_events, explain=_explain_events,
        resolve=_set_domino_events,
        from_config=lambda c: EventsValue(c.domino_events, c.domino_with_last_placement),
        examples=("as one event", "one event per term", "one event per hand", "as one event with the last placement"),
        docs=EVENT_DOCS + (Doc("`as one event with the last placement`", "the last placement and the settlement "
                                                                         "form one event",
                               "`with_last_placement: true`"),),
        tags=("domino",)),
    StatementDef(
        key="block_winner", words="the winner of a block", group=6, section="block",
        phrases=dict([WINNERS]), read=_read_winner, fmt=_fmt_winner, explain=_explain_winner,
        check=_check_block_winner,
        resolve=_set_winner,
        from_config=lambda c: Winner(c.block_winner, c.block_tie_break, c.block_partners_tie),
        examples=("winner: the lightest hand, ties not broken", "winner: the lightest hand, ties broken by fewest tiles",
                  "winner: none", "winner: the lightest hand, ties not broken, partners' ties too",
                  "winner: the fewest tiles, ties broken by lightest hand", "winner: the lightest side",
                  "winner: the lightest hand, ties broken by lightest tile",
                  "winner: the lightest hand, ties broken by lightest tile, partners' ties too"),
        docs=(Doc("`winner: the lightest hand, ties broken by fewest tiles`", "the lightest hand wins a block; "
                  "a tie goes to fewer tiles", "`winner: lightest-hand`, `tie_break: fewest-tiles`"),
              Doc("`winner: the lightest hand, ties not broken`", "a tie has no winner",
                  "`winner: lightest-hand`, `tie_break: none`"),
              Doc("`winner: the lightest hand, ties broken by lightest tile`", "a tie goes to the hand holding "
                  "the lightest single tile (brogames); still tied: no winner",
                  "`winner: lightest-hand`, `tie_break: lightest-tile`"),
              Doc("`winner: none`", "a block has no winner", "`winner: none`, `tie_break: none`"),
              Doc("`..., partners' ties too`", "(after any lightest-hand line) partners sharing the lightest "
                  "hand do not win together", "`partners_tie: no-winner` (default `side-wins`, omitted)"),
              # house rules of the match (family.md 3.4, 3.5)
              Doc("`winner: the fewest tiles, ties broken by lightest hand`", "the hand with the fewest tiles wins "
                  "a block, then the lightest; still shared across sides: no winner",
                  "`winner: fewest-tiles`, `tie_break: lightest-hand`"),
              Doc("`winner: the lightest side`", "the side with the lowest pip total (team totals with partners) "
                  "wins; equal totals: no winner", "`winner: lightest-side`, `tie_break: none`")),
        tags=("block-winner", "partners-tie-no-winner", "block-fewest-tiles", "block-lightest-side",
              "block-lightest-tile")),
    _terms("block_terms", "block", 6, "what is settled on a block", ("settle-differences", "block", "settle-heaviest",
                                                                      "settle-net")),
    StatementDef(
        key="block_events", words="how a block's settlement makes events", group=6, section="block",
        phrases=EVENTS, read=_read_events, fmt=_fmt_events, explain=_explain_events,
        resolve=_set_block_events,
        check=_check_block_events,
        from_config=lambda c: EventsValue(c.block_events, False),
        examples=("as one event", "one event per term", "one event per hand"), docs=EVENT_DOCS,
        tags=("block",)),
)
