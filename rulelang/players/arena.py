"""The referee: plays a match and tells each seat the round's public history along with its observation.

A seat at a real table sees every placement, how many tiles each other seat
drew (not which), its own draws, and who could not place when. The engine's
observation holds the position only; `PublicLog` keeps that history and hands
each seat its own view (`obs["history"]`). Players that want it have
`wants_history = True`; the others are called as the engine would call them.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import NotRequired, Protocol, TypedDict, runtime_checkable

from rulelang.base.jsontypes import ConfigJSON
from rulelang.interpreter import Config, Match, Move, Round, Tile, Turn
from rulelang.interpreter.players import Scorer
from rulelang.interpreter.round import Player
from rulelang.interpreter.series import Series, new_match
from rulelang.players.tiles import fitting_tiles

MAX_ROUNDS = 400  # a match still running after this many rounds is recorded as unfinished


@runtime_checkable
class Picks(Protocol):
    """A player with the engine's fast entry point `pick(round, codes)` (the bundled players)."""

    def pick(self, rnd: Scorer, codes: list[int]) -> int: ...


class Step(TypedDict, total=False):
    """A step of the public history: a placement (`move`), or a seat's draws or pass against the tiles that fitted."""

    seat: int
    move: str
    drew: list[Tile] | int  # the tiles drawn; how many, in another seat's view
    fits: list[Tile]
    passed: bool
    voluntary: bool  # a draw move (`a player may draw while able to place`)


class History(TypedDict):
    """What a seat knows of the current round (`observation["history"]`)."""

    round: int
    opener: int
    scores: list[int]
    tiebreak: object  # the round's `tiebreak` (False, True or a fixed extra round k > 1)
    hands: list[int]
    boneyard: int
    steps: list[Step]


class RoundRecord(TypedDict):
    """A round of `play_match`'s record: how it ended and the raw points of play, settlement and calls per side."""

    kind: str
    opener: int
    turns: int
    play: list[int]
    settle: list[int]
    start: list[int]
    end: list[int]
    call: NotRequired[list[int]]  # only where opponents may call (the muggins rule)


class MatchRecord(TypedDict):
    """`play_match`'s JSON-ready record of one match."""

    finished: bool
    winner: int | None
    scores: list[int]
    rounds: int
    lead_changes: int
    round_details: list[RoundRecord]
    race: NotRequired[list[list[int]]]  # the sides' scores event by event, when asked
    games_won: NotRequired[list[int]]  # a series of games: games won per side (`winner` is the series')


class PublicLog:
    """The current round's history as the referee saw it (draws with their tiles); `view(seat)` hides them."""

    def __init__(self, rnd: Round, round_no: int):
        obs = rnd.observation(rnd.opener)
        self.head: History = {"round": round_no, "opener": rnd.opener, "scores": list(rnd.scores),
                     "tiebreak": rnd.tiebreak, "hands": list(obs["hand_counts"]),  # an int k > 1: a fixed extra round
                     "boneyard": obs["boneyard"], "steps": []}
        self.steps: list[Step] = []
        # after a draw move: (seat, passes and draws already recorded, whether they were voluntary)
        self._done: tuple[int, list[int], list[Tile], bool] | None = None

    def record(self, turn: Turn, fits: list[Tile], rnd: Round | None = None) -> None:
        """Add a turn: the passes before it, the mover's draws, the placement (all against `fits`).

        A draw move (`a player may draw while able to place`) is a `voluntary` draw step: its tile
        (read from `rnd` after the move) says nothing about what fitted; the passes and draws before it are
        recorded with it, and the next placement adds only what came after."""
        done = self._done if self._done is not None and self._done[0] == turn.seat else None
        passed = list(zip(turn.passed, turn.pass_drawn))[len(done[1]) if done else 0:]
        drawn = list(turn.drawn)[len(done[2]) if done else 0:]
        for seat, drew in passed:
            self.steps.append({"seat": seat, "drew": list(drew), "fits": fits, "passed": True})
        if drawn and not (done and done[3]):
            self.steps.append({"seat": turn.seat, "drew": drawn, "fits": fits, "passed": False})
        if turn.move.draw:
            assert rnd is not None  # a draw move's tile is read from the round
            tile = rnd.drawn_before_move[-1]
            self.steps.append({"seat": turn.seat, "drew": [tile], "fits": [], "passed": False, "voluntary": True})
            self._done = (turn.seat, list(turn.passed), list(turn.drawn) + [tile], True)
            return
        self._done = None
        self.steps.append({"seat": turn.seat, "move": str(turn.move)})

    def view(self, seat: int, rnd: Round) -> History:
        """What `seat` knows of the round so far, the draws and passes since the last placement included."""
        pending: list[Step] = []
        mover = rnd.seat_to_move  # None only when the round is over
        if mover is not None and rnd.layout.tiles:
            fits = fitting_tiles(rnd.layout)
            done = self._done  # after a draw move: those steps are recorded already
            skip = len(done[1]) if done else 0
            for s, drew in list(zip(rnd.passed_before_move, rnd.pass_drawn_before_move))[skip:]:
                pending.append({"seat": s, "drew": list(drew), "fits": fits, "passed": True})
            drawn = rnd.drawn_before_move[len(done[2]) if done else 0:]
            if drawn:
                pending.append({"seat": mover, "drew": list(drawn), "fits": fits, "passed": False})
        steps: list[Step] = []
        for st in self.steps + pending:
            tiles = st.get("drew")
            if isinstance(tiles, list) and st["seat"] != seat:
                st = {**st, "drew": len(tiles)}
            steps.append(st)
        return {**self.head, "steps": steps}


class TableHistory:
    """The public history of a match played move by move through `play` (as the playground plays one):
    a `PublicLog` per round, started at the round's first move, for the players that want it."""

    def __init__(self, match: Match) -> None:
        self.match = match
        self._round: Round | None = None
        self._log: PublicLog | None = None

    def _current(self) -> PublicLog:
        rnd = self.match.round
        if self._log is None or self._round is not rnd:
            self._round, self._log = rnd, PublicLog(rnd, len(self.match.rounds))
        return self._log

    def play(self, move: Move) -> Turn:
        """`match.play(move)`, recorded in the round's history."""
        log = self._current()
        rnd = self.match.round
        fits = fitting_tiles(rnd.layout) if rnd.layout.tiles else []
        turn = self.match.play(move)
        log.record(turn, fits, rnd)
        return turn

    def view(self, seat: int) -> History:
        """What `seat` knows of the current round (`observation["history"]`)."""
        return self._current().view(seat, self.match.round)


def _fast_choice(player: Picks, rnd: Round, legal: list[Move]) -> Move:
    """A bundled player's choice through `pick(round, codes)`, as the engine's fast path asks it."""
    codes = rnd.legal_codes()
    return legal[codes.index(player.pick(rnd, codes))]


def _play_round_with_history(match: Match | Series, cfg: Config, seat_players: Sequence[Player]) -> None:
    """Play the match's current round move by move, telling the players that want it the public history."""
    rnd = match.round
    log = PublicLog(rnd, len((match.game if isinstance(match, Series) else match).rounds))  # (a series: in its game)
    while not rnd.over:
        seat = rnd.seat_to_move
        assert seat is not None  # the round goes on
        p = seat_players[seat]
        fits = fitting_tiles(rnd.layout) if rnd.layout.tiles else []
        if isinstance(p, Picks):  # the engine's bundled players: the same choice as `Match.run` makes
            move = _fast_choice(p, rnd, rnd.legal_moves())
        else:
            obs = match.observation(seat)
            if getattr(p, "wants_history", False):
                obs["history"] = log.view(seat, rnd)
            move = p(obs, obs["legal"])
        if move.claim is None and cfg.claims != "none" and not move.draw:
            # the muggins rule: players claim all their points (a draw move claims nothing)
            move = replace(move, claim=rnd.points_of(move) // cfg.unit)
        log.record(match.play(move), fits, rnd)


class _Scoreboard:
    """The sides' scores event by event over a match: who leads, how often the lead changed, the race."""

    def __init__(self, nsides: int, race: bool):
        self.nsides = nsides
        self.scores = [0] * nsides
        self.leader: int | None = None
        self.changes = 0
        self.path: list[list[int]] | None = [list(self.scores)] if race else None

    def round_points(self, rnd: Round) -> tuple[list[int], list[int], list[int]]:
        """Follow a played round's accepted events; its raw points per side from play, settlement and calls."""
        play = [0] * self.nsides
        settle = [0] * self.nsides
        call = [0] * self.nsides  # the muggins rule: points taken by calls (kept apart from the settlement)
        for e in rnd.events:
            if not e.accepted:
                continue
            (play if e.kind == "placement" else call if e.kind == "call" else settle)[e.side] += e.raw
            self._score(e.side, e.score_after)
        return play, settle, call

    def _score(self, side: int, score: int) -> None:
        self.scores[side] = score
        top = max(self.scores)
        lead = self.scores.index(top) if self.scores.count(top) == 1 else None
        if lead is not None:
            if self.leader is not None and lead != self.leader:
                self.changes += 1
            self.leader = lead
        if self.path is not None:
            self.path.append(list(self.scores))


def play_match(config: Config | ConfigJSON, players: int, seed: int, seat_players: Sequence[Player],
               race: bool = False, max_rounds: int = MAX_ROUNDS) -> MatchRecord:
    """Play one match; a JSON-ready record (winner, per-round details, lead changes, optional score race)."""
    cfg = Config.from_dict(config) if isinstance(config, dict) else config
    match = new_match(cfg, players, seed)  # a Series under "the match is the best of N games"
    board = _Scoreboard(max(cfg.sides_of(players)) + 1, race)
    history = any(getattr(p, "wants_history", False) for p in seat_players)
    rounds: list[RoundRecord] = []
    while not match.over and len(match.rounds) < max_rounds:
        rnd = match.round
        start = rnd.scores
        if history:
            _play_round_with_history(match, cfg, seat_players)
        else:
            match.run(list(seat_players), max_rounds=len(match.rounds) + 1)
        res = rnd.result
        play, settle, call = board.round_points(rnd)
        detail: RoundRecord = {"kind": res.kind if res else "unfinished", "opener": rnd.opener,
                                  "turns": rnd.placements, "play": play, "settle": settle,
                                  "start": start, "end": rnd.scores}
        if cfg.claims in ("muggins", "any-opponent"):  # only where opponents may call: other variants' records keep their shape
            detail["call"] = call
        rounds.append(detail)
    out: MatchRecord = {
        "finished": bool(match.over), "winner": match.winner if match.over else None,
        "scores": list(match.scores), "rounds": len(rounds), "lead_changes": board.changes,
        "round_details": rounds,
    }
    if board.path is not None:
        out["race"] = board.path
    if isinstance(match, Series):
        out["games_won"] = list(match.won)
    return out
