"""Play many bot matches (optionally in parallel) and summarise them.

Determinism: match ``i`` of a run with seed ``S`` is dealt from
``match_seed(S, i)`` and its bots are seeded from ``bot_seed(S, i, seat)``; a
match depends on nothing else, so the results are the same whatever the number
of worker processes.
"""
from __future__ import annotations

import csv
import hashlib
import io
import json
import os
import stat as filestat
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import IO, cast

from rulelang.base.jsontypes import ConfigJSON
from rulelang.base.outfiles import write_atomic
from rulelang.base.procs import run_in_workers
from rulelang.interpreter import Config, Event, Round
from rulelang.interpreter.claims import set_miss_rate
from rulelang.interpreter.players import FastPlayer
from rulelang.interpreter.series import Series, new_match
from rulelang.tools import resume, stats
from rulelang.tools.bots import BOTS
from rulelang.tools.configs import ToolError
from rulelang.tools.documents import SimMatch, SimRound

MAX_ROUNDS = 400  # a match still running after this many rounds is recorded as unfinished
SETTLEMENT_KINDS = ("domino", "block")
CALL_KIND = "call"  # the muggins rule: points an opponent's call takes (missed points, or a claim as a penalty)


def has_calls(config: Config) -> bool:
    """Whether opponents' calls score (the muggins rule, `claims: muggins` or `any-opponent`; a call under
    `lost-if-called` takes nothing): only then do the outputs give the points of calls, so that every other
    variant's results keep their shape."""
    return config.claims in ("muggins", "any-opponent")


def _derive(*parts: object) -> int:
    h = hashlib.sha256("/".join(str(p) for p in parts).encode()).hexdigest()
    return int(h[:15], 16)


def match_seed(seed: int, index: int) -> int:
    return _derive("match", seed, index)


def bot_seed(seed: int, index: int, seat: int) -> int:
    return _derive("bot", seed, index, seat)


def parse_bots(text: str | None, players: int) -> list[str]:
    known = BOTS
    if text is not None and not text.strip():
        raise ToolError(f"--bots is empty (bots: {', '.join(sorted(known))})")
    names = [b.strip() for b in (text or "greedy").split(",")]
    if "" in names:
        raise ToolError(f"--bots {text!r} has an empty name (give one bot, or one per seat, separated by commas)")
    for b in names:
        if b not in known:
            raise ToolError(f"unknown bot {b!r} (bots: {', '.join(sorted(known))})")
    if len(names) == 1:
        names = names * players
    if len(names) != players:
        raise ToolError(f"--bots names {len(names)} bots for {players} players (give one, or one per seat)")
    return names


def n_sides(config: Config, players: int) -> int:
    return max(config.sides_of(players)) + 1


# --------------------------------------------------------------------------- one match

class _Plan:
    """A configuration and bot line-up prepared for simulate's matches: made once per worker, not per match."""

    def __init__(self, config_dict: ConfigJSON, players: int, bots: Sequence[str], miss_rate: float = 0.0):
        self.cfg = Config.from_dict(config_dict)
        self.miss_rate = miss_rate  # the muggins rule: how often a bot misses a scoring placement's points
        self.match = new_match  # a Match, or a Series under `the match is the best of N games`
        self.players = players
        self.bots = list(bots)
        self.factories = [BOTS[b] for b in self.bots]
        self.sides = n_sides(self.cfg, players)
        self.calls = has_calls(self.cfg)


_PLANS: dict[tuple[str, int, tuple[str, ...], float], _Plan] = {}


def _plan(config_dict: ConfigJSON, players: int, bots: Sequence[str], miss_rate: float = 0.0) -> _Plan:
    """The plan of a run, compiled on the first call in this process and reused after."""
    key = (json.dumps(config_dict, sort_keys=True), players, tuple(bots), miss_rate)
    plan = _PLANS.get(key)
    if plan is None:
        plan = _PLANS[key] = _Plan(config_dict, players, bots, miss_rate)
    return plan


def run_match(config_dict: ConfigJSON, players: int, bots: Sequence[str], seed: int, index: int,
              history: bool = False) -> SimMatch:
    """Play match ``index`` of a run seeded ``seed``; a JSON-ready summary."""
    return _play(_plan(config_dict, players, bots), seed, index, history)


def _seat_bots(plan: _Plan, seed: int, index: int) -> list[FastPlayer]:
    """The bots of match `index`, each from its own seed (and, under the muggins rule, its own miss generator)."""
    seat_bots = [make(bot_seed(seed, index, s)) for s, make in enumerate(plan.factories)]
    if plan.miss_rate:  # the muggins rule: bots that miss points, from generators of their own
        for s, b in enumerate(seat_bots):
            set_miss_rate(b, plan.miss_rate, _derive("miss", seed, index, s))
    return seat_bots


def _round_detail(rnd: Round, calls: bool) -> SimRound:
    """What a played round adds to a match's summary: how it ended and where its points came from."""
    evs = rnd.events
    placement = settlement = called = discarded = 0
    for e in evs:
        if not e.accepted:
            discarded += 1
        elif e.kind == "placement":
            placement += e.raw
        elif e.kind in SETTLEMENT_KINDS:
            settlement += e.raw
        elif e.kind == CALL_KIND:
            called += e.raw
    res = rnd.result
    detail: SimRound = {
        "kind": res.kind if res else "unfinished",
        "turns": rnd.placements,
        "events": len(evs),
        "discarded": discarded,
        "placement": placement,
        "settlement": settlement,
    }
    if calls:
        detail["call"] = called
    return detail


def _race_steps(start: list[int], events: Sequence[Event]) -> list[list[int]]:
    """The scores after each accepted event of a round, from the scores `start` it began with."""
    steps = []
    score = list(start)
    for e in events:
        if e.accepted:
            score[e.side] = e.score_after
            steps.append(list(score))
    return steps


def _play(plan: _Plan, seed: int, index: int, history: bool) -> SimMatch:
    """Match ``index`` of a run seeded ``seed``, from a prepared plan."""
    cfg = plan.cfg
    seat_bots = _seat_bots(plan, seed, index)
    mseed = match_seed(seed, index)
    match = plan.match(cfg, plan.players, mseed)
    rounds: list[SimRound] = []
    race: list[list[int]] = [[0] * plan.sides] if history else []
    while not match.over and len(match.rounds) < MAX_ROUNDS:
        rnd = match.round
        match.run(seat_bots, max_rounds=len(match.rounds) + 1)
        rounds.append(_round_detail(rnd, plan.calls))
        if history:
            race.extend(_race_steps(race[-1], rnd.events))
    scores = match.scores
    unit = cfg.unit
    out: SimMatch = {
        "index": index,
        "seed": mseed,
        "variant": cfg.name,
        "players": plan.players,
        "bots": list(plan.bots),
        "finished": bool(match.over),
        "winner": match.winner if match.over else None,
        "scores": list(scores),
        "shown_scores": [s / unit if unit != 1 else s for s in scores],
        "rounds": len(rounds),
        "round_details": rounds,
    }
    if isinstance(match, Series):  # "the match is the best of N games": `winner` is the series', `scores` the last game's
        out["games_won"] = list(match.won)
        out["games"] = len(match.games)
    if plan.miss_rate:  # a study with --miss-rate says so in each match (--resume refuses a file of another)
        out["miss_rate"] = plan.miss_rate
    if history:
        out["race"] = race
    return out


Chunk = tuple[ConfigJSON, int, Sequence[str], int, list[int], int | None, float]
"""A worker's task: (configuration, players, bots, seed, match indices, the index that keeps its history, miss rate)."""


def _run_chunk(args: Chunk) -> list[SimMatch]:
    config_dict, players, bots, seed, indices, history_index, miss_rate = args
    plan = _plan(config_dict, players, bots, miss_rate)  # compiled once per worker process (cached across its chunks)
    return [_play(plan, seed, i, i == history_index) for i in indices]


def run_matches(config_dict: ConfigJSON, players: int, bots: Sequence[str], seed: int, matches: int,
                jobs: int = 1, progress: Callable[[int], None] | None = None,
                history_index: int | None = 0, miss_rate: float = 0.0,
                journal: Journal | StreamJournal | None = None) -> list[SimMatch]:
    """Play ``matches`` matches; results sorted by index (identical for every ``jobs``).

    ``miss_rate``: under the muggins rule, each bot misses a scoring placement's points this often.
    ``journal``: each finished match is written to it at once; the matches it already holds are not played."""
    if matches < 0:
        raise ToolError("--matches must be at least 0")
    bots = list(bots)
    results: list[SimMatch] = []
    todo = list(range(matches))
    if journal is not None:
        results = journal.kept_of(config_dict.get("name"), matches, history_index)
        done = {r["index"] for r in results}
        todo = [i for i in todo if i not in done]
        if progress and results:
            progress(len(results))
    if jobs <= 1 or len(todo) <= 1:
        plan = _plan(config_dict, players, bots, miss_rate)
        for i in todo:
            results.append(_play(plan, seed, i, i == history_index))
            if journal is not None:
                journal.write(results[-1:])
            if progress:
                progress(1)
        results.sort(key=lambda r: r["index"])
        return results
    chunk = max(1, min(25, len(todo) // (jobs * 4) or 1))
    tasks = [(config_dict, players, bots, seed, todo[a:a + chunk], history_index, miss_rate)
             for a in range(0, len(todo), chunk)]

    def take(part: list[SimMatch]) -> None:
        results.extend(part)
        if journal is not None:
            journal.write(part)
        if progress:
            progress(len(part))

    run_in_workers(_run_chunk, tasks, jobs, take)
    results.sort(key=lambda r: r["index"])
    return results




# --------------------------------------------------------------------------- summary

@dataclass
class Summary:
    variant: str
    matches: int
    sides: int
    partnerships: bool
    wins: list[int]
    draws: int
    unfinished: int
    rounds_per_match: list[float]
    turns_per_round: list[float]
    rounds_total: int
    blocked_rounds: int
    events_total: int
    discarded_events: int
    placement_per_round: list[float]
    settlement_per_round: list[float]
    unit: int
    target: int = 0
    # per match, in match order (the same seeds under `--vs`, so the two variants pair match by match)
    match_winners: list[int | None] = field(default_factory=list)
    match_turns_per_round: list[float] = field(default_factory=list)
    match_play_per_round: list[float] = field(default_factory=list)
    match_settlement_per_round: list[float] = field(default_factory=list)
    match_blocked_share: list[float] = field(default_factory=list)
    match_discarded_share: list[float] = field(default_factory=list)
    # the muggins rule (`has_calls`): points taken by calls, per round and per match; None without calls
    call_per_round: list[float] | None = None
    match_call_per_round: list[float] | None = None
    # "the match is the best of N games": N, and the games each match took; None for a match of one game
    series_games: int | None = None
    games_per_match: list[float] | None = None

    def win_rate(self, side: int) -> float:
        return self.wins[side] / self.matches if self.matches else float("nan")

    def win_ci(self, side: int) -> tuple[float, float]:
        return stats.wilson_interval(self.wins[side], self.matches)


def summarize(results: Sequence[SimMatch], config: Config, players: int) -> Summary:
    sides = n_sides(config, players)
    wins = [0] * sides
    draws = unfinished = 0
    rpm: list[float] = []
    tpr: list[float] = []
    pl: list[float] = []
    st: list[float] = []
    blocked = events = discarded = 0
    calls = has_calls(config)
    cl: list[float] = []
    winners: list[int | None] = []
    per_match: dict[str, list[float]] = {k: [] for k in ("turns", "play", "settle", "call", "blocked", "discarded")}
    for r in results:
        details = r["round_details"]
        n_rounds = len(details) or 1
        winners.append(r["winner"] if r["finished"] else None)
        per_match["turns"].append(sum(d["turns"] for d in details) / n_rounds)
        per_match["play"].append(sum(d["placement"] for d in details) / n_rounds)
        per_match["settle"].append(sum(d["settlement"] for d in details) / n_rounds)
        if calls:
            per_match["call"].append(sum(d["call"] for d in details) / n_rounds)
        per_match["blocked"].append(sum(d["kind"] == "blocked" for d in details) / n_rounds)
        n_events = sum(d["events"] for d in details)
        per_match["discarded"].append(sum(d["discarded"] for d in details) / n_events if n_events else 0.0)
        if not r["finished"]:
            unfinished += 1
        elif r["winner"] is None:
            draws += 1
        else:
            wins[r["winner"]] += 1
        rpm.append(r["rounds"])
        for d in r["round_details"]:
            tpr.append(d["turns"])
            blocked += d["kind"] == "blocked"
            events += d["events"]
            discarded += d["discarded"]
            pl.append(d["placement"])
            st.append(d["settlement"])
            if calls:
                cl.append(d["call"])
    return Summary(
        variant=config.name, matches=len(results), sides=sides,
        partnerships=sides != players, wins=wins, draws=draws, unfinished=unfinished,
        rounds_per_match=rpm, turns_per_round=tpr, rounds_total=len(tpr), blocked_rounds=blocked,
        events_total=events, discarded_events=discarded, placement_per_round=pl,
        settlement_per_round=st, unit=config.unit, target=config.target,
        match_winners=winners, match_turns_per_round=per_match["turns"],
        match_play_per_round=per_match["play"], match_settlement_per_round=per_match["settle"],
        match_blocked_share=per_match["blocked"], match_discarded_share=per_match["discarded"],
        call_per_round=cl if calls else None, match_call_per_round=per_match["call"] if calls else None,
        series_games=config.series_games,
        games_per_match=[r.get("games", 1) for r in results] if config.series_games is not None else None,
    )


def _pct(p: float) -> str:
    return "-" if p != p else f"{100 * p:.1f}%"


def _ci(lo_hi: tuple[float, float]) -> str:
    return f"[{100 * lo_hi[0]:.1f}%, {100 * lo_hi[1]:.1f}%]"


def _side_label(s: Summary, side: int) -> str:
    return f"team {side} (seats {side}+{side + 2})" if s.partnerships else f"seat {side}"


def summary_rows(s: Summary) -> list[tuple[str, str, str]]:
    """(metric, value, detail) rows for one variant."""
    rows = []
    for side in range(s.sides):
        rows.append((f"win rate {_side_label(s, side)}", _pct(s.win_rate(side)), "95% CI " + _ci(s.win_ci(side))))
    if s.draws:
        rows.append(("drawn matches", str(s.draws), ""))
    if s.unfinished:
        rows.append(("unfinished matches", str(s.unfinished), f"stopped after {MAX_ROUNDS} rounds"))
    if s.games_per_match is not None:  # a series: the win rates above are the series'
        g = stats.summarize(s.games_per_match)
        rows.append(("games per match", g.fmt(), f"best of {s.series_games}; a match is won by its games"))
    r = stats.summarize(s.rounds_per_match)
    rows.append(("rounds per match", r.fmt(), f"min {r.minimum:g}, max {r.maximum:g}" if r.n else ""))
    t = stats.summarize(s.turns_per_round)
    rows.append(("turns per round", t.fmt(), f"min {t.minimum:g}, max {t.maximum:g}" if t.n else ""))
    rows.append(("blocked rounds", _pct(s.blocked_rounds / s.rounds_total if s.rounds_total else float("nan")),
                 f"{s.blocked_rounds} of {s.rounds_total}; 95% CI "
                 + _ci(stats.wilson_interval(s.blocked_rounds, s.rounds_total))))
    rows.append(("discarded events", _pct(s.discarded_events / s.events_total if s.events_total else float("nan")),
                 f"{s.discarded_events} of {s.events_total}"))
    unit = " raw" + (f" (/{s.unit} shown)" if s.unit != 1 else "")
    rows.append(("points per round: play", stats.summarize(s.placement_per_round).fmt(), "mean ± sd," + unit))
    rows.append(("points per round: settlement", stats.summarize(s.settlement_per_round).fmt(),
                 "mean ± sd," + unit + "; net of debits"))
    if s.call_per_round is not None:
        rows.append(("points per round: call", stats.summarize(s.call_per_round).fmt(),
                     "mean ± sd," + unit + "; taken by muggins calls"))
    return rows


def _call_metric(a: Summary, b: Summary, per_match: bool) -> list[tuple[str, list[float], list[float]]]:
    """The `--vs` row of the points of calls, when either variant has calls (a variant without: 0 per round)."""
    if a.call_per_round is None and b.call_per_round is None:
        return []

    def values(s: Summary) -> list[float]:
        if per_match:
            return s.match_call_per_round if s.match_call_per_round is not None else [0.0] * s.matches
        return s.call_per_round if s.call_per_round is not None else [0.0] * s.rounds_total

    return [("points per round: call (raw)", values(a), values(b))]


def paired_tests(a: Summary, b: Summary) -> list[tuple[str, stats.TestResult]]:
    """The tests of `--vs`, match by match: both variants played the same seeds, so match i of A pairs
    with match i of B. Wins: McNemar's exact test on the discordant pairs; per-match figures (rounds,
    and the per-round means and shares of each match): a paired t-test on the differences. Rounds of one
    match are not independent samples, so every figure is first reduced to one value per match."""
    if a.matches != b.matches or len(a.match_winners) != len(b.match_winners):
        raise ValueError("--vs compares the same matches: both runs need the same number of matches")
    out: list[tuple[str, stats.TestResult]] = []
    for side in range(min(a.sides, b.sides)):
        a_only = sum(x == side and y != side for x, y in zip(a.match_winners, b.match_winners))
        b_only = sum(y == side and x != side for x, y in zip(a.match_winners, b.match_winners))
        out.append((f"win rate {_side_label(a, side)}", stats.mcnemar_exact(a_only, b_only)))
    for label, xa, xb in (
        ("rounds per match", a.rounds_per_match, b.rounds_per_match),
        ("turns per round", a.match_turns_per_round, b.match_turns_per_round),
        ("points per round: play (raw)", a.match_play_per_round, b.match_play_per_round),
        ("points per round: settlement (raw)", a.match_settlement_per_round, b.match_settlement_per_round),
        *_call_metric(a, b, per_match=True),
        ("blocked rounds", a.match_blocked_share, b.match_blocked_share),
        ("discarded events", a.match_discarded_share, b.match_discarded_share),
    ):
        out.append((label, stats.paired_t(xa, xb)))
    return out


def significant(tests: Sequence[tuple[str, stats.TestResult]], alpha: float) -> list[bool]:
    """Which differences hold at family-wise level alpha (Holm over every test of the comparison)."""
    return stats.holm([t.p_value for _, t in tests], alpha)


def comparison_rows(a: Summary, b: Summary, alpha: float = 0.05) -> list[tuple[str, str, str, str, str]]:
    """(metric, A, B, test, p) rows; a '*' after p marks a difference significant at alpha (Holm)."""
    tests = paired_tests(a, b)
    marks = significant(tests, alpha)
    values: dict[str, tuple[str, str]] = {}
    for side in range(min(a.sides, b.sides)):
        values[f"win rate {_side_label(a, side)}"] = (_pct(a.win_rate(side)) + " " + _ci(a.win_ci(side)),
                                                     _pct(b.win_rate(side)) + " " + _ci(b.win_ci(side)))
    for label, xa, xb in (
        ("rounds per match", a.rounds_per_match, b.rounds_per_match),
        ("turns per round", a.turns_per_round, b.turns_per_round),
        ("points per round: play (raw)", a.placement_per_round, b.placement_per_round),
        ("points per round: settlement (raw)", a.settlement_per_round, b.settlement_per_round),
        *_call_metric(a, b, per_match=False),
    ):
        values[label] = (stats.summarize(xa).fmt(), stats.summarize(xb).fmt())
    for label, ka, na, kb, nb in (
        ("blocked rounds", a.blocked_rounds, a.rounds_total, b.blocked_rounds, b.rounds_total),
        ("discarded events", a.discarded_events, a.events_total, b.discarded_events, b.events_total),
    ):
        values[label] = (_pct(ka / na if na else float("nan")), _pct(kb / nb if nb else float("nan")))
    rows = []
    for (label, res), sig in zip(tests, marks):
        va, vb = values[label]
        name = "McNemar (exact)" if res.test == "mcnemar" else "paired t"
        rows.append((label, va, vb, name, stats.format_p(res.p_value) + (" *" if sig else "")))
    for side in range(min(a.sides, b.sides), max(a.sides, b.sides)):
        va = _pct(a.win_rate(side)) + " " + _ci(a.win_ci(side)) if side < a.sides else "-"
        vb = _pct(b.win_rate(side)) + " " + _ci(b.win_ci(side)) if side < b.sides else "-"
        rows.append((f"win rate side {side}", va, vb, "", ""))
    return rows


# --------------------------------------------------------------------------- output

CSV_FIELDS = ("index", "seed", "variant", "players", "bots", "finished", "winner", "scores",
              "rounds", "turns", "blocked_rounds", "events", "discarded", "placement_points",
              "settlement_points")
CALL_FIELD = "call_points"  # after settlement_points, only in a file with matches of a variant with calls


def flat_row(r: SimMatch) -> dict[str, object]:
    d = r["round_details"]
    return {
        "index": r["index"], "seed": r["seed"], "variant": r["variant"], "players": r["players"],
        "bots": ",".join(r["bots"]), "finished": r["finished"],
        "winner": "" if r["winner"] is None else r["winner"],
        "scores": " ".join(str(s) for s in r["scores"]), "rounds": r["rounds"],
        "turns": sum(x["turns"] for x in d), "blocked_rounds": sum(x["kind"] == "blocked" for x in d),
        "events": sum(x["events"] for x in d), "discarded": sum(x["discarded"] for x in d),
        "placement_points": sum(x["placement"] for x in d),
        "settlement_points": sum(x["settlement"] for x in d),
        **({CALL_FIELD: sum(x["call"] for x in d)} if any("call" in x for x in d) else {}),
    }


class Journal:
    """`simulate -o FILE`'s per-match lines (JSON lines), written as each match finishes.

    An interrupted run keeps every finished match in FILE; with `resume`, the
    matches FILE holds (of the same study: variants, players, bots, seed and
    miss rate) are not played again, and a file of anything else is refused
    as `balance --resume` refuses it (rulelang/tools/resume.py). The finished
    run rewrites FILE in match order, as it always did.
    """

    def __init__(self, path: str, players: int, bots: Sequence[str], seed: int, resume: bool,
                 miss_rates: dict[str, float] | None = None):
        self.path = path
        self.kept = self._read(path, players, list(bots), seed, miss_rates) if resume else []
        write_atomic(path, "".join(_line(r) for r in self.kept))  # the kept lines only: a cut-short line goes
        self.fh = open(path, "a", encoding="utf-8")  # noqa: SIM115 - closed by close()

    @staticmethod
    def _read(path: str, players: int, bots: list[str], seed: int,
              miss_rates: dict[str, float] | None) -> list[SimMatch]:
        what = "a simulate results file (JSON lines of matches)"
        rows = cast(list[SimMatch], resume.json_lines(path, what))  # each checked below: a line of another run is refused
        for r in rows:
            try:
                same = ((r["players"], r["bots"], r["seed"]) == (players, bots, match_seed(seed, r["index"]))
                        and (miss_rates is None or miss_rates.get(r["variant"]) == r.get("miss_rate", 0.0)))
            except (KeyError, TypeError):
                raise resume.not_resumable(path, what) from None
            if not same:
                raise resume.another_study(path, "variants, players, bots, seed or miss rate")
        return rows

    def kept_of(self, variant: str | None, matches: int, history_index: int | None) -> list[SimMatch]:
        """The kept matches of VARIANT below MATCHES (not the one whose history is wanted: it is not kept)."""
        rows = {r["index"]: r for r in self.kept if r.get("variant") == variant and isinstance(r["index"], int)
                and 0 <= r["index"] < matches and r["index"] != history_index}
        return list(rows.values())

    def write(self, rows: Sequence[SimMatch]) -> None:
        self.fh.write("".join(_line(r) for r in rows))
        self.fh.flush()

    def close(self) -> None:
        self.fh.close()


class StreamJournal:
    """`simulate -o -`'s per-match lines on a stream, in match order, each flushed as soon as its turn comes.

    A reader that leaves (`| head -1`) makes the next write raise BrokenPipeError, which stops the run at
    once (exit 141) instead of after every match is played. The bytes are those of the finished run:
    matches done out of order (--jobs) wait until the ones before them are written."""

    def __init__(self, stream: IO[str]):
        self.stream = stream
        self.waiting: dict[int, SimMatch] = {}
        self.next = 0

    def kept_of(self, variant: str | None, matches: int, history_index: int | None) -> list[SimMatch]:
        """Nothing is kept from before: a stream is never resumed."""
        return []

    def write(self, rows: Sequence[SimMatch]) -> None:
        self.waiting.update((r["index"], r) for r in rows)
        ready = []
        while self.next in self.waiting:
            ready.append(_line(self.waiting.pop(self.next)))
            self.next += 1
        if ready:
            self.stream.write("".join(ready))
            self.stream.flush()

    def close(self) -> None:
        """The stream stays open: it is the command's standard output."""


def open_journal(path: str | None, players: int, bots: Sequence[str], seed: int, resume: bool,
                 miss_rates: dict[str, float] | None = None) -> Journal | None:
    """The journal of `simulate -o PATH`: for a JSON-lines file (not `-`, a CSV file, a device or a FIFO); else None.

    MISS_RATES: the variants of the study and the miss rate each is played with (None: any variant)."""
    if resume and (path is None or path == "-" or path.lower().endswith(".csv")):
        raise ToolError("--resume needs -o FILE, a JSON-lines file (not .csv, not -) of an interrupted run")
    if path is None or path == "-" or path.lower().endswith(".csv"):
        return None
    try:
        if not filestat.S_ISREG(os.stat(path).st_mode):
            return None  # written at the end, where it is (outfiles never replaces a device or FIFO)
    except FileNotFoundError:
        pass
    except OSError as exc:
        raise ToolError(f"cannot write {path}: {exc.strerror or exc}") from None
    try:
        return Journal(path, players, bots, seed, resume, miss_rates)
    except OSError as exc:
        raise ToolError(f"cannot write {path}: {exc.strerror or exc}") from None


def _line(r: SimMatch) -> str:
    """One match as a JSON line of the results file (without the score race, which only plots use)."""
    return json.dumps({k: v for k, v in r.items() if k != "race"}, sort_keys=True) + "\n"


def write_results(path: str, results: Sequence[SimMatch]) -> None:
    fh = io.StringIO(newline="")
    if path.lower().endswith(".csv"):
        rows = [flat_row(r) for r in results]
        # the points of calls only when some match had them (the muggins rule); else the columns are as ever
        fields = CSV_FIELDS + ((CALL_FIELD,) if any(CALL_FIELD in row for row in rows) else ())
        w = csv.DictWriter(fh, fieldnames=fields)
        w.writeheader()
        for row in rows:
            w.writerow(row)
    else:
        for r in results:
            fh.write(_line(r))
    write_atomic(path, fh.getvalue())
