"""The engine core's interfaces: layout state, settlement as a pure function, the fast public path, clones.

Each test plays real rounds (seeded) and checks one promise of docs/engine-api.md
against a slower or independent computation of the same thing.
"""
from __future__ import annotations

import ast
import pathlib
import random

import pytest

from rulelang.interpreter import IllegalMove, Match, Move, Round, load_config, random_player
from rulelang.interpreter.settlement import block_winner, settle
from rulelang.interpreter.tiles import MASK, TILES, move_from_code

ROOT = pathlib.Path(__file__).resolve().parent.parent
CONFIGS = {p.stem: load_config(p) for p in sorted((ROOT / "tests" / "data" / "configs").glob("*.json"))}
assert CONFIGS


def rounds(name, players, n, seed):
    """`n` seeded rounds in progress at every position: yields (round, rng) before each move."""
    cfg = CONFIGS[name]
    rng = random.Random(seed)
    for _ in range(n):
        rnd = Round.deal(cfg, players, rng, record=True)
        while not rnd.over:
            yield rnd, rng
            legal = rnd.legal_moves()
            rnd.play(legal[int(rng.random() * len(legal))])


@pytest.mark.parametrize("name", sorted(CONFIGS))
def test_layout_keeps_its_ends_and_sum_up_to_date(name):
    """The incremental free-end mask and counted sum equal what the free sides and counted ends give."""
    for rnd, _ in rounds(name, 3, 6, 1):
        lay = rnd.layout
        ends = 0
        for v in lay.free.values():
            ends |= MASK[v]
        assert lay.ends == ends
        assert lay.count() == sum(v for _, _, v in lay.counted())


@pytest.mark.parametrize("name", sorted(CONFIGS))
def test_points_previewed_are_the_points_earned(name):
    """points_of / code_points / observation points equal the points the placement then earns."""
    for rnd, _ in rounds(name, 2, 5, 2):
        codes = rnd.legal_codes()
        pts = rnd.code_points(codes)
        assert pts == [rnd.points_of(move_from_code(c)) for c in codes]
        assert pts == rnd.observation(rnd.seat_to_move)["points"]
        for c, p in zip(codes, pts):
            assert rnd.clone().play(move_from_code(c)).points == p
            assert rnd.layout.preview(c) == rnd.clone().play(move_from_code(c)).count


def test_every_move_outside_the_legal_list_is_refused_and_changes_nothing():
    """play() accepts exactly the legal moves; any other tile/target/side is refused with the state intact."""
    for rnd, rng in rounds("pagat", 3, 4, 3):
        legal = set(rnd.legal_moves())
        targets = [None, *rnd.layout.tiles]
        for _ in range(6):
            tile = TILES[int(rng.random() * len(TILES))]
            target = targets[int(rng.random() * len(targets))]
            side = None if target is None else ["low", "high", "line-a", "line-b", "branch-a", "branch-b"][int(rng.random() * 6)]
            move = Move(tile, target, side)
            before = rnd.clone()
            if move in legal:
                continue
            with pytest.raises(IllegalMove):
                rnd.play(move)
            assert rnd.transcript() == before.transcript() and rnd.legal_moves() == before.legal_moves()


def test_play_code_and_play_make_the_same_round():
    """The search entry point (play_code) and play(Move) lead to the same state."""
    cfg = CONFIGS["exact61"]
    for seed in range(5):
        a = Round.deal(cfg, 4, random.Random(seed))
        b = a.clone()
        pick = random.Random(seed)
        while not a.over:
            codes = a.legal_codes()
            c = codes[int(pick.random() * len(codes))]
            a.play_code(c)
            b.play(move_from_code(c))
            assert (a.hands, a.scores, a.layout.to_dict(), a.seat_to_move) == (b.hands, b.scores, b.layout.to_dict(), b.seat_to_move)
        assert a.result == b.result


def test_a_clone_shares_nothing_that_changes():
    """Playing a clone to the end leaves the original exactly as it was, turns and layout included."""
    m = Match(CONFIGS["pagat"], 4, 9, record=True)
    for _ in range(9):
        m.play(m.legal_moves()[0])
    rnd = m.round
    before = (rnd.layout.to_dict(), rnd.hands, rnd.scores, [t.to_dict() for t in rnd.turns], rnd.events)
    copy_ = rnd.clone()
    copy_.run(random_player(1))
    assert (rnd.layout.to_dict(), rnd.hands, rnd.scores, [t.to_dict() for t in rnd.turns], rnd.events) == before


def test_moves_are_interned_and_know_their_code():
    """Moves from the engine and from canonical text are one object per move; a Move made by hand has the same code."""
    rnd = Round.deal(CONFIGS["allfives"], 2, random.Random(4))
    for m in rnd.legal_moves():
        assert Move.parse(str(m)) is m
        assert Move(m.tile, m.target, m.side).code() == m.code()
    assert Move.parse(" [4|1] ") == Move((1, 4))


def test_turns_read_as_the_records_they_replace():
    """A Turn's fields agree with its JSON form and compare equal to a replay's."""
    rnd = Round.deal(CONFIGS["allfives"], 3, random.Random(5), record=True).run(random_player(2))
    again = Round(rnd.config, 3, rnd.deal_dict()["hands"], rnd.deal_dict()["boneyard"], rnd.opener,
                  opening=rnd.opening, record=True)
    for t in rnd.turns:
        d = t.to_dict()
        assert d["move"] == str(t.move) and d["offered"] == [str(m) for m in t.offered]
        assert d["counted"] == [[f"[{a}|{b}]", e, v] for (a, b), e, v in t.counted]
        assert t == again.play(t.move)


@pytest.mark.parametrize("name", sorted(CONFIGS))
def test_settlement_is_a_pure_function_of_its_inputs(name):
    """settle() depends only on (spec, hands, sides, opener, winner): the round's settlement events are its payments."""
    cfg = CONFIGS[name]
    rng = random.Random(6)
    for _ in range(20):
        rnd = Round.deal(cfg, 4, rng).run(random_player(rng.random()))
        res = rnd.result
        if res.kind == "target":
            continue
        masks = rnd.result.hands
        hands = [sum(1 << TILES.index(t) for t in h) for h in masks]
        spec = cfg.domino if res.kind == "domino" else cfg.block
        winner = res.seat
        if res.kind == "blocked":
            assert block_winner(spec, hands, rnd.sides, rnd.opener) == winner
        pays = settle(spec, hands, rnd.sides, rnd.opener, winner)
        assert pays == settle(spec, list(hands), tuple(rnd.sides), rnd.opener, winner)
        got = [(e.side, e.raw) for e in res.settlement]
        want = [(sd, raw) for sd, raw, _ in pays]
        if res.kind == "domino" and cfg.domino["with_last_placement"]:
            continue  # the last placement folds into the first event
        assert got == want[:len(got)]


SCANNED = [*sorted((ROOT / "interpreter").glob("*.py")), *sorted((ROOT / "bench").glob("*.py")),
           ROOT / "conformance" / "builtin.py", *sorted((ROOT / "rulelang" / "tools").glob("*.py"))]


@pytest.mark.parametrize("path", SCANNED, ids=lambda p: str(p.relative_to(ROOT)))
def test_no_module_reaches_into_another_objects_private_attributes(path):
    """`x._name` only on self/cls, or (in the engine) on a copy of the same class being built."""
    same_class = {"self", "cls"} | ({"o", "other", "obj"} if path.parent.name == "interpreter" else set())
    bad = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Attribute) and node.attr.startswith("_") and not node.attr.startswith("__"):
            who = node.value.id if isinstance(node.value, ast.Name) else None
            if who not in same_class:
                bad.append(f"line {node.lineno}: {ast.unparse(node)}")
    assert not bad, bad


@pytest.mark.parametrize("name", sorted(CONFIGS))
def test_the_random_fast_path_picks_what_the_public_path_offers(name):
    """run() with random players (moves listed as the next seat is found) plays what a loop over legal_codes() plays."""
    cfg = CONFIGS[name]
    for seed in range(8):
        fast = Round.deal(cfg, 3, random.Random(seed), record=True).run(random_player(seed))
        slow = Round.deal(cfg, 3, random.Random(seed), record=True)
        pick = random_player(seed).rng
        while not slow.over:
            codes = slow.legal_codes()
            slow.play_code(codes[int(pick.random() * len(codes))])
        assert fast.transcript() == slow.transcript()


def _deal_outcome(read, hands, bone):
    try:
        return read(hands, bone)
    except ValueError as e:
        return str(e)


def test_a_deal_read_on_the_fast_path_is_read_as_tile_by_tile():
    """`read_deal` (table look-ups, bits summed) gives what the tile-by-tile reader gives, masks or the same error.

    Deals are dealt at random in every accepted tile form, then spoiled at random: a tile twice in
    a hand, in two hands, in a hand and the boneyard or twice in the boneyard, a tile not in any set,
    an unhashable tile, an empty hand."""
    from rulelang.interpreter.deal import _read_deal_slowly, read_deal
    from rulelang.interpreter.tiles import format_tile

    rng = random.Random(15)
    forms = [lambda t: t, lambda t: (t[1], t[0]), format_tile, lambda t: TILES.index(t), list]
    for _ in range(600):
        tiles = list(TILES[:28])
        rng.shuffle(tiles)
        players = rng.choice([2, 3, 4])
        hands = [[rng.choice(forms)(t) for t in tiles[7 * s:7 * s + 7]] for s in range(players)]
        bone = [rng.choice(forms)(t) for t in tiles[7 * players:]]
        spoil = rng.randrange(8)
        h = rng.randrange(players)
        if spoil == 1:
            hands[h].append(hands[h][0])
        elif spoil == 2:
            hands[h].append(hands[(h + 1) % players][-1])
        elif spoil == 3 and bone:
            bone.append(hands[h][1])
        elif spoil == 4 and bone:
            bone.append(bone[0])
        elif spoil == 5:
            hands[h][rng.randrange(7)] = rng.choice(["[7|8]", (3, 13), 99, "x"])
        elif spoil == 6:
            hands[h] = []
        want = _deal_outcome(_read_deal_slowly, hands, bone)
        assert _deal_outcome(read_deal, hands, bone) == want, (spoil, hands, bone)


def test_an_explicit_deal_with_a_tile_outside_the_set_is_refused_with_a_clear_error():
    """A foreign runner (or an engine author's script) may send a double-nine tile to a double-six variant: the
    engine says so (ValueError, which the engine adapter answers as an error of that case), never IndexError."""
    import rulelang
    from rulelang.conformance.builtin import run_case
    from rulelang.interpreter import Match

    cfg = rulelang.compile_bundled("allfives")
    deal = {"hands": [["[9|9]", "[1|2]"], ["[3|4]", "[5|6]"]], "boneyard": [], "opener": 0}
    with pytest.raises(ValueError, match=r"tile \[9\|9\] is not in the variant's set \(28 tiles\)"):
        Match(cfg, 2, seed=0, deal=[deal])
    with pytest.raises(ValueError, match="not in the variant's set"):
        run_case({"config": cfg, "players": 2, "setup": deal, "steps": [{"play": "[9|9]"}]})
