"""What a statement of the language is: one `StatementDef` says everything about it.

Its phrases (templates, rulelang/language/statements/phrase.py: the grammar rules
that read it are generated from them), how a parse reads to its value,
the configuration fields it sets (with their Literal types), its canonical
spelling (`fmt`), its sentence (`explain`), its own checks, its documentation
rows, examples and the conformance tags that exercise it. A statement resolves
into the typed record of the configuration (`Fields`, rulelang/config/fields.py)
and is read back from it; a statement of one field gets both from the field's
declaration (`sets_field`, `reads_field`, `reads_stated`). The parser, the
formatter, the explainer, the compiler and docs/language.md are all driven by
these entries (rulelang/language/statements/__init__.py lists them in canonical order).
"""
from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from lark import Token

from rulelang.config.declared import Declared, declared, typed
from rulelang.config.fields import Fields
from rulelang.config.reading import with_field
from rulelang.config.spec import FieldDecl
from rulelang.config.vocabulary import literal_values
from rulelang.language.statements.phrase import examples as examples_of
from rulelang.language.statements.phrase import fill, items
from rulelang.language.statements.values import Span

__all__ = ["FieldDecl", "StatementDef", "Part", "Field", "Doc", "Issue", "Phrase", "Words", "choice", "number", "flag", "at_least",
           "GROUPS", "Fields", "field_of", "sets_field", "reads_field", "reads_stated"]

# Groups: the order of `fmt`'s blocks and `explain`'s headings.
GROUPS: dict[int, str] = {
    0: "Name, source, base",
    1: "Players and the deal",
    2: "Opening a round",
    3: "Doubles",
    4: "Scoring and winning",
    5: "When a player dominoes",
    6: "When the round blocks",
}


@dataclass(frozen=True, slots=True)
class Field:
    """One place of the configuration a statement sets, and the type of its value."""

    path: tuple[str, ...]
    type: object  # its declared annotation (rulelang/config/fields.py): a Literal type, int, tuple[...], ...

    @property
    def pointer(self) -> str:
        return "/" + "/".join(self.path)


@dataclass(frozen=True, slots=True)
class Doc:
    """One row of the statement's table in docs/language.md."""

    spelling: str
    meaning: str
    config: str


@dataclass(frozen=True, slots=True)
class Issue:
    """A fault of one statement alone (the compiler turns it into a RulesetCheckError)."""

    code: str
    message: str
    hint: str | None = None
    span: Span | None = None  # a part of the statement (a term line); None: the statement's line


@dataclass(frozen=True, slots=True)
class Words:
    """A phrase without a reader of its own: its canonical words (`the highest double`)."""

    text: str


@dataclass(frozen=True, slots=True)
class Part:
    """A part of phrases with a grammar rule of its own (`{opener_value}` in a phrase), and its reader."""

    rule: str
    phrases: tuple[str, ...]  # the rule's alternatives
    read: Callable[[Phrase], object] | None = None  # None: it reads to its canonical words (`Words`)
    named: Mapping[str, Callable[[Phrase], object]] = field(default_factory=dict)  # readers of `-> name` alternatives


def _canonical(parts: Iterable[str]) -> str:
    return " ".join(parts).replace(" ,", ",").replace(" :", ":").replace(" ;", ";")


class Phrase:
    """A parsed statement (or part of one), as its reader sees it."""

    def __init__(self, children: list[Any], span: Span | None = None) -> None:
        self.children = children
        self.span = span if span is not None else Span(1, 1, 1, 1)

    @property
    def tokens(self) -> list[Token]:
        return [c for c in self.children if isinstance(c, Token)]

    @property
    def parts(self) -> list[Any]:
        """The values of its sub-phrases, in order."""
        return [c for c in self.children if not isinstance(c, Token)]

    def has(self, *types: str) -> bool:
        """Whether one of these keyword terminals (e.g. `"NO"`) is among its own tokens."""
        return any(t.type in types for t in self.tokens)

    @property
    def numbers(self) -> list[int]:
        return [int(t) for t in self.tokens if t.type in ("NUMBER", "SIGNED_NUMBER")]

    @property
    def strings(self) -> list[str]:
        return [str(t)[1:-1] for t in self.tokens if t.type == "STRING"]

    @property
    def text(self) -> str:
        """The canonical words of the phrase: single spaces, no space before `,` or `:`."""
        return _canonical(c.text if isinstance(c, Words) else str(c) for c in self.children
                          if isinstance(c, (Token, Words)))


@cache
def fields_set_by(key: str) -> tuple[Field, ...]:
    """The declared configuration fields the statement `key` sets, with their types."""
    return tuple(Field(d.spec.path, d.hint) for d in typed() if d.spec.statement == key)


@cache
def field_of(key: str) -> Declared:
    """The field a statement's value is: the first declared with its key (as its faults point at it)."""
    return next(d for d in declared() if d.spec.statement == key)


def sets_field(key: str) -> Callable[[object, Fields], Fields]:
    """`resolve` of a statement of one field: its value is the field's."""
    def resolve(value: object, config: Fields) -> Fields:
        return with_field(config, field_of(key).attr, value)
    return resolve


def reads_field(key: str) -> Callable[[Fields], object]:
    """`from_config` of a statement of one field: the field's value."""
    return lambda config: getattr(config, field_of(key).attr)


def reads_stated(key: str) -> Callable[[Fields], object]:
    """`from_config` of an optional statement of one field: the field's value, None at its declared default
    (the statement is not written)."""
    def from_config(config: Fields) -> object:
        d = field_of(key)
        value = getattr(config, d.attr)
        return None if value == d.spec.default else value
    return from_config


def _no_check(value: object) -> Iterator[Issue]:
    return iter(())


@dataclass(frozen=True, slots=True)
class StatementDef:
    """Everything about one statement of the language."""

    key: str  # its name in code and messages' internals, e.g. "branch_sides"
    words: str  # what it is called in messages: "when branches open"
    group: int  # GROUPS
    phrases: Mapping[str, tuple[str, ...]]  # grammar rule (ruleset.lark) -> its phrases, the rule's alternatives
    read: Callable[[Phrase], object]  # parse -> value
    fmt: Callable[[Any], list[str]]  # value -> canonical line(s)
    explain: Callable[[Any, Fields], str]  # value (read back from a configuration) -> a sentence
    resolve: Callable[[Any, Fields], Fields]  # the configuration being built, with the value set
    from_config: Callable[[Fields], object]  # the value that states a configuration's fields
    examples: tuple[str, ...]  # lines that parse to it; the first is the hint for a missing one
    docs: tuple[Doc, ...]  # rows of docs/language.md
    tags: tuple[str, ...]  # conformance feature tags (conformance/features.json) that exercise it
    check: Callable[[Any], Iterable[Issue]] = _no_check  # its faults taken alone
    section: str | None = None  # "domino" / "block": a line of that settlement section
    required: bool = True  # must a ruleset without `based on` state it?
    inherited: bool = True  # does a child inherit it from its base?
    meta: Mapping[str, object] = field(default_factory=dict)  # anything else a statement needs to say
    declares: tuple[FieldDecl, ...] = ()  # fields declared here, not in fields.py (generated into `Fields`)
    features: Mapping[str, str] = field(default_factory=dict)  # tags it introduces -> features.json's line

    @property
    def rules(self) -> tuple[str, ...]:
        """The grammar rules whose parse is this statement: its rules, then the names of named alternatives."""
        named = [i.text for ps in self.phrases.values() for p in ps for i in items(p) if i.kind == "alias"]
        return tuple(self.phrases) + tuple(dict.fromkeys(named))

    @property
    def fields(self) -> tuple[Field, ...]:
        """The configuration places it sets: the fields declared with its key (rulelang/config/fields.py)."""
        return fields_set_by(self.key)

    @property
    def declared(self) -> tuple[Declared, ...]:
        """The declared fields it sets, with their attributes (rulelang/config/fields.py)."""
        return tuple(d for d in declared() if d.spec.statement == self.key)

    @property
    def example(self) -> str:
        """The line a hint suggests."""
        return self.examples[0]


def choice(key: str, words: str, group: int, rule: str, phrases: Mapping[str, Hashable],
           explain: Callable[[Any, Fields], str], meanings: Mapping[str, str], tags: tuple[str, ...],
           allowed: object = None, check_code: str = "", section: str | None = None,
           example: str | None = None, grammar: tuple[str, ...] | None = None,
           field: FieldDecl | None = None, features: Mapping[str, str] | None = None) -> StatementDef:
    """A statement that is one of a few fixed phrases, each a value of its one declared field.

    `phrases` maps each canonical phrase to its value (and is the grammar rule's
    phrases, unless `grammar` gives them with a part: `opener of the first round:
    {opener_value}`); `meanings` each phrase to its documentation. With `allowed`
    (a Literal type narrower than the field's), a phrase that parses but cannot
    apply here is the fault `check_code`. `field` declares its field here
    (`FieldDecl`), `features` the tags it introduces with their lines.
    """
    place = field.path if field is not None else field_of(key).spec.dotted
    values = {v: p for p, v in phrases.items()}
    ok = set(literal_values(allowed)) if allowed is not None else None

    def read(p: Phrase) -> object:
        return phrases[p.text]

    def check(value: Hashable) -> Iterator[Issue]:
        if ok is not None and value not in ok:
            spelled = " or ".join(f"`{values[v].split(': ')[-1]}`" for v in literal_values(allowed))
            yield Issue(check_code, f"{words} cannot be {values[value].split(': ')[-1]}", f"expected {spelled}")

    docs = tuple(Doc(f"`{p}`", meanings[p], f"`{place}: {v}`") for p, v in phrases.items()
                 if ok is None or v in ok)
    examples = tuple(p for p, v in phrases.items() if ok is None or v in ok)
    if example is not None:  # the one a hint suggests first
        examples = (example,) + tuple(e for e in examples if e != example)
    return StatementDef(key=key, words=words, group=group, phrases={rule: grammar or tuple(phrases)}, read=read,
                        fmt=lambda v: [values[v]], explain=explain,
                        resolve=sets_field(key), from_config=reads_field(key), examples=examples, docs=docs, tags=tags,
                        check=check, section=section, declares=(field,) if field is not None else (),
                        features=features or {})


def _one_field(key: str, rest: dict[str, Any]) -> dict[str, Any]:
    """`resolve` and `from_config` from the statement's one field, unless given; `field=` (a `FieldDecl`) declares
    that field in the entry, and `features=` the tags it introduces (its `tags` unless given)."""
    own = rest.pop("field", None)
    if own is not None:
        rest["declares"] = (own,)
    if "features" in rest and "tags" not in rest:
        rest["tags"] = tuple(rest["features"])
    if "resolve" not in rest:
        rest["resolve"] = sets_field(key)
    if "from_config" not in rest:
        required = own.required if own is not None else field_of(key).spec.required
        rest["from_config"] = reads_field(key) if required else reads_stated(key)
    return rest


def number(key: str, words: str, group: int, rule: str, phrase: str, **rest: Any) -> StatementDef:
    """A statement that is one phrase with one number: its reader, `fmt` and examples come from the phrase
    (`the match lasts {N:3,1} round[s]`: `the match lasts 3 rounds`, then `the match lasts 1 round`), and, unless
    given, `resolve` and `from_config` from its one field (declared here with `field=`, or in fields.py)."""
    if [i.text for i in items(phrase) if i.kind == "slot"] != ["N"]:
        raise ValueError(f"{phrase!r}: a number statement's phrase has one number, `{{N}}`, and no part")
    return StatementDef(key=key, words=words, group=group, phrases={rule: (phrase,)}, read=lambda p: p.numbers[0],
                        fmt=lambda v: [fill(phrase, v)], examples=examples_of(phrase), **_one_field(key, rest))


def at_least(least: int, message: str, phrase: str, example: int) -> Callable[[int], Iterator[Issue]]:
    """The `check` of a number statement whose number has a least value: `bad-number` with MESSAGE below it, and
    the phrase written with EXAMPLE as the hint."""
    def check(v: int) -> Iterator[Issue]:
        if v < least:
            yield Issue("bad-number", message, f"write `{fill(phrase, example)}`")
    return check


def flag(key: str, words: str, group: int, rule: str, phrase: str, **rest: Any) -> StatementDef:
    """A statement that is one fixed phrase, true when written: its reader, `fmt` and example are the phrase, and,
    unless given, `resolve` and `from_config` come from its one declared field."""
    return StatementDef(key=key, words=words, group=group, phrases={rule: (phrase,)}, read=lambda p: True,
                        fmt=lambda v: [fill(phrase)], examples=examples_of(phrase), **_one_field(key, rest))
