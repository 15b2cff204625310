"""Scores: how one event changes a side's score, and whether the match ends (pure functions)."""
from __future__ import annotations

from collections.abc import Sequence

from .rules import Rules


def apply_event(r: Rules, old: int, raw: int) -> tuple[int, bool, bool]:
    """A side's score after an event of `raw` points: (new score, accepted, the match ends now)."""
    if r.entry and old == 0 and raw < r.entry:
        return old, False, False  # "N points to get in": off the board, the event is discarded (family tier B)
    new = old + raw
    accepted = True
    if r.exact and new > r.target:
        if r.overshoot == "discard":
            # "overshoot discards the event": the event is discarded whole
            accepted = False
            new = old
        elif r.overshoot == "bounce":
            # "overshoot bounces back": the excess is counted back down from the target
            new = 2 * r.target - new
    if r.floor is not None and new < r.floor:
        new = r.floor  # "scores never fall below N"
    # "check the target after every event": the match ends at once
    ends = accepted and r.every_event and (new == r.target if r.exact else new >= r.target)
    return new, accepted, ends


def after_settlement(r: Rules, scores: Sequence[int], tiebreak: bool) -> tuple[bool, int | None, bool]:
    """The target checked after settlement: (match over, winning side or None, extra rounds needed)."""
    if r.every_event:
        return False, None, False  # "check the target after every event": checked already
    if r.rounds is not None:
        reached = False  # "the match lasts N rounds": decided after the last round only (tiebreak is set then)
    else:
        reached = (r.target in scores) if r.exact else max(scores) >= r.target
    if not (reached or tiebreak):
        return False, None, False
    top = max(scores)
    tops = [i for i, s in enumerate(scores) if s == top]
    if len(tops) == 1:
        return True, tops[0], False
    if r.ties == "extra-rounds":
        # "ties at the top: play extra rounds" until one side alone has the highest score
        return False, None, True
    # "ties at the top: draw" (or "impossible", which cannot arise): a drawn match
    return True, None, False
