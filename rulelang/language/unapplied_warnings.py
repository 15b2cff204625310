"""Warnings for statements that cannot apply in the game the ruleset describes (the ruleset still compiles).

- `if nobody holds the opening double: ...` where no round is opened by a double: nobody ever looks for one;
- `opener leads any tile` where every round is opened by the double six or the rotating double: its holder
  must lead it, so the line applies only when nobody holds it and the heaviest tile leads (never, when
  another fallback is stated);
- `branches open after the line, the spinner filled first` where no double branches: there is no spinner to fill.

Only a statement written in the file itself is warned about: an inherited one is its base's to state.
"""
from __future__ import annotations

from rulelang.base.errors import RulesetError, RulesetWarning
from rulelang.config.fields import Fields
from rulelang.config.vocabulary import DOUBLE_OPENERS
from rulelang.language.ast import Ruleset, Statement
from rulelang.language.statements.play import openers as openers_of

__all__ = ["cannot_apply_warnings"]


def _warning(ruleset: Ruleset, st: Statement, message: str, hint: str) -> RulesetWarning:
    lines = ruleset.text.split("\n")
    src = lines[st.span.line - 1] if 0 < st.span.line <= len(lines) else ""
    return RulesetWarning("cannot-apply", message, filename=ruleset.filename, line=st.span.line,
                          column=st.span.column, end_column=len(src.rstrip()) + 1, source_line=src, hint=hint)


def cannot_apply_warnings(ruleset: Ruleset, cfg: Fields, own: dict[str, Statement]) -> list[RulesetError]:
    """One warning per statement of this file that cannot apply (or applies only in a corner) here."""
    openers = set(openers_of(cfg))
    how = cfg.no_double
    out: list[RulesetError] = []
    if "no_double" in own and not openers & set(DOUBLE_OPENERS):
        out.append(_warning(
            ruleset, own["no_double"],
            "no round is opened by a double, so `if nobody holds the opening double: ...` never applies",
            "remove the line, or open a round by a double: write `opener of the first round: the highest double`"))
    if "lead" in own and cfg.lead == "any" and openers <= {"double-six", "rotating-double"}:
        when = ("only when nobody holds it and the heaviest tile leads" if how in ("heaviest-tile", "draw")
                else "never: nobody holding it is settled by the line `if nobody holds the opening double: ...`")
        out.append(_warning(
            ruleset, own["lead"],
            f"every round is opened by a set double, whose holder must lead it: `opener leads any tile` applies {when}",
            "`rulelang explain` says who leads what; to make the heaviest tile's holder lead that tile, write "
            "`opener leads the deciding tile`"))
    if "branch_sides" in own and cfg.branch_sides == "spinner-first" and cfg.branching == "none":
        out.append(_warning(
            ruleset, own["branch_sides"],
            "no double branches, so `branches open after the line, the spinner filled first` never applies",
            "remove the line, or make a double a spinner: write `only the first double branches`"))
    return out
