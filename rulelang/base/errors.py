"""Errors of the rules language: one class per layer, each with a stable code.

``str(error)`` reads like a compiler message::

    house.rules:3:17: unexpected word `partnership`
        3 | players 2 to 4, partnership with 4
          |                 ^^^^^^^^^^^
    hint: did you mean `partnerships`?

The code (``error.code``) is stable and is what tools and tests compare; the
message text may be improved.
"""
from __future__ import annotations

__all__ = [
    "RulesetError",
    "RulesetSyntaxError",
    "RulesetCheckError",
    "RulesetFileError",
    "RulesetErrors",
]


class RulesetError(Exception):
    """Base class: a ruleset text that cannot be read, parsed or compiled.

    ``errors`` holds every error found in the same file (this one first), so a
    caller can report them all at once.
    """

    layer = "ruleset"

    def __init__(
        self,
        code: str,
        message: str,
        *,
        filename: str = "<string>",
        line: int | None = None,
        column: int | None = None,
        end_column: int | None = None,
        source_line: str | None = None,
        hint: str | None = None,
    ) -> None:
        self.code = code
        self.message = message
        self.filename = filename
        self.line = line
        self.column = column
        self.end_column = end_column
        self.source_line = source_line
        self.hint = hint
        self.errors: list[RulesetError] = [self]
        super().__init__(message)

    @property
    def location(self) -> str:
        """`FILE:LINE:COL`, or just FILE when the error has no position."""
        if self.line is None:
            return self.filename
        return f"{self.filename}:{self.line}:{self.column or 1}"

    def render(self) -> str:
        """The whole message: location, message, source line with a caret, hint."""
        out = [f"{self.location}: {self.message}"]
        if self.line is not None and self.source_line is not None:
            number = str(self.line)
            pad = " " * len(number)
            text = self.source_line.rstrip("\r\n").expandtabs(1)
            start = max((self.column or 1) - 1, 0)
            end = self.end_column - 1 if self.end_column else start + 1
            end = max(min(end, len(text)), start + 1)
            from rich.cells import cell_len  # the display width (wide characters take two columns): errors only

            out.append(f"    {number} | {text}".rstrip())
            out.append(f"    {pad} | {' ' * cell_len(text[:start])}{'^' * max(cell_len(text[start:end]), 1)}")
        if self.hint:
            out.append(f"hint: {self.hint}")
        return "\n".join(out)

    def __str__(self) -> str:
        return self.render()

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.code!r}, {self.location!r}, {self.message!r})"


class RulesetFileError(RulesetError):
    """A ruleset file that cannot be found or read (codes `file-not-found`, `cannot-read`)."""

    layer = "file"


class RulesetSyntaxError(RulesetError):
    """Text that does not follow the grammar (codes `unexpected-character`,
    `unexpected-word`, `unexpected-token`, `incomplete-statement`)."""

    layer = "syntax"


class RulesetCheckError(RulesetError):
    """A well-formed ruleset whose rules are missing, repeated or contradictory."""

    layer = "check"


class RulesetWarning(RulesetError):
    """A valid ruleset that may not say what its author means (it still compiles)."""

    layer = "warning"

    def render(self) -> str:
        return "warning: " + super().render()


class RulesetErrors(RulesetError):
    """Several errors at once; raised when a file has more than one.

    It behaves as its first error (``code``, ``line``...), ``errors`` lists them
    all and ``str()`` renders every one, separated by blank lines.
    """

    def __init__(self, errors: list[RulesetError]) -> None:
        first = errors[0]
        super().__init__(
            first.code,
            first.message,
            filename=first.filename,
            line=first.line,
            column=first.column,
            end_column=first.end_column,
            source_line=first.source_line,
            hint=first.hint,
        )
        self.errors = list(errors)
        self.layer = first.layer

    def render(self) -> str:
        return "\n\n".join(e.render() for e in self.errors)


def raise_errors(errors: list[RulesetError]) -> None:
    """Raise nothing for no errors, the error itself for one, `RulesetErrors` for several."""
    if not errors:
        return
    if len(errors) == 1:
        raise errors[0]
    raise RulesetErrors(errors)


# Every stable code, its layer and what it means (docs/language.md lists them too).
CODES: dict[str, tuple[str, str]] = {
    # file
    "file-not-found": ("file", "the file (or bundled ruleset) does not exist"),
    "cannot-read": ("file", "the file cannot be read (a folder, not UTF-8, no permission)"),
    "unknown-ruleset": ("file", "no bundled ruleset has this name"),
    "invalid-config": ("file", "a compiled .json configuration that is not JSON or breaks the schema"),
    "text-too-large": ("file", "a ruleset text longer than the limit (rulelang/base/limits.py)"),
    "line-too-long": ("file", "a line longer than the limit (rulelang/base/limits.py)"),
    "not-a-ruleset": ("file", "a .rules file that is plainly another format (udev, polkit, Snort rules): "
                              "folder walks, the hooks and the language server skip it"),
    "too-many-errors": ("file", "the count of the errors left out once a file has too many to show"),
    # syntax
    "unexpected-character": ("syntax", "a character the language never uses here"),
    "unexpected-word": ("syntax", "a word that is not a keyword expected here (often misspelt)"),
    "unexpected-token": ("syntax", "a keyword, number or text in the wrong place"),
    "incomplete-statement": ("syntax", "a line that ends before its statement is complete"),
    "number-too-large": ("syntax", "a number above the limit of the language (rulelang/base/limits.py)"),
    "outside-language": ("syntax", "a rule of the family the language cannot state (the hint names the closest "
                                   "statement)"),
    # check: one statement
    "duplicate-statement": ("check", "a statement or section given twice"),
    "missing-statement": ("check", "a statement or section missing from a ruleset without `based on`"),
    "misplaced-line": ("check", "a settlement line under the wrong section"),
    "empty-text": ("check", "an empty title or source"),
    "player-count": ("check", "player counts other than 2 to 12, backwards or repeated"),
    "unknown-set": ("check", "a tile set other than double-six, double-nine, double-twelve, double-fifteen or "
                             "double-eighteen"),
    "partnerships-need-4": ("check", "partnerships with other than 4 players, or without 4 allowed"),
    "per-count": ("check", "hand sizes or reserves not given for exactly the allowed player counts"),
    "bad-number": ("check", "a hand of 0 tiles, a multiple of 0, a target of 0"),
    "too-many-tiles": ("check", "hands and reserve need more tiles than the set has (28, 55, 91, 136 or 190); the message gives the sum, the hint what fits"),
    "bad-opener": ("check", "an opener that does not exist at that moment (e.g. the dominoer of the first round)"),
    "bad-unit": ("check", "a unit of 0 raw points, or raw points to more than 1 shown point"),
    "bad-rounding": ("check", "rounding to a number below 2"),
    "bad-division": ("check", "a rounded amount divided by 1, or by a number that does not divide the rounding"),
    "ambiguous-formula": ("check", "several multiples without `, one point per multiple` or `at face value`"),
    "pooled-to-owner": ("check", "a pooled amount given to each owner"),
    # check: the base
    "unknown-base": ("check", "`based on` a name or file that does not exist"),
    "base-cycle": ("check", "rulesets based on each other in a cycle"),
    "base-invalid": ("check", "the base ruleset has errors"),
    "base-too-deep": ("check", "a chain of `based on` deeper than the limit (rulelang/base/limits.py)"),
    # check: rules against each other
    "target-not-multiple": ("check", "a raw target that is not a whole number of shown points"),
    "unit-mismatch": ("check", "with N raw points to 1 shown point, a multiple, rounding, floor or bonus that "
                               "can make raw scores not multiples of N"),
    "formula-needs-raw-points": ("check", "one point per multiple or face value with a unit other than 1"),
    "exact-needs-overshoot": ("check", "an exact target without an overshoot rule"),
    "overshoot-needs-exact": ("check", "an overshoot rule with an at-least target"),
    "ties-contradict-check": ("check", "a ties rule that contradicts when the target is checked"),
    "forced-lead-unused": ("check", "a forced lead with no round opened by the highest double"),
    "opener-needs-winner": ("check", "the block winner opens, but a block has no winner"),
    "last-placement-needs-one-event": ("check", "`with the last placement` without `as one event`"),
    "last-placement-needs-dominoer": ("check", "`with the last placement` with a domino `winner: the lightest "
                                               "side` (another side may win the settlement)"),
    "terms-need-winner": ("check", "block terms that need a winner when a block has none"),
    # check: house rules of the match (docs/design/family.md)
    "rounds-no-overshoot": ("check", "a fixed number of rounds with an overshoot rule"),
    "rounds-need-ties": ("check", "a fixed number of rounds with `ties at the top: impossible`"),
    "partner-needs-partnerships": ("check", "a partner's hand settled without partnerships"),
    "no-scoring": ("check", "no way to score at all"),
    # check: the muggins rule (family.md 2.3)
    "claims-need-scoring": ("check", "points must be claimed, but placements score nothing"),
    # check: the sniff
    "sniff-needs-first-double": ("check", "a spinner orientation, spinner count or branch length without `only the "
                                          "first double branches`"),
    # check: drawing while able to place (family.md 3.8)
    "draw-while-able-needs-drawing": ("check", "`a player may draw while able to place` with `no drawing`"),
    # check: the deal thrown in for a hand of doubles, and the least a placement scores
    "redeal-doubles-cannot-apply": ("check", "a deal thrown in for N doubles in one hand that no deal can meet, or "
                                             "that every deal meets"),
    "placement-minimum-cannot-apply": ("check", "a least a placement scores where placements score nothing, or "
                                                "where no placement scores less"),
    "series-opener-cannot-apply": ("check", "`opener of a later game: ...` without a series of games, with other "
                                            "than 2 players, or the loser of the draw without a lottery"),
    "tie-rounds-need-extra-rounds": ("check", "a number of extra rounds on a tie without `ties at the top: play "
                                              "extra rounds`"),
    # warning: the ruleset compiles, but may not mean what it says
    "inherited-amount-unit": ("warning", "a new scoring unit changes the raw value of an inherited amount stated in "
                                         "shown points (a target, an entry threshold, a bonus, a penalty)"),
    "cannot-apply": ("warning", "a statement that cannot apply in this game (`if nobody holds the opening double: "
                                "...` where no round is opened by a double; `opener leads any tile` where every "
                                "round is opened by a set double; the spinner filled first where no double branches)"),
}
