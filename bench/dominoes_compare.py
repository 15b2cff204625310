"""The same recorded games replayed by the engine and by the PyPI `dominoes` package (when installed).

`dominoes` plays one game: four players in two partnerships, seven tiles each, no
boneyard, a single line (no branching doubles), passes when a seat cannot place,
no scoring during play, every pip left to the winners. The engine plays exactly
that game with the configuration `block_config()`, so games recorded by the
engine can be replayed move for move in both (`check_same_outcomes` checks that
every game ends with the same winners and points); each engine move names a free
side, which is the left or right end of the `dominoes` board.
"""
from __future__ import annotations

import copy
from typing import Any

from paths import record_games

from rulelang.interpreter import Config, Move


def available() -> bool:
    """True if the optional `dominoes` package is installed (`pip install '.[dev]'`)."""
    try:
        import dominoes  # noqa: F401
    except ImportError:
        return False
    return True


def block_config(base: Config) -> Config:
    """`base` made into the game `dominoes` plays, rule for rule.

    Four players in two partnerships (seats 0+2, 1+3), seven tiles each, no drawing, no
    branching, any lead; placements score nothing; a domino gives the winners every pip
    left in the hands, not rounded; a blocked game goes to the partnership with fewer pips,
    which takes every pip left, and equal totals give nothing (`dominoes.Result`)."""
    d = copy.deepcopy(base.to_dict())
    d["name"] = "block4"
    d["players"] = {"counts": [4], "partnerships": [4]}
    d["hand_size"] = {"4": 7}
    d["reserve"] = {"4": 0}
    d["drawing"] = "none"
    d["opener"].update({"first_round": "lottery", "lead": "any"})
    d["doubles"]["branching"] = "none"
    d["scoring"]["in_play"] = False
    every_pip = {"kind": "hands", "hands": "everyone", "pooling": "pooled", "rounding": "none", "to": "winner",
                 "sign": "credit"}
    d["settlement"]["domino"].update({"terms": [every_pip], "events": "one", "with_last_placement": False})
    d["settlement"]["block"] = {"winner": "lightest-side", "tie_break": "none", "terms": [every_pip], "events": "one"}
    d["target"].update({"raw": 100000, "check": "after-settlement", "ties": "draw"})
    return Config.from_dict(d)


def check_same_outcomes(cfg: Config, games: list[tuple[dict[str, Any], list[Move]]], dgames: list[Any]) -> None:
    """Both replays end every game the same way: the same winning partnership and points (AssertionError if not)."""
    import dominoes
    from paths import round_from_deal

    for (deal, moves), (hands, opener, steps) in zip(games, dgames):
        rnd = round_from_deal(cfg, deal)
        for m in moves:
            rnd.play(m)
        res = rnd.result
        assert res is not None
        points = sum(e.raw for e in res.settlement)
        mine = 0 if res.side is None else points if res.side == 0 else -points
        game = dominoes.Game(dominoes.Board(), [dominoes.Hand(h) for h in hands], [], opener,
                             tuple((d, True) for d in hands[opener]), opener, None)
        for d, left in steps:
            game.make_move(d, left)
        assert game.result is not None and game.result.points == mine, (game.result, res)


def to_dominoes(games: list[tuple[dict[str, Any], list[Move]]]) -> list[tuple[list[list[tuple[int, int]]], int, list[tuple[tuple[int, int], bool]]]]:
    """Each game as (hands, opener, [(tile, on the left end?)]) for `dominoes`."""
    from rulelang.interpreter import parse_tile

    out = []
    for deal, moves in games:
        hands = [[parse_tile(t) for t in h] for h in deal["hands"]]
        lead = moves[0].tile
        # the lead (a, b) lies as [a|b]: its low / line-a side is the left end, high / line-b the right
        a, b = lead
        ends = [(lead, "line-a" if a == b else "low"), (lead, "line-b" if a == b else "high")]
        steps = [(lead, True)]
        for m in moves[1:]:
            at = (m.target, m.side)
            left = ends[0] == at
            assert left or ends[1] == at, (m, ends)
            t = m.tile
            if t[0] == t[1]:
                free = (t, "line-b")  # a double joins with line-a
            else:
                value = m.target[1] if m.side == "high" else m.target[0]
                free = (t, "high" if t[0] == value else "low")
            ends[0 if left else 1] = free
            steps.append((t, left))
        out.append((hands, deal["opener"], steps))
    return out


def dominoes_objects(games: list[tuple[list[list[tuple[int, int]]], int, list[tuple[tuple[int, int], bool]]]]) -> list[Any]:
    """The games of `to_dominoes` with `dominoes.Domino` objects, made once (untimed), as the engine's `Move`s are.

    Each move is the very object of its hand, as a player choosing from `game.valid_moves` would pass it."""
    import dominoes

    out = []
    for hands, opener, steps in games:
        hs = [[dominoes.Domino(a, b) for a, b in h] for h in hands]
        held = {(min(d), max(d)): d for h in hs for d in h}
        out.append((hs, opener, [(held[(min(t), max(t))], left) for t, left in steps]))
    return out


def replay_dominoes(games: list[Any]) -> int:
    """Replay the games (`dominoes_objects`) with `dominoes.Game.make_move`; returns the placements.

    Per game: one `Hand` per seat (a copy of the dealt list) and the `Game`; per move,
    `make_move` checks the tile is in the hand (and removes it), checks it matches the chosen
    end, records the move, and lists the next seat's valid moves (`game.valid_moves`),
    recording passes, until a seat can move or the game ends (a `Result` with the points)."""
    import dominoes

    Hand, Game, Board = dominoes.Hand, dominoes.Game, dominoes.Board
    n = 0
    for hands, opener, steps in games:
        hs = [Hand(h) for h in hands]
        game = Game(Board(), hs, [], opener, tuple((d, True) for d in hs[opener]), opener, None)
        for d, left in steps:
            game.make_move(d, left)
        assert game.result is not None
        n += len(steps)
    return n


def prepare(base: Config, n: int, seed: int) -> tuple[Config, list[tuple[dict[str, Any], list[Move]]], Any]:
    """The block configuration, `n` recorded games of it, and the same games for `dominoes` (its objects)."""
    cfg = block_config(base)
    games = record_games(cfg, 4, n, seed)
    dgames = dominoes_objects(to_dominoes(games))
    check_same_outcomes(cfg, games, dgames)
    return cfg, games, dgames
