"""A match: rounds dealt from one seeded generator until a side wins (or the match is drawn)."""
from __future__ import annotations

import random as _random
from collections.abc import Sequence
from typing import Any

from .config import as_config
from .deal import DOUBLE_OPENERS, deal_masks, mask_of, redeals, set_tiles, thrown_in
from .errors import IllegalMove
from .players import random_player
from .records import Event, RoundResult, Turn, shown_points
from .round import Bots, Player, Round, Tiebreak
from .tiles import INDEX, TILES, Move, as_tile, format_tile, mask_indices

# chance as data: one deal (a dict) or a list of deals, one per round
DealSpec = dict[str, Any] | Sequence[dict[str, Any]]


class Match:
    """Rounds of one variant, dealt from `random.Random(seed)`, or from explicit deals."""

    def __init__(self, config: Any, players: int, seed: Any = None, record: bool = False,
                 deal: DealSpec | None = None, *, trust_openers: bool = True, opener: int | None = None):
        cfg = as_config(config)
        if players not in cfg.counts:
            raise ValueError(f"{cfg.name} is played by {', '.join(map(str, cfg.counts))} players, not {players}")
        self.config = cfg
        self.players = players
        self.seed = seed
        self.record = record
        self.rng = _random.Random(seed)
        # chance as data: explicit deals (a dict, or a list of dicts, one per round, used in order)
        if deal is None:
            deals: list[dict[str, Any]] = []
        elif isinstance(deal, dict):
            deals = [deal]
        else:
            deals = list(deal)
        self._deals = deals
        self._dealt = 0  # deals used so far, thrown-in ones included ("...: the tiles are dealt again")
        self._thrown: dict[int, list[dict[str, Any]]] = {}  # per round, the deals thrown in before its own
        self.deal_index = 0
        # trust_openers False (replay): a given opener only settles a lottery; otherwise the rule decides
        self._explicit_openers = trust_openers
        # a game of a series: its first round's opener, given by the series' rule (interpreter/series.py)
        self._game_opener = opener
        self._sides = cfg.sides_of(players)
        nsides = max(self._sides) + 1
        first = deals[0] if deals else {}
        self._scores = list(first.get("scores") or [0] * nsides)
        self.rounds: list[RoundResult] = []  # finished RoundResults
        self.round_log: list[Round] = []  # finished Rounds (kept when recording)
        self.over = False
        self.winner: int | None = None
        self._tiebreak: Tiebreak = False  # True in the extra rounds of a tie; with a fixed number, a countdown
        self.round: Round = self._new_round(cfg.opener_first, None)

    # -- rounds ------------------------------------------------------------------------

    def _new_round(self, rule: str, prev: Round | None) -> Round:
        """1. deal (again while the deal is thrown in)  2. choose the opener by `rule`  3. start the round."""
        cfg = self.config
        n = self.players
        i = len(self.rounds)
        while True:
            given = self._deals[self._dealt] if self._dealt < len(self._deals) else None
            self._dealt += 1
            # 1. deal: an explicit deal, else Fisher-Yates from the match's generator (the hands as bitmasks)
            if given is not None:
                hands = [[_idx(t) for t in h] for h in given["hands"]]
                bone = [_idx(t) for t in given["boneyard"]]
                _check_deal(n, hands, bone, set_tiles(cfg))
                masks = [mask_of(h) for h in hands]
            else:
                masks, bone = deal_masks(cfg, n, self.rng)
            # "if nobody holds the opening double: the tiles are dealt again", "the tiles are dealt again when a
            # hand holds N or more doubles": the next deal replaces this one
            if not redeals(cfg, rule) or (i == 0 and self._game_opener is not None) or (
                    given is not None and given.get("opener") is not None and self._explicit_openers) or (
                    not thrown_in(cfg, rule, masks, i)):
                break
            self._thrown.setdefault(i, []).append(
                {"hands": [[format_tile(TILES[t]) for t in mask_indices(m)] for m in masks],
                 "boneyard": [format_tile(TILES[t]) for t in bone]})
        self.deal_index = self._dealt - 1  # which deal the round is played from (thrown-in ones counted)
        # 2. opener
        opening = rule
        # the rules after a domino / a block only come after a finished round (a first round's rule
        # is "lottery" or "highest-double"), so `prev` and its result are set in those branches
        if rule == "dominoer":
            assert prev is not None and prev.result is not None
            opener = prev.result.seat  # "opener after a domino: the dominoer"
        elif rule == "after-dominoer":
            assert prev is not None and prev.result is not None and prev.result.seat is not None
            opener = (prev.result.seat + 1) % n  # "opener after a domino: the seat after the dominoer"
        elif rule in ("after-last-placer", "last-placer"):  # "opener after a block: the (seat after the) last to place"
            assert prev is not None and prev.result is not None
            opener = prev.after_last_placer if rule == "after-last-placer" else prev.last_placer
        elif rule == "next-seat":
            assert prev is not None
            opener = (prev.opener + 1) % n  # "...: the next seat" after the previous round's opener
        elif rule == "block-winner" and prev is not None and prev.result is not None and prev.result.seat is not None:
            opener = prev.result.seat  # "opener after a block: the block winner"
        elif rule == "seat-0":
            opener = 0  # "...: seat 0": a fixed opening seat
        elif rule in DOUBLE_OPENERS or rule == "heaviest-tile":
            opener = None  # "...: the highest double" (or a set double, or the heaviest tile): the Round finds its holder
        else:
            opening = "lottery"  # "...: lottery"; "the block winner" without a winner falls back to it
            opener = None
        opener = self._given_opener(i, given, opening, opener)
        # "the match lasts N rounds": the last round is decided like a tie-break round
        last = cfg.rounds is not None and i + 1 >= cfg.rounds
        tiebreak: Tiebreak = self._tiebreak or last  # (as given, False, True or a countdown: round.Tiebreak)
        return Round.from_masks(cfg, n, masks, bone, opener, self._scores, self.record, None,
                                opening, tiebreak, i, *_carried(prev))

    def _given_opener(self, i: int, given: dict[str, Any] | None, opening: str, opener: int | None) -> int | None:
        """The round's opener once what is given is applied: a series' game opener, a deal's opener, else the
        lottery's draw; else the rule's `opener` (None: the Round finds the holder of its double)."""
        if i == 0 and self._game_opener is not None:
            return self._game_opener  # "opener of a later game: ...": the series gives it, no lots drawn
        if given is not None and given.get("opener") is not None and (
                self._explicit_openers or opening == "lottery"):
            seat: int | None = given["opener"]  # (as given: a case's seat)
            return seat
        if opening == "lottery":
            return int(self.rng.random() * self.players)  # a uniform seat from the seeded generator
        return opener

    def finish_round(self) -> None:
        """After the current round ends: record its result; end the match or start the next round."""
        rnd = self.round
        res = rnd.result
        assert res is not None  # called once the round is over
        self._scores = rnd.scores
        self.rounds.append(res)
        if self.record:
            self.round_log.append(rnd)
        if res.match_over:
            self.over = True
            self.winner = res.winner
            return
        fixed = self.config.tie_rounds.get(self.players)
        if fixed:
            # "a tie at the top plays N extra rounds": N rounds after a tie, only the last one decides
            # (its `tiebreak` is 1; the ones before count down from N)
            self._tiebreak = fixed if res.tiebreak else max(int(self._tiebreak) - 1, 0)
        elif not self._tiebreak:
            self._tiebreak = res.tiebreak  # (False or True as given: round.Tiebreak)
        cfg = self.config
        rule = cfg.opener_after_domino if res.kind == "domino" else cfg.opener_after_block
        self.round = self._new_round(rule, rnd)

    # -- questions -------------------------------------------------------------------------

    @property
    def scores(self) -> list[int]:
        """Raw score per side."""
        return self.round.scores if not self.over else list(self._scores)

    @property
    def shown_scores(self) -> list[int | float]:
        """Shown score per side."""
        return [shown_points(s, self.config.unit) for s in self.scores]

    @property
    def seat_to_move(self) -> int | None:
        """The seat to move, or None when the match is over."""
        return None if self.over else self.round.seat_to_move

    def legal_moves(self) -> list[Move]:
        """The legal moves of the seat to move."""
        return [] if self.over else self.round.legal_moves()

    def observation(self, seat: int) -> dict[str, Any]:
        """The current round's observation for `seat`, with the round number."""
        obs = self.round.observation(seat)
        obs["round"] = len(self.rounds)
        return obs

    # -- changing it --------------------------------------------------------------------------

    def play(self, move: Move | str) -> Turn:
        """Play a move in the current round; start the next round when it ends."""
        if self.over:
            raise IllegalMove("round-over", "the match is over")
        turn = self.round.play(move)
        if self.round.over:
            self.finish_round()
        return turn

    def call(self, seat: int | None = None) -> list[Event]:
        """The muggins rule: `seat` calls on the last placement of the current round (Round.call)."""
        if self.over:
            raise IllegalMove("round-over", "the match is over")
        events = self.round.call(seat)
        if self.round.over:
            self.finish_round()  # the call won the match (the target after every event)
        return events

    def run(self, bots: Bots, max_rounds: int | None = None) -> Match:
        """Play to the end with one player callable per seat (or one for all)."""
        while not self.over:
            if max_rounds is not None and len(self.rounds) >= max_rounds:
                break
            self.round.run(bots)
            self.finish_round()
        return self

    # -- transcripts ------------------------------------------------------------------------------

    def thrown_in(self, k: int) -> list[dict[str, Any]]:
        """The deals thrown in before round `k`'s own (`...: the tiles are dealt again`), as the transcript's
        `thrown_in` records them: one round's, without building the whole match's transcript."""
        return [dict(d) for d in self._thrown.get(k, [])]

    def transcript(self) -> dict[str, Any]:
        """The match as a JSON-ready dict: config, seed, every round, the result; needs record=True."""
        if not self.record:
            raise ValueError("transcripts need record=True")
        rounds = list(self.round_log)
        if not self.over and self.round not in rounds:
            rounds.append(self.round)
        return {
            "format": "rulelang-transcript/1",
            "config": self.config.to_dict(),
            "players": self.players,
            "seed": self.seed,
            "rounds": [_round_record(k, r, self._thrown.get(k)) for k, r in enumerate(rounds)],
            "result": {"over": self.over, "winner": self.winner, "scores": self.scores,
                       "shown_scores": self.shown_scores, "rounds": len(self.rounds)},
        }


def _carried(prev: Round | None) -> tuple[int | None, int | None]:
    """What a round carries from the one before it: that round's opener ("...: the next seat") and the match's
    first opener ("ties at the top: the side that started the match wins"); nothing for the match's first."""
    return (None, None) if prev is None else (prev.opener, prev.first_opener)


def _round_record(k: int, rnd: Round, thrown: list[dict[str, Any]] | None) -> dict[str, Any]:
    """A round of a match transcript: its deal, turns and result, and the deals thrown in before it."""
    out: dict[str, Any] = {"deal": rnd.deal_dict(), "turns": [t.to_dict() for t in rnd.turns],
                           "result": rnd.result.to_dict() if rnd.result else None}
    if thrown:
        out["thrown_in"] = thrown  # "...: the tiles are dealt again": the deals before this one, in order
    return out


def _check_deal(players: int, hands: list[list[int]], bone: list[int], in_set: int) -> None:
    """An explicit deal: one non-empty hand per seat, every tile of the variant's set (the first IN_SET tile
    indices) and no tile twice (ValueError otherwise).

    The same checks as `Round(...)`; only explicit deals need them (a shuffled deal is right by construction).
    """
    if len(hands) != players:
        raise ValueError(f"{players} hands expected, got {len(hands)}")
    seen: set[int] = set()
    for seat, h in enumerate(hands):
        if not h:
            raise ValueError(f"seat {seat} has an empty hand")
    for i in [i for h in hands for i in h] + list(bone):
        if i >= in_set:
            raise ValueError(f"tile {format_tile(TILES[i])} is not in the variant's set ({in_set} tiles)")
        if i in seen:
            raise ValueError(f"tile {format_tile(TILES[i])} dealt twice")
        seen.add(i)


def _idx(t: Any) -> int:
    return t if isinstance(t, int) else INDEX[as_tile(t)]


def _bots(bots: Bots | None, players: int, seed: Any) -> Sequence[Player]:
    if bots is None:
        base = seed if isinstance(seed, int) else 0
        return [random_player(base * 8 + s) for s in range(players)]
    if callable(bots):
        return [bots] * players
    return list(bots)


def play_match(config: Any, players: int, seed: Any = None, bots: Bots | None = None, record: bool = False,
               deal: DealSpec | None = None, max_rounds: int | None = None) -> Match:
    """Play a whole match with player callables (default: seeded random players)."""
    m = Match(config, players, seed, record=record, deal=deal)
    return m.run(_bots(bots, players, seed), max_rounds=max_rounds)


def play_round(config: Any, players: int, seed: Any = None, bots: Bots | None = None, record: bool = False,
               deal: dict[str, Any] | None = None, scores: Sequence[int] | None = None) -> Round:
    """Play one round, dealt from `random.Random(seed)` (or `deal`), opened per opener.first_round."""
    cfg = as_config(config)
    rng = _random.Random(seed)
    if deal is not None:
        rnd = Round(cfg, players, deal["hands"], deal["boneyard"], deal.get("opener"),
                    scores if scores is not None else deal.get("scores"), record, rng,
                    opening=deal.get("opening"), tiebreak=deal.get("tiebreak", False))
    else:
        rnd = Round.deal(cfg, players, rng, scores=scores, record=record)
    return rnd.run(_bots(bots, players, seed))


__all__ = ["Match", "play_match", "play_round"]
