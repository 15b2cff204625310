"""House rules as hooks: each optional rule is compiled once per configuration and called at its fixed
points (interpreter.hooks, interpreter.house) with a record of the moment; the public settlement functions
settle with the round's plan."""
from __future__ import annotations

import ast
import random
import typing
from pathlib import Path

import pytest

import rulelang
from rulelang.interpreter import Config, Round, block_winner, random_player, rules_of, settle
from rulelang.interpreter import house as house_module
from rulelang.interpreter import rules as rules_module
from rulelang.interpreter.build import engine_build
from rulelang.interpreter.hooks import (
    POINTS,
    Drawing,
    EventOffered,
    GoneOut,
    HandsLeft,
    Hooks,
    HouseRule,
    Placed,
    TurnBegun,
)
from rulelang.interpreter.house import HOUSE_RULES

ROOT = Path(__file__).resolve().parents[1]
# The compiled engine (CI's second pass) keeps no type hints on its methods, cannot be subclassed from Python and
# calls its own functions directly: what these tests read or patch is the source's, which the first pass runs.
source_only = pytest.mark.skipif(engine_build() != "pure Python",
                                 reason="reads or patches the engine's Python source (the pure engine's pass runs it)")
HEAD = 'ruleset h "H"\nsource "a test"\nbased on muggins\n'
NAMES = [p.name for p in POINTS]

# a statement per house rule, and the fixed points its hook overrides
RULES = {
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
    assert hooks.rules == () and all(hooks.at(point) == () for point in NAMES)


@pytest.mark.parametrize("name", sorted(RULES))
def test_each_statement_compiles_to_its_hook_at_its_points(name: str) -> None:
    body, points = RULES[name]
    hooks = rules_of(_config(body)).hooks
    assert [type(r).__name__ for r in hooks.rules] == [name]
    assert {p for p in NAMES if hooks.at(p)} == points


def test_the_muggins_rule_is_round_state_not_a_house_rule() -> None:
    """Claims are kept by the round (interpreter.claims), credited before any placement hook."""
    assert rules_of(Config.from_dict(rulelang.compile_bundled("muggins"))).hooks.rules == ()
    source = (ROOT / "interpreter" / "round.py").read_text(encoding="utf-8")
    assert not [r.__name__ for r in HOUSE_RULES if r.__name__ in source]  # the round names no house rule


def test_every_house_rule_overrides_a_point_and_compiles_to_nothing_by_default() -> None:
    plain = Config.from_dict(rulelang.compile_bundled("muggins"))
    for rule in HOUSE_RULES:
        assert issubclass(rule, HouseRule) and rule.compile(plain) is None, rule.__name__
        assert any(getattr(rule, p) is not getattr(HouseRule, p) for p in NAMES), rule.__name__


@source_only
def test_the_points_are_declared_once_and_each_method_takes_its_record() -> None:
    """`POINTS` is the one list: a `HouseRule` method per point, whose first argument is the point's record."""
    methods = {n for n, v in vars(HouseRule).items() if callable(v) and not n.startswith("_")} - {"compile"}
    assert methods == set(NAMES)
    for p in POINTS:
        hints = typing.get_type_hints(getattr(HouseRule, p.name))
        assert hints["at"] is p.record, p.name
        assert typing.NamedTuple in getattr(p.record, "__orig_bases__", ()), p.name  # immutable
    assert Hooks.__slots__ == ("rules", "by_point")  # no attribute written out per point
    assert list(Hooks([]).by_point) == NAMES
    with pytest.raises(ValueError, match="no fixed point 'nope'"):
        Hooks([]).at("nope")


class _Spy(HouseRule):
    """Listens at every point, records what it is told and changes nothing."""

    seen: list[typing.Any] = []

    @classmethod
    def compile(cls, cfg: Config) -> HouseRule | None:
        return cls()

    def offered(self, at: TurnBegun, codes: list[int]) -> list[int]:
        self.seen.append(at)
        return codes

    def draws(self, at: Drawing, room: int) -> int:
        self.seen.append(at)
        return room

    def placement(self, at: Placed, raw: int) -> int:
        self.seen.append(at)
        return raw

    def goes_on(self, at: GoneOut) -> bool:
        self.seen.append(at)
        return False

    def hands(self, at: HandsLeft, counts: list[int]) -> list[int]:
        self.seen.append(at)
        return counts

    def accepts(self, at: EventOffered) -> bool:
        self.seen.append(at)
        return True


def _rounds(cfg: Config, players: int, seeds: range) -> list[typing.Any]:
    out = []
    for seed in seeds:
        rnd = Round.deal(cfg, players, random.Random(seed), record=True).run(random_player(seed))
        out.append(rnd)
    return out


def _summary(rnd: Round) -> typing.Any:
    assert rnd.result is not None
    return [t.to_dict() for t in rnd.turns], rnd.result.to_dict()


@source_only
@pytest.mark.parametrize(("variant", "players"), [("allfives", 2), ("muggins", 3), ("pagat", 4),
                                                  ("allfives", 3)])
def test_a_rule_at_every_point_sees_each_moment_and_a_neutral_one_changes_nothing(
        variant: str, players: int, monkeypatch: pytest.MonkeyPatch) -> None:
    cfg = Config.from_dict(rulelang.compile_bundled(variant))
    plain = [_summary(r) for r in _rounds(cfg, players, range(6))]
    monkeypatch.setattr(house_module, "HOUSE_RULES", (*HOUSE_RULES, _Spy))
    monkeypatch.setattr(rules_module, "_RULES", {})  # the configuration's rules made again, with the spy
    monkeypatch.setattr(rules_module, "_BY_ID", {})
    monkeypatch.setattr(_Spy, "seen", [])
    assert [type(r) for r in rules_of(cfg).hooks.rules] == [_Spy]
    claims = cfg.claims != "none"
    for seed in range(6):
        _Spy.seen.clear()
        rnd = _rounds(cfg, players, range(seed, seed + 1))[0]
        assert _summary(rnd) == plain[seed]  # a rule that changes nothing changes nothing
        placements = [at for at in _Spy.seen if isinstance(at, Placed)]
        turns = [t for t in rnd.turns if not t.move.draw]
        assert len(placements) == len(turns)
        for at, turn in zip(placements, turns):
            assert (at.seat, at.tile, at.target, at.side) == (turn.seat, turn.move.tile, turn.move.target,
                                                              turn.move.side)
            assert (at.counted, at.points, at.passes) == (turn.count, turn.points, len(turn.passed))
            assert at.claim == (turn.move.claim if claims else None)
        assert rnd.result is not None
        gone = [at.goes_out for at in placements]
        assert gone == [False] * len(gone) if rnd.result.kind != "domino" else gone[-1] and not any(gone[:-1])
        begun = [at for at in _Spy.seen if isinstance(at, TurnBegun)]
        assert begun[0] == TurnBegun(rnd.opener, False)  # the lead: no tile may be drawn before it
        assert {at.seat for at in begun} <= {t.seat for t in turns}
        events = [at for at in _Spy.seen if isinstance(at, EventOffered)]
        assert [(e.kind, e.side, e.raw) for e in events] == [(e.kind, e.side, e.raw) for e in rnd.events]
        assert [at.hands for at in _Spy.seen if isinstance(at, HandsLeft)][-1:] == (
            [rnd.hand_masks] if rnd.result.kind in ("domino", "blocked") else [])
        out = [at for at in _Spy.seen if isinstance(at, GoneOut)]
        assert [(at.seat, at.hands) for at in out] == ([(turns[-1].seat, rnd.hand_masks)]
                                                      if rnd.result.kind == "domino" else [])


@source_only
def test_a_configuration_without_house_rules_builds_no_record(monkeypatch: pytest.MonkeyPatch) -> None:
    """Records are made only at a point some rule listens to: without rules, none is made."""
    made: list[object] = []
    for record in (TurnBegun, Drawing, GoneOut, HandsLeft):  # made by their constructors
        monkeypatch.setattr(record, "__new__", lambda cls, *a, **k: made.append(cls) or tuple.__new__(cls, a))
    from rulelang.interpreter import round as round_module
    from rulelang.interpreter import scoring as scoring_module

    real_placed, real_offered = round_module.placed, scoring_module.event_offered
    monkeypatch.setattr(round_module, "placed", lambda *a: made.append(Placed) or real_placed(*a))
    monkeypatch.setattr(scoring_module, "event_offered", lambda *a: made.append(EventOffered) or real_offered(*a))
    for variant in ("allfives", "muggins-claims", "pagat"):
        cfg = Config.from_dict(rulelang.compile_bundled(variant))
        for seed in range(3):
            Round.deal(cfg, 2, random.Random(seed)).run(random_player(seed))
    assert made == []
    knock = _config(RULES["KnockBonus"][0])  # (the spies see records where a rule listens)
    Round.deal(knock, 2, random.Random(1)).run(random_player(1))
    assert set(made) == {Placed}


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
        pays = settle(plan, masks, rnd.sides, rnd.opener, res.seat)
        assert [(e.side, e.raw) for e in res.settlement] == [(sd, raw) for sd, raw, _ in pays]
        differs += pays != settle(cfg.block, masks, rnd.sides, rnd.opener, res.seat)
    assert differs  # the bare spec counts both halves: the plan is what keeps them in step


def test_the_settlement_functions_take_no_flag_per_rule() -> None:
    """`half=` is gone: the plan says how the hands count."""
    cfg = _config(RULES["HalfDoubles"][0])
    with pytest.raises(TypeError):
        settle(cfg.block, (0, 0), (0, 1), 0, 0, half=True)  # type: ignore[call-arg]
    with pytest.raises(TypeError):
        block_winner(cfg.block, (0, 0), (0, 1), 0, half=True)  # type: ignore[call-arg]


def _bare_code_ops(path: Path) -> list[str]:
    """`x >> 11`, `x << 11` and the literal 0x7FF (TILE_SHIFT and KEY_BITS, 10 and 0x3FF before the double-eighteen
    set): a move code read or made without its helpers."""
    from rulelang.interpreter.tiles import KEY_BITS, TILE_SHIFT

    bad = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if (isinstance(node, ast.BinOp) and isinstance(node.op, (ast.LShift, ast.RShift))
                and isinstance(node.right, ast.Constant) and node.right.value == TILE_SHIFT):
            bad.append(f"line {node.lineno}: {ast.unparse(node)}")
        if isinstance(node, ast.Constant) and node.value == KEY_BITS and type(node.value) is int:
            bad.append(f"line {node.lineno}: {KEY_BITS:#X}")
    return bad


@pytest.mark.parametrize("path", sorted((ROOT / "interpreter").glob("*.py")), ids=lambda p: p.name)
def test_move_codes_are_read_and_made_by_name(path: Path) -> None:
    bad = _bare_code_ops(path)
    if path.name == "tiles.py":  # the constants' own definitions: KEY_BITS and LEAD_KEY, each named
        assert len(bad) == 2 and all(b.endswith("0X7FF") for b in bad), bad
    else:
        assert not bad, bad


def test_the_engine_api_lists_every_point_and_rule_from_the_code() -> None:
    """docs/engine-api.md's lists are generated (interpreter/hook_docs.py): each point with every field of its
    record, and each house rule with its points; tests/test_generated.py keeps the file in step."""
    from rulelang.interpreter.hook_docs import hook_docs

    doc = (ROOT / "docs" / "engine-api.md").read_text(encoding="utf-8")
    made = hook_docs()
    assert made in doc
    for p in POINTS:
        row = next(line for line in made.splitlines() if line.startswith(f"| `{p.name}` |"))
        assert all(f"`{field}`: " in row for field in vars(p.record)["_fields"]), p.name
    for rule in HOUSE_RULES:
        assert f"| `{rule.__name__}` |" in made


def test_a_record_must_say_what_each_field_means() -> None:
    from rulelang.interpreter.hook_docs import record_fields

    class Bare(typing.NamedTuple):
        """A moment.

        seat: the seat
        """

        seat: int
        tile: int

    with pytest.raises(ValueError, match="does not say what tile mean"):
        record_fields(Bare)
