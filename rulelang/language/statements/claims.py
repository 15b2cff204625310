"""The muggins rule (family.md 2.3; docs/design/family.md "Muggins claims").

Optional: not written, `claims` is omitted from the configuration ("none") and
placements score as they always did, so existing configurations stay the same.
"""
from __future__ import annotations

from rulelang.config.vocabulary import Claims
from rulelang.language.statements.table import Doc, Fields, Phrase, StatementDef, reads_stated, sets_field

__all__ = ["STATEMENTS", "WORDS"]

WORDS: dict[str, str] = {
    "muggins": "points must be claimed; missed points go to the next opponent",
    "forfeit": "points must be claimed; missed points are lost",
    "any-opponent": "points must be claimed; missed points go to any opponent who calls",
    "lost-if-called": "points must be claimed; missed points are lost only when an opponent calls",
}


def _read(p: Phrase) -> Claims:
    if p.has("LOST"):
        return "lost-if-called" if p.has("CALLS") else "forfeit"
    return "any-opponent" if p.has("CALLS") else "muggins"


def _explain(v: Claims | None, c: Fields) -> str:
    claims = c.claims
    if claims == "none":
        return "A placement's points are scored without being claimed."
    unit = c.unit
    said = "in shown points" if unit > 1 else "in points"
    head = (f"A placement scores only what its player claims with the move ({said}): a claim up to the score "
            "is credited (claiming exactly the score credits it all; no claim claims 0); a claim above the score "
            "earns nothing.")
    if claims == "forfeit":
        return head + " Points not claimed are lost."
    if claims == "any-opponent":
        return (head + " Before the next placement, any opponent may call muggins: his side takes the points not "
                "claimed, or the whole claim as a penalty when the claim was too high; when several would call, "
                "the first in turn order after the placer takes it. The chance to call ends with the round.")
    if claims == "lost-if-called":
        return (head.replace("a claim above the score earns nothing.", "a claim above the score earns nothing "
                             "at once.") + " Before the next placement, any opponent may call muggins: the points "
                "not claimed (after a claim too high, the whole score) are then lost, and the caller takes nothing. "
                "Without a call they stay with the player: his side scores them when the chance to call ends, "
                "at the next placement (before it scores) or at the end of the round (before the settlement).")
    return (head + " Before the next placement, the first opponent clockwise may call muggins: his side takes "
            "the points not claimed, or the whole claim as a penalty when the claim was too high. "
            "The chance to call ends with the round.")


STATEMENTS: tuple[StatementDef, ...] = (
    StatementDef(
        key="claims", words="the muggins rule", group=4, phrases={"claims_stmt": tuple(WORDS.values())},
        read=_read, fmt=lambda v: [WORDS[v]],
        explain=_explain, resolve=sets_field("claims"), from_config=reads_stated("claims"),
        examples=(WORDS["muggins"], WORDS["forfeit"], WORDS["any-opponent"], WORDS["lost-if-called"]),
        docs=(Doc(f"`{WORDS['muggins']}`", "the muggins rule (by prior agreement, Britannica; Foster): a "
                  "placement scores only what its player claims with the move, in shown points; the first "
                  "opponent clockwise may call muggins before the next placement and takes the points not "
                  "claimed, or an over-claim as a penalty; not written, points are scored without claims",
                  "`claims: muggins` (omitted when `none`)"),
              Doc(f"`{WORDS['forfeit']}`", "points must be claimed, and points not claimed are simply lost "
                  "(Wikipedia's Muggins: forfeited); nobody calls", "`claims: forfeit`"),
              Doc(f"`{WORDS['any-opponent']}`", "as the muggins rule, but any opponent may call before the next "
                  "placement; when several would, the first in turn order after the placer takes the points",
                  "`claims: any-opponent`"),
              Doc(f"`{WORDS['lost-if-called']}`", "a missed score is forfeited only when an opponent calls: any "
                  "opponent may call before the next placement, and the missed points (after an over-claim, the "
                  "whole score) are lost; without a call they stay with the player, credited when the chance "
                  "ends (an over-claim nobody calls is credited at the score's true value, not at the claim)",
                  "`claims: lost-if-called`")),
        tags=("claims", "claims-any-opponent", "claims-lost-if-called"), required=False, meta={"default": None}),
)
