"""Statements of opening a round and of doubles."""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from rulelang.config.vocabulary import DOUBLE_OPENERS, Opener, OpenerBlock, OpenerDomino, OpenerFirst
from rulelang.language.statements.table import Doc, Fields, Part, StatementDef, choice

OPENER_WORDS = {
    "lottery": "lottery",
    "highest-double": "the highest double",
    "dominoer": "the dominoer",
    "next-seat": "the next seat",
    "block-winner": "the block winner",
    "seat-0": "seat 0",  # a fixed opening seat
    "double-six": "the double six",  # a set opening double
    "rotating-double": "the rotating double",
    "lowest-double": "the lowest double",  # an app's rules
    "after-dominoer": "the seat after the dominoer",  # an app's rules: "the enemy opened a new round"
    "after-last-placer": "the seat after the last to place",  # an open-source game: "alternates ... between rounds"
    "heaviest-tile": "the heaviest tile",  # Majestic Hotel Harrogate: "the highest number of dots on a domino"
    "last-placer": "the last to place",  # onlinedomino.nl: "diegene ... die in die ronde de laatste steen speelde"
}
OPENER_MEANINGS = {
    "lottery": "a seat drawn by lottery",
    "highest-double": "the holder of the highest double (if nobody holds a double, the holder of the heaviest "
                      "tile: most pips, then the larger high half)",
    "dominoer": "the player who dominoed",
    "next-seat": "the seat after the previous round's opener",
    "block-winner": "the winner of the block (a seat drawn by lottery when the block has no winner)",
    "seat-0": "seat 0, always (a fixed opening seat, family.md 3.9)",
    "double-six": "the holder of [6|6], who must lead it (if nobody holds it, `if nobody holds the opening double` "
                  "says who leads)",
    "rotating-double": "the holder of the round's double, who must lead it: [6|6] in the match's first round, [5|5] "
                       "in the second and so on down to [0|0], then [6|6] again (a larger set starts from its top "
                       "double; if nobody holds it, `if nobody holds the opening double` says who leads)",
    "lowest-double": "the holder of the lowest double ([0|0], else [1|1], and so on up; under `opener leads the "
                     "deciding tile` it must lead it; if nobody holds a double, `if nobody holds the opening "
                     "double` says who leads: by default the holder of the heaviest tile)",
    "after-dominoer": "the seat after the player who dominoed (with two players, its opponent)",
    "after-last-placer": "the seat after the last player to place a tile (turns go on alternating across rounds)",
    "heaviest-tile": "the holder of the heaviest tile (most pips, a double ranked like any other tile; equal pips: "
                     "the larger high half, so [6|4] before [5|5])",
    "last-placer": "the player who placed the round's last tile",
}


# who leads when nobody holds the opening double, in the opener's sentence: the rule in force, never a default
# that another statement replaces nor a statement's name
FALLBACK_WORDS = {
    "heaviest-tile": "the holder of the heaviest tile leads, a double held coming before any other tile",
    "draw": "the players draw in turn from seat 0 until a double turns up, and its drawer leads it",
    "heaviest-hand": "the holder of the heaviest hand leads, any tile",
    "next-seat": "the lead passes to the next seat, any tile",
    "redeal": "the tiles are dealt again",
    "next-seat-double": "the lead passes to the next seat, which must lead its own highest double (holding none, "
                        "its heaviest tile)",
}


def openers(c: Fields) -> tuple[Opener, Opener, Opener]:
    """Who opens the first round, the round after a domino and the round after a block."""
    return c.opener_first, c.opener_after_domino, c.opener_after_block


def opener_meaning(v: str, c: Fields) -> str:
    """Who opens, with the fallback in force when nobody holds the opening double."""
    how = c.no_double
    if v == "highest-double" and how != "heaviest-tile":
        return f"the holder of the highest double (if nobody holds a double, {FALLBACK_WORDS[how]})"
    if v in ("double-six", "rotating-double"):
        said = OPENER_MEANINGS[v].split("if nobody holds it, ")[0]
        return f"{said}if nobody holds it, {FALLBACK_WORDS[how]})"
    return OPENER_MEANINGS[v]


def _opener(key: str, words: str, head: str, allowed: object, when: str,
            tags: tuple[str, ...], example: str, features: dict[str, str] | None = None) -> StatementDef:
    def explain(v: str, c: Fields) -> str:
        return f"{when} is opened by {opener_meaning(v, c)}."

    phrases = {f"{head}: {w}": v for v, w in OPENER_WORDS.items()}
    meanings = {f"{head}: {w}": OPENER_MEANINGS[v] for v, w in OPENER_WORDS.items()}
    return choice(key, words, 2, f"{key}_stmt", phrases, explain, meanings, tags,
                  allowed=allowed, check_code="bad-opener", example=f"{head}: {example}",
                  grammar=(f"{head}: {{opener_value}}",), features=features)


def _set_doubles(c: Fields) -> list[str]:
    """The set doubles that open some round (their holder must lead them, whatever `lead` says)."""
    used = set(openers(c))
    return [w for v, w in (("double-six", "[6|6]"), ("rotating-double", "the round's double")) if v in used]


def _explain_lead(v: str, c: Fields) -> str:
    sets = _set_doubles(c)
    if v == "double":
        rest = (f"; a round opened by {' or '.join(sets)} leads it" if sets else "")
        return ("The opener leads a double of its choice; holding none, it draws from the boneyard until it draws "
                "one, and leads it (the boneyard out first, any tile)" + rest + ".")
    if v == "forced":
        # "...: the heaviest tile" (Majestic Hotel Harrogate) opens some round: it leads that tile
        heaviest = "heaviest-tile" in openers(c)
        if heaviest and not set(DOUBLE_OPENERS) & set(openers(c)):
            return "A round opened by the heaviest tile must lead that tile; other rounds lead any tile."
        also = "; a round opened by the heaviest tile must lead that tile" if heaviest else ""
        # "...: the lowest double" (an app's rules) opens some round
        doubles = "the highest or the lowest double" if "lowest-double" in openers(c) else "the highest double"
        if sets:
            return (f"A round opened by {' or '.join(sets)} must lead it; a round opened by {doubles}, or "
                    f"by the heaviest tile when nobody holds the opening double, must lead that tile{also}; other "
                    "rounds lead any tile.")
        if c.no_double not in ("heaviest-tile", "draw"):
            return f"A round opened by {doubles} must lead that double{also}; other rounds lead any tile."
        return (f"A round opened by {doubles} must lead that double (or that heaviest tile){also}; "
                "other rounds lead any tile.")
    if sets:
        return (f"A round opened by {' or '.join(sets)} must lead it; otherwise the opener may lead any tile "
                "(the heaviest tile's holder too, when nobody holds the opening double).")
    return "The opener may lead any tile."


# -- a round opened by a double that nobody holds: optional, omitted at today's heaviest tile

NO_DOUBLE = {
    "if nobody holds the opening double: the heaviest tile leads": "heaviest-tile",
    "if nobody holds the opening double: each player in turn draws until a double turns up": "draw",
    "if nobody holds the opening double: the heaviest hand leads": "heaviest-hand",
    "if nobody holds the opening double: the lead passes to the next seat": "next-seat",
    "if nobody holds the opening double: the tiles are dealt again": "redeal",
    "if nobody holds the opening double: the lead passes to the next seat, who must lead its highest double":
        "next-seat-double",
}
NO_DOUBLE_MEANINGS = {
    "heaviest-tile": "the holder of the heaviest tile leads (most pips, then the larger high half; under the double "
                     "six or the rotating double, the highest double held comes first); the default",
    "draw": "from seat 0, each player in turn draws one tile from the drawable boneyard until a double turns up; "
            "its drawer leads it (the boneyard run out first: the heaviest tile leads); the drawn tiles stay in "
            "the hands",
    "heaviest-hand": "the holder of the heaviest hand (most pips; equal hands: the one holding the heavier "
                     "deciding tile) leads, any tile",
    "next-seat": "the seat after the previous round's opener leads, any tile (family.md reading 2's `the next "
                 "seat`); in the match's first round, seat 0",
    "redeal": "the deal is thrown in and the tiles are dealt again (from the same generator: a seeded match stays "
              "reproducible, and its transcript records the thrown-in deals) until somebody holds it",
    "next-seat-double": "the seat after the previous round's opener (seat 0 in the match's first round) leads, and "
                        "must lead its own highest double (holding none, its heaviest tile)",
}


def _openers_by_double(c: Fields) -> list[str]:
    return [f"the {w}" for w, v in zip(("first round", "round after a domino", "round after a block"), openers(c))
            if v in DOUBLE_OPENERS]


def _explain_no_double(v: str, c: Fields) -> str:
    rounds = _openers_by_double(c)
    if not rounds:
        return "" if v == "heaviest-tile" else "(No round is opened by a double, so nobody holding one changes nothing.)"
    where = "any round" if len(rounds) == 3 else " and of ".join(rounds)
    said = {
        "heaviest-tile": "the holder of the heaviest tile leads it (most pips, then the larger high half; when the "
                         "round's double is the double six or the rotating double, the highest double held comes "
                         "before any other tile)",
        "draw": "from seat 0, each player in turn draws one tile from the boneyard until a double turns up, and its "
                "drawer leads it; the drawn tiles stay in the hands (if the drawable boneyard runs out first, the "
                "heaviest tile leads)",
        "heaviest-hand": "the holder of the heaviest hand leads, any tile (equal hands: the one holding the heavier "
                         "deciding tile)",
        "next-seat": "the lead passes to the seat after the previous round's opener (seat 0 in the match's first "
                     "round), who leads any tile",
        "redeal": "the deal is thrown in and the tiles are dealt again until somebody holds it",
        "next-seat-double": "the lead passes to the seat after the previous round's opener (seat 0 in the match's "
                            "first round), who must lead its own highest double (holding none, its heaviest tile)",
    }[v]
    return f"If nobody holds the double that opens {where}, {said}."


NO_DOUBLE_HEAD = "if nobody holds the opening double: "
# The parts of the opener statements: the opener (`"seat 0"` is one keyword: only 0 is a seat there) and
# who leads when nobody holds the opening double.
PARTS = (
    Part("opener_value", tuple(f'"{w}"' if w[-1].isdigit() else w for w in OPENER_WORDS.values())),
    Part("no_double_value", tuple(p.removeprefix(NO_DOUBLE_HEAD) for p in NO_DOUBLE)),
)


BRANCHING = {
    "every": "Every double is a spinner and can branch, the opening double and doubles on branches included.",
    "first": "Only the first double placed in a round (the lead included) is a spinner; later doubles are "
             "placed crosswise but do not branch.",
    "none": "No double branches: the layout is a single line.",
    "lead": "Only a double led to open the round is a spinner and can branch; a round opened by another tile "
            "has no spinner, and later doubles are placed crosswise but do not branch.",
    "all-but-lead": "Every double placed after the lead is a spinner and can branch, doubles on branches "
                    "included; a double led to open the round does not branch.",
}


def _explain_branch_sides(v: str, c: Fields) -> str:
    if c.branching == "none":
        return ""  # no double branches: when branches open says nothing about this game
    if v == "at-once":
        return "A spinner's side branches are open as soon as it is placed."
    if v == "spinner-first":
        return ("A spinner's side branches open only once both its in-line sides are occupied; until each of "
                "the four sides of the round's first spinner has a tile, every placement goes on it (the "
                "other ends wait, still counted).")
    return "A spinner's side branches open only once both its in-line sides are occupied."


def _explain_terminal(v: str, c: Fields) -> str:
    if v == "both-halves":
        return ("A double at the end of a line counts both halves ([4|4] counts 8); once both its "
                "in-line sides are occupied it counts nothing itself.")
    return ("A double at the end of a line counts one half ([4|4] counts 4); once both its in-line "
            "sides are occupied it counts nothing itself.")


# -- the sniff (docs/design/family.md, Sniff): optional, omitted at today's crosswise spinner
# counting while terminal; meaningful only where the first double alone branches (`sniff-needs-first-double`)

ORIENTATIONS = {
    "the spinner is always laid crosswise": "crosswise",
    "the spinner is always laid endwise": "endwise",
    "the spinner is laid crosswise or endwise, as its player chooses": "choice",
}
ORIENTATION_MEANINGS = {
    "crosswise": "the spinner lies across the line, as every double does (the default)",
    "endwise": "the spinner lies in the line, like a non-double; its branches still open after the line",
    "choice": "whoever places the spinner chooses: two moves, `... endwise` and the plain (crosswise) one",
}
SPINNER_COUNTS = {
    "the spinner counts while terminal": "terminal",
    "the spinner counts each uncovered side": "uncovered-sides",
}
SPINNER_COUNT_MEANINGS = {
    "terminal": "a crosswise spinner counts as a terminal double, while one of its in-line sides is free (the "
                "default)",
    "uncovered-sides": "a crosswise spinner counts p for each branch side no tile covers yet, even before the "
                       "branches open, and never its in-line sides (family.md 2.4, reading 23)",
}


BRANCH_LENGTHS = {
    "each branch of the spinner grows without limit": "unlimited",
    "each branch of the spinner takes one tile": "one-tile",
}
BRANCH_LENGTH_MEANINGS = {
    "unlimited": "tiles join the end of a branch as of any line (the default)",
    "one-tile": "each branch side of the spinner takes one tile, whose free end counts for the rest of the round "
                "but is a dead end (Pagat-Sniff's stubby spinner, family.md reading 14)",
}


def _optional(key: str, words: str, rule: str, phrases: dict[str, str], meanings: dict[str, str], field: str,
              default: str, explain: Callable[[str, Fields], str], tags: tuple[str, ...]) -> StatementDef:
    """An optional statement of one field of `doubles`: written only when not the default."""
    values = {v: p for p, v in phrases.items()}
    base = choice(key, words, 3, rule, phrases, explain, {p: meanings[v] for p, v in phrases.items()}, tags)
    docs = tuple(Doc(f"`{values[v]}`", meanings[v], f"`doubles.{field}: {v}`" + (" (omitted)" if v == default else ""))
                 for v in phrases.values())
    return replace(base, docs=docs, required=False, meta={"default": default})


def _sniff_words(c: Fields) -> str:
    return "" if c.branching == "first" else " (but only a first double alone that branches has one)"


def _explain_orientation(v: str, c: Fields) -> str:
    if v == "crosswise":
        return "The spinner is laid crosswise, like every double."
    if v == "endwise":
        return ("The spinner is always laid endwise: it lies in the line like a non-double and counts its half for "
                "each free in-line side; its branches open after the line" + _sniff_words(c) + ".")
    return ("Whoever places the spinner lays it crosswise or endwise, as they choose (two distinct moves): endwise "
            "it lies in the line and counts its half for each free in-line side; its branches open after the "
            "line either way" + _sniff_words(c) + ".")


def _explain_branch_length(v: str, c: Fields) -> str:
    if v == "unlimited":
        return "A spinner's branches grow like any line."
    return ("Each branch side of the spinner takes one tile only: that tile's free end counts for the rest of the "
            "round, but nothing may join it" + _sniff_words(c) + ".")


def _explain_spinner_count(v: str, c: Fields) -> str:
    if v == "terminal":
        return "A crosswise spinner counts as a terminal double, while one of its in-line sides is free."
    return ("A crosswise spinner counts its half for each branch side no tile covers yet, even before its branches "
            "open, and never its in-line sides ([4|4] counts 8, then 4, then nothing)" + _sniff_words(c) + ".")


SNIFF: tuple[StatementDef, ...] = (
    _optional("spinner_orientation", "how the spinner is laid", "spinner_orientation_stmt", ORIENTATIONS,
              ORIENTATION_MEANINGS, "spinner_orientation", "crosswise", _explain_orientation,
              ("sniff-orientation",)),
    _optional("spinner_count", "what the spinner counts", "spinner_count_stmt", SPINNER_COUNTS,
              SPINNER_COUNT_MEANINGS, "spinner_count", "terminal", _explain_spinner_count,
              ("sniff-count",)),
    _optional("branch_length", "how long the spinner's branches are", "branch_length_stmt", BRANCH_LENGTHS,
              BRANCH_LENGTH_MEANINGS, "branch_length", "unlimited", _explain_branch_length,
              ("sniff-branch-length",)),
)


STATEMENTS: tuple[StatementDef, ...] = (
    _opener("opener_first", "the opener of the first round", "opener of the first round", OpenerFirst,
            "The first round", ("multi-round", "opener-double-six", "opener-rotating-double", "opener-lowest-double",
                                "opener-heaviest-tile"),
            "lottery", {"opener-heaviest-tile": "opener heaviest-tile (`opener of the first round: the heaviest tile`, "
                        "and after a domino or a block): the holder of the heaviest tile dealt (most pips; equal pips: "
                        "the larger high half; a double is ranked like any other tile) opens, leading it under `opener "
                        "leads the deciding tile` (Majestic Hotel Harrogate's rules)"}),
    _opener("opener_domino", "the opener after a domino", "opener after a domino", OpenerDomino,
            "After a domino, the next round", ("multi-round", "opener-after-dominoer"), "the dominoer"),
    _opener("opener_block", "the opener after a block", "opener after a block", OpenerBlock,
            "After a block, the next round", ("opener-block-winner", "opener-after-last-placer", "opener-last-placer"), "lottery"),
    choice("lead", "what the opener leads", 2, "lead_stmt",
           {"opener leads any tile": "any", "opener leads the deciding tile": "forced",
            "opener leads any double, drawing until one turns up": "double"}, _explain_lead,
           {"opener leads any tile": "the opener leads any tile",
            "opener leads the deciding tile": "a round opened by the highest (or the lowest) double, or by the "
                                              "heaviest tile, leads that tile",
            # a published text (dominorules.com's Merry-Go-Round): "The first player must set a double"
            "opener leads any double, drawing until one turns up": "the opener leads a double of its choice; "
                                                                   "holding none, it draws from the boneyard until "
                                                                   "it draws one, and leads it"},
           tags=("forced-lead", "lead-double")),
    replace(choice("no_double", "who leads when nobody holds the opening double", 2, "no_double_stmt", NO_DOUBLE,
                   _explain_no_double,
                   {p: NO_DOUBLE_MEANINGS[v] for p, v in NO_DOUBLE.items()},
                   tags=("no-double-draw", "no-double-heaviest-hand", "no-double-next-seat", "no-double-redeal",
                         "no-double-next-seat-double"),
                   grammar=(NO_DOUBLE_HEAD + "{no_double_value}",)),
            required=False, meta={"default": "heaviest-tile"}),
    choice("branching", "which doubles branch", 3, "branching_stmt",
           {"every double branches": "every", "only the first double branches": "first",
            "no double branches": "none",
            "only a leading double branches": "lead",  # "if the initial tile is a double"
            "every double but the lead branches": "all-but-lead"}, lambda v, c: BRANCHING[v],
           {"every double branches": "every double is a spinner",
            "only the first double branches": "only the first double of a round is a spinner",
            "no double branches": "the layout is a single line",
            "only a leading double branches": "only a double led to open the round is a spinner (\"if the "
                                              "initial tile is a double\"); otherwise the layout is a single line",
            "every double but the lead branches": "every double is a spinner except one led to open the round"},
           tags=("branching-every", "branching-first", "branching-lead", "branching-all-but-lead")),
    choice("branch_sides", "when branches open", 3, "branch_sides_stmt",
           {"branches open after the line": "after-line", "branches open at once": "at-once",
            "branches open after the line, the spinner filled first": "spinner-first"},
           _explain_branch_sides,
           {"branches open after the line": "a spinner's branches open once its in-line sides are occupied",
            "branches open at once": "a spinner's branches are open as soon as it is placed",
            "branches open after the line, the spinner filled first": "as after the line, and until each of the "
            "round's first spinner's four sides has a tile, no other end takes one (Merry-Go-Round: \"the "
            "succeeding plays must be made on it until all four sides have been played on\")"},
           tags=("branch-after-line", "branch-at-once", "spinner-first")),
    choice("terminal_count", "what a terminal double counts", 3, "terminal_stmt",
           {"a terminal double counts both halves": "both-halves",
            "a terminal double counts one half": "one-half"},
           _explain_terminal,
           {"a terminal double counts both halves": "a double at the end of a line counts both halves",
            "a terminal double counts one half": "a double at the end of a line counts one half"},
           tags=("terminal-double",)),
) + SNIFF
