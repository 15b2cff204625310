"""The terminal game (`rulelang play`) and the turn-by-turn printout of a transcript
(`rulelang replay`)."""
from __future__ import annotations

import json
import os
import re
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import TextIO, TypedDict, Unpack, cast

import click

from rulelang.base.outfiles import write_atomic
from rulelang.interpreter import Config, IllegalMove, Match, Move, Round, Tile, Turn
from rulelang.interpreter.players import FastPlayer
from rulelang.interpreter.series import OPENED_BY, Series, new_match
from rulelang.tools import textboard as tb
from rulelang.tools.bots import BOTS
from rulelang.tools.configs import ToolUsageError
from rulelang.tools.documents import CallWindow, GameRecord, Result, RoundRecord, ThrownDeal, Transcript
from rulelang.tools.opening import opening_lines, thrown_in_lines
from rulelang.tools.simulation import _derive
from rulelang.tools.transcripts import Place, Step, deal_of, places_of, rounds_of, step_transcript, transcript_of

SEAT_KINDS = ("human", "random", "greedy")

HELP = """Enter a legal move in one of these ways:
  3          its number in the list (one digit, or three and more)
  #12        its number, always (write a two-digit move number this way)
  15 or 02   a tile, when it fits in one place only: two digits 0-6 are always
             a tile ([1|5], [0|2]), never a move number
  [1|5] on [1|1] branch-a   the move in canonical notation (a lead: [1|4])
  draw       draw a tile instead of placing, where the rules offer it
             (`a player may draw while able to place`)
  3 claim 2  under the muggins rule: the move and the points you claim (shown);
             without a claim you are asked for one
Other commands:
  b / board    show the layout again      h / hand   show your hand
  s / scores   show the scores            ? / help   this text
  q / quit     stop the game (you are offered to save the transcript; Ctrl-D too)"""


def parse_seats(text: str | None, players: int) -> list[str]:
    """'0=human,1=greedy' -> a kind per seat.

    Unnamed seats: seat 0 human, the others greedy; but once a seat is named human
    (`--seat 1=human`: "I sit at seat 1"), every unnamed seat is greedy.
    """
    kinds = ["human"] + ["greedy"] * (players - 1)
    if not text:
        return kinds
    known = set(SEAT_KINDS) | set(BOTS)
    seen = set()
    for part in text.split(","):
        part = part.strip()
        if not part:
            continue
        if "=" not in part:
            raise ToolUsageError(f"bad --seat {part!r}: write SEAT=KIND, e.g. 0=human,1=greedy")
        seat_s, kind = (x.strip() for x in part.split("=", 1))
        try:
            seat = int(seat_s)
        except ValueError:
            raise ToolUsageError(f"bad --seat {part!r}: {seat_s!r} is not a seat number") from None
        if not 0 <= seat < players:
            raise ToolUsageError(f"bad --seat {part!r}: seats are 0..{players - 1} with {players} players")
        if kind not in known:
            raise ToolUsageError(f"bad --seat {part!r}: kind must be one of {', '.join(sorted(known))}")
        if seat in seen:
            raise ToolUsageError(f"bad --seat: seat {seat} given twice")
        seen.add(seat)
        kinds[seat] = kind
    if 0 not in seen and any(kinds[s] == "human" for s in seen):
        kinds[0] = "greedy"
    return kinds


class _Style(TypedDict, total=False):
    """How `say` styles a line (click.style's options it uses)."""

    fg: str | None
    bold: bool


class Quit(Exception):
    """The player stopped the game (q, Ctrl-C or end of input)."""

    def __init__(self, reason: str):
        self.reason = reason  # "quit", "interrupt", "eof"
        super().__init__(reason)


def _color_enabled(stream: TextIO) -> bool:
    return stream.isatty() and not os.environ.get("NO_COLOR")


class Game:
    """One interactive match in the terminal."""

    def __init__(self, config: Config, players: int, seats: Sequence[str], seed: int, tally: bool = False,
                 save: str | None = None, variant: str = "",
                 read: Callable[[str], str] = input, out: TextIO | None = None, show_points: bool | None = None):
        self.cfg = config
        self.players = players
        self.seats = list(seats)
        self.seed = seed
        self.tally = tally
        self.save_path = save
        self.variant = variant or config.name
        self.read = read
        # Ctrl-D at a terminal is a person stopping, as q is; closed input in a pipe cannot answer
        self.terminal = read is input and sys.stdin is not None and sys.stdin.isatty()
        self.out = out or sys.stdout
        self.color = _color_enabled(self.out)
        self.unit = config.unit
        # the points preview of each legal move; hidden where points must be claimed (it would claim them)
        self.show_points = config.claims == "none" if show_points is None else show_points
        # "the match is the best of N games": a Series, each game a Match (interpreter/series.py)
        self.match: Match | Series = new_match(config, players, seed, record=True)
        self.side_of = list(config.sides_of(players))
        self.partners = max(self.side_of) + 1 != players
        self.bots: list[FastPlayer | None] = [None if k == "human" else BOTS[k](_derive("play-bot", seed, s))
                     for s, k in enumerate(self.seats)]
        self.humans = [s for s, k in enumerate(self.seats) if k == "human"]
        self.turn_no = 0
        self._drew = 0  # tiles drawn by draw moves since the last placement, reported already

    # -- output ---------------------------------------------------------------------

    def say(self, text: str = "", **style: Unpack[_Style]) -> None:
        if style and self.color:
            text = click.style(text, **style)
        click.echo(text, file=self.out)

    def seat_name(self, seat: int) -> str:
        kind = self.seats[seat]
        who = "you" if kind == "human" and len(self.humans) == 1 else kind
        return f"seat {seat} ({who})"

    def side_names(self) -> list[str]:
        n = max(self.side_of) + 1
        if self.partners:
            return [f"team {s} (seats {' + '.join(str(x) for x in range(self.players) if self.side_of[x] == s)})"
                    for s in range(n)]
        return [self.seat_name(s) for s in range(n)]

    def show_scores(self) -> None:
        self.say("Scores:")
        for line in tb.score_lines(self.match.scores, self.unit, self.side_names(), self.tally):
            self.say(line)

    def compact_scores(self) -> str:
        parts = []
        for name, raw in zip(self.side_names(), self.match.scores):
            if self.unit == 1:
                parts.append(f"{name} {raw}")
            else:
                shown = tb.fmt_shown(raw / self.unit)
                tally = f" [tally {tb.tally_compact(int(raw // self.unit))}]" if self.tally else ""
                parts.append(f"{name} {shown} shown ({raw} raw){tally}")
        return "; ".join(parts) + f"  (target {self.target_text()})"

    def show_board(self, rnd: Round) -> None:
        lay = rnd.layout
        self.say(f"Layout ({len(lay)} tile{'' if len(lay) == 1 else 's'}; * branching double, {tb.COUNTED} counted end, "
                 f"{tb.ATTACH} attach point that counts nothing):", bold=True)
        for line in tb.layout_lines_of(lay):
            self.say("  " + line)
        self.say("  " + tb.counted_line(lay.counted(), lay.count()))

    def show_hand(self, rnd: Round, seat: int) -> None:
        self.say(f"Your hand (seat {seat}): {tb.hand_line(rnd.hands[seat])}", bold=True)

    def target_text(self) -> str:
        cfg = self.cfg
        if cfg.rounds is not None:  # `the match lasts N rounds`
            return f"none (the match lasts {cfg.rounds} rounds)"
        raw = cfg.target_by_count.get(self.players, cfg.target)  # the target of this player count
        shown = raw // self.unit if raw % self.unit == 0 else raw / self.unit
        mode = "exactly" if cfg.target_mode == "exact" else "at least"
        if self.unit == 1:
            return f"{mode} {raw} points"
        return f"{mode} {shown} shown ({raw} raw)"

    # -- the game -----------------------------------------------------------------------

    def run(self) -> int:
        cfg = self.cfg
        self.say(f"{cfg.title} ({cfg.name}): {self.players} players, target {self.target_text()}, seed {self.seed}",
                 bold=True)
        self.say("Seats: " + ", ".join(self.seat_name(s) for s in range(self.players))
                 + ("; teams: seats 0+2 and 1+3" if self.partners else ""))
        if self.humans:
            self.say("Type ? for help.")
        try:
            self._loop()
        except Quit as q:
            return self._stopped(q.reason)
        except KeyboardInterrupt:
            return self._stopped("interrupt")
        return self._finished()

    def _loop(self) -> None:
        m = self.match
        current = None
        round_no = 0
        while not m.over:
            rnd = m.round
            if rnd is not current:
                current = rnd
                round_no = len(self._game().rounds) + 1  # (in a series, the round of its game)
                if isinstance(m, Series) and round_no == 1:
                    self._say_game_start(m)
                self.say("")
                given = m.opener_record(len(m.games)) if isinstance(m, Series) and round_no == 1 else None
                why = OPENED_BY[given["by"]] if given is not None else getattr(rnd, "opening", "")
                self.say(f"=== Round {round_no} ===  seat {rnd.opener} opens"
                         f" ({why}); boneyard {len(rnd.boneyard)} tiles", bold=True)
                self._say_opening(rnd, round_no - 1)
                if rnd.forced_tile is not None:
                    self.say(f"The lead is forced: {tb.fmt_tile(rnd.forced_tile)}")
                if round_no == 1:
                    self.show_scores()
            seat = m.seat_to_move
            assert seat is not None  # the match goes on
            legal = m.legal_moves()
            bot = self.bots[seat]
            if bot is None:
                move = self._ask(rnd, seat, legal)
            else:
                move = bot(rnd.observation(seat), legal)
            claims = rnd.config.claims != "none"  # the muggins rule (family.md 2.3)
            if claims and move.claim is None and not move.draw:  # (a draw move claims nothing)
                move = self._claim(rnd, seat, move)
            game = self._game()
            turn = m.play(move)
            self.turn_no += 1
            self._report_turn(rnd, turn)
            if claims and not rnd.over:
                self._calls(rnd)
            if rnd.over:
                self._report_round(rnd, round_no)
                if isinstance(m, Series) and (m.over or m.game is not game):
                    self._say_game_end(m, game)

    def _game(self) -> Match:
        """The game being played: the match itself, or the current game of a series."""
        return self.match.game if isinstance(self.match, Series) else self.match

    def _say_game_start(self, m: Series) -> None:
        """A game of a series begins: its number and who starts it, when the series' rule says so."""
        k = len(m.games)
        self.say("")
        self.say(f"##### Game {k + 1} of at most {self.cfg.series_games} #####", bold=True)
        given = m.opener_record(k)
        if given is not None:
            self.say(f"{self.seat_name(given['seat'])} starts it ({OPENED_BY[given['by']]}).")

    def _say_game_end(self, m: Series, game: Match) -> None:
        names = self.side_names()
        who = "a draw" if game.winner is None else f"{names[game.winner]} wins it"
        self.say(f"Game {m.games.index(game) + 1} over: {who}; games won: "
                 + ", ".join(f"{n} {w}" for n, w in zip(names, m.won)) + ".", bold=True)

    def _say_opening(self, rnd: Round, index: int) -> None:
        """How the round opened: the deals thrown in, the fallback used and the opening draws (a bot's hidden
        tiles are not shown)."""
        deal = deal_of(rnd)
        thrown = cast(list[ThrownDeal], self._game().thrown_in(index))  # this round's alone, not the whole match's
        for line in (thrown_in_lines(self.cfg, deal, index, thrown, reveal=lambda s: False)
                     + opening_lines(self.cfg, deal, index, reveal=lambda s: s in self.humans)):
            self.say(line)

    # -- the muggins rule (family.md 2.3): claims and calls

    def _asks_to_call(self, w: CallWindow, amount: int | None, last: bool) -> bool:
        """Whether the human calls muggins (asked again, with the accepted answers, after another answer)."""
        while True:
            answer = self._input("Call muggins? [y/N]: ").strip().lower()
            if answer in ("q", "quit", "exit"):
                raise Quit("quit")
            if answer in ("", "n", "no"):
                if amount and last:
                    self.say(f"  {self.seat_name(w['placer'])}'s missed points go uncalled ({self._raw(amount)})")
                return False
            if answer in ("y", "yes", "muggins"):
                return True
            self.say(f"Cannot read {answer!r}: answer y to call muggins, n (or Enter) to let it go.", fg="red")

    def _claim(self, rnd: Round, seat: int, move: Move) -> Move:
        """The move with its claim: a bot claims its points, a person is asked."""
        if self.seats[seat] != "human":
            return replace(move, claim=rnd.points_of(move) // self.unit)  # bots claim all their points
        while True:
            text = self._input("Points you claim (shown) [0]: ").strip()
            if text.lower() in ("q", "quit", "exit"):
                raise Quit("quit")
            if not text:
                return replace(move, claim=0)
            if text.isdigit():
                return replace(move, claim=int(text))
            self.say(f"Cannot read {text!r}: give the points you claim as a number (0 or more).", fg="red")

    def _calls(self, rnd: Round) -> None:
        """After a placement: the first opponent may call muggins (under `any-opponent`, each opponent in turn
        order until one calls); a bot calls when there is something to take."""
        w: CallWindow | None = rnd.observation(rnd.seat_to_move if rnd.seat_to_move is not None else 0).get("call")
        if not w:
            return
        callers = w.get("callers", [w["caller"]])
        for caller in callers:
            amount = rnd.observation(caller)["call"]["amount"]
            if self.seats[caller] == "human":
                if self._asks_to_call(w, amount, caller == callers[-1]):
                    break
            elif amount:
                break
        else:
            return
        try:
            events = rnd.call(caller)
        except IllegalMove as exc:
            self.say(f"  No muggins ({exc.code}): {exc.message}.", fg="red")
            return
        self.say(f"  {self.seat_name(caller)} calls muggins on {self.seat_name(w['placer'])}!", bold=True)
        names = self.side_names()
        for ev in events:
            self.say(tb.event_line(ev, self.unit, names), fg=None if ev.accepted else "yellow")
        if rnd.over:
            self.say("  The call reaches the target.")

    def _raw(self, raw: int) -> str:
        return f"{raw} raw" + (f", {tb.fmt_shown(raw / self.unit)} shown" if self.unit != 1 else "")

    def _ask(self, rnd: Round, seat: int, legal: list[Move]) -> Move:
        obs = rnd.observation(seat)
        self.say("")
        self.show_board(rnd)
        self.say("Scores: " + self.compact_scores())
        drawn = obs["drawn"]
        if drawn:
            self.say(f"You drew {len(drawn)}: {tb.hand_line(drawn)}")
        self.show_hand(rnd, seat)
        others = ", ".join(f"seat {s}: {n}" for s, n in enumerate(obs["hand_counts"]) if s != seat)
        self.say(f"Tiles in other hands: {others}; boneyard: {obs['boneyard']}")
        if rnd.must_play is not None:
            self.say(f"You must play the tile you drew: {tb.fmt_tile(rnd.must_play)}")
        points = obs.get("points") or [0] * len(legal)
        self.say("Legal moves:", bold=True)
        width = len(str(len(legal)))
        for i, (mv, pts) in enumerate(zip(legal, points), 1):
            gain = ""
            if pts and self.show_points:
                gain = f"  +{pts} raw" + (f" ({tb.fmt_shown(pts / self.unit)} shown)" if self.unit != 1 else "")
            self.say(f"  {i:>{width}}) {mv}{gain}")
        while True:
            text = self._input(f"Your move [1-{len(legal)}]: " if len(legal) > 1 else "Your move [1]: ")
            claim, text = _split_claim(text)  # the muggins rule: "3 claim 2"
            choice = self._interpret(text, rnd, seat, legal)
            if choice is not None:
                if claim is not None:
                    return replace(choice, claim=claim)
                return choice

    def _input(self, prompt: str) -> str:
        try:
            return self.read(prompt)
        except EOFError:
            raise Quit("eof") from None
        except KeyboardInterrupt:
            raise Quit("interrupt") from None

    def _interpret(self, text: str, rnd: Round, seat: int, legal: list[Move]) -> Move | None:
        """The move a line of input chooses; None (after saying why, or doing what it asked) otherwise."""
        t = text.strip()
        if not t or self._command(t.lower(), rnd, seat):
            return None
        number = _move_number(t)
        if number is not None:
            if 1 <= number <= len(legal):
                return legal[number - 1]
            self.say(f"No move {number}: choose 1 to {len(legal)}.", fg="red")
            return None
        if t.startswith("#"):
            self.say(f"Cannot read {t!r}: write a move number as #3. Type ? for help.", fg="red")
            return None
        read = self._read_move(t)
        if read is None:
            return None
        move, tile = read
        if move is not None and move in legal:
            return move
        if tile is not None and (move is None or not rnd.leading):
            fits = [mv for mv in legal if mv.tile == tile]
            if fits or move is None:
                return self._fitting(t, tile, fits, legal)
        assert move is not None  # a text that is no move names a tile
        self._refused(move)
        return None

    def _command(self, low: str, rnd: Round, seat: int) -> bool:
        """Do what a command word asks (quit, help, board, hand, scores); False when the text is none."""
        if low in ("q", "quit", "exit"):
            raise Quit("quit")
        if low in ("?", "help", "h?"):
            self.say(HELP)
        elif low in ("b", "board"):
            self.show_board(rnd)
        elif low in ("h", "hand"):
            self.show_hand(rnd, seat)
        elif low in ("s", "scores", "score"):
            self.show_scores()
        else:
            return False
        return True

    def _read_move(self, t: str) -> tuple[Move | None, Tile | None] | None:
        """(the move written, the tile it names when it names only a tile), or None after saying it is unreadable."""
        try:
            move = Move.parse(t)
        except ValueError as exc:
            tile = _loose_tile(t)
            if tile is None:
                why = str(exc).removeprefix(f"cannot read move {t!r}: ")
                self.say(f"Cannot read {t!r}: {why}. Type ? for help.", fg="red")
                return None
            return None, tile
        return move, (move.tile if move.target is None and not move.draw else None)

    def _fitting(self, t: str, tile: Tile, fits: list[Move], legal: list[Move]) -> Move | None:
        """The one legal move of a tile; None, saying why, when it fits in several places or nowhere."""
        if len(fits) == 1:
            return fits[0]
        if fits:
            nums = ", ".join(f"{legal.index(mv) + 1}) {mv}" for mv in fits)
            self.say(f"{tb.fmt_tile(tile)} fits in several places: {nums}. Choose one.", fg="red")
        else:
            also = f" (move number {t} is written #{t})" if t.isdigit() else ""
            self.say(f"{tb.fmt_tile(tile)} is not playable now{also}. Type ? for help.", fg="red")
        return None

    def _refused(self, move: Move) -> None:
        """Let the engine say why a move is not legal (the state does not change on an illegal move)."""
        try:
            self.match.round.play(move)
        except IllegalMove as exc:
            self.say(f"Illegal move ({exc.code}): {exc.message}.", fg="red")
            return
        raise AssertionError("a move outside the legal list was accepted")  # pragma: no cover

    def _report_turn(self, rnd: Round, turn: Turn | None) -> None:
        if turn is None:
            return
        for s in turn.passed:
            self.say(f"  {self.seat_name(s)} passes (no placement, boneyard empty)")
        seat = turn.seat
        if turn.move.draw:  # "a player may draw while able to place"
            self._drew += 1
            tile = rnd.drawn_before_move[-1:] if not rnd.over else []
            if tile and (self.seats[seat] == "human" or not self.humans):
                self.say(f"Turn {self.turn_no}: {self.seat_name(seat)} draws {tb.hand_line(tile)} instead of placing")
            else:
                self.say(f"Turn {self.turn_no}: {self.seat_name(seat)} draws a tile instead of placing")
            return
        drew, self._drew = self._drew, 0
        if len(turn.drawn) > drew:
            if self.seats[seat] == "human" or not self.humans:
                self.say(f"  {self.seat_name(seat)} draws {len(turn.drawn)}: {tb.hand_line(turn.drawn)}")
            else:
                self.say(f"  {self.seat_name(seat)} draws {tb.tiles_count(len(turn.drawn))}")
        counted = " + ".join(str(v) for _t, _e, v in turn.counted) or "0"
        pts = turn.points
        gain = ""
        if pts:
            gain = f" -> {pts} raw" + (f" ({tb.fmt_shown(pts / self.unit)} shown)" if self.unit != 1 else "")
        self.say(f"Turn {self.turn_no}: {self.seat_name(seat)} plays {turn.move}; "
                 f"ends {counted} = {turn.count}{gain or ' (no score)'}")
        claim = turn.move.claim
        if claim is not None and claim * self.unit != pts:  # the muggins rule: what the claim missed
            said = claim * self.unit
            self.say(f"  {self.seat_name(seat)} claims {tb.fmt_shown(claim)} shown: "
                     + (f"missed {self._raw(pts - said)}" if said < pts else f"more than the score ({self._raw(said)} claimed)"),
                     fg="yellow")
        names = self.side_names()
        for ev in turn.events:
            self.say(tb.event_line(ev, self.unit, names),
                     fg=None if ev.accepted else "yellow")
        if not rnd.over and not rnd.hand_masks[seat]:
            # "the round ends when both partners go out": a seat out while its partner still plays
            self.say(f"  {self.seat_name(seat)} goes out; {_partner_words(rnd.sides, seat, self.seat_name)}")

    def _report_round(self, rnd: Round, round_no: int) -> None:
        res = rnd.result
        assert res is not None  # the round is over
        self.say("")
        if res.kind == "domino":
            assert res.seat is not None  # a domino has a seat that went out
            what = f"{self.seat_name(res.seat)} dominoes"
        elif res.kind == "blocked":
            if res.side is None or res.seat is None:
                what = "the round is blocked, with no winner"
            else:
                what = f"the round is blocked; {self.seat_name(res.seat)} has the lightest hand"
        else:
            what = f"the target is reached: the {'game' if isinstance(self.match, Series) else 'match'} ends at once"
        self.say(f"Round {round_no} over: {what}.", bold=True)
        for s, (hand, pips) in enumerate(zip(res.hands or rnd.hands, res.hand_pips)):
            self.say(f"  seat {s} holds {tb.hand_line(hand)} ({pips} pips)")
        self.show_scores()

    def _finished(self) -> int:
        m = self.match
        self.say("")
        if m.winner is None:
            self.say("Match over: a draw.", bold=True)
        elif isinstance(m, Series):  # "the match is the best of N games": the series' winner, and its games
            won = sorted(m.won, reverse=True)
            self.say(f"Match over: {self.side_names()[m.winner]} wins the series, {won[0]} games to {won[1]} "
                     f"(best of {self.cfg.series_games}).", bold=True)
        else:
            self.say(f"Match over: {self.side_names()[m.winner]} wins.", bold=True)
        self.show_scores()
        if self.save_path:
            return 0 if self._save(self.save_path) else 1
        self.say("(use --save FILE to keep a transcript for `rulelang replay`)")
        return 0

    def _stopped(self, reason: str) -> int:
        """Offer to save; the exit status is 130 after Ctrl-C (as shells expect), else 0 (1 if a save fails)."""
        self.say("")
        why = {"eof": "end of input", "interrupt": "interrupted", "quit": "you quit"}[reason]
        self.say(f"Game stopped ({why}) after {self.turn_no} turns.")
        done = 130 if reason == "interrupt" else 0
        if self.save_path:
            return done if self._save(self.save_path) else 1
        if reason == "eof" and not self.terminal:
            self.say("Transcript not saved (stdin is closed; use --save FILE to keep it).")
            return 0
        try:
            path = self.read("Save the transcript? File name (empty: don't save): ").strip()
        except (EOFError, KeyboardInterrupt):
            self.say("")
            self.say("Transcript not saved.")
            return done
        while path and not self._save(path):
            try:
                path = self.read("Another file name (empty: don't save): ").strip()
            except (EOFError, KeyboardInterrupt):
                self.say("")
                path = ""
        if not path:
            self.say("Transcript not saved.")
        return done

    def transcript(self) -> Transcript:
        t = transcript_of(self.match)
        t["x-play"] = {"variant": self.variant, "seats": self.seats, "seed": self.seed}
        return t

    def _save(self, path: str) -> bool:
        """Write the transcript atomically; False (and a message) when it cannot be written."""
        try:
            write_atomic(path, json.dumps(self.transcript(), indent=1) + "\n")
        except OSError as exc:
            self.say(f"Cannot save the transcript to {path}: {exc.strerror or exc}", fg="red")
            return False
        self.say(f"Transcript saved to {path} (replay it with: rulelang replay {path})")
        return True


def _split_claim(text: str) -> tuple[int | None, str]:
    """`3 claim 2` -> (2, "3"); text without a claim -> (None, text)."""
    m = re.fullmatch(r"\s*(.*?)\s+claim\s+(\d+)\s*", text)
    return (None, text) if m is None else (int(m.group(2)), m.group(1))


def _move_number(text: str) -> int | None:
    """A move number: `#N`, or digits that are not a two-digit tile (`3`, `99`, `123`); None otherwise.

    Two digits 0-6 (`15`, `02`) always name a tile, so a choice never depends
    on how many moves are listed.
    """
    digits = text[1:].strip() if text.startswith("#") else text
    if not digits.isdigit():
        return None
    if not text.startswith("#") and len(digits) == 2 and set(digits) <= set("0123456"):
        return None
    return int(digits)


def _loose_tile(text: str) -> Tile | None:
    """'15', '1|5', '1-5', '[5|1]' -> (1, 5); None otherwise."""
    m = re.fullmatch(r"\[?\s*([0-6])\s*[|/,\- ]?\s*([0-6])\s*\]?", text.strip())
    if not m:  # larger sets: halves up to 18, written with a separator ('9|9', '[10|12]', '10-12')
        m = re.fullmatch(r"\[?\s*(\d|1[0-8])\s*[|/,\- ]\s*(\d|1[0-8])\s*\]?", text.strip())
    if not m:
        return None
    a, b = int(m.group(1)), int(m.group(2))
    return (min(a, b), max(a, b))


# ------------------------------------------------------------------------------ replay


Echo = Callable[[str], None]


@dataclass
class _Replay:
    """What printing a transcript needs throughout: how to print, the sides' names, the unit and the options."""

    echo: Echo
    config: Config
    rounds: list[RoundRecord]
    names: list[str]
    nsides: int
    unit: int
    boards: bool
    tally: bool
    places: list[Place]  # where each round lies (its game in a series, its index there)
    games: list[GameRecord]  # a series' games (empty for a match)

    def round_start(self, index: int) -> None:
        deal = self.rounds[index]["deal"]
        unit = self.unit
        place = self.places[index]
        if place.game is not None and place.index == 0:
            self.game_start(place.game)
        index = place.index  # (in a series, the round's index in its game)
        self.echo("")
        self.echo(f"=== Round {index + 1} ===  seat {deal['opener']} opens; start scores "
                  + ", ".join(f"{self.names[i]} {tb.fmt_shown(s / unit if unit != 1 else s)}"
                              for i, s in enumerate(deal.get("scores") or [0] * self.nsides)))
        for line in thrown_in_lines(self.config, deal, index, self.rounds[index].get("thrown_in")):
            self.echo(f"  {line}")
        for s, h in enumerate(deal["hands"]):
            self.echo(f"  seat {s} is dealt {' '.join(h)}")
        for line in opening_lines(self.config, deal, index):  # the fallback used, the opening draws
            self.echo(f"  {line}")

    def round_end(self, st: Step) -> None:
        place = self.places[st.round_index]
        _print_round_end(st, self.echo, self.names, self.unit, self.tally, self.boards, place.index + 1)
        if place.game is not None and place.index == len(self.games[place.game]["rounds"]) - 1:
            self.game_end(place.game)

    def game_start(self, k: int) -> None:
        """A game of a series begins: its number, and who starts it when the series' rule gave the seat."""
        self.echo("")
        self.echo(f"##### Game {k + 1} of at most {self.config.series_games} #####")
        given = self.games[k].get("opener")
        if given is not None:
            self.echo(f"seat {given['seat']} starts it ({OPENED_BY.get(given['by'], given['by'])})")

    def game_end(self, k: int) -> None:
        """A game of a series is over: who won it, and the games won so far."""
        res = self.games[k].get("result") or {}
        if not res.get("over"):
            return
        won = [0] * self.nsides
        for g in self.games[:k + 1]:
            w = (g.get("result") or {}).get("winner")
            if w is not None:
                won[w] += 1
        w = res.get("winner")
        self.echo(f"Game {k + 1} over: " + ("a draw" if w is None else f"{self.names[w]} wins it") + "; games won: "
                  + ", ".join(f"{n} {c}" for n, c in zip(self.names, won)))

    def turn(self, st: Step, seen: tuple[int, int] | None) -> tuple[int, int] | None:
        """Print one turn; the passes and draws told so far when it was a draw move (else None)."""
        echo, unit, rec, rnd = self.echo, self.unit, st.record, st.round
        # after a draw move the passes and draws before it are listed again: say only the new ones
        seen_passed, seen_drawn = seen or (0, 0)  # (a round never ends on a draw move)
        pass_drawn = rec.get("pass_drawn", [])
        for k, s in enumerate(rec.get("passed", [])[seen_passed:], start=seen_passed):
            if k < len(pass_drawn) and pass_drawn[k]:  # the tiles it drew before it had to pass
                echo(f"  seat {s} draws {' '.join(pass_drawn[k])}")
            echo(f"  seat {s} passes")
        if rec.get("drawn", [])[seen_drawn:]:
            echo(f"  seat {rec['seat']} draws {' '.join(rec['drawn'][seen_drawn:])}")
        if rec.get("move") == "draw":
            echo(f"Turn {st.number}: seat {rec['seat']} draws a tile instead of placing")
            return (len(rec.get("passed", [])), len(rec.get("drawn", [])))
        counted = " + ".join(str(c[2]) for c in rec.get("counted", [])) or "0"
        pts = rec.get("points", 0)
        gain = f" -> {pts} raw" + (f" ({tb.fmt_shown(pts / unit)} shown)" if unit != 1 else "") if pts else ""
        echo(f"Turn {st.number}: seat {rec['seat']} plays {rec['move']}; ends {counted} = {rec.get('count')}{gain}")
        for ev in st.turn.events:
            echo(tb.event_line(ev, unit, self.names))
        if not rnd.over and not rnd.hand_masks[rec["seat"]]:  # side-out: out, the partner plays on
            echo(f"  seat {rec['seat']} goes out; {_partner_words(rnd.sides, rec['seat'], lambda p: f'seat {p}')}")
        if self.boards:
            for line in tb.layout_lines_of(rnd.layout):
                echo("    " + line)
        return None

    def match_end(self, t: Transcript) -> None:
        res: Result = t.get("result") or {}
        self.echo("")
        if "rounds" not in t and "games" not in t:
            return
        if res.get("over"):
            w = res.get("winner")
            if "games" in t and w is not None:  # a series: its winner and the games won
                won = sorted(res.get("games_won") or [0, 0], reverse=True)
                self.echo(f"Match over: {self.names[w]} wins the series, {won[0]} games to {won[1]} (best of "
                          f"{self.config.series_games}).")
            else:
                self.echo("Match over: " + ("a draw." if w is None else f"{self.names[w]} wins."))
        else:
            self.echo("The match was stopped before its end.")
        scores = res.get("scores") or []
        for line in tb.score_lines(scores, self.unit, self.names[:len(scores)], self.tally):
            self.echo(line)


def _replay_header(t: Transcript, cfg: Config, players: int) -> str:
    meta = t["x-play"] if isinstance(t.get("x-play"), dict) else {}
    seats = meta.get("seats")
    return (f"{cfg.title} ({cfg.name}): {players} players"
            + (f", seed {t.get('seed')}" if t.get("seed") is not None else "")
            + (f", seats {', '.join(map(str, seats))}" if isinstance(seats, list) and seats else ""))


def print_replay(t: Transcript, echo: Echo = click.echo, boards: bool = False, tally: bool = False) -> None:
    """Print a (checked) transcript turn by turn."""
    cfg = Config.from_dict(t["config"])
    rounds = rounds_of(t)
    players = rounds[0]["deal"]["players"] if rounds else 0
    side_of = list(cfg.sides_of(players)) if players else []
    partners = bool(side_of) and max(side_of) + 1 != players
    nsides = (max(side_of) + 1) if side_of else 0
    names = [f"team {s}" if partners else f"seat {s}" for s in range(nsides)]
    out = _Replay(echo, cfg, rounds, names, nsides, cfg.unit, boards, tally, places_of(t), list(t.get("games", [])))
    echo(_replay_header(t, cfg, players))
    current = -1
    last: Step | None = None
    seen: tuple[int, int] | None = None  # passes and draws already told, after a draw move
    for st in step_transcript(t):
        if st.round_index != current:
            if last is not None:
                out.round_end(last)
            current = st.round_index
            out.round_start(current)
        seen = out.turn(st, seen)
        last = st
    if last is not None:
        out.round_end(last)
    out.match_end(t)


def _partner_words(sides: Sequence[int], seat: int, name: Callable[[int], str]) -> str:
    """What follows a seat going out before the round ends: its partners play on (side-out)."""
    partners = [p for p, side in enumerate(sides) if side == sides[seat] and p != seat]
    who = " and ".join(name(p) for p in partners) or "the others"
    return f"{who} {'plays' if len(partners) == 1 else 'play'} on (the round ends when both partners go out)"


def _print_round_end(st: Step, echo: Echo, names: list[str], unit: int, tally: bool, boards: bool,
                     number: int) -> None:
    rnd = st.round
    if not boards:
        echo("  final layout:")
        for line in tb.layout_lines_of(rnd.layout):
            echo("    " + line)
    res = rnd.result
    if res is None:
        echo("  (the round was stopped here)")
        return
    who = f"seat {res.seat}" if res.seat is not None else "nobody"
    kind = {"domino": f"{who} dominoes", "blocked": f"blocked, winner {who}",
            "target": "the target is reached"}.get(res.kind, res.kind)
    echo(f"Round {number} over: {kind}; hands left "
         + ", ".join(f"seat {s}: {p} pips" for s, p in enumerate(res.hand_pips)))
    for line in tb.score_lines(res.scores, unit, names[:len(res.scores)], tally):
        echo(line)
