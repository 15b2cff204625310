"""The tables a round reads from its configuration, made once: `rules_of(config)`, `Rules.seating` per
player count, the settlement specs as `settlement.Plan`, the seats as `settlement.Seats`."""
from __future__ import annotations

import random

import rulelang
from rulelang.interpreter import Config, Round, random_player, rules_of
from rulelang.interpreter.settlement import Plan, Seats, seats_of, settle


def test_a_player_counts_seating_is_made_once_and_carries_its_target():
    cfg = Config.from_dict(rulelang.compile_bundled("hoyle-muggins"))  # target 200 raw with 2 players, 150 with 3 or 4
    rules = rules_of(cfg)
    assert rules is rules_of(Config.from_dict(rulelang.compile_bundled("hoyle-muggins")))  # one per configuration
    for players, target in ((2, 200), (3, 150), (4, 150)):
        seating = rules.seating(players)
        assert seating is rules.seating(players) and seating.rules is rules  # made once
        assert seating.target == target == seating.board.target
        assert seating.sides == cfg.sides_of(players) and seating.nsides == max(seating.sides) + 1
        assert seating.reserve == cfg.reserve(players)
        assert Round.deal(cfg, players, random.Random(players)).observation(0)["target"] == target


def test_seats_list_opponents_partners_and_sides_clockwise():
    t = seats_of([0, 1, 0, 1])
    assert isinstance(t, Seats) and t is seats_of((0, 1, 0, 1))  # one per seating, lists and tuples alike
    assert t.opponents == ((1, 3), (0, 2)) and t.partners == ((2,), (3,), (0,), (1,))
    assert t.sides_cw == ((0, 1), (1, 0), (0, 1), (1, 0)) and t.everyone == (0, 1, 2, 3)
    three = seats_of((0, 1, 2))
    assert three.opponents == ((1, 2), (0, 2), (0, 1)) and three.partners == ((), (), ())
    assert three.sides_cw[2] == (2, 0, 1)


def test_a_plan_settles_as_its_spec_does():
    """`settle` takes a spec or its Plan; a round settles with its configuration's Plans."""
    rng = random.Random(9)
    for name in ("allfives", "pagat", "muggins", "exact61", "all-threes"):
        cfg = Config.from_dict(rulelang.compile_bundled(name))
        assert isinstance(rules_of(cfg).domino_plan, Plan) and rules_of(cfg).domino_plan is rules_of(cfg).domino_plan
        for _ in range(10):
            rnd = Round.deal(cfg, cfg.counts[-1], rng).run(random_player(rng.random()))
            res = rnd.result
            if res.kind == "target":
                continue
            spec, plan = (cfg.domino, rules_of(cfg).domino_plan) if res.kind == "domino" else (cfg.block, rules_of(cfg).block_plan)
            masks, winner = rnd.hand_masks, res.seat
            assert settle(spec, masks, rnd.sides, rnd.opener, winner) == settle(plan, masks, rnd.sides, rnd.opener, winner)
            got = [(e.side, e.raw) for e in res.settlement]
            if got and not (res.kind == "domino" and cfg.domino["with_last_placement"]):  # (a fold joins the first)
                assert got == [(sd, raw) for sd, raw, _ in settle(plan, masks, rnd.sides, rnd.opener, winner)][:len(got)]


def test_the_hot_loops_read_the_tiles_own_tables():
    """layout and round keep the tables of interpreter.tiles as final names of their own (compiled, a C
    static each, setup.py): the very objects, so a larger set's tables, added at run time, are seen."""
    from rulelang.interpreter import layout, tiles
    from rulelang.interpreter import round as round_

    for name in ("BIT", "IS_DOUBLE", "LO", "HI", "PIPS", "MASK"):
        assert getattr(layout, name) is getattr(tiles, name), name
    assert round_.BIT is tiles.BIT and round_.MOVES is tiles.MOVES
    layout.extend_shifted(55)  # double-nine: its subsets join the one SHIFTED the hot loop reads
    assert any(m >> 28 for m in layout.SHIFTED)
