"""Games in the browser: one human seat against bots, kept in a bounded store that forgets idle games.

Only the engine's public API is used (docs/engine-api.md): Match, legal
moves, play, observation, transcript.
"""
from __future__ import annotations

import secrets
import threading
import time
from collections import OrderedDict
from dataclasses import replace
from typing import cast

from rulelang.base.jsontypes import ConfigJSON
from rulelang.interpreter import Config, IllegalMove, Match, Move, Round, Turn
from rulelang.players.arena import TableHistory
from rulelang.playground.limits import GAME_IDLE_SECONDS, MAX_GAMES, ApiError
from rulelang.tools import textboard as tb
from rulelang.tools.bots import BOTS
from rulelang.tools.documents import CallWindow, ThrownDeal
from rulelang.tools.opening import opening_lines, thrown_in_lines
from rulelang.tools.playernames import PLAYGROUND_STRONG, make_player
from rulelang.tools.session import _partner_words
from rulelang.tools.svg import round_svg
from rulelang.tools.transcripts import deal_of

HUMAN = 0  # the seat the user plays
MAX_LOG = 300  # lines of the event log sent back


def bot_names() -> list[str]:
    """The engine's bots and `strong`, the search player (PLAYGROUND_STRONG: sized to answer within 0.3 s)."""
    return sorted([*BOTS, "strong"])


class Game:
    """One match: the human at seat 0, a bot of the user's choice at every other seat."""

    def __init__(self, config: ConfigJSON, players: int, bots: list[str], seed: int) -> None:
        try:
            self.cfg = Config.from_dict(config)
        except Exception as exc:  # ConfigError and friends: the configuration does not make a game
            raise ApiError(400, f"this ruleset cannot be played: {exc}") from None
        if self.cfg.series_games is not None:  # "the match is the best of N games": not played here yet
            raise ApiError(400, f"{self.cfg.name} is a match of {self.cfg.series_games} games, which the playground "
                           "does not play yet: play it with `rulelang play`")
        if players not in self.cfg.counts:
            allowed = ", ".join(str(n) for n in self.cfg.counts)
            raise ApiError(400, f"{self.cfg.name} is played by {allowed} players, not {players}")
        if len(bots) != players - 1 or any(b not in bot_names() for b in bots):
            raise ApiError(400, f"give one bot per other seat ({players - 1}), each one of: {', '.join(bot_names())}")
        self.players = players
        self.kinds = ["you"] + list(bots)
        self.seed = seed
        self.bots = [None] + [make_player(PLAYGROUND_STRONG if b == "strong" else b, self.cfg, seed * 8 + s)
                              for s, b in enumerate(bots, 1)]
        self.match = Match(self.cfg, players, seed, record=True)
        self.history = TableHistory(self.match)  # the round's public history, for the search player
        self.side_of = list(self.cfg.sides_of(players))
        self.unit = self.cfg.unit
        self.log: list[str] = []
        self._told = (0, 0)  # passes and draws told at a draw move since the last placement
        self.round_no = 1
        self.last_round: dict[str, object] | None = None  # {number, summary, svg, hands} of the round just played
        # the muggins rule (family.md 2.3): "none", "muggins" (the next opponent may call) or "forfeit"
        self.claims: str = self.cfg.claims
        self.placements = 0  # placements so far: a call window is the last one's
        self.let_go = -1  # the placement whose call the human let go
        self.lock = threading.Lock()
        self.used = time.monotonic()
        self._note_opening()
        self._bots_play()

    # -- names ----------------------------------------------------------------------

    def seat_name(self, seat: int) -> str:
        return f"seat {seat} ({self.kinds[seat]})"

    def side_names(self) -> list[str]:
        n = max(self.side_of) + 1
        if n != self.players:
            return [f"team {s} (seats {' + '.join(str(x) for x in range(self.players) if self.side_of[x] == s)})"
                    for s in range(n)]
        return [self.seat_name(s) for s in range(n)]

    # -- play -----------------------------------------------------------------------

    def play(self, text: object, claim: object = None) -> None:
        """The human's move, in canonical notation, with its claim under the muggins rule (shown points;
        none claims 0, as the engine reads it); then the bots until the human is to move or may call."""
        if self.match.over:
            raise ApiError(409, "the match is over")
        if self.match.seat_to_move != HUMAN:
            raise ApiError(409, "it is not your turn")
        if not isinstance(text, str) or len(text) > 80:
            raise ApiError(400, "give a move like `[1|5] on [1|1] branch-a` (a lead as `[1|4]`)")
        if claim is not None:
            if self.claims == "none":
                raise ApiError(400, "points are not claimed in this game: send the move without a claim")
            if isinstance(claim, bool) or not isinstance(claim, int) or not 0 <= claim <= 9999:
                raise ApiError(400, "`claim` must be a whole number of shown points, 0 or more")
        try:
            move = Move.parse(text)
        except ValueError as exc:
            raise ApiError(400, f"cannot read the move: {exc}") from None
        if self.claims != "none":
            if claim is not None and move.claim is not None:
                raise ApiError(400, "give the claim once: in the move (`... claim 2`) or as `claim`")
            if move.claim is None:
                move = replace(move, claim=claim or 0)
        try:
            self._play(move)
        except IllegalMove as exc:
            raise ApiError(400, f"illegal move ({exc.code}): {exc.message}") from None
        self._bots_play()

    def call(self, want: object) -> None:
        """The human, first opponent after the last placer, calls muggins (`want` true) or lets it go."""
        if not isinstance(want, bool):
            raise ApiError(400, "`call` must be true (call muggins) or false (let it go)")
        window = self._window()
        if window is None or HUMAN not in _callers(window) or self.let_go == self.placements:
            raise ApiError(409, "there is no placement you may call on now")
        rnd = self.match.round
        if not want:
            self.let_go = self.placements
            amount = rnd.observation(HUMAN)["call"]["amount"]
            if amount and not self._bot_calls(rnd, window, after=HUMAN):  # opponents after the human may call
                # as `rulelang play` says it once the chance is gone
                self.log.append(f"{self.seat_name(window['placer'])}'s missed points go uncalled ({self._raw(amount)})")
        else:
            self._call(rnd, HUMAN, window["placer"])
        self._bots_play()

    def _window(self) -> CallWindow | None:
        """The open call window of the muggins rule ({placer, caller}), or None."""
        if self.claims not in ("muggins", "any-opponent", "lost-if-called") or self.match.over:
            return None
        window: CallWindow | None = self.match.round.observation(HUMAN).get("call")
        return window

    def _human_may_call(self) -> bool:
        w = self._window()
        return w is not None and HUMAN in _callers(w) and self.let_go != self.placements

    def _call(self, rnd: Round, caller: int, placer: int) -> None:
        try:
            events = self.match.call(caller)
        except IllegalMove as exc:
            self.let_go = self.placements
            self.log.append(f"No muggins ({exc.code}): {exc.message}.")
            return
        self.log.append(f"{self.seat_name(caller)} calls muggins on {self.seat_name(placer)}!")
        names = self.side_names()
        for ev in events:
            self.log.append(tb.event_line(ev, self.unit, names).strip())
        if rnd.over:
            self.log.append("The call reaches the target.")
            self._note_round(rnd)

    def _bots_play(self) -> None:
        m = self.match
        while not m.over and m.seat_to_move != HUMAN and not self._human_may_call():
            seat = m.seat_to_move
            assert seat is not None  # the match goes on
            bot = self.bots[seat]
            assert bot is not None  # every seat but the human's has a bot
            rnd = m.round
            obs = rnd.observation(seat)
            if getattr(bot, "wants_history", False):
                obs["history"] = self.history.view(seat)
            move = bot(obs, m.legal_moves())
            if self.claims != "none":
                move = replace(move, claim=rnd.points_of(move) // self.unit)  # bots claim all their points
            self._play(move)

    def _play(self, move: Move) -> None:
        rnd = self.match.round
        turn = self.history.play(move)
        self.placements += 1
        self._note_turn(rnd, turn)
        if rnd.over:
            self._note_round(rnd)
            return
        w = self._window()
        if w is not None:
            self._bot_calls(rnd, w)

    def _bot_calls(self, rnd: Round, w: CallWindow, after: int | None = None) -> bool:
        """Bots call whenever there is something to take, in turn order after the placer (under `any-opponent`
        every opponent may), until the human's turn to decide; `after`: only the seats after that one."""
        callers = _callers(w)
        for caller in callers[callers.index(after) + 1:] if after is not None else callers:
            if caller == HUMAN:
                return False  # the human decides first
            if rnd.observation(caller)["call"]["amount"]:
                self._call(rnd, caller, w["placer"])
                return True
        return False

    def _note_turn(self, rnd: Round, turn: Turn | None) -> None:
        if turn is None:
            return
        told, self._told = self._told, (0, 0)
        for s in turn.passed[told[0]:]:
            self.log.append(f"{self.seat_name(s)} passes")
        drawn = turn.drawn[told[1]:]
        if drawn:
            what = tb.hand_line(drawn) if turn.seat == HUMAN else tb.tiles_count(len(drawn))
            self.log.append(f"{self.seat_name(turn.seat)} draws {what}")
        if turn.move.draw:  # "a player may draw while able to place": the tile shows in the hand
            self._told = (len(turn.passed), len(turn.drawn) + 1)
            self.log.append(f"{self.seat_name(turn.seat)} draws a tile instead of placing")
            return
        counted = " + ".join(str(v) for _t, _e, v in turn.counted) or "0"
        gain = f", {self._points(turn.points)}" if turn.points else ""
        self.log.append(f"{self.seat_name(turn.seat)} plays {turn.move}: ends {counted} = {turn.count}{gain}")
        claim = turn.move.claim
        if claim is not None and claim * self.unit != turn.points:  # the muggins rule: what the claim missed
            said = claim * self.unit
            self.log.append(f"{self.seat_name(turn.seat)} claims {tb.fmt_shown(claim)} shown: "
                            + (f"missed {self._raw(turn.points - said)}" if said < turn.points
                               else f"more than the score ({self._raw(said)} claimed)"))
        names = self.side_names()
        for ev in turn.events:
            self.log.append(tb.event_line(ev, self.unit, names).strip())
        if not rnd.over and not rnd.hand_masks[turn.seat]:
            # side-out: a seat out while its partner plays on, worded as `rulelang play` words it
            self.log.append(f"{self.seat_name(turn.seat)} goes out; {_partner_words(rnd.sides, turn.seat, self.seat_name)}")

    def _note_round(self, rnd: Round) -> None:
        res = rnd.result
        assert res is not None  # the round is over
        if res.kind == "domino":
            assert res.seat is not None  # the seat that went out
            what = f"{self.seat_name(res.seat)} dominoes"
        elif res.kind == "blocked":
            if res.side is None:
                what = "blocked, with no winner"
            else:
                assert res.seat is not None  # the side with the lightest hand, by its seat
                what = f"blocked; {self.seat_name(res.seat)} has the lightest hand"
        else:
            what = "the target is reached"
        self.log.append(f"Round {self.round_no} over: {what}.")
        self.last_round = {"number": self.round_no, "summary": what,
                           "svg": round_svg(rnd, title=f"Round {self.round_no}: the layout at the end"),
                           "hands": [tb.hand_line(h) for h in (res.hands or rnd.hands)]}
        self.round_no += 1
        if not self.match.over:
            self._note_opening()
        del self.log[:-MAX_LOG]

    def _note_opening(self) -> None:
        """How the round opens, as `rulelang play` says it: the deals thrown in, the fallback used when nobody
        holds the opening double and the opening draws (the bots' hidden tiles are not shown)."""
        index = self.round_no - 1
        deal = deal_of(self.match.round)
        thrown = cast(list[ThrownDeal], self.match.thrown_in(index))  # this round's alone, not the whole match's
        lines = (thrown_in_lines(self.cfg, deal, index, thrown, self.seat_name, reveal=lambda s: False)
                 + opening_lines(self.cfg, deal, index, self.seat_name, reveal=lambda s: s == HUMAN))
        self.log += [f"Round {self.round_no}: {lines[0].strip()}"] + [line.strip() for line in lines[1:]]

    def _raw(self, raw: int) -> str:
        return f"{raw} raw" + (f", {tb.fmt_shown(raw / self.unit)} shown" if self.unit != 1 else "")

    def _points(self, raw: int) -> str:
        return f"+{raw}" if self.unit == 1 else f"+{tb.fmt_shown(raw / self.unit)} shown ({raw} raw)"

    # -- what the page shows --------------------------------------------------------------

    def state(self, game_id: str) -> dict[str, object]:
        m = self.match
        rnd = m.round
        obs = rnd.observation(HUMAN)
        legal = obs["legal"] if not m.over and m.seat_to_move == HUMAN else []
        points = obs.get("points") or [0] * len(legal)
        scores = [{"name": name, "raw": raw,
                   "shown": raw if self.unit == 1 else tb.fmt_shown(raw / self.unit)}
                  for name, raw in zip(self.side_names(), m.scores)]
        raw = self.cfg.target_by_count.get(self.players, self.cfg.target)  # the target of this player count
        target = raw if self.unit == 1 else tb.fmt_shown(raw / self.unit)
        winner = self.side_names()[m.winner] if m.over and m.winner is not None else None
        return {
            "id": game_id, "name": self.cfg.name, "title": self.cfg.title, "players": self.players,
            "seats": self.kinds, "round": self.round_no, "over": m.over, "winner": winner,
            "your_turn": bool(legal), "seat_to_move": m.seat_to_move,
            "hand": [tb.fmt_tile(t) for t in obs["hand"]], "hand_counts": obs["hand_counts"],
            "boneyard": obs["boneyard"],
            "legal": [{"move": str(mv), "tile": None if mv.draw else tb.fmt_tile(mv.tile),  # (a draw move: `draw`)
                       "target": tb.fmt_tile(mv.target) if mv.target is not None else None,
                       "side": mv.side, "endwise": mv.endwise, "points": p} for mv, p in zip(legal, points)],
            "counted": [{"tile": tb.fmt_tile(t), "end": e, "value": v} for t, e, v in obs["counted"]],
            "count": obs["count"], "scores": scores,
            "target": f"{'exactly' if self.cfg.target_mode == 'exact' else 'at least'} {target}"
                      + ("" if self.unit == 1 else " shown"),
            "svg": round_svg(rnd, title=f"Round {self.round_no}"),
            "log": self.log[-MAX_LOG:], "last_round": self.last_round,
            # the muggins rule: claims with moves ("none" / "muggins" / "forfeit"), and whether you may call now
            "claims": self.claims,
            "call": {"placer": self.seat_name(w["placer"])} if (w := self._window()) and self._human_may_call() else None,
        }

    def transcript(self) -> dict[str, object]:
        return dict(self.match.transcript())


class GameStore:
    """At most MAX_GAMES games; a game idle for GAME_IDLE_SECONDS is forgotten, and when the store is
    full the least recently used game makes room."""

    def __init__(self, limit: int = MAX_GAMES, idle: float = GAME_IDLE_SECONDS) -> None:
        self.limit = limit
        self.idle = idle
        self.games: OrderedDict[str, Game] = OrderedDict()
        self.lock = threading.Lock()

    def _expire(self, now: float) -> None:
        for key in [k for k, g in self.games.items() if now - g.used > self.idle]:
            del self.games[key]

    def add(self, game: Game) -> str:
        with self.lock:
            self._expire(time.monotonic())
            while len(self.games) >= self.limit:
                self.games.popitem(last=False)
            key = secrets.token_urlsafe(12)
            self.games[key] = game
            return key

    def get(self, key: str) -> Game:
        with self.lock:
            now = time.monotonic()
            self._expire(now)
            game = self.games.get(key)
            if game is None:
                raise ApiError(404, "no such game (games are forgotten after 30 idle minutes): start a new one")
            game.used = now
            self.games.move_to_end(key)
            return game

    def remove(self, key: str) -> None:
        with self.lock:
            if self.games.pop(key, None) is None:
                raise ApiError(404, "no such game")


def _callers(window: CallWindow) -> list[int]:
    """The seats that may call on an open window, in turn order after the placer."""
    return list(window.get("callers", [window["caller"]]))
