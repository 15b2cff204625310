"""`rulelang identify`: an engine that plays one fixed variant is identified by its answers, field by field.

The engines are the shipped example engine (and the independent test engine)
behind `tests/data/identify/fixed_engine.py`, which rewrites the configuration
of every case to a variant with one rule changed on purpose (a plain JSON path,
written here by hand): identify must find that rule and its value, and report
nothing else different. The positions searched for a claimed variant are kept
for the process, so the tests after the first are quick.
"""
from __future__ import annotations

import copy
import json
import shlex
import sys
from importlib import resources
from pathlib import Path

import jsonschema
import pytest
from click.testing import CliRunner

import rulelang
from rulelang.cli import main
from rulelang.commands.jsonout import schema_file
from rulelang.conformance import cases, identified
from rulelang.conformance.identify import claim_of, identify, plan_field
from rulelang.conformance.identify_positions import TRANSCRIPTS, Pool
from rulelang.conformance.protocol import SubprocessEngine

DATA = Path(__file__).parent / "data"
FIXED = DATA / "identify" / "fixed_engine.py"
FRESH = DATA / "conformance" / "fresh_engine.py"
TOY = Path(__file__).parents[1] / "conformance" / "examples" / "toy_engine.py"
SUITE = cases.lint().cases


def fixed(*flags: str, inner: Path = TOY) -> list[str]:
    return [sys.executable, str(FIXED), *flags, "--", sys.executable, str(inner)]


def put(config: dict, path: str, value: object) -> dict:
    """CONFIG with PATH set, as fixed_engine.py sets it (the answer the test expects, independent of identify)."""
    out = copy.deepcopy(config)
    keys = path.split(".")
    node = out
    for k in keys[:-1]:
        node = node[int(k)] if isinstance(node, list) else node[k]
    node[int(keys[-1]) if isinstance(node, list) else keys[-1]] = value
    return out


def rules(config: dict) -> dict:
    return {k: v for k, v in config.items() if k not in ("name", "title", "source", "based_on")}


def run(*args: str):
    return CliRunner().invoke(main, ["identify", *args], catch_exceptions=False)


# (claimed variant, the changes the engine plays: JSON path -> value, the fields identify must report changed)
CHANGED = {
    "target": ("allfives", {"target.raw": 200}, {"target.raw": 200}),  # not also a target for 2 players only
    "branching": ("allfives", {"doubles.branching": "every"}, {"doubles.branching": "every"}),
    "opener": ("allfives", {"opener.first_round": "seat-0"}, {"opener.first_round": "seat-0"}),
    "overshoot": ("exact61", {"target.overshoot": "bounce"}, {"target.overshoot": "bounce"}),
    "domino-pooling": ("allfives", {"settlement.domino.terms.0.pooling": "pooled"},
                       {"settlement.domino.terms.pooling": "pooled"}),
    "block-winner": ("allfives", {"settlement.block.winner": "fewest-tiles",
                                  "settlement.block.tie_break": "lightest-hand"},
                     {"settlement.block.winner": "fewest-tiles", "settlement.block.tie_break": "lightest-hand"}),
}


@pytest.mark.parametrize("name", CHANGED)
def test_an_example_engine_with_one_rule_changed_is_recovered_exactly(name):
    variant, sets, fields = CHANGED[name]
    flags = [x for path, value in sets.items() for x in ("--set", f"{path}={json.dumps(value)}")]
    claim = claim_of(variant)
    found = identify(SubprocessEngine(fixed(*flags)), claim, SUITE)
    assert {r.field: r.value for r in found.fields if r.changed} == fields
    assert found.none == [] and found.complete
    played = claim.config
    for path, value in sets.items():
        played = put(played, path, value)
    assert rules(found.config) == rules(played)
    # the ruleset written says the same in the language, based on the claimed variant
    text = identified.ruleset_text(found)
    assert f"based on {variant}" in text
    assert rules(rulelang.compile_text(text, "played.rules")) == rules(played)
    assert len(identified.differences(found)) == 1  # one rule of the language (block winner and tie-break: one)


def test_identify_writes_the_ruleset_and_ends_with_the_differences_in_words(tmp_path):
    out = tmp_path / "played.rules"
    engine = shlex.join(fixed("--set", "target.raw=100", "--variant", "allfives"))  # the claim from `start`
    result = run("--engine", engine, "-o", str(out))
    assert result.exit_code == 1, result.output
    assert "target.raw = 100 (claimed 150: case " in result.output
    assert result.output.rstrip().endswith("allfives  A side wins by reaching at least 150 points.\n"
                                           "  played    A side wins by reaching at least 100 points.")
    text = out.read_text(encoding="utf-8")
    assert "based on allfives\n" in text and "target at least 100 points\n" in text
    said = CliRunner().invoke(main, ["diff", "allfives", str(out)])  # the same differences as `rulelang diff`
    assert said.exit_code == 1 and "at least 150 points" in said.output and "at least 100 points" in said.output
    played = put(rulelang.compile_bundled("allfives"), "target.raw", 100)
    assert rules(rulelang.compile_text(text, "played.rules")) == rules(played)


def test_identify_json_gives_every_field(tmp_path):
    engine = shlex.join(fixed("--set", "target.raw=100"))
    result = run("--engine", engine, "--like", "allfives", "--json")
    assert result.exit_code == 1
    doc = json.loads(result.output)
    assert doc["format"] == "rulelang-identify/1" and doc["claimed"] == "allfives" and not doc["same"]
    schema = json.loads(resources.files("rulelang").joinpath(schema_file("identify")).read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator(schema).validate(doc)
    by_field = {f["field"]: f for f in doc["fields"]}
    assert by_field["target.raw"]["value"] == 100 and by_field["target.raw"]["status"] == "identified"
    assert by_field["target.raw"]["evidence"][0]["difference"]["path"].startswith("$.steps[")
    assert [f["field"] for f in doc["fields"] if f["changed"]] == ["target.raw"]
    assert doc["differences"] == [{"what": "the target", "claimed": "A side wins by reaching at least 150 points.",
                                   "played": "A side wins by reaching at least 100 points."}]
    assert "target at least 100 points" in doc["ruleset"]


def test_the_independent_test_engine_is_identified_as_the_variant_it_plays(tmp_path):
    plays = tmp_path / "allfives.json"
    plays.write_text(json.dumps(rulelang.compile_bundled("allfives")), encoding="utf-8")
    engine = shlex.join(fixed("--plays", str(plays), "--variant", "allfives", inner=FRESH))
    result = run("--engine", engine)
    assert result.exit_code == 0, result.output
    assert result.output.rstrip().endswith("The engine plays allfives as claimed.")


def test_a_field_no_value_agrees_with_is_shown_by_a_case():
    # the toy engine with a rule broken on purpose (a hand pooled over partners rounded up from 2): no value of
    # the language plays it; its field says so with the case and the first difference
    engine = SubprocessEngine([sys.executable, str(TOY), "--break", "round-2-up"])
    found = identify(engine, claim_of("allfives"), SUITE)
    none = {r.field: r for r in found.none}
    assert none, [identified.field_line(r) for r in found.fields if r.changed]
    r = next(iter(none.values()))
    assert r.evidence and r.evidence[0]["case"] and r.evidence[0]["difference"]["path"].startswith("$.steps[")
    assert "none of the language's values" in identified.field_line(r)
    text = identified.ruleset_text(found)  # the claimed value is kept, and the text says so
    assert text.startswith(f"# {r.field}: none of the language's values agrees with the engine; the claimed ")
    assert rules(rulelang.compile_text(text, "played.rules")) == rules(found.config)


def test_an_engine_that_does_not_start_is_said_at_once(tmp_path):
    result = run("--engine", str(tmp_path / "no-such-engine"), "--like", "allfives")
    assert result.exit_code == 1
    assert "identify: the engine did not start: cannot start" in result.output
    result = run("--engine", shlex.join([sys.executable, str(TOY), "--misbehave", "version"]), "--like", "allfives")
    assert result.exit_code == 1
    assert "identify: the engine did not start: the engine speaks protocol version 99, the runner 1" in result.output


@pytest.mark.parametrize("mode", ["hang", "garbage"])
def test_an_engine_that_hangs_or_prints_garbage_gets_no_ruleset(tmp_path, mode):
    out = tmp_path / "played.rules"
    engine = shlex.join([sys.executable, str(TOY), "--misbehave", mode])
    result = run("--engine", engine, "--like", "allfives", "--timeout", "0.5", "-o", str(out))
    assert result.exit_code == 1
    said = {"hang": "timeout: no answer within 0.5 s", "garbage": "malformed: not a JSON line"}[mode]
    assert "identify: the engine failed on the first case, " in result.output and said in result.output
    assert not out.exists()


def test_an_engine_that_fails_a_later_case_has_that_field_not_identified():
    plain = identify(SubprocessEngine([sys.executable, str(TOY)]), claim_of("allfives"), SUITE)
    assert plain.complete and not identified.differences(plain) and not plain.none
    case = next(r for r in plain.fields if r.field == "settlement.block.events").cases[-1]  # asked late
    engine = SubprocessEngine([sys.executable, str(TOY), "--misbehave", f"crash:{case}"])
    found = identify(engine, claim_of("allfives"), SUITE)
    failed = [r for r in found.fields if r.status == "error"]
    assert failed and not found.complete
    assert f"not identified: the engine failed on case {case}: crash" in identified.field_line(failed[0])


def test_without_a_claimed_variant_identify_asks_for_one():
    result = run("--engine", shlex.join([sys.executable, str(TOY)]))
    assert result.exit_code == 2
    assert "names no variant (implementation.variant)" in result.output and "--like VARIANT" in result.output


def test_an_engine_claiming_no_bundled_variant_is_asked_for_one(tmp_path):
    engine = shlex.join(fixed("--variant", str(tmp_path / "secret.rules")))
    result = run("--engine", engine)
    assert result.exit_code == 2
    assert "which is no bundled variant" in result.output


def test_an_unknown_claimed_variant_is_wrong_usage(tmp_path):
    result = run("--engine", shlex.join([sys.executable, str(TOY)]), "--like", str(tmp_path / "nope.rules"))
    assert result.exit_code == 2
    assert "cannot read" in result.output


def test_the_search_finds_a_position_the_seeded_rounds_did_not():
    # a block's hands rounded each or pooled: allfives' seeded rounds rarely block with hands that round apart
    claim = claim_of("allfives")
    field = "settlement.block.terms.pooling"

    def plan(search):
        return plan_field(claim.config, field, "each", Pool(claim.config, "allfives"), [], [], TRANSCRIPTS,
                          "allfives", claim.config, search=search)

    assert ("each", "pooled") in plan(0).untold
    found = plan(200)
    assert found.untold == [] and any("the search played" in p.position.source for p in found.probes)


def test_the_deadline_bounds_the_engine_runs():
    result = run("--engine", shlex.join([sys.executable, str(TOY)]), "--like", "allfives", "--deadline", "0.001")
    assert result.exit_code == 1
    assert "identify: the deadline passed before the engine was asked anything" in result.output
