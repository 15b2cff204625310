"""A ruleset for each house rule of family.md section 3 checks, compiles, explains and plays.

One ruleset per house rule of ../shared/spec/family.md sections 3.1-3.9 (and
each switch listed in 3.8 and 3.9): a bundled house variant where one states
it, else a small file of tests/data/rulesets/house/ `based on` the variant the
section names. For each: `rulelang check` is ok; `compile` gives a
configuration the engine accepts, in which the rule is set (and which differs
from its base); `explain` says the rule in words; seeded matches play to the
end through the public engine and replay from their transcripts; `rulelang
simulate -n 5` exits 0. A rule the language cannot state must be refused with
the `outside-language` error (none is left since drawing while able to place,
3.8, became a statement; the list may hold only that one). Rules of published
texts that family.md does not describe (section `published`) have a file here
too, whose comment quotes the text.
"""
from __future__ import annotations

import json
import re
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

import rulelang
from rulelang.cli import main
from rulelang.interpreter import Config, Match, greedy_player, random_player, replay
from rulelang.language.outside import known_outside

HOUSE = Path(__file__).parent / "data" / "rulesets" / "house"


@dataclass(frozen=True)
class Rule:
    section: str  # family.md section, or "published": a public rule text its file's comment quotes
    rule: str  # the house rule, in a few words
    ruleset: str  # a bundled name, or a file name under tests/data/rulesets/house/
    line: str  # the line of the ruleset that states the rule
    said: str  # a regex: `explain` says the rule in these words
    probe: tuple[tuple[str, ...], Any] | None  # a configuration path and the value the rule sets there
    players: int = 2

    @property
    def arg(self) -> str:
        return str(HOUSE / self.ruleset) if self.ruleset.endswith(".rules") else self.ruleset

    @property
    def text(self) -> str:
        if self.ruleset.endswith(".rules"):
            return (HOUSE / self.ruleset).read_text(encoding="utf-8")
        return rulelang.bundled_text(self.ruleset)

    @property
    def base(self) -> str | None:
        """The variant it is `based on` (None for a variant of section 2 that has the rule itself)."""
        m = re.search(r"^based on (\S+)$", self.text, re.M)
        return m.group(1) if m else None

    @property
    def outside(self) -> bool:
        """The language cannot state this rule yet (its line is a known rule outside the language)."""
        return known_outside(self.line) is not None

    def __str__(self) -> str:
        return f"{self.section} {self.ruleset}"


def _rules() -> list[Rule]:
    """The table of house rules (tests/data/rulesets/house/rules.toml)."""
    with (HOUSE / "rules.toml").open("rb") as f:
        table = tomllib.load(f)["rule"]
    return [Rule(r["section"], r["rule"], r["ruleset"], r["line"], r["said"], (tuple(r["probe"]), r["value"]),
                 r.get("players", 2)) for r in table]


RULES = _rules()
STATED = [r for r in RULES if not r.outside]
OUTSIDE = [r for r in RULES if r.outside]
runner = CliRunner()


def _compiled(rule: Rule) -> dict:
    res = runner.invoke(main, ["compile", rule.arg])
    assert res.exit_code == 0, res.output
    return json.loads(res.stdout)


def _at(config: dict, path: tuple) -> Any:
    for key in path:
        config = config[key]
    return config


def test_every_house_rule_of_section_3_has_a_ruleset():
    assert {r.section for r in RULES} - {"published"} == {f"3.{i}" for i in range(1, 10)}
    for rule in RULES:
        assert rule.line in [line.strip() for line in rule.text.splitlines()], rule  # the ruleset states the rule in that line
        if rule.ruleset.endswith(".rules") and rule.section == "published":
            assert re.search(r'^# .*"', rule.text, re.M), rule  # the comment quotes the published text
        elif rule.ruleset.endswith(".rules"):
            section = re.search(r"^# family\.md (3\.\d)", rule.text, re.M)
            assert section and section.group(1) == rule.section, rule  # the comment cites the section
    files = {r.ruleset for r in RULES if r.ruleset.endswith(".rules")}
    assert files == {p.name for p in HOUSE.glob("*.rules")}  # no file of the folder goes untested


def test_only_drawing_while_able_may_be_outside_the_language():
    assert {r.rule for r in OUTSIDE} <= {"drawing allowed while able to place"}


@pytest.mark.parametrize("rule", STATED, ids=str)
def test_house_rule_checks_compiles_and_explains(rule):
    res = runner.invoke(main, ["check", rule.arg])
    assert res.exit_code == 0, res.output
    assert "ok" in res.output
    config = _compiled(rule)
    Config.from_dict(config)  # the engine accepts it
    if rule.probe:
        path, value = rule.probe
        assert _at(config, path) == value, rule
    res = runner.invoke(main, ["explain", rule.arg])
    assert res.exit_code == 0, res.output
    assert re.search(rule.said, res.output), (rule, res.output)
    if rule.base is not None:  # the house rule changes its base, and the base's explanation does not say it
        base = rulelang.compile_bundled(rule.base)
        strip = ("name", "title", "source", "based_on")
        assert ({k: v for k, v in config.items() if k not in strip}
                != {k: v for k, v in base.items() if k not in strip})
        res = runner.invoke(main, ["explain", rule.base])
        assert not re.search(rule.said, res.output), f"{rule.base} already says {rule.said!r}"


@pytest.mark.parametrize("rule", STATED, ids=str)
def test_house_rule_plays_seeded_matches_to_the_end(rule):
    config = Config.from_dict(_compiled(rule))
    for seed in (1, 2, 3):
        bots = [greedy_player(seed * 10 + s) if s % 2 == 0 else random_player(seed * 10 + s)
                for s in range(rule.players)]
        match = Match(config, rule.players, seed=seed, record=True)
        match.run(bots, max_rounds=200)
        assert match.over, (rule, seed)
        assert match.rounds
        again = replay(match.transcript())
        assert again.over and again.scores == match.scores and again.winner == match.winner


@pytest.mark.parametrize("rule", STATED, ids=str)
def test_house_rule_simulates(rule):
    res = runner.invoke(main, ["simulate", "-n", "5", "-p", str(rule.players), rule.arg])
    assert res.exit_code == 0, res.output
    assert "Traceback" not in res.output


def test_a_house_rule_outside_the_language_says_so():
    # (none now that every house rule is a statement: the test above keeps the list to drawing while able)
    for rule in OUTSIDE:
        for command in ("check", "compile", "explain"):
            res = runner.invoke(main, [command, rule.arg])
            assert res.exit_code != 0, (command, res.output)
            assert "this rule is outside the language" in res.output, res.output
            assert f"family.md {rule.section}" in res.output
            assert "Traceback" not in res.output


TEXTS = Path(__file__).parent / "data" / "rulesets" / "house" / "texts"


@pytest.mark.parametrize("path", sorted(TEXTS.glob("*.rules")), ids=lambda p: p.stem)
def test_house_ruleset_checks_explains_and_simulates(path):
    for args in (["check", str(path)], ["fmt", "--check", str(path)], ["explain", str(path)],
                 ["simulate", "-n", "3", str(path)]):
        res = runner.invoke(main, args)
        assert res.exit_code == 0, (args, res.output)
    assert "source" in path.read_text(encoding="utf-8")
