"""The mutation script keeps working as the engine changes (the score itself is measured by running it)."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import compiled_in_tree

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "bench" / "mutation.py"
# the engine compiled into the checkout (.ci/run's second pass): the script refuses to judge mutants
COMPILED_IN_TREE = compiled_in_tree()


def _run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(SCRIPT), *args], capture_output=True, text=True, timeout=300, cwd=ROOT)


def test_it_finds_mutants_in_every_rule_module():
    res = _run("--list")
    assert res.returncode == 0, res.stderr
    files = {line.split(":")[0] for line in res.stdout.splitlines() if line.startswith("interpreter/")}
    assert {"interpreter/round.py", "interpreter/settlement.py"} <= files
    assert not any(f.endswith(("transcript.py", "players.py", "errors.py")) for f in files)


def test_a_rule_mistake_is_killed_by_the_suite(tmp_path):
    # "events of net raw 0 are not recorded" turned around: a case sees it at once
    res = _run("--match", "Round._event::if not raw:", "--json", str(tmp_path / "m.json"))
    if COMPILED_IN_TREE:  # the mutants would not be run: the script says so
        assert res.returncode == 2 and "shadow the source" in res.stderr
        return
    assert res.returncode == 0, res.stdout + res.stderr
    doc = json.loads((tmp_path / "m.json").read_text())
    assert doc["judged"] == 1 and doc["killed"] == 1 and doc["score"] == 1.0


def test_every_listed_equivalent_mutant_has_a_reason_and_a_unique_id():
    doc = json.loads((ROOT / "bench" / "mutation-equivalent.json").read_text())
    ids = [e["id"] for e in doc["equivalent"]]
    assert len(ids) == len(set(ids))
    assert all(e["reason"].split(":")[0] in ("equivalent", "unobservable", "unreachable") for e in doc["equivalent"])


@pytest.mark.skipif(COMPILED_IN_TREE, reason="the engine is compiled into the checkout: the script refuses to run")
def test_entries_naming_no_mutant_are_reported_as_stale(tmp_path):
    # an entry whose line changed names no mutant: the run says so, so that it is judged again
    listed = tmp_path / "eq.json"
    gone = "interpreter/round.py::Round.gone::x = 1::1->2"
    listed.write_text(json.dumps({"description": "", "equivalent": [{"id": gone, "reason": "equivalent: test"}]}))
    res = _run("--match", "no such mutant", "--equivalent", str(listed), "--json", str(tmp_path / "m.json"))
    assert res.returncode == 0, res.stdout + res.stderr
    assert "stale: 1 entries" in res.stdout
    assert json.loads((tmp_path / "m.json").read_text())["stale"] == [gone]
