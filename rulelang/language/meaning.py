"""What a line says, in the language's words: the statement it means when it does not parse.

A line that does not parse is compared with every example statement by what it
says, not by spelling alone: its words are put in the language's words
(`rulelang/language/words.toml`: "the player to the left" is `the next seat`), and an
example scores by the words they share, its statement's documentation words
counting too ("the last tiles of the boneyard are never drawn" is the meaning
of `reserve`). A word the rules use is never taken for a misspelling of a
keyword of another meaning (`heaviest` is not `highest`), and a suggestion
never swaps a word for its opposite.
"""
from __future__ import annotations

import difflib
import re
import tomllib
from dataclasses import dataclass
from functools import cache
from importlib.resources import files

from rulelang.language.grammar import keyword_set
from rulelang.language.statements import TABLE

__all__ = ["closest_example", "is_slip", "said"]

_TOKEN = re.compile(r"[,:]|[^\s,:]+")
_WORDS = re.compile(r"[a-z][a-z'\-]*")


@dataclass(frozen=True)
class _Words:
    synonyms: tuple[tuple[tuple[str, ...], tuple[str, ...]], ...]  # longest phrase first
    stopwords: frozenset[str]
    opposites: dict[str, frozenset[str]]


@cache
def _words() -> _Words:
    data = tomllib.loads(files("rulelang.language").joinpath("words.toml").read_text(encoding="utf-8"))
    synonyms = sorted(((tuple(k.split()), tuple(v.split())) for k, v in data["synonyms"].items()),
                      key=lambda kv: -len(kv[0]))
    opposites: dict[str, set[str]] = {}
    for a, b in data["opposites"]["pairs"]:
        opposites.setdefault(a, set()).add(b)
        opposites.setdefault(b, set()).add(a)
    return _Words(tuple(synonyms), frozenset(data["stopwords"]["words"]),
                  {k: frozenset(v) for k, v in opposites.items()})


def _stem(word: str) -> str:
    """A word without a plural or third-person `s` (tiles ~ tile, counts ~ count), so a number slip is not a
    difference of meaning."""
    if word.endswith("'s"):
        word = word[:-2]
    if len(word) > 3 and word.endswith("s") and not word.endswith("ss"):
        return word[:-1]
    return word


def _plain(text: str) -> list[str]:
    return _WORDS.findall(text.split("#", 1)[0].lower())


def said(text: str) -> frozenset[str]:
    """The words that carry a rule in a text, in the language's words (stemmed, no stopwords)."""
    words, i = _words(), 0
    out: list[str] = []
    plain = _plain(text)
    while i < len(plain):
        for phrase, meaning in words.synonyms:
            if tuple(plain[i:i + len(phrase)]) == phrase:
                out.extend(meaning)
                i += len(phrase)
                break
        else:
            out.append(plain[i])
            i += 1
    return frozenset(_stem(w) for w in out if w not in words.stopwords)


@dataclass(frozen=True)
class _Example:
    text: str
    tokens: tuple[str, ...]
    words: frozenset[str]  # what the example says
    documented: frozenset[str]  # what its statement's documentation says


@cache
def _examples() -> tuple[_Example, ...]:
    out = []
    for entry in TABLE:
        for ex in entry.examples:
            # the documentation of this spelling when a row shows it, else the whole statement's
            docs = [d for d in entry.docs if f"`{ex}`" in d.spelling] or list(entry.docs)
            documented = said(" ".join(f"{d.spelling} {d.meaning}" for d in docs) + f" {entry.words}")
            out.append(_Example(ex, tuple(_TOKEN.findall(ex.lower())), said(ex), documented))
    return tuple(out)


@cache
def _vocabulary() -> frozenset[str]:
    """Every word the language or its documentation uses: a word of these is meant, not misspelt."""
    words = set(keyword_set())
    for entry in TABLE:
        for d in entry.docs:
            words.update(_plain(f"{d.spelling} {d.meaning}"))
        words.update(_plain(entry.words))
    words.update(w for phrase, _ in _words().synonyms for w in phrase)
    return frozenset(words)


def _reverses(line_words: frozenset[str], example_words: frozenset[str]) -> bool:
    opposites = _words().opposites
    return any(example_words & opposites.get(w, frozenset()) - line_words for w in line_words)


def closest_example(line: str, started: str = "") -> str:
    """The example statement that says most nearly what the line says.

    `started` is the part of the line the parser read before it stopped inside a statement (`opener leads
    the` of `opener leads the highest double`): the statement under way is what the line means, so the
    examples that start with those words come first (`opener leads the deciding tile`), unless those words
    are fewer than two rule words or a whole statement (the line then goes on to say something else), or
    another statement says those words too and two more of what the line says after them.

    Ranked by the rule words they share (the example's own words count twice,
    its documentation's once), then by the leading words in common, the fewest
    words the line does not say, and spelling; an example that would reverse
    one of the line's words (`lowest` for `highest`) comes last."""
    tokens = tuple(_TOKEN.findall(line.split("#", 1)[0].strip().lower()))
    line_words = said(line)
    stop = _words().stopwords
    joined = " ".join(tokens)

    def score(ex: _Example) -> tuple[bool, int, int, int, float]:
        lead = 0
        for a, b in zip(tokens, ex.tokens):
            if a != b:
                break
            lead += a not in stop
        shared = 2 * len(line_words & ex.words) + len(line_words & ex.documented - ex.words)
        return (not _reverses(line_words, ex.words), shared, lead, -len(ex.words - line_words),
                difflib.SequenceMatcher(None, joined, ex.text.lower()).ratio())

    begun = tuple(_TOKEN.findall(started.lower()))
    while begun and begun[-1] in (",", ":"):
        begun = begun[:-1]
    complete = any(ex.tokens == begun for ex in _examples())  # a whole statement, then something else
    telling = len([t for t in begun if t not in stop]) >= 2  # `the` alone starts too many statements
    under_way = [ex for ex in _examples() if telling and not complete and ex.tokens[:len(begun)] == begun]
    best = max(_examples(), key=score)
    if under_way:
        # what the line goes on to say after the words begun: when another statement says the rule words
        # begun too and two or more of the rest beyond what the one under way says (`a tie at the top goes to
        # the side that started the match`), the line means that statement, not the one its words began
        rest = said(" ".join(tokens[len(begun):]))
        ahead = max(under_way, key=score)
        if not said(" ".join(begun)) <= best.words or len(rest & best.words) < len(rest & ahead.words) + 2:
            return ahead.text
    return best.text


def is_slip(word: str, keyword: str) -> bool:
    """Whether `keyword` is what a person meant by writing `word`: a misspelling (a word the language and its
    documentation do not use) or the same word in another number, and never its opposite."""
    word, keyword = word.lower(), keyword.lower()
    if keyword in _words().opposites.get(word, frozenset()):
        return False
    if _stem(word) == _stem(keyword):
        return True
    return word not in _vocabulary()
