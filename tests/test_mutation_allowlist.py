"""Every allow-list entry still names a mutant and the code its reason rests on is unchanged (no mutant is run).

`python bench/mutation.py --verify-allowlist` reruns the entries (each must survive, and an
"unreachable" one must sit on a line the unmutated suite never runs); this test is its fast half.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parent.parent / "bench"
sys.path.insert(0, str(BENCH))

import allowlist  # noqa: E402 - the bench folder is no package
import mutation  # noqa: E402
from mutants import fingerprint, source_of  # noqa: E402

# the mutation tooling's own tests: a CI step of their own (`python -m pytest -m tooling`, .ci/run)
pytestmark = pytest.mark.tooling

ROOT = BENCH.parent


@pytest.fixture(scope="module")
def mutant_ids() -> set[str]:
    return mutation.every_mutant_id()


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


# an unrelated statement and function, appended to a module (a new statement of the table, say)
UNRELATED_PY = "\n\nUNRELATED_TABLE = {'x': 1}\n\n\ndef _unrelated_helper() -> int:\n    return 2\n"
UNRELATED_LARK = "\nunrelated_stmt: \"unrelated\" NUMBER _NL\n"


def _module_refs() -> dict[str, set[str]]:
    """{file: the refs of every entry naming a module-level statement or a grammar rule of it}."""
    out: dict[str, set[str]] = {}
    for e in allowlist.load():
        for ref in e["code"]:
            rel, _, name = ref.partition("::")
            if name.startswith("<module>::") or rel.endswith(".lark"):
                out.setdefault(rel, set()).add(ref)
    return out


def test_no_entry_fingerprints_a_whole_file():
    assert not [c for e in allowlist.load() for c in e["code"] if c.endswith("::<module>")]
    assert _module_refs(), "the entries naming module-level statements were found"


def test_an_unrelated_statement_added_to_a_module_changes_no_fingerprint():
    # adding a statement exactly as docs/language.md says touches the statement modules and the grammar: the
    # entries naming other statements of the same files must not go up for review
    for rel, refs in _module_refs().items():
        text = (ROOT / rel).read_text(encoding="utf-8")
        grown = text + (UNRELATED_LARK if rel.endswith(".lark") else UNRELATED_PY)
        for ref in refs:
            assert source_of(ref, grown) == source_of(ref, text), ref


def test_a_change_of_the_judged_statement_changes_its_fingerprint():
    for rel, refs in _module_refs().items():
        text = (ROOT / rel).read_text(encoding="utf-8")
        for ref in refs:
            judged = source_of(ref, text)
            line = next(x for x in judged.splitlines() if text.count(x) == 1 and " " in x.strip())  # only it has
            changed = text.replace(line, line.replace(" ", "  ", 1) if "  " not in line else line.replace("  ", " "))
            assert changed != text and source_of(ref, changed) != judged, ref
    rules = (ROOT / "interpreter" / "rules.py").read_text(encoding="utf-8")
    ref = "interpreter/rules.py::<module>::MAX_PLAYERS"
    assert source_of(ref, rules.replace("MAX_PLAYERS = 12", "MAX_PLAYERS = 13")) != source_of(ref, rules)


def test_the_forms_of_code_an_entry_can_name():
    assert source_of("interpreter/rules.py::<module>::MAX_PLAYERS").startswith("MAX_PLAYERS = ")
    assert source_of("rulelang/language/statements/deal.py::<module>::PARTS[partnership]").startswith('Part("partnership"')
    assert 'key="unit"' in source_of("rulelang/language/statements/scoring.py::<module>::STATEMENTS[unit]")
    assert source_of("rulelang/language/statements/docs.py::<module>::__main__").startswith('if __name__ == "__main__"')
    assert source_of("rulelang/language/ruleset.lark::rounds_stmt").startswith("rounds_stmt: ")
    rules = source_of("rulelang/config/rules.py::<module>::@rule")
    assert rules.count("@rule(") > 10 and "def mentions_winner" not in rules
    for gone in ("interpreter/rules.py::<module>", "interpreter/rules.py::<module>::NOT_THERE",
                 "rulelang/language/ruleset.lark::not_a_rule", "rulelang/language/statements/deal.py::<module>::PHRASES[nope]"):
        with pytest.raises(KeyError):
            source_of(gone)


def test_a_whole_module_or_a_statement_not_holding_the_line_is_refused(mutant_ids):
    [entry] = [e for e in allowlist.load() if e["id"].startswith("interpreter/rules.py::<module>::MAX_PLAYERS")]
    whole = dict(entry, code=["interpreter/rules.py::<module>"])
    assert "names a whole module" in allowlist.check([whole], mutant_ids)[0]
    elsewhere = dict(entry, code=["interpreter/rules.py::<module>::Callable"])
    assert "does not hold its line" in " ".join(allowlist.check([elsewhere], mutant_ids))


def test_the_review_lists_the_entries_up_for_review_with_their_reason(mutant_ids):
    entries = allowlist.load()
    stale = dict(entries[0], fingerprint="0" * 16)
    lines = allowlist.review([stale, *entries[1:]], mutant_ids, [], None)
    assert lines[0].startswith(f"UP FOR REVIEW {stale['id']}: the code its reason rests on changed")
    assert lines[1] == f"    reason: {stale['reason']}" and sum(x.startswith("UP FOR") for x in lines) == 1
    assert allowlist.review([stale], mutant_ids, ["rulelang/"], None) == []  # not under the folder asked for
    assert allowlist.review(entries, mutant_ids, [], None) == []


def test_the_review_command_exits_1_and_names_what_changed(mutant_ids, tmp_path, monkeypatch, capsys):
    entries = allowlist.load()
    stale = dict(entries[0], fingerprint="0" * 16)
    listed = tmp_path / "eq.json"
    listed.write_text(json.dumps({"description": "", "equivalent": [stale, *entries[1:]]}), encoding="utf-8")
    monkeypatch.setattr(mutation, "every_mutant_id", lambda: mutant_ids)
    assert allowlist.main(["--equivalent", str(listed), "--since", "HEAD"]) == 1
    out = capsys.readouterr().out
    assert f"UP FOR REVIEW {stale['id']}" in out and "1 entries up for review" in out
    assert f"    code:   {stale['code'][0]}  (same since " in out  # the code is as it was: only the hash was off
    assert allowlist.main([]) == 0 and "no entry up for review" in capsys.readouterr().out
