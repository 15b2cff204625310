"""Every allow-list entry still names a mutant and the code its reason rests on is unchanged (no mutant is run).

`python bench/mutation.py --verify-allowlist` reruns the entries (each must survive, and an
"unreachable" one must sit on a line the unmutated suite never runs); this test is its fast half.
"""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parent.parent / "bench"
sys.path.insert(0, str(BENCH))

import allowlist  # noqa: E402 - the bench folder is no package
import mutation  # noqa: E402
from mutants import fingerprint  # noqa: E402


@pytest.fixture(scope="module")
def mutant_ids() -> set[str]:
    return {m.id for ms in mutation.all_mutants().values() for m in ms}


def test_every_entry_names_a_mutant_and_its_code_is_unchanged(mutant_ids):
    assert allowlist.check(allowlist.load(), mutant_ids) == []


def test_every_reason_says_its_kind_and_names_the_code_it_judged():
    for e in allowlist.load():
        kind, _, why = e["reason"].partition(":")
        assert kind in allowlist.KINDS and why.strip(), e["id"]
        assert e["code"] and e["fingerprint"] == fingerprint(e["code"]), e["id"]


def test_a_changed_function_puts_its_entries_up_for_review(mutant_ids):
    entry = dict(allowlist.load()[0], fingerprint="0" * 16)
    problems = allowlist.check([entry], mutant_ids)
    assert len(problems) == 1 and "changed" in problems[0] and "judge it again" in problems[0]


def test_an_entry_naming_no_mutant_is_reported(mutant_ids):
    gone = {"id": "interpreter/round.py::Round.gone::x = 1::1->2", "reason": "equivalent: test",
            "code": ["interpreter/round.py::Round.gone"], "fingerprint": ""}
    assert "names no mutant" in allowlist.check([gone], mutant_ids)[0]
