"""Rules outside the language: what a syntax error says when a line states a rule the language lacks.

Two cases:

- a known rule of the family (family.md, or a published rule text) that the
  language does not state: `KNOWN` recognises its usual phrasing, and the error (code
  `outside-language`) names the rule, where it is described, and the
  closest statement the language has;
- a line that starts like a statement but goes on in a way no statement
  does: the parser's error keeps its code (`unexpected-word` /
  `unexpected-token`) and says that no statement reads like this, naming the
  closest statement (`closest`) instead of only the words it expected.

Both point at the statement's table in docs/language.md and at
`rulelang help language`.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from rulelang.meaning import closest_example
from rulelang.statements import GROUPS, TABLE
from rulelang.statements.docs import SECTION_TITLES

__all__ = ["Known", "KNOWN", "known_outside", "closest", "where"]

HELP = "`rulelang help language` lists every statement"


@dataclass(frozen=True)
class Known:
    """A rule of the family the language cannot state, recognised by its usual phrasing."""

    words: tuple[tuple[re.Pattern[str], ...], ...]  # phrasings: each a series of patterns found in order
    rule: str  # what the rule is, in a few words
    source: str  # where family.md describes it
    closest: str  # the nearest statement the language has (a line that parses)

    def search(self, text: str) -> bool:
        """Whether one of its phrasings is in the text: each pattern found after the one before (linear time:
        no pattern spans a gap, so a long hostile line cannot make it backtrack)."""
        for series in self.words:
            at = 0
            for pattern in series:
                m = pattern.search(text, at)
                if m is None:
                    break
                at = m.end()
            else:
                return True
        return False


def _k(phrasings: tuple[str, ...], rule: str, source: str, closest: str) -> Known:
    """`phrasings`: each a series of word patterns separated by ` ... ` (anything may come between)."""
    return Known(tuple(tuple(re.compile(rf"\b(?:{part})\b", re.I) for part in p.split(" ... "))
                       for p in phrasings), rule, source, closest)


# Rules of family.md and of the published rule texts surveyed for the family that the language does not
# state (a line matching one is reported as outside the language when it does not parse). Remove an entry
# when its statement is added. An entry is `_k(phrasings, rule, where it is described, the closest statement)`.
KNOWN: tuple[Known, ...] = (
    # Tournament penalties for misplays: the engine refuses an illegal move (`illegal-move`), so a misplay
    # is never made and cannot be scored; a mode accepting misplays would change `play`, the playground
    # and the protocol's steps (docs/design/family.md, "Penalties for misplays").
    _k(("(drew|draws?|drawing|pass|passes|passed|passing|knock\\w*) ... (while|when|though|but|and) ... "
        "(able|can|could) ... (penalt\\w*|costs?|loses?|lose|forfeits?)",
        "(penalt\\w*|costs?|loses?) ... (drew|draws?|drawing|pass|passes|passed|passing) ... (able|can|could)",
        "misplay\\w* ... (penali[sz]\\w*|penalt\\w*|costs?|loses?)", "(penali[sz]\\w*|penalt\\w*) ... misplay\\w*",
        "(wrong|incorrect) (number|count) of (tiles|bones|dominoes) ... (penalt\\w*|costs?|loses?)",
        "(penalt\\w*|costs?|loses?) ... (wrong|incorrect) (number|count) of (tiles|bones|dominoes)",
        "(overdraw\\w*|underdraw\\w*|over-draw\\w*|under-draw\\w*) ... (penalt\\w*|costs?|loses?)",
        "(penalt\\w*|costs?|loses?) ... (overdraw\\w*|underdraw\\w*|over-draw\\w*|under-draw\\w*)"),
       "penalties for misplays (drawing or passing while able to place, a wrong number of tiles): the engine "
       "refuses every illegal move instead of scoring it, so no misplay is ever made",
       "a tournament text, rocoh.org's house rules (7-9: 30 points for drawing or passing while able to play, "
       "100 for a wrong count; so too the EGO domino tournament: 100 points for a bogus move)",
       "a player may draw while able to place"),
)


def known_outside(line: str) -> Known | None:
    """The known rule outside the language that this line states, if any."""
    text = line.split("#", 1)[0]
    return next((k for k in KNOWN if k.search(text)), None)


def _slug(title: str) -> str:
    """The anchor a Markdown heading gets (GitHub's rule: lower case, punctuation dropped, spaces to -)."""
    return re.sub(r"[^a-z0-9 \-]", "", title.lower()).replace(" ", "-")


def where(example: str) -> str:
    """The docs/language.md anchor of the statement table that documents this example line."""
    for entry in TABLE:
        if example in entry.examples:
            title = GROUPS[entry.group] + (f" ({SECTION_TITLES[entry.section]})" if entry.section else "")
            return f"docs/language.md#{_slug(title)}"
    return "docs/language.md#statements"


def closest(line: str) -> str:
    """The example statement nearest to a line by what it says (rulelang/meaning.py)."""
    return closest_example(line)


def pointer(example: str) -> str:
    """`the closest statement is ... (docs anchor); rulelang help language ...`: the end of a hint."""
    return f"the closest statement is `{example}` ({where(example)}); {HELP}"
