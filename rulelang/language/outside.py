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

Both point at the heading of the statement's table in `rulelang help language`
(the reference an installed user has; docs/language.md in the repository).
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from rulelang.language.meaning import closest_example
from rulelang.language.statements import GROUPS, TABLE
from rulelang.language.statements.docs import SECTION_TITLES

__all__ = ["Known", "KNOWN", "known_outside", "closest", "where"]

HELP = "`rulelang help language`, which lists every statement"


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
_PENALTY = "(penalt\\w*|penali[sz]\\w*|costs?|loses?|lose|forfeits?|pays?|scores? nothing|deducted)"
# holding back a tile that could have been played, and what it costs (a league pegs holes back)
_HELD = "(holding|holds?|held|hold|keeping|keeps?|kept)"
_PLAYABLE = "(playable|could|can|might|able)"
_PEGGED = _PENALTY[:-1] + "|peg\\w*|holes?)"
KNOWN: tuple[Known, ...] = (
    # Tournament penalties for misplays: the engine refuses an illegal move (`illegal-move`), so a misplay
    # is never made and cannot be scored; a mode accepting misplays would change `play`, the playground
    # and the protocol's steps (docs/design/family.md, "Penalties for misplays").
    _k(("(drew|draws?|drawing|pass|passes|passed|passing|knock\\w*) ... (while|when|though|but|and) ... "
        "(able|can|could) ... " + _PENALTY,
        _PENALTY + " ... (drew|draws?|drawing|pass|passes|passed|passing) ... (able|can|could)",
        "misplay\\w* ... " + _PENALTY, "(penali[sz]\\w*|penalt\\w*) ... misplay\\w*",
        "(wrong|incorrect) (number|count) of (tiles|bones|dominoes) ... " + _PENALTY,
        _PENALTY + " ... (wrong|incorrect) (number|count) of (tiles|bones|dominoes)",
        "(overdraw\\w*|underdraw\\w*|over-draw\\w*|under-draw\\w*) ... " + _PENALTY,
        _PENALTY + " ... (overdraw\\w*|underdraw\\w*|over-draw\\w*|under-draw\\w*)"),
       "penalties for misplays (drawing or passing while able to place, a wrong number of tiles): the engine "
       "refuses every illegal move instead of scoring it, so no misplay is ever made",
       "a tournament text, rocoh.org's house rules (7-9: 30 points for drawing or passing while able to play, "
       "100 for a wrong count; so too the EGO domino tournament: 100 points for a bogus move)",
       "a player may draw while able to place"),
    # Playing out of turn: the engine gives the turn to one seat at a time, so nobody can play out of turn.
    _k(("out of turn", "(plays?|played|playing|places?|placed|leads?|led) (before|ahead of) (his|her|their) turn",
        "(wrong|false) (turn|lead)"),
       "a penalty for playing out of turn (the turn or the tile lost): the engine gives the turn to one seat at a "
       "time, in seat order, so nobody plays out of turn",
       "a tournament text, rocoh.org's house rules (a player who plays out of turn loses his turn)",
       "opener after a domino: the next seat"),
    # A wrong count: a score miscounted or over-claimed. The muggins rule states what happens to a claim.
    _k(("(wrong|incorrect|false|bad|mistaken) (count|score|total|claim) ... " + _PENALTY,
        _PENALTY + " ... (wrong|incorrect|false|bad|mistaken) (count|score|total|claim)",
        "(miscount\\w*|mis-count\\w*|counts? wrongly|counted wrongly)"),
       "a penalty for a wrong count: the engine scores every placement at its true value; a score that must be "
       "claimed, and what an over-claim costs, is the muggins rule",
       "a tournament text, rocoh.org's house rules (100 points for a wrong count)",
       "points must be claimed; missed points are lost only when an opponent calls"),
    # An exposed tile and a misdeal: the engine deals and draws from the set exactly, face down.
    _k(("(exposed|exposes?|exposing|shows?|showed|shown|turned up|turns? up|flipped) (a |an |his |her |their )?"
        "(tiles?|bones?|dominoe?s?) ... (penalt\\w*|penali[sz]\\w*|costs?|loses?|lose|forfeits?|pays?|"
        "dealt again|redeal\\w*|goes|go|must|is|are|kept|keeps?|taken|takes?)",
        "(exposed|face-up|face up) (tiles?|bones?|dominoe?s?)",
        "misdeal\\w*", "(wrong|incorrect) (deal|number of tiles dealt)"),
       "an exposed tile or a misdeal (a tile shown, a wrong number of tiles dealt): the engine deals and draws "
       "every tile face down and in the right number, so no tile is exposed and no deal is wrong",
       "a tournament text, rocoh.org's house rules, and the rule books' misdeal rules (Hoyle)",
       "if nobody holds the opening double: the tiles are dealt again"),
    # Play on the clock: a match ends after a time, the highest score wins.
    _k(("\\d+ (minutes?|mins?|hours?|seconds?)", "(on|against) the clock", "time (limit|is up|runs out|expires)",
        "(timed|time-limited) (match|game|play)", "(chess )?clock"),
       "a match played on the clock (7 minutes, the highest score wins): the engine counts rounds, never time",
       "a tournament text (a timed match, the highest score at the end of the time wins)",
       "the match lasts 3 rounds"),
    # The Leek Domino League's misplays (docs/measurements/published-texts-3b.md, text 9). Holding back a playable
    # tile, found when the hands are turned over: the engine never lets a player pass while it can place.
    _k((_HELD + " ... " + _PLAYABLE + " ... " + _PEGGED, _PEGGED + " ... " + _HELD + " ... " + _PLAYABLE),
       "a penalty for holding a tile that could have been played (found when the hands are turned over: 8 holes "
       "pegged back, or on to the opponent): the engine never lets a player pass while it can place, nor draw "
       "unless a statement allows it, so holding back a playable tile is never a misplay",
       "a league's rules, the Leek Domino League's (\"holding a domino which could previously have been played ... "
       "must peg back 8 holes\", http://www.leekdominoleague.org.uk/rules1.html)",
       "a player may draw while able to place"),
    # A tile played at an end where it does not go, reversed to the other end: the engine offers a tile only where it
    # goes and refuses it elsewhere, so the misplay is never made; a tile that goes at no end is drawn for.
    _k(("(will not|won't|does not|doesn't|did not|didn't|cannot|can't|can not|not) (go|goes|fit|fits|match|matches) "
        "... (other|opposite) end",
        "(wrong|other|opposite) end ... (revers\\w*|turn\\w* (round|around|over)|mov\\w*|switch\\w*|swap\\w*)",
        "(revers\\w*|mov\\w*|switch\\w*|swap\\w*) ... (wrong|other|opposite) end",
        "(played|placed|put|laid|lays?|plays?) (at|on|to) the wrong end"),
       "a tile played at an end where it does not go, reversed to the other end (a misplay put right): the engine "
       "offers a tile only at an end where it goes and refuses it elsewhere, so it is never played at the wrong end",
       "a league's rules, the Leek Domino League's (\"If a player plays a domino that will not go at the end played, "
       "but will go at the other end, he/she will be allowed to reverse\", http://www.leekdominoleague.org.uk/rules1.html)",
       "draw until playable"),
    # Rules of published texts measured in docs/measurements/published-texts-2.md that no statement states.
    _k(("(other|later|subsequent|remaining|following) doubles ... (counts?|scores?|worth) ... (one|single) "
        "(half|end|side)",),
       "later doubles counting one half beside a spinner counting both: a terminal double counts both halves or "
       "one, the spinner as a terminal double",
       "an open-source game's rules (the lead [5|5] scores 10; a later [4|4] counts 4)",
       "a terminal double counts one half"),
    # Rules of published texts measured in docs/measurements/published-texts-3c.md that no statement states.
    # Duplicate play: the engine plays one deal with every seat at one table.
    _k(("duplicate (play|plays|game|games|deals?|dominoe?s?|format|matche?s?|scoring)",
        "(same|identical) (game|deal|hands?|board|tiles|match) ... (against|versus|vs) ... "
        "(cpu|computer|machine|bot|robot|ai)",
        "(each|every|both) (players?|opponents?) ... (receives?|gets?|got|plays?|is dealt|are dealt) ... "
        "(identical|the same) (game|deal|hands?|board|tiles|match)",
        "(separate|different) tables"),
       "duplicate play (two players each play the same deal against a computer seat at separate tables and "
       "compare their scores): the engine plays one deal with every seat at one table, and the game of one "
       "player against the computer is a 2-player game",
       "an app's help centre (Akamon's Dominó a Cincos: you and your opponent always play the same game against "
       "the same CPU, each with an identical deal and board)",
       "players 2"),
    # A tie won by whoever started playing earlier in time (players at separate tables): the engine keeps no
    # time; at one table the seat that started playing first is the opener of the match's first round.
    _k(("(tie|ties|tied|equal) ... (started|start|starts|began|begun|begins|begin) (playing|to play) "
        "(earlier|first|sooner|before)",
        "(tie|ties|tied|equal) ... (started|starts|began|begun|joined) (earlier|sooner)",
        "(earlier|first) in time"),
       "a tie won by whoever started playing earlier in time (players at separate tables): the engine keeps no "
       "time, and its tie rules name sides at one table",
       "an app's help centre (Akamon's Dominó a Cincos: on a tie, the person who started playing earlier wins)",
       "ties at the top: the side that started the match wins"),
)


def known_outside(line: str) -> Known | None:
    """The known rule outside the language that this line states, if any."""
    text = line.split("#", 1)[0]
    return next((k for k in KNOWN if k.search(text)), None)


def where(example: str) -> str:
    """The heading of the language reference (`rulelang help language`, docs/language.md) whose statement
    table documents this example line."""
    for entry in TABLE:
        if example in entry.examples:
            return GROUPS[entry.group] + (f" ({SECTION_TITLES[entry.section]})" if entry.section else "")
    return "Statements"


def closest(line: str, started: str = "") -> str:
    """The example statement nearest to a line by what it says (rulelang/language/meaning.py); `started`: the words of
    a statement under way where the parser stopped."""
    return closest_example(line, started)


def pointer(example: str) -> str:
    """`the closest statement is ... (its heading in rulelang help language)`: the end of a hint. An installed
    user has the reference as `rulelang help TOPIC`, never a repository's docs/ folder."""
    return f"the closest statement is `{example}` (under \"{where(example)}\" in {HELP})"
