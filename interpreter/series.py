"""A match played as a series of games ("best of three"): each game a `Match` from 0 (docs/design/series.md).

The series is a layer above the match: what the other statements call a match
is one game, unchanged; the series gives each later game its first opener
(`opener of a later game: ...`) and counts the games won. A `Series` answers
the questions a `Match` answers (`round`, `rounds`, `play`, `run`, `over`,
`winner`, ...), so the tools that play whole matches play a series alike; a
configuration without `the match is the best of N games` gets a plain `Match`
from `new_match`, exactly as before.
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .config import as_config
from .errors import IllegalMove
from .match import Match
from .records import Event, RoundResult, Turn, shown_points
from .round import Bots, Round
from .tiles import Move

__all__ = ["Series", "new_match", "series_result", "game_seed", "OPENED_BY"]

# what a series transcript's `"opener": {"by": ...}` says, in the words of `opener of a later game: ...`
OPENED_BY = {"draw-loser": "the loser of the last draw", "game-loser": "the loser of the last game",
             "game-winner": "the winner of the last game"}

# chance as data: per game, its deals (one per round, as `Match(deal=...)` takes them)
GameDeals = Sequence[Sequence[dict[str, Any]]]


def game_seed(seed: Any, k: int) -> Any:
    """The seed of game `k` (from 0): the series' own for the first game (so it is the plain match of that
    seed), `SEED:game-K` after it; None (unseeded) stays None."""
    return seed if k == 0 or seed is None else f"{seed}:game-{k}"


def series_result(won: Sequence[int], played: int, games: int) -> tuple[bool, int | None]:
    """(over, winner) of a best of `games` after `played` games with `won` games per side: the first side to
    win a majority wins; after the last game without one, the side that won the most (shared: drawn, None)."""
    top = max(won)
    if top >= games // 2 + 1:
        return True, won.index(top)
    if played < games:
        return False, None
    return True, won.index(top) if won.count(top) == 1 else None


class Series:
    """A best of N games of one variant (`the match is the best of N games`); each game a `Match` from 0."""

    def __init__(self, config: Any, players: int, seed: Any = None, record: bool = False,
                 deals: GameDeals | None = None, *, trust_openers: bool = True):
        cfg = as_config(config)
        if cfg.series_games is None:
            raise ValueError(f"{cfg.name} is not played as a series of games")
        self.config = cfg
        self.players = players
        self.seed = seed
        self.record = record
        self._deals = list(deals) if deals is not None else []
        self._trust = trust_openers
        self._sides = cfg.sides_of(players)
        self.won = [0] * (max(self._sides) + 1)  # games won per side
        self.games: list[Match] = []  # finished games
        self.openers: list[int | None] = []  # per game, the first opener the series gave it (None: its rule's)
        self.over = False
        self.winner: int | None = None
        self.game = self._new_game()

    # -- games ----------------------------------------------------------------------------

    def _new_game(self) -> Match:
        """1. who opens it (the series' rule)  2. the game, a match from 0 dealt from its own seed."""
        k = len(self.games)
        opener = self._opener_of(k)
        deal = self._deals[k] if k < len(self._deals) else None
        game = Match(self.config, self.players, game_seed(self.seed, k), record=self.record, deal=deal,
                     trust_openers=self._trust, opener=opener)
        self.openers.append(opener)
        return game

    def _opener_of(self, k: int) -> int | None:
        """The first opener of game `k` the series gives, or None when the game's first-round rule decides."""
        rule = self.config.game_opener
        if k == 0 or rule == "first-round":
            return None  # "opener of a later game: as the first game"
        last = self.games[-1]
        if rule == "draw-loser":
            # "Loser of the draw will start second game, if there is a third game, draw out again": the game
            # after a drawn-for game is the draw's loser's (2 players: the other one); the one after it is drawn
            if self.openers[k - 1] is not None:
                return None
            return (last.round.first_opener + 1) % self.players
        if last.winner is None:
            return None  # a drawn game has no loser or winner: as the first game
        want_winner = rule == "game-winner"  # "...: the winner of the last game" / "...: the loser of the last game"
        return next(s for s, side in enumerate(self._sides) if (side == last.winner) == want_winner)

    def _end_game(self) -> None:
        """After a game ends: count its winner; end the series, or start the next game."""
        game = self.game
        self.games.append(game)
        if game.winner is not None:
            self.won[game.winner] += 1
        games = self.config.series_games
        assert games is not None  # checked in __init__
        self.over, self.winner = series_result(self.won, len(self.games), games)
        if not self.over:
            self.game = self._new_game()

    # -- questions (as a Match answers them) ---------------------------------------------------

    @property
    def round(self) -> Round:
        """The current round (of the current game; the last one played once the series is over)."""
        return self.game.round

    @property
    def rounds(self) -> list[RoundResult]:
        """The finished rounds of every game, in order."""
        done = [r for g in self.games for r in g.rounds]
        return done if self.over or self.game in self.games else done + self.game.rounds

    @property
    def scores(self) -> list[int]:
        """Raw score per side in the current game (the last game once the series is over)."""
        return self.game.scores

    @property
    def shown_scores(self) -> list[int | float]:
        return [shown_points(s, self.config.unit) for s in self.scores]

    @property
    def seat_to_move(self) -> int | None:
        return None if self.over else self.game.seat_to_move

    def legal_moves(self) -> list[Move]:
        return [] if self.over else self.game.legal_moves()

    def observation(self, seat: int) -> dict[str, Any]:
        """The current round's observation for `seat`, with the round number in its game and the game's."""
        obs = self.game.observation(seat)
        obs["game"] = len(self.games) if not self.over else len(self.games) - 1
        obs["games_won"] = list(self.won)
        return obs

    # -- changing it ------------------------------------------------------------------------

    def play(self, move: Move | str) -> Turn:
        """Play a move in the current game; start the next game when it ends."""
        if self.over:
            raise IllegalMove("round-over", "the match is over")
        turn = self.game.play(move)
        if self.game.over:
            self._end_game()
        return turn

    def call(self, seat: int | None = None) -> list[Event]:
        """The muggins rule: `seat` calls on the last placement of the current round (Match.call)."""
        if self.over:
            raise IllegalMove("round-over", "the match is over")
        events = self.game.call(seat)
        if self.game.over:
            self._end_game()
        return events

    def finish_round(self) -> None:
        """After the current round ends: as Match.finish_round, then the next game when this one is over."""
        self.game.finish_round()
        if self.game.over:
            self._end_game()

    def run(self, bots: Bots, max_rounds: int | None = None) -> Series:
        """Play to the end with one player callable per seat (or one for all); `max_rounds` counts every game's."""
        while not self.over:
            if max_rounds is not None and len(self.rounds) >= max_rounds:
                break
            self.game.round.run(bots)
            self.finish_round()
        return self

    # -- transcripts ------------------------------------------------------------------------------

    def transcript(self) -> dict[str, Any]:
        """The series as a JSON-ready dict: config, seed, every game (its rounds and result), the result."""
        if not self.record:
            raise ValueError("transcripts need record=True")
        games = list(self.games)
        if not self.over and self.game not in games:
            games.append(self.game)
        return {
            "format": "rulelang-transcript/1",
            "config": self.config.to_dict(),
            "players": self.players,
            "seed": self.seed,
            "games": [self._game_record(k, g) for k, g in enumerate(games)],
            "result": {"over": self.over, "winner": self.winner, "games_won": list(self.won),
                       "games": len(self.games), "scores": self.scores, "shown_scores": self.shown_scores,
                       "rounds": len(self.rounds)},
        }

    def opener_record(self, k: int) -> dict[str, Any] | None:
        """Game `k`'s first opener as its transcript records it, when the series gave it (else None)."""
        seat = self.openers[k]
        return None if seat is None else {"seat": seat, "by": self.config.game_opener}

    def _game_record(self, k: int, game: Match) -> dict[str, Any]:
        t = game.transcript()
        out: dict[str, Any] = {"seed": t["seed"]}
        opener = self.opener_record(k)
        if opener is not None:
            out["opener"] = opener  # "opener of a later game: ...": the series gave it
        out["rounds"] = t["rounds"]
        out["result"] = t["result"]
        return out


def new_match(config: Any, players: int, seed: Any = None, record: bool = False) -> Match | Series:
    """A whole match of a variant: a Series under `the match is the best of N games`, else a plain Match."""
    cfg = as_config(config)
    if cfg.series_games is not None:
        return Series(cfg, players, seed, record=record)
    return Match(cfg, players, seed, record=record)
