"""The conformance suite itself: its files lint, and it passes on the built-in engine and on an independent one."""
from __future__ import annotations

import json
import sys
from pathlib import Path

import jsonschema
import pytest

from rulelang.conformance import builtin, cases, runner
from rulelang.conformance.capabilities import unsupported
from rulelang.conformance.protocol import InProcessEngine, SubprocessEngine

CASE_FILES = cases.case_files()
TOY = Path(__file__).parents[1] / "conformance" / "examples" / "toy_engine.py"
LINT = cases.lint()


def test_the_glob_found_case_files():
    assert CASE_FILES, "no case files found under conformance/cases"
    import rulelang

    # every bundled variant has its own folder of cases, and no folder names an unknown variant; the deciding
    # cases (conformance/deciding.py), each with its own ruleset, have theirs
    assert {p.parent.name for p in CASE_FILES} == set(rulelang.bundled_names()) | {"deciding"}


def test_the_schema_is_a_valid_2020_12_schema():
    jsonschema.Draft202012Validator.check_schema(cases.schema())


@pytest.mark.parametrize("path", CASE_FILES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_every_case_file_validates_against_the_schema(path):
    doc = json.loads(path.read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator(cases.schema()).validate(doc)


def test_the_suite_lints_clean():
    assert LINT.errors == []
    assert len(LINT.cases) >= 50


def test_ids_are_unique_and_tags_known():
    ids = [c.id for c in LINT.cases]
    assert len(ids) == len(set(ids))
    known = cases.known_tags()
    assert all(set(c.tags) <= known for c in LINT.cases)


def test_every_feature_tag_is_used():
    used = {t for c in LINT.cases for t in c.tags}
    assert cases.known_tags() - used == set()


def test_lint_catches_duplicate_ids_unknown_tags_and_wishful_descriptions(tmp_path):
    src = json.loads((cases.CASES_DIR / "pagat" / "diagrams.json").read_text(encoding="utf-8"))
    bad = dict(src)
    one = dict(src["cases"][0])
    one["tags"] = one["tags"] + ["no-such-tag"]
    one["description"] = "the engine should count both halves"
    bad["cases"] = [one, dict(src["cases"][0])]
    (tmp_path / "pagat").mkdir()
    (tmp_path / "pagat" / "x.json").write_text(json.dumps(bad), encoding="utf-8")
    (tmp_path / "pagat" / "y.json").write_text('{"description": "too short"}', encoding="utf-8")
    errors = "\n".join(cases.lint(tmp_path).errors)
    assert "duplicate id" in errors
    assert "unknown tag 'no-such-tag'" in errors
    assert "state the behaviour" in errors
    assert "y.json" in errors  # the schema failure


def test_expected_failure_files_name_real_cases():
    ids = {c.id for c in LINT.cases}
    schema = json.loads((cases.HERE / "schema" / "expected-failures.schema.json").read_text(encoding="utf-8"))
    files = list(cases.EXPECTED_FAILURES_DIR.glob("*.json"))
    assert files
    for path in files:
        doc = json.loads(path.read_text(encoding="utf-8"))
        jsonschema.Draft202012Validator(schema).validate(doc)
        assert doc["engine"] == path.stem
        for entry in doc["expected_failures"]:
            assert entry["id"] in ids, f"{path.name}: {entry['id']} is no case"
            assert entry["reason"].strip()


def test_case_counts_per_variant_cover_the_brief():
    by_variant = {}
    for c in LINT.cases:
        by_variant.setdefault(c.variant, []).append(c)
    diagrams = [c for c in LINT.cases if "diagram" in c.tags and c.id.startswith("pagat-diagram-")]
    assert len(diagrams) == 11  # every diagram of 002
    for v in ("exact61", "pagat", "allfives"):
        tags = {t for c in by_variant[v] for t in c.tags}
        assert {"domino", "block", "illegal-move", "match-end", "prose-example"} <= tags
        assert {"two-players", "three-players", "four-players"} <= tags


def _assert_all_pass(result):
    bad = [(r.case.id, r.outcome, r.difference, r.error) for r in result.results if r.outcome != "pass"]
    assert bad == []
    assert result.ok


def test_the_suite_passes_on_the_builtin_engine_in_process():
    engine = InProcessEngine(builtin.run_case, builtin.implementation(), builtin.capabilities())
    _assert_all_pass(runner.run(engine, LINT.cases, all_ids=[c.id for c in LINT.cases]))


def test_the_suite_passes_on_the_builtin_engine_through_the_adapter():
    engine = SubprocessEngine([sys.executable, "-m", "rulelang", "engine-adapter"])
    result = runner.run(engine, LINT.cases, timeout=30)
    _assert_all_pass(result)
    assert result.engine["implementation"]["name"] == "rulelang"
    assert result.restarts == 0


def test_the_suite_passes_on_an_independent_engine():
    """A second implementation sharing no code with interpreter/ agrees with every hand-worked case it plays.

    Rules it does not play it declines through its capabilities (the runner skips
    those cases, naming the field); cases it is known to fail would be listed in
    conformance/expected-failures/toy.json (and would fail the run once passing).
    """
    result = runner.run(SubprocessEngine([sys.executable, str(TOY)]), LINT.cases, timeout=30)
    known = cases.load_expected_failures("toy")
    declines = result.engine["capabilities"]["configurations"]
    bad = [(r.case.id, r.outcome) for r in result.results
           if r.outcome != "pass" and not (r.outcome == "xfail" and r.case.id in known)
           and not (r.outcome == "skip" and r.skip_reason == unsupported(declines, runner.request_for(r.case)))]
    assert bad == []
    assert result.ok
    # the three source variants' own cases are all played
    assert all(r.outcome == "pass" for r in result.results if r.case.variant in ("exact61", "pagat", "allfives")
               and isinstance(r.case.ruleset, str))
