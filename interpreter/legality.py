"""Why a move is illegal: the checks in their documented order, each with its stable code.

`play` accepts a move found among the round's legal move codes at once; only a
move that is not there comes here, to be refused with the first failing check's
code (docs/engine-api.md). It reads the round through its public interface
(`Position`: the members of `Round` it asks about).
"""
from __future__ import annotations

from collections.abc import Callable
from typing import NoReturn, Protocol

from .config import Config
from .errors import IllegalMove
from .layout import Layout
from .tiles import (
    BRANCH_A,
    BRANCH_B,
    ENDWISE,
    HIGH,
    INDEX,
    IS_DOUBLE,
    LINE_A,
    LINE_B,
    LOW,
    MASK_ALL,
    SIDE_CODE,
    Move,
    Tile,
    format_tile,
    lead_code,
    move_code,
    side_key,
)


class Position(Protocol):
    """What the checks read of a round (`Round` has these members)."""

    @property
    def over(self) -> bool: ...
    @property
    def config(self) -> Config: ...
    @property
    def seat_to_move(self) -> int | None: ...
    @property
    def hands(self) -> list[list[Tile]]: ...
    @property
    def layout(self) -> Layout: ...
    @property
    def leading(self) -> bool: ...
    @property
    def forced_tile(self) -> Tile | None: ...
    @property
    def must_play(self) -> Tile | None: ...
    def legal_moves(self) -> list[Move]: ...


def diagnose(rnd: Position, move: Move) -> int:
    """The move's code if the rules allow it; else raise IllegalMove with the stable code."""
    if rnd.over:
        raise IllegalMove("round-over", "the round is over")

    def illegal(code: str, message: str) -> NoReturn:
        raise IllegalMove(code, message, rnd.legal_moves())

    seat = rnd.seat_to_move
    assert seat is not None  # the round is not over
    if move.draw:
        _draw(rnd, seat, illegal)
    ti = INDEX[move.tile]
    if move.tile not in rnd.hands[seat]:
        illegal("not-in-hand", f"{format_tile(move.tile)} is not in seat {seat}'s hand")
    lay = rnd.layout
    if rnd.leading:
        if move.target is not None:
            illegal("must-lead", "the layout is empty: lead a tile, with no target")
        forced = rnd.forced_tile
        if forced is not None and move.tile != forced:
            illegal("forced-lead", f"the lead must be {format_tile(forced)}")
        if forced is None and rnd.config.lead == "double" and move.tile[0] != move.tile[1] and any(
                a == b for a, b in rnd.hands[seat]):
            illegal("forced-lead", "the lead must be a double (`opener leads any double, drawing until one turns up`)")
        return _orientation(rnd, move, ti, lead_code(ti), illegal)
    if move.target is None or move.side is None:  # (a Move has both or neither)
        illegal("must-lead", "the round is led already: name a target tile and side")
    drawn = rnd.must_play
    if drawn is not None and move.tile != drawn:
        illegal("must-play-drawn", f"the tile just drawn, {format_tile(drawn)}, must be placed")
    t = INDEX[move.target]
    if not lay.holds(t):
        illegal("not-on-layout", f"{format_tile(move.target)} is not on the layout")
    side = SIDE_CODE[move.side]
    key = side_key(t, side)
    if IS_DOUBLE[t]:
        exists = side in (LINE_A, LINE_B) or (side in (BRANCH_A, BRANCH_B) and lay.spin >> t & 1)
    else:
        exists = side in (LOW, HIGH)
    if not exists:
        illegal("no-such-side", f"{format_tile(move.target)} has no side {move.side}")
    if key not in lay.free:
        if key in lay.held:  # "branches open after the line, the spinner filled first"
            illegal("spinner-first", f"{move.side} of {format_tile(move.target)} waits: every side of the "
                    "spinner takes a tile first")
        if key in lay.dead:  # "each branch of the spinner takes one tile"
            illegal("dead-end", f"{move.side} of {format_tile(move.target)} ends a branch of the spinner: it counts, "
                    "but nothing may join it")
        if side in (BRANCH_A, BRANCH_B) and not lay.side_covered(key):
            illegal("branch-closed", f"the branches of {format_tile(move.target)} are not open yet")
        illegal("side-occupied", f"{move.side} of {format_tile(move.target)} is occupied")
    v = lay.free[key]
    if not MASK_ALL[v] >> ti & 1:  # larger sets: any set's tile (the hand holds only the set's)
        illegal("no-match", f"{format_tile(move.tile)} has no half {v} for {move.side} of {format_tile(move.target)}")
    return _orientation(rnd, move, ti, move_code(ti, key), illegal)


def _draw(rnd: Position, seat: int, illegal: Callable[[str, str], NoReturn]) -> NoReturn:
    """Why the draw move is refused: only `a player may draw while able to place` offers it, after
    the lead, with no drawn tile waiting, while the drawable boneyard has tiles."""
    if not rnd.config.draw_while_able:
        illegal("must-place", f"a draw is not allowed: seat {seat} has a placement")
    if rnd.leading:
        illegal("must-lead", "the layout is empty: lead a tile (there is no draw before the lead)")
    drawn = rnd.must_play
    if drawn is not None:
        illegal("must-play-drawn", f"the tile just drawn, {format_tile(drawn)}, must be placed")
    illegal("boneyard-empty", "nothing is left to draw: place a tile")


def _orientation(rnd: Position, move: Move, ti: int, code: int, illegal: Callable[[str, str], NoReturn]) -> int:
    """The move's code if its orientation is allowed (the sniff), else `orientation-not-allowed`."""
    crosswise, endwise = rnd.layout.orientations(ti)
    if move.endwise and not endwise:
        if rnd.config.spinner_orientation == "crosswise":
            why = "a spinner is always laid crosswise here"
        elif not IS_DOUBLE[ti]:
            why = f"{format_tile(move.tile)} is not a double: only the spinner may be laid endwise"
        else:
            why = f"{format_tile(move.tile)} is not the spinner (the round's first double): only it may be laid endwise"
        illegal("orientation-not-allowed", f"{why}; write the move without `endwise`")
    if not move.endwise and not crosswise:
        illegal("orientation-not-allowed", f"the spinner is always laid endwise here: write `{move} endwise`")
    return code | ENDWISE if move.endwise else code
