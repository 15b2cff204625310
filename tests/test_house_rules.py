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


RULES = [
    Rule("3.1", "entry threshold (ten to get in)", "muggins-ten-in", "2 shown points to get in",
         r"off the board: every event for it worth less than 2 shown points \(10 raw\)", (("target", "entry"), 10)),
    Rule("3.2", "bonus for dominoing", "fives-and-threes", "bonus 1 point to the winner",
         r"scores a bonus of 1 point", (("settlement", "domino", "bonus"), 1)),
    Rule("3.3", "fixed number of hands", "muggins-three-hands", "the match lasts 3 rounds",
         r"The match lasts 3 rounds, with no target", (("target", "rounds"), 3)),
    Rule("3.4", "block winner by fewest tiles", "fewest-tiles.rules",
         "winner: the fewest tiles, ties broken by lightest hand",
         r"The hand with the fewest tiles wins the block", (("settlement", "block", "winner"), "fewest-tiles")),
    Rule("3.5", "team totals on a block", "muggins-team-block", "winner: the lightest side",
         r"with partners, the sum of both partners' pips", (("settlement", "block", "winner"), "lightest-side"), 4),
    Rule("3.6", "target by player count", "hoyle-muggins",
         "target at least 200 raw points with 2 players, 150 with 3 or 4",
         r"a target that depends on the number of players: 40 shown points \(200 raw\) with 2 players; "
         r"30 shown points \(150 raw\) with 3 players",
         (("target", "raw_by_count"), {"2": 200, "3": 150, "4": 150}), 3),
    Rule("3.7", "double-nine set with more players", "double-nine-six", "tiles double-nine",
         r"double-nine set: 55 tiles", (("tiles",), 9), 6),
    Rule("3.8", "limited drawing", "sniff-draw-two.rules", "draw until playable, at most 2 tiles",
         r"at most 2 tiles a turn", (("draw_limit",), 2)),
    Rule("3.8", "reserve", "sniff-reserve.rules", "reserve 2 tiles with 2 players, 0 with 3, 0 with 4",
         r"never drawn: 2 with 2 players", (("reserve",), {"2": 2, "3": 0, "4": 0})),
    Rule("3.8", "drawing allowed while able to place", "muggins-draw-while-able.rules",
         "a player may draw while able to place", r"A player who could place may draw instead",
         (("draw_while_able",), True)),
    Rule("3.8", "no winning score on the lead", "fives-and-threes-lead-cannot-win.rules",
         "the opening placement cannot win", r"The opening placement of a round cannot win",
         (("target", "lead_cannot_win"), True)),
    Rule("3.8", "knock bonus", "fives-and-threes-knock-bonus.rules",
         "the next player to place scores 1 point per knock", r"scores 1 point for each knock",
         (("scoring", "knock_bonus"), 1), 3),
    Rule("3.8", "block by differences, unrounded", "muggins-differences.rules",
         "credit each hand the differences to heavier opponents' hands, not rounded",
         r"differences to every heavier opponent's hand, not rounded",
         (("settlement", "block", "terms", 0, "kind"), "differences"), 3),
    Rule("3.9", "a fixed opening seat", "seat-0-opens.rules", "opener of the first round: seat 0",
         r"The first round is opened by seat 0, always", (("opener", "first_round"), "seat-0")),
    Rule("3.9", "team totals decide a domino too", "team-domino.rules", "winner: the lightest side",
         r"After a domino the side with the lower pip total wins",
         (("settlement", "domino", "winner"), "lightest-side"), 4),
    Rule("3.9", "team totals decide a block, equal totals a draw", "team-block-draw.rules",
         "winner: the lightest side", r"equal totals: no winner",
         (("settlement", "block", "winner"), "lightest-side"), 4),
    Rule("3.9", "equal hands after a domino score nothing", "equal-hands-domino.rules",
         "winner: the lightest side", r"equal hands: no winner",
         (("settlement", "domino", "winner"), "lightest-side")),
    Rule("3.9", "everyone's hands to the winner", "everyones-hands.rules",
         "credit everyone's hands pooled, rounded to 5, to the winner",
         r"Every player's remaining pips, added together",
         (("settlement", "domino", "terms", 0, "hands"), "everyone"), 4),
    Rule("3.7", "more than four players on a double-six set", "muggins-five-players.rules", "players 2 to 5",
         r"For 2, 3, 4 and 5 players", (("players", "counts"), [2, 3, 4, 5]), 5),
    Rule("published", "opening draws when nobody holds a double", "no-double-draw.rules",
         "if nobody holds the opening double: each player in turn draws until a double turns up",
         r"each player in turn draws one tile from the boneyard until a double turns up",
         (("opener", "no_double"), "draw"), 3),
    Rule("published", "a new deal when nobody holds a double", "no-double-redeal.rules",
         "if nobody holds the opening double: the tiles are dealt again",
         r"the deal is thrown in and the tiles are dealt again", (("opener", "no_double"), "redeal"), 3),
    Rule("published", "the heaviest hand leads when nobody holds a double", "no-double-heaviest-hand.rules",
         "if nobody holds the opening double: the heaviest hand leads", r"the holder of the heaviest hand leads",
         (("opener", "no_double"), "heaviest-hand"), 3),
    Rule("published", "the lead passes on when nobody holds a double", "no-double-next-seat.rules",
         "if nobody holds the opening double: the lead passes to the next seat",
         r"the lead passes to the seat after the previous round's opener", (("opener", "no_double"), "next-seat"), 3),
    Rule("published", "the double six always starts", "double-six-opens.rules",
         "opener of the first round: the double six", r"opened by the holder of \[6\|6\], who must lead it",
         (("opener", "first_round"), "double-six")),
    Rule("published", "a rotating opening double", "rotating-double.rules",
         "opener of the first round: the rotating double", r"\[6\|6\] in the match's first round, \[5\|5\] in "
         r"the second", (("opener", "after_block"), "rotating-double"), 3),
]
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
