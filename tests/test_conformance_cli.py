"""`rulelang conform`: exit status, summary, failure details, JSON report, JUnit XML, baseline, expected failures."""
from __future__ import annotations

import json
import shlex
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

from click.testing import CliRunner

from rulelang.cli import main

TOY = Path(__file__).parents[1] / "conformance" / "examples" / "toy_engine.py"


def _toy(*flags):
    return " ".join(shlex.quote(x) for x in [sys.executable, str(TOY), *flags])


def conform(*args):
    return CliRunner().invoke(main, ["conform", *args], catch_exceptions=False)


def test_the_builtin_engine_passes_and_reports(tmp_path):
    report, junit = tmp_path / "r.json", tmp_path / "j.xml"
    res = conform("--report", str(report), "--junit", str(junit))
    assert res.exit_code == 0, res.output
    assert "pagat" in res.output and "diagrams" in res.output and "OK" in res.output
    doc = json.loads(report.read_text())
    assert doc["format"] == "rulelang-conformance-report/1" and doc["ok"] is True
    assert doc["summary"]["pass"] == len(doc["cases"]) > 50
    root = ET.parse(junit).getroot()
    assert root.tag == "testsuites" and int(root.get("tests")) == len(doc["cases"])
    assert root.get("failures") == "0" and root.get("errors") == "0"
    assert {s.get("name") for s in root} >= {"pagat.diagrams", "exact61.target", "allfives.settlement"}


def test_selection_by_variant_and_tag(tmp_path):
    report = tmp_path / "r.json"
    res = conform("--variant", "exact61", "--tag", "block", "--report", str(report))
    assert res.exit_code == 0, res.output
    ids = {c["id"] for c in json.loads(report.read_text())["cases"]}
    assert ids and all(i.startswith("exact61-") for i in ids)
    assert "exact61-block-differences" in ids and "exact61-prose-sum-20" not in ids
    assert conform("--tag", "no-such-tag").exit_code == 2
    assert conform("--variant", "nothing").exit_code == 2
    listed = conform("--list", "--variant", "allfives")
    assert listed.exit_code == 0 and "allfives-prose-lead-55-worth-10" in listed.output


def test_a_failure_names_the_case_the_step_and_the_path(tmp_path):
    report, junit = tmp_path / "r.json", tmp_path / "j.xml"
    res = conform("--engine", _toy("--break", "internal-double-counts"), "--variant", "exact61",
                  "--id", "exact61-prose-terminal-66-plus-3", "--report", str(report), "--junit", str(junit))
    assert res.exit_code == 1
    assert "FAIL exact61-prose-terminal-66-plus-3" in res.output
    # the internal [6|6] is counted: one element too many in the counted ends
    assert "step 2 ([2|6] on [6|6] line-b): $.steps[2].counted[2]" in res.output
    case = json.loads(report.read_text())["cases"][0]
    assert case["outcome"] == "fail"
    assert case["difference"]["path"] == "$.steps[2].counted[2]"
    assert case["difference"]["expected"] == "<missing>"
    assert case["difference"]["got"] == ["[6|6]", "double", 12]
    assert case["difference"]["move"] == "[2|6] on [6|6] line-b"
    assert case["difference"]["observation"]["count"] == 17  # the engine's whole view of that step
    failure = ET.parse(junit).getroot().find(".//failure")
    assert failure is not None and "$.steps[2]" in failure.text


def test_expected_failures_are_honoured_and_unexpected_passes_fail(tmp_path):
    engine = _toy("--break", "pool-partners")
    xf = tmp_path / "xf.json"
    caught = ["pagat-partners-rounded-separately", "pagat-block-everyone-loses-own-hand", "pagat-complete-round-4p-seed1"]
    xf.write_text(json.dumps({"expected_failures": [{"id": i, "reason": "pools partners"} for i in caught]}))
    res = conform("--engine", engine, "--variant", "pagat", "--expected-failures", str(xf))
    assert res.exit_code == 0, res.output
    xf.write_text(json.dumps({"expected_failures": [{"id": i, "reason": "pools partners"} for i in caught]
                                              + [{"id": "pagat-diagram-14", "reason": "stale"}]}))
    res = conform("--engine", engine, "--variant", "pagat", "--expected-failures", str(xf))
    assert res.exit_code == 1
    assert "XPASS pagat-diagram-14" in res.output
    xf.write_text(json.dumps({"expected_failures": [{"id": "no-such-case", "reason": "gone"}]}))
    res = conform("--variant", "pagat", "--expected-failures", str(xf))
    assert res.exit_code == 1 and "STALE expected failure no-such-case" in res.output


def test_baseline_prints_only_what_changed(tmp_path):
    base = tmp_path / "base.json"
    assert conform("--variant", "pagat", "--report", str(base)).exit_code == 0
    res = conform("--variant", "pagat", "--baseline", str(base))
    assert res.exit_code == 0 and "no change since the baseline" in res.output
    res = conform("--engine", _toy("--break", "target-before-settlement"), "--variant", "pagat", "--baseline", str(base))
    assert res.exit_code == 1
    assert "pagat-target-not-checked-mid-round: pass -> fail" in res.output
    assert "pagat-diagram-14" not in res.output


def test_errors_of_a_bad_engine_are_reported_and_the_run_goes_on(tmp_path):
    report = tmp_path / "r.json"
    res = conform("--engine", _toy("--misbehave", "crash:pagat-diagram-22"), "--variant", "pagat", "--tag", "diagram",
                  "--timeout", "5", "--report", str(report))
    assert res.exit_code == 1
    doc = json.loads(report.read_text())
    outcomes = {c["id"]: c["outcome"] for c in doc["cases"]}
    assert outcomes.pop("pagat-diagram-22") == "error"
    assert set(outcomes.values()) == {"pass"} and doc["restarts"] == 1


def test_engine_adapter_speaks_the_protocol():
    requests = "\n".join([json.dumps({"cmd": "start", "version": 1}), json.dumps({"cmd": "stop"})]) + "\n"
    res = CliRunner().invoke(main, ["engine-adapter"], input=requests)
    assert res.exit_code == 0
    hello = json.loads(res.output.splitlines()[0])
    assert hello["version"] == 1 and hello["implementation"]["name"] == "rulelang"
    assert "diagram" in hello["capabilities"]["features"]


def test_cases_outside_the_claimed_features_are_skipped_and_strict_counts_them():
    engine = _toy("--features", "diagram,three-players,two-players,layout,attach-points,counted-ends,placement-score,"
                  "branching-every,branch-after-line,unit-5,terminal-double,internal-double,opening-double")
    res = conform("--engine", engine, "--variant", "pagat")
    assert res.exit_code == 0, res.output
    res = conform("--engine", engine, "--variant", "pagat", "--strict")
    assert res.exit_code == 1
    assert "skipped by the engine count as failures" in res.output
    res = conform("--engine", engine, "--variant", "pagat", "--tag", "diagram", "--strict")
    assert res.exit_code == 0, res.output
