"""Example texts: good ones compile, bad ones give exactly the pinned errors (golden .err files).

Each `data/rulesets/bad/NAME.rules` has a `NAME.err` with every error it gives:
`[code]` then the rendered message. After changing a message on purpose, run
`RULELANG_UPDATE_GOLDEN=1 python -m pytest tests/test_lang_examples.py` and
review the diff of the .err files.
"""
from __future__ import annotations

import os
from pathlib import Path

import pytest

import rulelang
from rulelang.base.errors import CODES
from rulelang.language.formatter import format_text
from rulelang.language.outside import KNOWN

DATA = Path(__file__).parent / "data" / "rulesets"
BAD = sorted((DATA / "bad").glob("*.rules"))
GOOD = sorted((DATA / "good").glob("*.rules"))


def test_example_files_found():
    assert BAD and GOOD


def _render(errors) -> str:
    return "\n\n".join(f"[{e.code}]\n{e.render()}" for e in errors) + "\n"


@pytest.mark.parametrize("path", BAD, ids=lambda p: p.stem)
def test_bad_example_gives_pinned_errors(path, monkeypatch):
    monkeypatch.chdir(path.parent)  # messages name the file as given, and bases resolve beside it
    errors = rulelang.check_text(path.read_text(encoding="utf-8"), path.name)
    assert errors
    if os.environ.get("RULELANG_UPDATE_GOLDEN"):
        path.with_suffix(".err").write_text(_render(errors), encoding="utf-8")
    assert _render(errors) == path.with_suffix(".err").read_text(encoding="utf-8")
    with pytest.raises(rulelang.RulesetError) as info:
        rulelang.compile_text(path.read_text(encoding="utf-8"), path.name)
    assert [e.code for e in info.value.errors] == [e.code for e in errors]


def test_every_check_and_syntax_code_has_a_bad_example():
    seen = set()
    for path in BAD:
        seen.update(line[1:-1] for line in path.with_suffix(".err").read_text().splitlines()
                    if line.startswith("[") and line.endswith("]"))
    wanted = {code for code, (layer, _) in CODES.items() if layer in ("syntax", "check")} - {"schema"}
    if not KNOWN:
        # no rule of family.md is outside the language: `outside-language` cannot occur (its
        # mechanism is tested with a made-up rule in tests/test_outside_words.py)
        wanted.discard("outside-language")
    assert wanted <= seen, wanted - seen


@pytest.mark.parametrize("path", GOOD, ids=lambda p: p.stem)
def test_good_example_compiles(path, monkeypatch):
    monkeypatch.chdir(path.parent)
    config = rulelang.compile_file(path.name)
    assert rulelang.validate_config(config) == []


def test_based_on_a_file_path(monkeypatch):
    monkeypatch.chdir(DATA / "good")
    child = rulelang.compile_file("child.rules")
    parent = rulelang.compile_file("parent.rules")
    assert child["based_on"] == "parent.rules"
    assert child["target"] == dict(parent["target"], raw=100, mode="at-least", overshoot="none")
    assert child["reserve"] == {"3": 2, "4": 0}
    # relative to the child's folder, not to the working directory
    monkeypatch.chdir(DATA)
    assert rulelang.compile_file("good/child.rules")["target"]["raw"] == 100


def test_messy_text_formats_to_golden():
    messy = (DATA / "good" / "messy.rules").read_text(encoding="utf-8")
    golden = (DATA / "good" / "messy.fmt").read_text(encoding="utf-8")
    in_order = (DATA / "good" / "messy.order.fmt").read_text(encoding="utf-8")
    assert format_text(messy, sort=True) == golden
    assert format_text(golden, sort=True) == golden
    assert format_text(golden) == golden
    assert format_text(messy) == in_order
    assert format_text(in_order) == in_order
    assert format_text(in_order, sort=True) == golden
    assert rulelang.compile_text(in_order) == rulelang.compile_text(messy)
    assert rulelang.compile_text(golden) == rulelang.compile_text(messy)
    exact = rulelang.compile_bundled("exact61")
    mine = rulelang.compile_text(messy)
    for key in ("name", "title", "source"):
        mine.pop(key), exact.pop(key)
    assert mine == exact


EXPLAIN = DATA / "explain"


@pytest.mark.parametrize("name", rulelang.bundled_names())
def test_explain_golden(name):
    """`rulelang explain NAME` for every bundled ruleset, kept beside the tests for review."""
    from click.testing import CliRunner

    from rulelang.cli import main

    result = CliRunner().invoke(main, ["explain", name])
    assert result.exit_code == 0
    golden = EXPLAIN / f"{name}.txt"
    if os.environ.get("RULELANG_UPDATE_GOLDEN"):
        golden.write_text(result.output, encoding="utf-8")
    assert result.output == golden.read_text(encoding="utf-8")
