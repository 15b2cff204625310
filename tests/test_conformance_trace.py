"""Every clause traced: the clause catalogue, the clauses each case names, and `rulelang conform --trace`.

The catalogue (conformance/clauses.json) quotes every paragraph of the three
source texts and every item, example and reading of family.md; each case names
the clauses it tests. For the bundled variants no clause is left untested,
unless the catalogue says why no case can or need test it. The source texts are
not shipped with the package: the quotes are checked against the project's
shared folder when it is present (RULELANG_SHARED, or a `shared` folder beside
the repository).
"""
from __future__ import annotations

import json
import os
import re
from pathlib import Path

import jsonschema
import pytest
from click.testing import CliRunner

from rulelang.cli import main
from rulelang.conformance import cases, clauses

ROOT = Path(__file__).resolve().parents[1]
LINT = cases.lint()
CATALOGUE = clauses.catalogue()


def _shared() -> Path | None:
    """The project's shared folder holding seeds/ and spec/, if this checkout has one nearby."""
    candidates = [os.environ.get("RULELANG_SHARED", ""), ROOT.parent / "shared", ROOT.parents[1] / "shared"]
    for c in candidates:
        if c and (Path(c) / "seeds").is_dir() and (Path(c) / "spec" / "family.md").is_file():
            return Path(c)
    return None


SHARED = _shared()
needs_sources = pytest.mark.skipif(SHARED is None, reason="the source texts (the shared folder) are not present")


def conform(*args):
    return CliRunner().invoke(main, ["conform", *args], catch_exceptions=False)


def test_the_catalogue_validates_and_its_ids_are_unique():
    schema = json.loads(clauses.SCHEMA_PATH.read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator.check_schema(schema)
    ids = [c["id"] for c in CATALOGUE["clauses"]]
    assert len(ids) == len(set(ids))
    assert set(CATALOGUE["traced"]) <= set(CATALOGUE["sources"])
    assert {c["source"] for c in CATALOGUE["clauses"]} <= set(CATALOGUE["sources"])


def test_the_catalogue_names_the_bundled_variants():
    assert CATALOGUE["bundled"] == sorted(p.stem for p in (ROOT / "rulesets").glob("*.rules"))
    bundled = set(CATALOGUE["bundled"])
    assert {v for c in CATALOGUE["clauses"] for v in c["variants"]} <= bundled
    assert {s["variant"] for s in CATALOGUE["sources"].values() if "variant" in s} == {"exact61", "pagat", "allfives"}


@needs_sources
def test_every_quote_is_in_its_source():
    assert clauses.misquoted(SHARED) == []


@needs_sources
def test_every_paragraph_of_the_source_texts_has_a_clause():
    for name, src in CATALOGUE["sources"].items():
        if not src["file"].startswith("seeds/"):
            continue
        paragraphs = clauses.source_paragraphs(SHARED / src["file"])
        named = {c["paragraph"] for c in CATALOGUE["clauses"] if c["source"] == name}
        assert named == set(range(1, len(paragraphs) + 1)), name


@needs_sources
def test_every_reading_of_family_md_has_a_clause():
    text = (SHARED / "spec" / "family.md").read_text(encoding="utf-8")
    section = text.split("## 4. Readings", 1)[1].split("## 5.", 1)[0]
    readings = {int(m) for m in re.findall(r"^(\d+)\. \*", section, re.M)}
    assert readings == set(range(1, 38))
    assert {f"family:reading-{n}" for n in readings} <= set(clauses.by_id())


def test_every_case_names_a_clause_and_every_clause_it_names_exists():
    assert LINT.ok, LINT.errors
    nameless = [c.id for c in LINT.cases if not c.clauses]
    assert nameless == [], "cases without clauses (add `clauses` from conformance/clauses.json)"
    assert clauses.unknown(cid for c in LINT.cases for cid in c.clauses) == []


def test_an_exempt_clause_says_why_and_no_case_names_it():
    exempt = {c["id"] for c in CATALOGUE["clauses"] if "untested" in c}
    assert exempt
    named = {cid for c in LINT.cases for cid in c.clauses}
    assert sorted(exempt & named) == []


def test_the_lint_rejects_an_unknown_clause_and_applies_the_file_s_clauses(tmp_path):
    src = json.loads((cases.CASES_DIR / "pagat" / "diagrams.json").read_text(encoding="utf-8"))
    one = dict(src["cases"][0], clauses=["seed:002:p999", "family:no-such-item"])
    (tmp_path / "pagat").mkdir()
    (tmp_path / "pagat" / "x.json").write_text(json.dumps(dict(src, cases=[one])), encoding="utf-8")
    errors = "\n".join(cases.lint(tmp_path).errors)
    assert "unknown clause 'seed:002:p999' (not in conformance/clauses.json" in errors
    assert "unknown clause 'family:no-such-item'" in errors
    # a file's clauses are every case's, before the case's own
    one = dict(src["cases"][0], clauses=["seed:002:p51"])
    (tmp_path / "pagat" / "x.json").write_text(json.dumps(dict(src, clauses=["seed:002:p13"], cases=[one])),
                                                encoding="utf-8")
    rep = cases.lint(tmp_path)
    assert rep.ok, rep.errors
    assert rep.cases[0].clauses == ["seed:002:p13", "seed:002:p51"]


def test_no_clause_of_a_bundled_variant_is_left_untested():
    tr = clauses.trace(LINT.cases)
    assert [t.clause["id"] for t in tr.untested(required_only=True)] == []
    assert tr.summary()["tested"] > 200
    result = conform("--trace")
    assert result.exit_code == 0, result.output
    assert "0 of them of a bundled variant" in result.output.splitlines()[0]


def test_every_clause_of_the_traced_texts_is_listed_with_its_cases():
    result = conform("--trace")
    lines = result.output.splitlines()
    traced = [c for c in CATALOGUE["clauses"] if c["source"] in CATALOGUE["traced"]]
    for c in traced:
        assert any(line.startswith(c["id"] + "  ") for line in lines), c["id"]
    assert not any(line.startswith("rules:") for line in lines)  # rules.md is named by cases, not traced
    first = next(i for i, line in enumerate(lines) if line.startswith("seed:002:p57  "))
    assert "pagat-diagram-66" in lines[first + 1]
    assert lines[first].startswith('seed:002:p57  (002, paragraph 57) 1 case(s): "Contribuições contadas: 3 + 12 = 15.')
    assert any(line.startswith("seed:000:p36  (000, paragraph 36) no case needed, note:") for line in lines)
    assert any(line.startswith("untested clauses: ") for line in lines)


def test_the_trace_as_json():
    result = conform("--trace", "--json")
    assert result.exit_code == 0, result.output
    doc = json.loads(result.output)
    assert doc["format"] == "rulelang-conformance-trace/1" and doc["catalogue"] == "rulelang-clauses/1"
    assert set(doc["summary"]) == {"clauses", "tested", "exempt", "untested", "untested_required"}
    assert doc["untested_required"] == []
    by_id = {c["id"]: c for c in doc["clauses"]}
    assert set(doc["untested"]) == {i for i, c in by_id.items() if c["status"] == "untested"}
    c = by_id["family:reading-29"]
    assert set(c) == {"id", "source", "where", "quote", "variants", "status", "required", "cases"}
    assert c["status"] == "tested" and c["required"] and "sniff-block-partners-sharing-lightest-no-winner" in c["cases"]
    lot = by_id["seed:000:p7a"]
    assert lot["status"] == "exempt" and lot["untested"]["kind"] == "outside-protocol" and lot["cases"] == []


def test_a_partial_selection_requires_only_its_variants_clauses():
    result = conform("--trace", "--json", "--variant", "pagat")
    assert result.exit_code == 0, result.output
    doc = json.loads(result.output)
    assert doc["bundled"] == ["pagat"]
    assert "family:reading-29" in doc["untested"]  # no pagat case tests family.md's readings...
    assert doc["untested_required"] == []  # ...which bind other variants: only pagat's clauses are required


def test_a_club_folder_requires_no_clause(tmp_path):
    src = json.loads((cases.CASES_DIR / "pagat" / "diagrams.json").read_text(encoding="utf-8"))
    one = {k: v for k, v in src["cases"][0].items() if k != "clauses"}
    (tmp_path / "club.json").write_text(json.dumps(dict(src, cases=[one])), encoding="utf-8")
    result = conform("--cases", str(tmp_path), "--trace", "--json")
    assert result.exit_code == 0, result.output
    doc = json.loads(result.output)
    assert doc["bundled"] == [] and doc["untested_required"] == [] and doc["summary"]["tested"] == 0


def test_json_without_trace_is_a_usage_error():
    result = conform("--json")
    assert result.exit_code == 2
    assert "--json goes with --trace" in result.output


def test_a_failure_names_the_clause_the_engine_breaks():
    result = conform("--engine", "example-python --break branch-early", "--id", "pagat-diagram-11")
    assert result.exit_code == 1
    assert 'breaks seed:002:p53 (002, paragraph 53): "Contribuições contadas: 2 + 4 = 6.' in result.output
