"""The parsed form of a ruleset: frozen dataclasses that compare by what they state, not where it is written."""
from __future__ import annotations

import copy
import dataclasses
import pickle

import pytest

import rulelang
from rulelang.language.ast import Statement
from rulelang.language.bundled import package_root
from rulelang.language.statements.values import Span, Term


def _exact61() -> rulelang.Ruleset:
    path = package_root() / "exact61.rules"
    return rulelang.loads(path.read_text(encoding="utf-8"), "exact61.rules")


def test_the_language_records_pickle_and_copy():
    ruleset = _exact61()
    assert pickle.loads(pickle.dumps(ruleset)) == ruleset and copy.deepcopy(ruleset) == ruleset
    assert [s.span for s in pickle.loads(pickle.dumps(ruleset)).statements] == [s.span for s in ruleset.statements]


def test_a_statement_compares_by_what_it_states_and_cannot_be_changed():
    st = Statement("players", 1, Span(1, 2, 3, 4))
    assert st == Statement("players", 1, Span(9, 9, 9, 9), section="domino") and hash(st) == hash(Statement("players", 1, Span(0, 0, 0, 0)))
    assert dataclasses.replace(st, key="hand") == Statement("hand", 1, Span(0, 0, 0, 0))
    assert [f.name for f in dataclasses.fields(st)] == ["key", "value", "span", "section", "misplaced", "filename"]
    with pytest.raises(dataclasses.FrozenInstanceError):
        st.key = "hand"  # type: ignore[misc]
    assert "filename" not in repr(dataclasses.replace(st, filename="x.rules"))


def test_a_term_keeps_its_span_out_of_comparisons():
    assert Term("hands", span=Span(1, 1, 1, 5)) == Term("hands")
    assert dataclasses.asdict(Term("hands"))["span"] == {"line": 1, "column": 1, "end_line": 1, "end_column": 1}
