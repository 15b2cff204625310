"""The optional paper tally of the Five Up text: a stroke per shown point, and for
every ten a big X with four small x around it.

``tally_lines(shown)`` draws it in three text lines (tens as 3x3 blocks, then the
strokes on the middle line); ``tally_compact(shown)`` is a one-line form.
"""
from __future__ import annotations

TEN_BLOCK = ("x x", " X ", "x x")


def tally_parts(shown: int) -> tuple[bool, int, int]:
    """(negative, tens, units) of a shown score."""
    negative = shown < 0
    tens, units = divmod(abs(int(shown)), 10)
    return negative, tens, units


def tally_lines(shown: int) -> list[str]:
    """Three lines of text drawing the tally of ``shown`` points."""
    negative, tens, units = tally_parts(shown)
    rows = ["", "", ""]
    for _ in range(tens):
        for i in range(3):
            rows[i] += TEN_BLOCK[i] + " "
    if units:
        # strokes grouped by five for readability
        groups = ["|" * min(5, units - k) for k in range(0, units, 5)]
        strokes = " ".join(groups)
        rows[0] += " " * len(strokes)
        rows[1] += strokes
        rows[2] += " " * len(strokes)
    if not tens and not units:
        rows = ["", "0", ""]
    if negative:
        rows = ["  " + rows[0], "- " + rows[1], "  " + rows[2]]
    return [r.rstrip() for r in rows]


def tally_compact(shown: int) -> str:
    """One line: each ten as 'X(xxxx)', then one '|' per remaining point."""
    negative, tens, units = tally_parts(shown)
    text = " ".join(["X(xxxx)"] * tens + (["|" * units] if units else []))
    if not text:
        text = "0"
    return ("-" + text) if negative else text


def tally_value(text_lines: list[str]) -> int:
    """Read a tally back (for tests): big X count * 10 + strokes, signed."""
    joined = "\n".join(text_lines)
    value = joined.count("X") * 10 + joined.count("|")
    middle = text_lines[1] if len(text_lines) > 1 else joined
    return -value if middle.lstrip().startswith("-") and value else value
