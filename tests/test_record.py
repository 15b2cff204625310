"""rulelang/record.py makes the classes dataclasses makes (issue 12: the language no longer imports dataclasses)."""
from __future__ import annotations

import copy
import dataclasses
import pickle

import pytest

from rulelang.record import field, record, replace


def _pair(frozen: bool):
    """The same class made by dataclasses and by record."""
    @dataclasses.dataclass(frozen=frozen)
    class Made:
        a: int
        b: str = "x"
        c: tuple[int, ...] = dataclasses.field(default=(), compare=False)
        d: tuple[int, ...] = dataclasses.field(default_factory=tuple, repr=False)

        def total(self) -> int:
            return self.a + len(self.d)

    @record(frozen=frozen)
    class Rec:
        a: int
        b: str = "x"
        c: tuple[int, ...] = field(default=(), compare=False)
        d: tuple[int, ...] = field(default_factory=tuple, repr=False)

        def total(self) -> int:
            return self.a + len(self.d)

    return Made, Rec


@pytest.mark.parametrize("frozen", [True, False])
def test_a_record_behaves_as_the_dataclass(frozen):
    made, rec = _pair(frozen)
    for args, kwargs in [((1,), {}), ((1, "y"), {"c": (2,)}), ((), {"a": 3, "d": (1,)})]:
        m, r = made(*args, **kwargs), rec(*args, **kwargs)
        assert repr(m).replace("Made", "X") == repr(r).replace("Rec", "X")
        assert m.total() == r.total() and (m.a, m.b, m.c, m.d) == (r.a, r.b, r.c, r.d)
        assert r == rec(r.a, r.b, (9,), r.d) and r != rec(r.a + 1) and r != m
        assert replace(r, b="z") == rec(r.a, "z", r.c, r.d)
        assert copy.deepcopy(r) == r
        if frozen:
            assert hash(m) == hash(r)
            with pytest.raises(dataclasses.FrozenInstanceError):
                r.a = 5
            with pytest.raises(dataclasses.FrozenInstanceError):
                del r.a
        else:
            r.a = 5
            assert r.a == 5 and rec.__hash__ is None and made.__hash__ is None
    assert rec.b == "x" and rec.__match_args__ == made.__match_args__
    with pytest.raises(TypeError, match="missing 1 required positional argument: 'a'"):
        rec()
    with pytest.raises(TypeError):
        rec(1, "x", (), (), 5)
    with pytest.raises(TypeError):
        replace(rec(1), nope=1)


def test_the_language_records_pickle_and_copy():
    import rulelang

    ruleset = rulelang.loads(open(rulelang.bundled.package_root() / "exact61.rules").read(), "exact61.rules")
    assert pickle.loads(pickle.dumps(ruleset)) == ruleset and copy.deepcopy(ruleset) == ruleset
    assert [s.span for s in pickle.loads(pickle.dumps(ruleset)).statements] == [s.span for s in ruleset.statements]


def test_a_fresh_default_each_time():
    @record
    class Box:
        items: list[int] = field(default_factory=list)

    assert Box().items == [] and Box().items is not Box().items


def test_a_default_before_a_field_without_one_is_refused():
    with pytest.raises(TypeError, match="non-default argument"):
        @record
        class Bad:
            a: int = 1
            b: int


# (dataclasses is not among them: the configuration's fields are declared as one, rulelang/config/fields.py)
HEAVY = ("lark", "click", "jsonschema", "json", "pathlib", "difflib", "importlib.resources",
         "hashlib", "rulelang.outside")


@pytest.mark.parametrize("name", ["exact61", "allfives-pooled"])  # the second is based on allfives
def test_checking_a_valid_file_imports_nothing_heavy(name):
    """Issue 12: `rulelang check` of a valid file costs at most about 3 times `python -c pass`; each of
    these modules costs a good part of that. Import them where they are used (an error, another command)."""
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    code = (f"import sys, rulelang; errors = rulelang.check_text(open('rulesets/{name}.rules').read(), 'x.rules');"
            f"print(len(errors), sorted(m for m in {HEAVY!r} if m in sys.modules))")
    run = subprocess.run([sys.executable, "-c", code], cwd=root, capture_output=True, text=True, timeout=120)
    assert run.stdout.strip() == "0 []", run.stdout + run.stderr


def test_the_named_tuple_is_typings():
    import typing

    from rulelang.record import NamedTuple

    def make(base):
        class Pair(base):
            """Two numbers."""

            low: int
            high: int = 9

            def width(self) -> int:
                return self.high - self.low

        return Pair

    theirs, ours = make(typing.NamedTuple), make(NamedTuple)
    for args in [(1,), (1, 5)]:
        a, b = theirs(*args), ours(*args)
        assert repr(a) == repr(b) and tuple(a) == tuple(b) and a == b and hash(a) == hash(b)
        assert a.width() == b.width() and a._replace(low=0) == b._replace(low=0) and a._asdict() == b._asdict()
    assert ours._fields == theirs._fields and ours._field_defaults == theirs._field_defaults
    assert ours.__doc__ == theirs.__doc__ and ours.__mro__[1:] == (tuple, object)
    with pytest.raises(TypeError):
        class Bad(NamedTuple):
            a: int = 1
            b: int


def test_the_dataclasses_functions_take_records():
    """Code written for dataclasses (`dataclasses.replace`, `fields`, `asdict`) works on the language's records."""
    from rulelang.ast import Statement
    from rulelang.statements.values import Span, Term

    st = Statement("players", 1, Span(1, 2, 3, 4))
    assert dataclasses.is_dataclass(st) and dataclasses.replace(st, key="hand") == Statement("hand", 1, Span(0, 0, 0, 0))
    assert [f.name for f in dataclasses.fields(st)] == ["key", "value", "span", "section", "misplaced", "filename"]
    assert [f.compare for f in dataclasses.fields(st)] == [True, True, False, False, False, False]
    assert dataclasses.asdict(Term("hands"))["span"] == {"line": 1, "column": 1, "end_line": 1, "end_column": 1}
