"""The probe of what the protocol can see (bench/probe.py): its games replay exactly, and a mutated engine that
answers them otherwise is seen, one that cannot be told apart through the protocol is not."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import compiled_in_tree

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))

import mutants  # noqa: E402 - the bench folder is no package
import probe  # noqa: E402

# the mutation tooling's own tests: a CI step of their own (`python -m pytest -m tooling`, .ci/run)
pytestmark = pytest.mark.tooling

# "events of net raw 0 are not recorded" turned around: every scoring event changes
RAW_DROP_NOT = "interpreter/round.py::Round._event::if not raw:::drop-not"
# the bots' claim under the muggins rule: a case (and the probe) gives every claim itself
BOT_CLAIM = "interpreter/claims.py::bot_claim::return 0::0->1"
SMALL = [{"ruleset": "allfives"}, {"ruleset": "muggins-claims"}, {"ruleset": "exact61"}]


@pytest.fixture(scope="module")
def small_probe():
    entries, dropped = probe.build(SMALL, extra=False)
    return entries, dropped


def test_every_probe_game_replays_as_it_was_played(small_probe):
    entries, dropped = small_probe
    assert dropped == []
    assert {e["request"]["id"].split("-")[1] for e in entries} == {"allfives", "muggins", "exact61"}
    steps = [(s, a) for e in entries for s, a in zip(e["request"]["steps"], e["answer"]["steps"], strict=True)]
    kinds = {next(iter(s)) for s, _ in steps}
    assert {"play", "observe", "call"} <= kinds
    rejected = [s for s, a in steps if a.get("reject")]
    assert rejected and any("play" in s for s in rejected)  # the illegal attempts are refused, and kept
    assert probe.first_seen(entries) is None  # the unmutated engine answers its own probe the same


def test_later_deals_leave_the_opener_to_the_rules(small_probe):
    # a given opener would hide an engine's mistake in "opener after a domino / a block"
    entries, _ = small_probe
    ruled = [e for e in entries if "lottery" not in (e["request"]["config"]["opener"]["after_domino"],
                                                     e["request"]["config"]["opener"]["after_block"])]
    later = [d for e in ruled for d in e["request"]["next_rounds"]]
    assert later and all(d["opener"] is None for d in later)


def test_the_tied_deals_block_with_the_lightest_hands_tied(small_probe):
    # a block's tie-breaks decide only when the lightest hands tie, which full random deals seldom reach
    entries, _ = small_probe
    tied = [e for e in entries if e["request"]["id"].endswith(tuple(f"-{s}" for s in probe.TIED_SEEDS))]
    assert tied and all(not e["request"]["setup"]["boneyard"] for e in tied)
    blocks = [s["round"]["hand_pips"] for e in tied for s in e["answer"]["steps"]
              if s.get("round") and s["round"]["kind"] == "blocked"]
    assert any(pips.count(min(pips)) > 1 for pips in blocks)


def test_where_partners_play_a_blocking_deal_leaves_two_partners_sharing_the_lightest_hand():
    # partners' ties decide a block only where partners play: reading 29, and the side that wins together
    entries, dropped = probe.build([{"ruleset": "allfives-pagat"}], seeds=(), short_seeds=(), tied_seeds=(),
                                   doubles_seeds=(), long_seeds=(), extra=False)
    assert dropped == [] and entries
    assert {e["request"]["players"] for e in entries} == {4}  # the only count with partnerships
    blocks = [s["round"]["hand_pips"] for e in entries for s in e["answer"]["steps"]
              if s.get("round") and s["round"]["kind"] == "blocked"]
    assert any(pips[0] == pips[2] == min(pips) or pips[1] == pips[3] == min(pips) for pips in blocks)


def _judge(tmp_path: Path, mutant_id: str, entries: list) -> dict:
    """The judge's verdict on one engine mutant with an empty suite and the small probe."""
    [m] = [m for m in mutants.mutants_of(ROOT / mutant_id.split("::")[0]) if m.id == mutant_id]
    src = tmp_path / "mutant.py"
    src.write_text(mutants.mutated_source(m), encoding="utf-8")
    (tmp_path / "suite.json").write_text("[]")
    (tmp_path / "order.json").write_text("[]")
    (tmp_path / "probe.json").write_text(json.dumps(entries))
    res = subprocess.run([sys.executable, str(ROOT / "bench" / "judge.py"), "engine", str(m.path), str(src),
                          str(tmp_path / "suite.json"), str(tmp_path / "order.json"), str(tmp_path / "probe.json")],
                         capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert res.returncode == 0, res.stderr
    return json.loads(res.stdout.strip().splitlines()[-1])


@pytest.mark.skipif(compiled_in_tree(), reason="the engine is compiled into the checkout: a mutant would not load")
def test_a_rule_mistake_no_case_kills_is_seen_by_the_probe(tmp_path, small_probe):
    verdict = _judge(tmp_path, RAW_DROP_NOT, small_probe[0])
    assert verdict["by"] is None  # no case: the suite is empty
    assert verdict["seen"] and verdict["seen"].startswith("probe-")


@pytest.mark.skipif(compiled_in_tree(), reason="the engine is compiled into the checkout: a mutant would not load")
def test_a_change_the_protocol_cannot_see_is_not_seen(tmp_path, small_probe):
    verdict = _judge(tmp_path, BOT_CLAIM, small_probe[0])
    assert verdict["by"] is None and verdict["seen"] is None


def test_a_witness_is_a_draft_case_file_the_runner_reads(tmp_path, small_probe):
    entries, _ = small_probe
    path = tmp_path / "probe.json"
    path.write_text(json.dumps(entries))
    out = tmp_path / "draft" / "allfives" / "draft.json"
    res = subprocess.run([sys.executable, str(ROOT / "bench" / "probe.py"), "witness", str(path),
                          "probe-allfives-2p-9001", "--upto", "25", "-o", str(out)],
                         capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert res.returncode == 0, res.stderr
    [case] = json.loads(out.read_text())["cases"]
    assert len(case["steps"]) == 26 and "DRAFT" in case["description"]
    run = subprocess.run([sys.executable, "-m", "rulelang", "conform", "--cases", str(tmp_path / "draft")],
                         capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert run.returncode == 0 and "OK" in run.stdout, run.stdout + run.stderr
    missing = subprocess.run([sys.executable, str(ROOT / "bench" / "probe.py"), "witness", str(path), "probe-nope"],
                             capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert missing.returncode == 2 and "no match 'probe-nope'" in missing.stderr


def _protocol_codes() -> set[str]:
    """Every reason code conformance/PROTOCOL.md gives a refused step (3.11's table, 3.13's claims and calls)."""
    import re

    text = (ROOT / "conformance" / "PROTOCOL.md").read_text(encoding="utf-8")
    table = text[text.index("### 3.11"):text.index("### 3.12")]
    claims = text[text.index("- Refusals. A claim"):text.index("- `claims: any-opponent`")]
    return set(re.findall(r"^\| `([a-z-]+)` \|", table, re.M)) | set(re.findall(r"`([a-z]+(?:-[a-z]+)+)`", claims))


def test_the_probe_offers_every_refusal_the_protocol_defines(small_probe):
    assert set(probe.REFUSALS) == _protocol_codes() - {"any-opponent"}  # (a claims mode named in the text)
    # the small probe's three rulesets already draw most of them; the whole probe (bench/README.md) every one
    codes = probe.refusal_codes(small_probe[0])
    assert {"round-over", "not-in-hand", "must-lead", "not-on-layout", "no-such-side", "side-occupied", "no-match",
            "orientation-not-allowed", "must-place", "claims-off", "negative-claim", "late-call", "not-caller",
            "nothing-to-take"} <= set(codes)


def test_a_long_match_plays_several_rounds_to_the_target(small_probe):
    entries, _ = small_probe
    long = [e for e in entries if e["request"]["id"].endswith(tuple(f"-{s}" for s in probe.LONG_SEEDS))]
    assert len(long) == len(SMALL)  # one a ruleset
    for e in long:
        assert "scores" not in e["request"]["setup"] and len(e["request"]["next_rounds"]) >= 2
        assert [a for a in e["answer"]["steps"] if (a.get("match") or {}).get("over")]  # it ended at the target
        assert e["answer"]["steps"][-1] == {"reject": "round-over"}  # and every step after it is refused


def test_the_probe_plays_every_bundled_and_house_ruleset_and_the_larger_sets():
    import rulelang
    from rulelang.conformance.configs import compiled

    names = dict(probe.rulesets([], extra=True))
    assert set(rulelang.bundled_names()) <= set(names)
    house = sorted(p.stem for p in (ROOT / "tests" / "data" / "rulesets" / "house").glob("*.rules"))
    assert house and {f"house-{h}" for h in house} <= set(names)
    assert {"allfives-double-nine", "allfives-double-twelve", "muggins-claims-double-twelve"} <= set(names)
    tiles = {name: compiled(r).get("tiles", 6) for name, r in names.items()}  # every one compiles
    assert tiles["allfives-double-twelve"] == 12 and tiles["sniff-double-nine"] == 9


def test_a_game_on_a_larger_set_replays_as_it_was_played():
    ruleset = dict(probe.rulesets([], extra=True))["allfives-double-twelve"]
    entries, dropped = probe.build([{"ruleset": ruleset}], short_seeds=(), tied_seeds=(), doubles_seeds=(),
                                   long_seeds=(), partners_seeds=(), extra=False)
    assert dropped == [] and entries
    halves = {int(x) for e in entries for h in e["request"]["setup"]["hands"] for t in h for x in t.strip("[]").split("|")}
    assert max(halves) > 9  # tiles of the double-twelve set are dealt
