"""`rulelang conform`: exit status, summary, failure details, JSON report, JUnit XML, baseline, expected failures."""
from __future__ import annotations

import json
import os
import shlex
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from cli_run import run
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


PAGAT_CASE = "pagat-diagram-22"


def _engine(tmp_path: Path, name: str, body: str) -> str:
    path = tmp_path / name
    path.write_text(body)
    return f"{sys.executable} {path}"


def test_conform_checks_report_paths_before_the_run(tmp_path):
    for opt in ("--report", "--junit"):
        res = run("conform", "--id", PAGAT_CASE, opt, str(tmp_path / "no" / "r"))
        assert res.exit_code == 2 and "no such folder" in res.output
        assert "conformance" not in res.output  # nothing ran
    res = run("conform", "--id", PAGAT_CASE, "--report", str(tmp_path / "r"), "--junit", str(tmp_path / "r"))
    assert res.exit_code == 2 and "also the --report file" in res.output


def test_conform_report_replaces_an_existing_file_whole(tmp_path):
    report = tmp_path / "r.json"
    report.write_text("old")
    assert run("conform", "--id", PAGAT_CASE, "--report", str(report)).exit_code == 0
    assert json.loads(report.read_text())["ok"] is True
    assert not [p for p in os.listdir(tmp_path) if p.endswith(".tmp")]


@pytest.mark.parametrize("opt, content, needle", [
    ("--baseline", "{", "cannot read"),
    ("--baseline", "[1, 2]", "not a conformance report"),
    ("--expected-failures", "{", "cannot read"),
    ("--expected-failures", "[1]", "not an expected-failures file"),
    ("--expected-failures", '{"a": 1}', "not an expected-failures file"),
    ("--expected-failures", '{"expected_failures": [{"id": 1}]}', "not an expected-failures file"),
])
def test_conform_bad_json_options_are_usage_errors(tmp_path, opt, content, needle):
    path = tmp_path / "f.json"
    path.write_text(content)
    res = run("conform", "--id", PAGAT_CASE, opt, str(path))
    assert res.exit_code == 2 and needle in res.output


@pytest.mark.parametrize("value", ["0", "-1", "nan", "inf", "1e300"])
def test_conform_timeout_must_be_a_positive_number(value):
    res = run("conform", "--id", PAGAT_CASE, "--timeout", value)
    assert res.exit_code == 2 and "--timeout" in res.output


@pytest.mark.parametrize("cmd, needle", [("", "empty command"), ('python3 "', "cannot split")])
def test_conform_engine_command_that_is_empty_or_unbalanced(cmd, needle):
    res = run("conform", "--id", PAGAT_CASE, "--engine", cmd)
    assert res.exit_code == 2 and needle in res.output
    assert "engine: rulelang" not in res.output  # the built-in engine did not run instead


def test_conform_unknown_id_or_variant_is_named():
    res = run("conform", "--id", PAGAT_CASE, "--id", "no-such-case")
    assert res.exit_code == 2 and "no case with id no-such-case" in res.output
    res = run("conform", "--variant", "nope")
    assert res.exit_code == 2 and "unknown variant" in res.output and "pagat" in res.output


def test_conform_engine_that_hangs_at_start_costs_one_start_timeout_not_one_per_case(tmp_path):
    starts = tmp_path / "starts"
    engine = _engine(tmp_path, "hang.py", f"import time\nwith open({str(starts)!r}, 'a') as f:\n    f.write('.')\n"
                     "time.sleep(60)\n")
    # 12 diagram cases: the engine is started once, and the run gives up after that one start timeout
    res = run("conform", "--variant", "pagat", "--tag", "diagram", "--engine", engine, "--timeout", "1",
              "--start-timeout", "1")
    assert res.exit_code == 1 and "did not start" in res.output
    assert starts.read_text() == "."


def test_conform_garbage_engine_shows_the_line(tmp_path):
    engine = _engine(tmp_path, "garbage.py", "import sys\nfor line in sys.stdin:\n    print('hello garbage', flush=True)\n")
    res = run("conform", "--id", PAGAT_CASE, "--engine", engine, "--timeout", "5")
    assert res.exit_code == 1 and "hello garbage" in res.output


def test_conform_engine_with_a_malformed_start_answer(tmp_path):
    body = ("import json, sys\nfor line in sys.stdin:\n"
            "    print(json.dumps({'version': 1, 'implementation': 'x', 'capabilities': [1]}), flush=True)\n")
    res = run("conform", "--id", PAGAT_CASE, "--engine", _engine(tmp_path, "bad.py", body), "--timeout", "5")
    assert res.exit_code == 1 and "capabilities" in res.output


def test_an_engine_name_is_never_a_path_to_an_expected_failures_file(tmp_path):
    from rulelang.conformance.cases import load_expected_failures

    (tmp_path / "x.json").write_text("[1, 2]")  # would crash if read
    sub = tmp_path / "sub"
    sub.mkdir()
    assert load_expected_failures("../x", sub) == {}
    assert load_expected_failures(".hidden", sub) == {}


def test_baseline_with_a_selection_lists_no_unselected_case_as_changed(tmp_path):
    full = tmp_path / "full.json"
    assert run("conform", "--report", str(full)).exit_code == 0
    doc = json.loads(full.read_text())
    doc["cases"].append({"id": "gone-from-the-suite", "outcome": "pass"})
    full.write_text(json.dumps(doc))
    res = run("conform", "--variant", "pagat", "--tag", "diagram", "--baseline", str(full))
    assert res.exit_code == 0
    assert "gone-from-the-suite: pass -> -" in res.output
    assert "allfives" not in res.output  # not selected: no change to report
