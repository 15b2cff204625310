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


def test_bad_rulesets_get_a_message_and_exit_1(tmp_path):
    res = run("cases", "generate", str(tmp_path / "nope.rules"), "-o", str(tmp_path))
    assert res.exit_code == 1 and "cannot read" in res.output
    based = tmp_path / "b.rules"
    based.write_text('ruleset b "b"\nsource "s"\nbased on "club.rules"\n', encoding="utf-8")
    res = run("cases", "generate", str(based), "-o", str(tmp_path))
    assert res.exit_code == 1 and "based only on a bundled ruleset" in res.output
    broken = tmp_path / "c.rules"
    broken.write_text('ruleset c "c"\nsource "s"\nbased on allfives\nhand 0 tiles\n', encoding="utf-8")
    res = run("cases", "generate", str(broken), "-o", str(tmp_path))
    assert res.exit_code == 1 and "c.rules" in res.output


# -- targeted positions: one per statement the ruleset states -------------------------------------------------

HOUSE = DATA / "house.rules"  # All Fives with every double branching after the line, an exact target, the dominoer


def _conform_ids(folder, engine=None):
    """(exit code, ids of the failed cases) of `rulelang conform --cases folder`."""
    res = run("conform", "--cases", str(folder), *(["--engine", engine] if engine else []))
    return res.exit_code, {line.split()[1] for line in res.output.splitlines() if line.startswith("FAIL ")}


def test_a_house_variant_gets_a_deciding_position_for_each_of_its_rules(tmp_path):
    res = run("cases", "generate", str(HOUSE), "-o", str(tmp_path))
    assert res.exit_code == 0, res.output
    cases = json.loads((tmp_path / "house" / "generated.json").read_text(encoding="utf-8"))["cases"]
    ids = {c["id"] for c in cases}
    # each house rule is decided somewhere: a branch that opens, the round after a domino, an overshoot...
    for key in ("branching", "branch-sides", "opener-domino", "target", "overshoot", "lead", "domino-terms"):
        assert any(f"-pos-{key}-" in i for i in ids), key
    overshoot = next(c for c in cases if "-pos-overshoot-overshoot-" in c["id"])
    assert overshoot["setup"]["scores"] and "overshoot-discard" in overshoot["tags"]
    assert overshoot["steps"][-1]["expect"]["events"][0]["accepted"] is False  # the event that passes 121 is discarded
    opener = next(c for c in cases if "-pos-opener-domino-next-round-" in c["id"])
    assert opener["next_rounds"][0]["opener"] is None  # the engine must find the dominoer itself
    # the built-in engine, both example engines and the fresh engine pass the suite
    assert _conform_ids(tmp_path) == (0, set())
    assert _conform_ids(tmp_path, "example-python") == (0, set())
    assert _conform_ids(tmp_path, _engine("fresh_engine.py")) == (0, set())
    # an engine that plays one house rule wrong (it scores an event that passes the exact target) fails,
    # and only the targeted positions catch it: the complete rounds and target cases never overshoot
    code, failed = _conform_ids(tmp_path, "example-python --break no-overshoot-discard")
    assert code == 1 and failed
    assert all("-pos-" in i for i in failed) and any("-pos-overshoot-" in i for i in failed)


def test_a_position_names_the_rule_and_the_alternative_it_tells_apart():
    from rulelang.conformance import generate

    suite = generate.draft(str(CLUB), seeds=3)
    lead = next(c for c in suite.cases if "-pos-lead-" in c["id"])
    assert "`opener leads the deciding tile`" in lead["description"]
    assert "`opener leads any tile` would observe another `offered` at step 0" in lead["description"]
    assert len(lead["steps"]) == 1 and lead["steps"][0]["expect"]["offered"]
    # a spelling that needs another rule changed with it is tried with one rule of its group
    lines = [line for line, _ in generate.alternatives(suite.config, "check")]
    assert lines == ["`check the target after settlement` (with `ties at the top: play extra rounds`)"]
    # what no position tells apart is said, not hidden
    assert any(u.startswith("domino_events: no position tells `as one event` from `one event per term`")
               for u in suite.undecided)


def test_generated_cases_carry_the_tags_of_their_rules():
    import rulelang
    from rulelang.conformance import cases, generate

    for name in rulelang.bundled_names():
        assert generate.config_tags(rulelang.compile_bundled(name)) <= cases.known_tags(), name
    assert {"target-exact", "overshoot-discard", "branching-every", "branch-after-line"} <= generate.config_tags(
        rulelang.compile_file(HOUSE))


def test_a_check_engine_that_cannot_start_is_said_once_and_nothing_is_written(tmp_path):
    for engine in ("/nonexistent/engine", shlex.join([sys.executable, "-c", "pass"])):
        res = run("cases", "generate", str(CLUB), "-o", str(tmp_path), "--seeds", "5", "--check-engine", engine)
        assert res.exit_code == 1, res.output
        assert res.output.count("the check engine could not start") == 1, res.output
        assert "disagrees" not in res.output and "Traceback" not in res.output
        assert not (tmp_path / "club").exists()
