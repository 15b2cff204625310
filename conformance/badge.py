"""The SVG badge of a run (`rulelang conform --badge FILE`): "conformance | 290/290", coloured by pass rate.

The badge has the flat look of the badges CI dashboards show (a grey label, a
coloured count); the markup is the template `templates/badge.svg`, filled with
string.Template, every text escaped.
"""
from __future__ import annotations

from functools import cache
from pathlib import Path
from string import Template
from xml.sax.saxutils import escape

from rulelang.base.outfiles import write_atomic

from .report import passed_of
from .runner import RunResult

__all__ = ["badge_svg", "badge_colour", "write_badge", "GREEN", "AMBER", "RED", "GREY"]

TEMPLATE = Path(__file__).resolve().parent / "templates" / "badge.svg"
GREEN, AMBER, RED, GREY = "#4c1", "#dfb317", "#e05d44", "#9f9f9f"
AMBER_FROM = 0.9  # a pass rate from 90% (not every case) is amber, below it red
CHAR_WIDTH, PADDING = 7, 10  # an estimate of Verdana 11px, as the badge needs no font metrics to read well


@cache
def _template() -> Template:
    return Template(TEMPLATE.read_text(encoding="utf-8"))


def badge_colour(passed: int, judged: int) -> str:
    """Green when every judged case passed, amber from AMBER_FROM, red below; grey when no case was judged."""
    if judged == 0:
        return GREY
    if passed == judged:
        return GREEN
    return AMBER if passed / judged >= AMBER_FROM else RED


def badge_svg(run: RunResult, label: str = "conformance") -> str:
    """The badge: LABEL | PASSED/JUDGED (skipped cases are not judged; see report.passed_of)."""
    passed, judged = passed_of(run.counts())
    message = f"{passed}/{judged}" if judged else "no case judged"
    lw, mw = PADDING + CHAR_WIDTH * len(label), PADDING + CHAR_WIDTH * len(message)
    return _template().substitute(
        width=lw + mw, label_width=lw, message_width=mw, label_x=lw / 2, message_x=lw + mw / 2,
        colour=badge_colour(passed, judged), label=_text(label), message=_text(message))


def _text(value: str) -> str:
    """Escaped for the SVG's text and for its attributes (the label is in aria-label too)."""
    return escape(value, {'"': "&quot;"})


def write_badge(run: RunResult, path: str | Path) -> None:
    """Write the badge atomically (an existing file is replaced whole or left as it was)."""
    write_atomic(str(path), badge_svg(run))
