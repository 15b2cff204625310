"""House rules as hooks: each optional rule is compiled once per configuration and called at its fixed
points (interpreter.hooks, interpreter.house); the public settlement functions settle with the round's plan."""
from __future__ import annotations

import random

import pytest

import rulelang
from rulelang.interpreter import Config, Round, block_winner, random_player, rules_of, settle
from rulelang.interpreter.hooks import POINTS, HouseRule
from rulelang.interpreter.house import HOUSE_RULES

HEAD = 'ruleset h "H"\nsource "a test"\nbased on muggins\n'

# a statement per house rule, and the fixed points its hook overrides
RULES = {
    "Muggins": ("points must be claimed; missed points go to the next opponent\n", {"placement"}),
    "KnockBonus": ("the next player to place scores 5 points per knock\n", {"placement"}),
    "DrawWhileAble": ("a player may draw while able to place\n", {"offered"}),
    "DrawLimit": ("draw until playable, at most 2 tiles\n", {"draws"}),
    "SideOut": ("the round ends when both partners go out\n", {"goes_on"}),
    "HalfDoubles": ("a double left in hand counts one half\n", {"hands"}),
    "Entry": ("10 points to get in\n", {"accepts"}),
    "LeadCannotWin": ("the opening placement cannot win\n", {"accepts"}),
}


def _config(body: str) -> Config:
    return Config.from_dict(rulelang.compile_text(HEAD + body, "h.rules"))


def test_a_configuration_without_house_rules_calls_nothing() -> None:
    hooks = rules_of(Config.from_dict(rulelang.compile_bundled("allfives"))).hooks
    assert hooks.rules == () and all(getattr(hooks, point) == () for point in POINTS)


@pytest.mark.parametrize("name", sorted(RULES))
def test_each_statement_compiles_to_its_hook_at_its_points(name: str) -> None:
    body, points = RULES[name]
    hooks = rules_of(_config(body)).hooks
    assert [type(r).__name__ for r in hooks.rules] == [name]
    assert {p for p in POINTS if getattr(hooks, p)} == points


def test_every_house_rule_overrides_a_point_and_compiles_to_nothing_by_default() -> None:
    plain = Config.from_dict(rulelang.compile_bundled("muggins"))
    for rule in HOUSE_RULES:
        assert issubclass(rule, HouseRule) and rule.compile(plain) is None, rule.__name__
        assert any(getattr(rule, p) is not getattr(HouseRule, p) for p in POINTS), rule.__name__


def test_the_settlement_functions_settle_as_the_round_with_its_plan() -> None:
    """`settle` and `block_winner` with the round's own plan agree with the round, house rules included."""
    cfg = _config(RULES["HalfDoubles"][0])
    rules = rules_of(cfg)
    rng = random.Random(4)
    differs = 0
    for _ in range(60):
        rnd = Round.deal(cfg, 2, rng).run(random_player(rng.random()))
        res = rnd.result
        if res.kind != "blocked" or res.match_over:
            continue
        plan, masks = rules.block_plan, rnd.hand_masks
        assert block_winner(plan, masks, rnd.sides, rnd.opener) == res.seat
        assert block_winner(cfg.block, masks, rnd.sides, rnd.opener, half=True) == res.seat
        pays = settle(plan, masks, rnd.sides, rnd.opener, res.seat)
        assert [(e.side, e.raw) for e in res.settlement] == [(sd, raw) for sd, raw, _ in pays]
        differs += pays != settle(cfg.block, masks, rnd.sides, rnd.opener, res.seat)
    assert differs  # the bare spec counts both halves: the plan is what keeps them in step
