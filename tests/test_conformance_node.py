"""The conformance protocol is language-agnostic: a JavaScript port of the toy engine passes the whole suite."""
from __future__ import annotations

import json
import shlex
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from rulelang.cli import main
from rulelang.conformance import cases, runner
from rulelang.conformance.capabilities import unsupported

TOY_JS = Path(__file__).parents[1] / "conformance" / "examples" / "toy_engine.mjs"


def test_the_node_toy_engine_passes_every_case(tmp_path):
    node = shutil.which("node")
    if node is None:
        pytest.skip("node (Node.js) is not on PATH: the JavaScript toy engine cannot run")
    report = tmp_path / "r.json"
    engine = " ".join(shlex.quote(x) for x in [node, str(TOY_JS)])
    res = CliRunner().invoke(main, ["conform", "--engine", engine, "--report", str(report)],
                             catch_exceptions=False)
    assert res.exit_code == 0, res.output
    doc = json.loads(report.read_text())
    assert doc["engine"]["implementation"]["name"] == "toy-js"
    outcomes = {c["id"]: c["outcome"] for c in doc["cases"]}
    assert len(outcomes) > 100
    # cases it is known to fail: conformance/expected-failures/toy-js.json; rules it does not play
    # (larger sets, ...) it declines through its capabilities, so those cases are skipped
    declines = doc["engine"]["capabilities"]["configurations"]
    declined = {c.id: "skip" for c in cases.lint().cases if unsupported(declines, runner.request_for(c))}
    assert {i: o for i, o in outcomes.items() if o != "pass"} == {
        **dict.fromkeys(cases.load_expected_failures("toy-js"), "xfail"), **declined}
    assert any("larger-set" in c.tags for c in cases.lint().cases if c.id in declined)
    assert doc["ok"] is True and doc["restarts"] == 0
