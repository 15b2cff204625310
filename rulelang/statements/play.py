"""Statements of opening a round and of doubles."""
from __future__ import annotations

from rulelang.config_model import (
    Branching,
    BranchSides,
    Lead,
    Opener,
    OpenerBlock,
    OpenerDomino,
    OpenerFirst,
    TerminalCount,
)
from rulelang.statements.table import Config, StatementDef, choice

OPENER_WORDS = {
    "lottery": "lottery",
    "highest-double": "the highest double",
    "dominoer": "the dominoer",
    "next-seat": "the next seat",
    "block-winner": "the block winner",
    "seat-0": "seat 0",  # family tier B
}
OPENER_MEANINGS = {
    "lottery": "a seat drawn by lottery",
    "highest-double": "the holder of the highest double (if nobody holds a double, the holder of the heaviest "
                      "tile: most pips, then the larger high half)",
    "dominoer": "the player who dominoed",
    "next-seat": "the seat after the previous round's opener",
    "block-winner": "the winner of the block (a seat drawn by lottery when the block has no winner)",
    "seat-0": "seat 0, always (a fixed opening seat, family.md 3.9)",  # family tier B
}


def _opener(key: str, words: str, head: str, place: str, allowed: object, when: str,
            tags: tuple[str, ...], example: str) -> StatementDef:
    def explain(v: str, c: Config) -> str:
        return f"{when} is opened by {OPENER_MEANINGS[v]}."

    phrases = {f"{head}: {w}": v for v, w in OPENER_WORDS.items()}
    meanings = {f"{head}: {w}": OPENER_MEANINGS[v] for v, w in OPENER_WORDS.items()}
    return choice(key, words, 2, f"{key}_stmt", phrases, ("opener", place), Opener, explain, meanings, tags,
                  allowed=allowed, check_code="bad-opener", example=f"{head}: {example}")


def _explain_lead(v: str, c: Config) -> str:
    if v == "forced":
        return ("A round opened by the highest double must lead that double (or that heaviest tile); "
                "other rounds lead any tile.")
    return "The opener may lead any tile."


BRANCHING = {
    "every": "Every double is a spinner and can branch, the opening double and doubles on branches included.",
    "first": "Only the first double placed in a round (the lead included) is a spinner; later doubles are "
             "placed crosswise but do not branch.",
    "none": "No double branches: the layout is a single line.",
}


def _explain_branch_sides(v: str, c: Config) -> str:
    if c["doubles"]["branching"] == "none":
        return "(Branches would open " + ("at once" if v == "at-once" else "after the line") + \
               ", but no double branches.)"
    if v == "at-once":
        return "A spinner's side branches are open as soon as it is placed."
    return "A spinner's side branches open only once both its in-line sides are occupied."


def _explain_terminal(v: str, c: Config) -> str:
    if v == "both-halves":
        return ("A double at the end of a line counts both halves ([4|4] counts 8); once both its "
                "in-line sides are occupied it counts nothing itself.")
    return ("A double at the end of a line counts one half ([4|4] counts 4); once both its in-line "
            "sides are occupied it counts nothing itself.")


STATEMENTS: tuple[StatementDef, ...] = (
    _opener("opener_first", "the opener of the first round", "opener of the first round", "first_round",
            OpenerFirst, "The first round", ("multi-round",), "lottery"),
    _opener("opener_domino", "the opener after a domino", "opener after a domino", "after_domino",
            OpenerDomino, "After a domino, the next round", ("multi-round",), "the dominoer"),
    _opener("opener_block", "the opener after a block", "opener after a block", "after_block",
            OpenerBlock, "After a block, the next round", ("opener-block-winner",), "lottery"),
    choice("lead", "what the opener leads", 2, "lead_stmt",
           {"opener leads any tile": "any", "opener leads the deciding tile": "forced"}, ("opener", "lead"), Lead,
           _explain_lead,
           {"opener leads any tile": "the opener leads any tile",
            "opener leads the deciding tile": "a round opened by the highest double leads that tile"},
           tags=("forced-lead",)),
    choice("branching", "which doubles branch", 3, "branching_stmt",
           {"every double branches": "every", "only the first double branches": "first",
            "no double branches": "none"}, ("doubles", "branching"), Branching,
           lambda v, c: BRANCHING[v],
           {"every double branches": "every double is a spinner",
            "only the first double branches": "only the first double of a round is a spinner",
            "no double branches": "the layout is a single line"},
           tags=("branching-every", "branching-first")),
    choice("branch_sides", "when branches open", 3, "branch_sides_stmt",
           {"branches open after the line": "after-line", "branches open at once": "at-once"},
           ("doubles", "branch_sides"), BranchSides, _explain_branch_sides,
           {"branches open after the line": "a spinner's branches open once its in-line sides are occupied",
            "branches open at once": "a spinner's branches are open as soon as it is placed"},
           tags=("branch-after-line", "branch-at-once")),
    choice("terminal_count", "what a terminal double counts", 3, "terminal_stmt",
           {"a terminal double counts both halves": "both-halves",
            "a terminal double counts one half": "one-half"},
           ("doubles", "terminal_count"), TerminalCount, _explain_terminal,
           {"a terminal double counts both halves": "a double at the end of a line counts both halves",
            "a terminal double counts one half": "a double at the end of a line counts one half"},
           tags=("terminal-double",)),
)
