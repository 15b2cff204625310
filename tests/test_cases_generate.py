"""`rulelang cases generate`: a suite for a house variant that good engines pass and a broken one fails."""
from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path

from click.testing import CliRunner

from rulelang.cli import main

DATA = Path(__file__).parent / "data" / "conformance"
EXAMPLES = Path(__file__).parents[1] / "conformance" / "examples"  # the example engines shipped with the package
CLUB = DATA / "club.rules"  # All Fives pooled, to 100: a house variant with no hand-worked cases


def run(*args):
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def _engine(name, *flags):
    path = EXAMPLES / name if (EXAMPLES / name).exists() else DATA / name
    return " ".join(shlex.quote(x) for x in [sys.executable, str(path), *flags])


def test_a_generated_suite_passes_on_good_engines_and_fails_a_broken_one(tmp_path):
    res = run("cases", "generate", str(CLUB), "-o", str(tmp_path))
    assert res.exit_code == 0, res.output
    doc = json.loads((tmp_path / "club" / "generated.json").read_text(encoding="utf-8"))
    ids = [c["id"] for c in doc["cases"]]
    # a domino, a block (where the seeds give one) and a target case at each player count
    for n in (2, 3, 4):
        assert any(i.startswith(f"club-gen-{n}p-domino-") for i in ids)
        assert any(i.startswith(f"club-gen-{n}p-target-") for i in ids)
    assert all("inline-ruleset" in c["tags"] for c in doc["cases"])
    assert run("conform", "--cases", str(tmp_path)).exit_code == 0
    assert run("conform", "--cases", str(tmp_path), "--engine", _engine("fresh_engine.py")).exit_code == 0
    broken = run("conform", "--cases", str(tmp_path), "--engine", _engine("toy_engine.py", "--break",
                                                                           "internal-double-counts"))
    assert broken.exit_code == 1
    assert "FAIL club-gen-" in broken.output


def test_a_case_the_check_engine_disagrees_with_is_dropped(tmp_path):
    res = run("cases", "generate", str(CLUB), "-o", str(tmp_path), "--seeds", "5",
              "--check-engine", _engine("toy_engine.py", "--break", "internal-double-counts"))
    assert "dropped club-gen-" in res.output
    assert "the check engine disagrees" in res.output


def test_bad_rulesets_get_a_message_and_exit_2(tmp_path):
    res = run("cases", "generate", str(tmp_path / "nope.rules"), "-o", str(tmp_path))
    assert res.exit_code == 2 and "cannot read" in res.output
    based = tmp_path / "b.rules"
    based.write_text('ruleset b "b"\nsource "s"\nbased on "club.rules"\n', encoding="utf-8")
    res = run("cases", "generate", str(based), "-o", str(tmp_path))
    assert res.exit_code == 2 and "based only on a bundled ruleset" in res.output
    broken = tmp_path / "c.rules"
    broken.write_text('ruleset c "c"\nsource "s"\nbased on allfives\nhand 0 tiles\n', encoding="utf-8")
    res = run("cases", "generate", str(broken), "-o", str(tmp_path))
    assert res.exit_code == 2 and "c.rules" in res.output
