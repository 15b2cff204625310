"""Statements of the players and the deal."""
from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import replace
from typing import Literal, NamedTuple, cast

from rulelang.config.reading import with_field
from rulelang.config.vocabulary import SET_NAMES, SET_TILES, Drawing, PlayerCount
from rulelang.language.statements.phrase import examples, fill
from rulelang.language.statements.table import Doc, Fields, Issue, Part, Phrase, StatementDef, at_least, choice, field_of, flag, number
from rulelang.language.statements.values import Counts, PerCount, Players

ALLOWED_COUNTS = tuple(range(2, 13))  # any count whose deal fits in the set (config/rules.py, too-many-tiles)


def _n(count: int, word: str) -> str:
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


def _and(words: list[str]) -> str:
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


# -- phrases shared by several statements -----------------------------------

PLAYERS, PARTNERS = "players {player_counts}", "players {player_counts}, {partnership}"
PARTNERED, UNPARTNERED = "partnerships with {N}", "no partnerships"

def _count_range(p: Phrase) -> Counts:
    return Counts("range", tuple(p.numbers))


def _count_list(p: Phrase) -> Counts:
    return Counts("list", tuple(p.numbers))


def _per_count(p: Phrase) -> PerCount:
    nums = p.numbers
    if len(nums) == 1:
        return PerCount(uniform=nums[0])
    return PerCount(by_count=tuple(sorted((nums[i + 1], nums[i]) for i in range(0, len(nums), 2))))


PARTS = (
    Part("player_counts", ("{N} to {N} -> count_range", "{N} (or {N})* -> count_list"),
         named={"count_range": _count_range, "count_list": _count_list}),
    Part("partnership", (f"{PARTNERED} -> partnered", f"{UNPARTNERED} -> unpartnered"),
         named={"partnered": lambda p: ("with", p.numbers[0]), "unpartnered": lambda p: ("none",)}),
    Part("per_count", ("{N} tile[s] (with {N} players? (, {N} tile[s]? with {N} players?)*)?",), _per_count),
)


# -- players -------------------------------------------------------------------

def _allows(counts: Counts, n: int) -> bool:
    if counts.kind == "range":
        return counts.numbers[0] <= n <= counts.numbers[1]
    return n in counts.numbers


def _read_players(p: Phrase) -> Players:
    counts, *rest = p.parts
    partner: tuple[str] | tuple[str, int] = rest[0] if rest else ("none",)
    return Players(counts, (partner[1],) if len(partner) == 2 else ())


def _counts_text(c: Counts) -> str:
    if c.kind == "range":
        return f"{c.numbers[0]} to {c.numbers[1]}"
    return " or ".join(str(n) for n in c.numbers)


def _fmt_players(v: Players) -> list[str]:
    counts = _counts_text(v.counts)
    if v.partnerships:
        return [fill(PARTNERS, counts, ", ".join(fill(PARTNERED, n) for n in v.partnerships))]
    if _allows(v.counts, 4):
        return [fill(PARTNERS, counts, UNPARTNERED)]  # said aloud, so the reader sees it
    return [fill(PLAYERS, counts)]


def _check_players(v: Players) -> Iterator[Issue]:
    nums = v.counts.numbers
    if v.counts.kind == "range" and nums[0] > nums[1]:
        yield Issue("player-count", f"`{nums[0]} to {nums[1]}` counts backwards",
                    f"write `players {nums[1]} to {nums[0]}`")
    for n in nums:
        if n not in ALLOWED_COUNTS:
            yield Issue("player-count", f"{n} is not a player count: a ruleset allows 2 to 12 players "
                        "(as many as the set's tiles deal)", "write e.g. `players 2 to 4`")
            break
    if v.counts.kind == "list" and len(set(nums)) != len(nums):
        yield Issue("player-count", "a player count is given twice")
    for n in v.partnerships:
        if n != 4:
            yield Issue("partnerships-need-4", f"partnerships need 4 players, not {n}",
                        "write `partnerships with 4` or `no partnerships`")


def _set_players(v: Players, c: Fields) -> Fields:
    # the counts and the partnerships are checked (`_check_players`) before a statement is resolved
    return replace(c, counts=cast("tuple[PlayerCount, ...]", tuple(v.counts.expand())),
                   partnerships=cast("tuple[Literal[4], ...]", v.partnerships))


def _players_from_config(c: Fields) -> Players:
    counts: list[int] = sorted(c.counts)
    if len(counts) > 1 and counts == list(range(counts[0], counts[-1] + 1)):
        value = Counts("range", (counts[0], counts[-1]))
    else:
        value = Counts("list", tuple(counts))
    return Players(value, tuple(c.partnerships))


def _explain_players(v: Players, c: Fields) -> str:
    counts = c.counts
    text = f"{_and([str(n) for n in counts])} players" if len(counts) > 1 else _n(counts[0], "player")
    text = f"For {text}."
    if c.partnerships:
        text += (" With 4 players, partners sit opposite each other (seats 0 and 2, 1 and 3) and share"
                 " one score; otherwise everyone plays alone.")
    else:
        text += " Everyone plays alone."
    return text


# -- hand and reserve ------------------------------------------------------------

HAND, RESERVE, NO_RESERVE = "hand {per_count}", "reserve {per_count}", "no reserve"

def _per_count_text(v: PerCount) -> str:
    if v.uniform is not None:
        return fill("{N} tile[s]", v.uniform)
    pairs = sorted(v.by_count)
    n, size = pairs[0]
    return ", ".join([f"{size} tiles with {n} players"] + [f"{s} with {m}" for m, s in pairs[1:]])


def _per_count_value(d: Mapping[int, int]) -> PerCount:
    values = set(d.values())
    if len(values) == 1:
        return PerCount(uniform=values.pop())
    return PerCount(by_count=tuple(sorted(d.items())))


def _per_count_check(words: str, least: int) -> Callable[[PerCount], Iterator[Issue]]:
    def check(v: PerCount) -> Iterator[Issue]:
        seen: set[int] = set()
        for n, _size in v.by_count:
            if n in seen:
                yield Issue("per-count", f"{words} for {n} players is given twice")
            seen.add(n)
        sizes = [v.uniform] if v.uniform is not None else [s for _, s in v.by_count]
        if least and any(s < least for s in sizes):
            yield Issue("bad-number", "a hand needs at least 1 tile", "write e.g. `hand 5 tiles`")
        if any(s > SET_TILES[18] for s in sizes):  # larger sets: the set's own limit is a rule (checks.py)
            yield Issue("too-many-tiles", f"a double-eighteen set, the largest, has only {SET_TILES[18]} tiles")
    return check


def _per_count_resolve(key: str) -> Callable[[PerCount, Fields], Fields]:
    def resolve(v: PerCount, c: Fields) -> Fields:
        return with_field(c, field_of(key).attr, v.expand(c.counts))
    return resolve


def _explain_hand(v: PerCount, c: Fields) -> str:
    d = c.hand_sizes
    if len(set(d.values())) == 1:
        return f"Each player is dealt {_n(next(iter(d.values())), 'tile')}."
    parts = [f"{d[k]} with {k} players" for k in sorted(d)]  # larger sets: 10 after 9
    return f"Each player is dealt {parts[0].replace(' with', ' tiles with', 1)}, " + ", ".join(parts[1:]) + "."


def _explain_reserve(v: PerCount, c: Fields) -> str:
    d = c.reserves
    if not any(d.values()):
        # nothing to say when nobody draws: "every undealt tile may be drawn" would contradict it
        return "" if c.drawing == "none" else "Every undealt tile may be drawn: there is no reserve."
    parts = [f"{d[k]} with {k} players" for k in sorted(d)]  # larger sets: 10 after 9
    return "The last tiles of the boneyard are never drawn: " + ", ".join(parts) + "."


def _explain_drawing(v: str, c: Fields) -> str:
    if v == "until-playable":
        return ("A player who cannot place draws from the boneyard one tile at a time until a drawn tile "
                "fits, and must place that tile at once; a player passes only when the boneyard is empty.")
    if v == "until-found":
        return ("A player who cannot place draws from the boneyard one tile at a time until a drawn tile "
                "fits, and must place that tile at once; a player who cannot place with the boneyard drawn out "
                "does not pass: the round ends blocked at once.")
    return "Nobody draws: a player who cannot place passes."


# -- larger sets (family.md 3.7): `tiles double-six` (default) / `tiles double-nine` / `tiles double-twelve` /
# `tiles double-fifteen` / `tiles double-eighteen` (FIDO, dominospiel.de: "beim Doppel-Achtzehner")

_SET_OF_NAME = {name: top for top, name in SET_NAMES.items()}
TILES = "tiles {NAME}"


def _check_tiles(v: str) -> Iterator[Issue]:
    if v not in _SET_OF_NAME:
        yield Issue("unknown-set", f"there is no {v} set in the language",
                    "write `tiles double-six`, `tiles double-nine`, `tiles double-twelve`, `tiles double-fifteen` "
                    "or `tiles double-eighteen`")


def _set_tiles(v: str, c: Fields) -> Fields:
    return replace(c, tiles=cast("Literal[6, 9, 12, 15, 18]", _SET_OF_NAME.get(v, 6)))  # `_check_tiles` names the sets


def _explain_tiles(v: str | None, c: Fields) -> str:
    top = c.tiles
    return (f"Played with a {SET_NAMES[top]} set: {SET_TILES[top]} tiles, halves 0 to {top}, for as many "
            f"players as its tiles deal (the hands and the reserve within {SET_TILES[top]}).")


TILES_STATEMENT = StatementDef(
    key="tiles", words="the tile set", group=1, phrases={"tiles_stmt": (TILES,)},
    read=lambda p: str(p.tokens[1]), fmt=lambda v: [fill(TILES, v)], explain=_explain_tiles,
    resolve=_set_tiles,
    from_config=lambda c: SET_NAMES[c.tiles] if c.tiles != 6 else None, check=_check_tiles,
    examples=("tiles double-nine", "tiles double-six", "tiles double-twelve", "tiles double-fifteen",
              "tiles double-eighteen"),
    docs=(Doc("`tiles double-six` / `tiles double-nine` / `tiles double-twelve` / `tiles double-fifteen` / "
              "`tiles double-eighteen`",
              "the set: 28, 55, 91, 136 or 190 tiles (double-six when not stated); any player count from 2 to 12 whose "
              "hands and reserve fit in its tiles (five players with five tiles each on double-six: 25 of 28)",
              "`tiles: 9` / `tiles: 12` / `tiles: 15` / `tiles: 18` (omitted for double-six)"),),
    tags=("larger-set",), required=False, meta={"default": "double-six"})
# -- end larger sets


STATEMENTS: tuple[StatementDef, ...] = (
    TILES_STATEMENT,  # larger sets
    StatementDef(
        key="players", words="the player counts", group=1,
        phrases={"players_stmt": (PLAYERS, PARTNERS)},
        read=_read_players, fmt=_fmt_players, explain=_explain_players,
        resolve=_set_players, from_config=_players_from_config, check=_check_players,
        examples=("players 2 to 4, partnerships with 4", "players 2 to 4", "players 2 or 4", "players 4",
                  "players 2 to 4, no partnerships", "players 2"),
        docs=(Doc("`players 2 to 4` / `players 2 or 4` / `players 4`",
                  "the player counts allowed (2 to 12, as many as the set's tiles deal: five with five "
                  "tiles each on double-six)",
                  "`players.counts`"),
              Doc("`players 2 to 4, partnerships with 4`", "at 4 players, seats 0+2 and 1+3 are teams",
                  "`players.partnerships: [4]`"),
              Doc("`players 2 to 4, no partnerships`", "everyone plays alone (the same as leaving the clause out)",
                  "`players.partnerships: []`")),
        tags=("two-players", "three-players", "four-players", "partnerships")),
    StatementDef(
        key="hand", words="the hand size", group=1, phrases={"hand_stmt": (HAND,)},
        read=lambda p: p.parts[0], fmt=lambda v: [fill(HAND, _per_count_text(v))], explain=_explain_hand,
        resolve=_per_count_resolve("hand"),
        from_config=lambda c: _per_count_value(c.hand_sizes), check=_per_count_check("the hand size", 1),
        examples=("hand 5 tiles", "hand 7 tiles with 2 players, 6 with 3, 5 with 4"),
        docs=(Doc("`hand 5 tiles`", "hand size for every player count", "`hand_size`"),
              Doc("`hand 7 tiles with 2 players, 6 with 3, 5 with 4`",
                  "hand size per count (one for each allowed count)", "`hand_size`")),
        tags=("partial-deal", "draw"), meta={"per_count": True}),
    StatementDef(
        key="reserve", words="the reserve", group=1,
        phrases={"reserve_stmt": (RESERVE, f"{NO_RESERVE} -> no_reserve")},
        read=lambda p: p.parts[0] if p.parts else PerCount(uniform=0),
        fmt=lambda v: [NO_RESERVE if v.uniform == 0 else fill(RESERVE, _per_count_text(v))],
        explain=_explain_reserve,
        resolve=_per_count_resolve("reserve"),
        from_config=lambda c: _per_count_value(c.reserves), check=_per_count_check("the reserve", 0),
        examples=("no reserve", "reserve 2 tiles", "reserve 2 tiles with 3 players, 0 with 4"),
        docs=(Doc("`no reserve`", "every undealt tile can be drawn", "`reserve` all 0"),
              Doc("`reserve 2 tiles` / `reserve 2 tiles with 3 players, 0 with 4`",
                  "the last tiles of the boneyard are never drawn", "`reserve`")),
        tags=("draw",), meta={"per_count": True}),
    choice("drawing", "the drawing rule", 1, "drawing_stmt",
           {"draw until playable": "until-playable", "no drawing": "none",
            "draw until playable, or the round is blocked": "until-found"}, _explain_drawing,
           {"draw until playable": "draw one at a time until a tile fits, and place it",
            "no drawing": "a player who cannot place passes (block game)",
            "draw until playable, or the round is blocked": "draw until a tile fits; a player who draws the "
            "boneyard out (or finds it empty) without one blocks the round at once instead of passing (\"the game "
            "is over if the needed bone is not found\")"},
           tags=("draw", "no-drawing", "draw-or-block")),
)


# -- `draw until playable, at most K tiles` (draw_limit, family.md 3.8) ---------------

DRAW_LIMIT = "draw until playable, at most {N:2} tile[s]"


class DrawLimit(NamedTuple):
    """Drawing until playable, at most `limit` tiles a turn; then the player passes."""

    limit: int


def _with_draw_limit(entry: StatementDef) -> StatementDef:
    """The drawing statement, which also reads `draw until playable, at most K tiles`."""
    def read(p: Phrase) -> DrawLimit | Drawing:
        return DrawLimit(p.numbers[0]) if p.numbers else cast("Drawing", entry.read(p))

    def fmt(v: DrawLimit | Drawing) -> list[str]:
        if isinstance(v, DrawLimit):
            return [fill(DRAW_LIMIT, v.limit)]
        return entry.fmt(v)

    def explain(v: DrawLimit | Drawing, c: Fields) -> str:
        if c.draw_limit is not None:
            k = c.draw_limit
            return (f"A player who cannot place draws from the boneyard one tile at a time until one fits, at most "
                    f"{k} tile{'s' if k != 1 else ''} a turn, and must place a drawn tile that fits; after {k} "
                    f"draw{'s' if k != 1 else ''} without one, the player passes.")
        return entry.explain(v, c)

    def resolve(v: DrawLimit | Drawing, c: Fields) -> Fields:
        if isinstance(v, DrawLimit):
            return replace(c, drawing="until-playable", draw_limit=v.limit)
        return entry.resolve(v, c)

    def from_config(c: Fields) -> DrawLimit | Drawing:
        return DrawLimit(c.draw_limit) if c.draw_limit is not None else c.drawing

    def check(v: DrawLimit | Drawing) -> Iterator[Issue]:
        if isinstance(v, DrawLimit):
            if v.limit < 1:
                yield Issue("bad-number", "a player must be able to draw at least 1 tile",
                            f"write `{fill(DRAW_LIMIT, 2)}`")
            return
        yield from entry.check(v)

    return replace(
        entry, phrases={rule: phrases + (DRAW_LIMIT,) for rule, phrases in entry.phrases.items()},
        read=read, fmt=fmt, explain=explain, resolve=resolve, from_config=from_config, check=check,
        examples=entry.examples + examples(DRAW_LIMIT),
        docs=entry.docs + (Doc("`draw until playable, at most 2 tiles`", "limited drawing: after that many draws "
                               "without a tile that fits, the player passes", "`drawing: until-playable`, "
                               "`draw_limit: 2` (omitted: no limit)"),),
        tags=entry.tags + ("draw-limit",))


STATEMENTS = STATEMENTS[:-1] + (_with_draw_limit(STATEMENTS[-1]),)


# -- `draw 1 tile and pass` (drawing: draw-and-pass; FIDO, dominospiel.de: "Kann sie keinen Stein anlegen, zieht sie
# einen aus dem Stock und setzt aus, das heißt die nächste SpielerIn ist an der Reihe") ---------------------------

DRAW_PASS = "draw {N:1} tile[s] and pass"


class DrawPass(NamedTuple):
    """A player who cannot place draws `tiles` tiles and passes, whatever they are (only 1 is stated)."""

    tiles: int


def _with_draw_pass(entry: StatementDef) -> StatementDef:
    """The drawing statement, which also reads `draw 1 tile and pass`."""
    def read(p: Phrase) -> object:
        return DrawPass(p.numbers[0]) if p.has("PASS") else entry.read(p)

    def fmt(v: object) -> list[str]:
        return [fill(DRAW_PASS, v.tiles)] if isinstance(v, DrawPass) else entry.fmt(v)

    def explain(v: object, c: Fields) -> str:
        if c.drawing == "draw-and-pass":
            return ("A player who cannot place draws one tile from the boneyard and passes, even when the drawn tile "
                    "fits (it may be placed in a later turn); with nothing left to draw, the player passes.")
        return entry.explain(v, c)

    def resolve(v: object, c: Fields) -> Fields:
        return replace(c, drawing="draw-and-pass", draw_limit=None) if isinstance(v, DrawPass) else entry.resolve(v, c)

    def from_config(c: Fields) -> object:
        return DrawPass(1) if c.drawing == "draw-and-pass" else entry.from_config(c)

    def check(v: object) -> Iterator[Issue]:
        if isinstance(v, DrawPass):
            if v.tiles != 1:
                yield Issue("bad-number", "a player who cannot place draws 1 tile and passes (no rule text draws more "
                            "before passing)", f"write `{fill(DRAW_PASS, 1)}`, or `{fill(DRAW_LIMIT, v.tiles)}` to "
                            "place a drawn tile that fits")
            return
        yield from entry.check(v)

    return replace(
        entry, phrases={rule: phrases + (DRAW_PASS,) for rule, phrases in entry.phrases.items()},
        read=read, fmt=fmt, explain=explain, resolve=resolve, from_config=from_config, check=check,
        examples=entry.examples + examples(DRAW_PASS),
        docs=entry.docs + (Doc("`draw 1 tile and pass`", "a player who cannot place draws one tile and passes, even "
                               "when it fits (it may be placed in a later turn); with nothing to draw, the player "
                               "passes", "`drawing: draw-and-pass`"),),
        tags=entry.tags + ("draw-and-pass",))


STATEMENTS = STATEMENTS[:-1] + (_with_draw_pass(STATEMENTS[-1]),)


# -- `a player may draw while able to place` (draw_while_able, family.md 3.8, puzzle-place.net) ---

def _explain_draw_while_able(v: bool | None, c: Fields) -> str:
    if c.draw_while_able:
        return ("A player who could place may draw instead, one tile at a time (the move `draw`), and then place "
                "any tile of the hand or draw again, while the drawable boneyard has tiles; the lead, and a drawn "
                "tile that must be placed, are not drawn over.")
    return "A player draws only when no tile fits."


STATEMENTS = STATEMENTS + (
    flag(
        "draw_while_able", "drawing while able to place", 1, "draw_while_able_stmt",
        "a player may draw while able to place",
        explain=_explain_draw_while_able,
        docs=(Doc("`a player may draw while able to place`", "a draw is offered as a move (`draw`) even when a "
                  "tile fits, until the drawable boneyard is empty (not at the lead, nor over a drawn tile that "
                  "must be placed; puzzle-place.net Muggins); not written, a player draws only when no tile fits",
                  "`draw_while_able: true` (omitted when false)"),),
        tags=("draw-while-able",), required=False, meta={"default": None}),
)


# -- `the tiles are dealt again when a hand holds 5 or more doubles` (redeal_doubles: a club's house rules
# throw a deal in at 4 doubles, an open-source engine and a tournament's rules at 5 or more) ---------------

REDEAL_DOUBLES = "the tiles are dealt again when a hand holds {N:5,4} or more double[s]"


def _explain_redeal_doubles(v: int | None, c: Fields) -> str:
    n = c.redeal_doubles
    if n is None:
        return "Every deal is played, however many doubles a hand holds."
    return (f"A deal in which one hand holds {n} or more doubles is thrown in, and the tiles are dealt again "
            "(a new shuffle), until no hand holds that many.")


STATEMENTS = STATEMENTS + (
    number(
        "redeal_doubles", "the deal thrown in for a hand of doubles", 1, "redeal_doubles_stmt", REDEAL_DOUBLES,
        explain=_explain_redeal_doubles,
        check=at_least(2, "a deal thrown in for a hand of doubles needs at least 2 doubles in that hand", REDEAL_DOUBLES, 5),
        docs=(Doc("`the tiles are dealt again when a hand holds 5 or more doubles`", "a deal in which one hand holds "
                  "N or more doubles is thrown in and dealt again (a club's house rules: 4; an open-source engine "
                  "and a tournament's rules: 5 or more); not written, every deal is played",
                  "`redeal_doubles: 5` (omitted when not written)"),),
        tags=("many-doubles-redeal",), required=False, meta={"default": None}),
)
