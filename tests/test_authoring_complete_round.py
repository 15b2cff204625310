"""conformance/authoring/complete_round.py drafts complete rounds that the case schema accepts and the built-in
engine passes, the muggins rule included (claims in the `claim` field, calls as `call` steps)."""
from __future__ import annotations

import json

from click.testing import CliRunner

from rulelang.cli import main
from rulelang.conformance.authoring.complete_round import draft


def _conform(tmp_path, variant: str, body: dict) -> None:
    tags = ["claims"] if any("claim" in s for s in body["steps"]) else ["draw"]
    case = {"id": f"{variant}-draft", "description": "a complete round drafted by complete_round.py",
            "source": {"text": "family.md", "where": "drafted by a test"}, "tags": tags, **body}
    folder = tmp_path / variant
    folder.mkdir()
    (folder / "complete.json").write_text(json.dumps({"description": "complete rounds drafted by a test", "ruleset": variant,
                                                      "cases": [case]}), encoding="utf-8")
    res = CliRunner().invoke(main, ["conform", "--cases", str(tmp_path), "--strict"])
    assert res.exit_code == 0, res.output


def test_a_draft_under_the_muggins_rule_claims_in_its_own_field_and_calls(tmp_path):
    body = draft("muggins-claims", 3, 1, miss_rate=0.5)
    plays = [s for s in body["steps"] if "play" in s]
    calls = [s for s in body["steps"] if "call" in s]
    assert all("claim" not in s["play"] and isinstance(s["claim"], int) for s in plays)
    assert any(s["claim"] == 0 and s["expect"]["points"] > 0 for s in plays)  # a missed score
    assert any(s["claim"] > 0 for s in plays)  # and a claimed one
    assert calls and all(s["expect"]["events"][0]["kind"] == "call" for s in calls)
    _conform(tmp_path, "muggins-claims", body)


def test_bots_claim_everything_without_a_miss_rate(tmp_path):
    body = draft("muggins-claims", 2, 1)
    plays = [s for s in body["steps"] if "play" in s]
    assert not any("call" in s for s in body["steps"])
    assert all(s["claim"] * 5 == s["expect"]["points"] for s in plays)
    _conform(tmp_path, "muggins-claims", body)


def test_a_draft_without_claims_has_no_claim_field(tmp_path):
    body = draft("muggins", 2, 1)
    assert not any("claim" in s or "call" in s for s in body["steps"])
    _conform(tmp_path, "muggins", body)
