"""The search for deciding cases: deals and moves played under a value, replayed under its twin, until they differ.

For a pair (F, a, b) of conformance/deciding.py, every bundled ruleset is a
base: the configuration with F = a (`twin`) and its twin with F = b. Seeded
matches are played under the first by greedy or random players (one to three
rounds, from zero or from scores near the target, so that blocks, ties,
overshoots and draws come up), and replayed step by step under the twin by the
built-in engine; the first step observed differently ends the draft case, which
expects only what differs. The draft is then shrunk by the shrinker
`conform --shrink` uses (conformance/shrink.py), with the twin as the "failing
engine", and checked by an independent engine that plays the configuration
(the test engine tests/data/conformance/fresh_engine.py, else the toy engine
conformance/examples/toy_engine.py): the built-in engine only finds and
filters, it never decides an expected value alone.
"""
from __future__ import annotations

import importlib.util
import json
import random
import re
import sys
from collections.abc import Iterator
from dataclasses import dataclass, replace
from functools import cache
from pathlib import Path
from types import ModuleType
from typing import Any

import rulelang
from rulelang.config.vocabulary import SET_TILES
from rulelang.interpreter import Match, greedy_player, random_player

from .builtin import run_case
from .capabilities import unsupported
from .cases import Case
from .compare import ORDER, compare
from .deciding import Pair, domains, get_value, set_value, twin
from .drafting import deal_of, seat_to_move
from .shrink import shrink

HERE = Path(__file__).resolve().parent
CHECKERS = {  # the independent engines a found case is checked by, in order: (name, file)
    "the independent test engine (tests/data/conformance/fresh_engine.py)":
        HERE.parent / "tests" / "data" / "conformance" / "fresh_engine.py",
    "the independent toy engine (conformance/examples/toy_engine.py)": HERE / "examples" / "toy_engine.py",
}
KEYS = ("reject", *ORDER)
MAX_MOVES = 240  # moves of one searched match at most
SHRINK_RUNS = 400


@dataclass
class Found:
    """A deciding case found for (field, a) against b, before it is written."""

    pair: Pair
    base: str  # the bundled ruleset the configuration came from
    config: dict[str, Any]  # F = a
    twin: dict[str, Any]  # F = b
    data: dict[str, Any]  # players, setup, next_rounds, steps (the last expects what differs)
    seed: int
    checked_by: str | None = None  # the independent engine that agrees, if one plays the configuration


# ------------------------------------------------------------------------------------------ configurations

def text_of(config: dict[str, Any]) -> str:
    """A ruleset text that compiles to CONFIG (every statement written out)."""
    from rulelang.language.formatter import config_statements, statement_lines, statements_to_text

    said = {k: statement_lines(k, v) for k, v in config_statements(config) if k != "based_on"}
    return statements_to_text(said)


def with_count(config: dict[str, Any], n: int) -> dict[str, Any]:
    """CONFIG allowing N players too (hands no larger than leave four tiles of its set in the boneyard)."""
    if n in config["players"]["counts"]:
        return config
    out: dict[str, Any] = json.loads(json.dumps(config))
    out["players"]["counts"] = sorted([*out["players"]["counts"], n])
    top = out.get("tiles", 6)
    hand = max(1, min(min(out["hand_size"].values()), (SET_TILES[top] - 4) // n))  # the set as it is, hands cut
    out["hand_size"][str(n)] = hand
    out["reserve"][str(n)] = 0
    for key in ("raw_by_count", "tie_rounds"):
        table = out["target"].get(key)
        if table:
            table[str(n)] = table[str(min(int(k) for k in table))]
    return out


def _fresh_first(name: str) -> bool:
    """False (sorted first) for a bundled ruleset the independent test engine plays."""
    path = next(iter(CHECKERS.values()))
    if not path.exists():
        return False
    return unsupported(capabilities_of(_checker(str(path))), {"config": rulelang.compile_bundled(name)}) is not None


def _bases(widen: int) -> Iterator[tuple[str, dict[str, Any]]]:
    """The bundled rulesets (those the test engine plays first); with WIDEN, then the first WIDEN of them with
    one other closed field changed to each of its values (a rule in force only beside another's value)."""
    names = sorted(rulelang.bundled_names(), key=_fresh_first)
    for name in names:
        yield name, rulelang.compile_bundled(name)
    for name in names[:widen]:
        base = rulelang.compile_bundled(name)
        for other, (values, closed) in domains().items():
            if not closed or other.rsplit(".", 1)[-1].isdigit():
                continue
            for v in values:
                made = twin(base, other, v)
                if made is not None and get_value(base, other) != v:
                    yield name, made[0]


# Rules in force only beside two or more other values: the changes (to a bundled ruleset) that put them in force.
# A changed key `settlement.*.terms.K` sets K in every term; `+settlement.E.terms` adds a term.
IN_FORCE: dict[str, list[tuple[str, dict[str, Any]]]] = {
    "tiles": [("allfives", {"opener.first_round": "rotating-double", "opener.no_double": "next-seat"}),
              ("allfives", {"opener.first_round": "rotating-double", "opener.after_domino": "rotating-double",
                            "opener.no_double": "heaviest-hand"})],
    "target.raw": [("allfives", {"scoring.multiple": 1, "opener.lead": "any", "opener.first_round": "seat-0"})],
    "target.raw_by_count": [("allfives", {"scoring.multiple": 1, "opener.lead": "any", "opener.first_round": "seat-0"})],
    # a tie at the top that a round can leave standing: nothing scores in play, nothing is drawn
    "target.tie_rounds": [("pagat", {"scoring.in_play": False, "drawing": "none"})],
    # openers: blocks (nothing drawn), a double nobody holds led by the next seat, the larger set's top double
    "opener.after_block": [("allfives", {"drawing": "none", "opener.no_double": "next-seat"})],
    "opener.after_domino": [("allfives", {"opener.no_double": "next-seat"})],
    "opener.first_round": [("allfives", {"tiles": 9, "opener.no_double": "next-seat"})],
    "scoring.divisors": [("allfives", {"scoring.formula": "per-multiple"}), ("allfives", {"scoring.formula": "face-value"})],
    # a block's winner among partners: four players in two teams, nothing drawn
    "settlement.block": [("muggins-team-block", {"drawing": "none"})],
    "scoring.unit": [("allfives", {"scoring.multiple": 2, "settlement.*.terms.rounding": "round2"})],
    "settlement.domino.events": [("allfives", {"+settlement.domino.terms": {
        "kind": "tiles", "hands": "opponents", "pooling": "pooled", "per_tile": 1, "to": "winner", "sign": "credit"}})],
    "settlement.block.events": [("allfives", {"+settlement.block.terms": {
        "kind": "tiles", "hands": "opponents", "pooling": "pooled", "per_tile": 1, "to": "winner", "sign": "credit"}})],
}


def _in_force(field: str) -> Iterator[tuple[str, dict[str, Any]]]:
    """The bases IN_FORCE gives for FIELD (the field itself or the declared field it refines)."""
    for key, changes in IN_FORCE.items():
        if field != key and not field.startswith(key + "."):
            continue
        for name, change in changes:
            config = rulelang.compile_bundled(name)
            for path, value in change.items():
                if path.startswith("+"):
                    end = path.split(".")[1]
                    config["settlement"][end]["terms"] = [*config["settlement"][end]["terms"], value]
                elif path.startswith("settlement.*.terms."):
                    k = path.rsplit(".", 1)[1]
                    for end in ("domino", "block"):
                        config["settlement"][end]["terms"] = [{**t, k: value} if k in t else t
                                                              for t in config["settlement"][end]["terms"]]
                else:
                    config = set_value(config, path, value)
            yield f"{name}", config


def configs_for(pair: Pair, widen: int = 0) -> Iterator[tuple[str, dict[str, Any], dict[str, Any]]]:
    """(base name, configuration with F = a, its twin with F = b) from each bundled ruleset that has both (and,
    with WIDEN, from bases with one other rule changed)."""
    seen: set[str] = set()
    last = pair.field.rsplit(".", 1)[-1]
    for name, base in [*_in_force(pair.field), *_bases(widen)]:
        if last.isdigit() and not pair.field.startswith("players.counts"):
            base = with_count(base, int(last))
        made = twin(base, pair.field, pair.a)
        if made is None:
            continue
        ca = made[0]
        other = twin(ca, pair.field, pair.b)
        if other is None:
            continue
        key = json.dumps(ca, sort_keys=True)
        if key in seen:
            continue
        seen.add(key)
        yield name, ca, other[0]


# ------------------------------------------------------------------------------------------------- search

def _opener_rule(config: dict[str, Any], index: int, prev_kind: str | None) -> str:
    op = config["opener"]
    if index == 0:
        return str(op["first_round"])
    return str(op["after_domino"] if prev_kind == "domino" else op["after_block"])


def _lottery(rule: str, prev: Any) -> bool:
    return rule == "lottery" or (rule == "block-winner" and (prev is None or prev.seat is None))


def _target(config: dict[str, Any], n: int) -> int:
    return int((config["target"].get("raw_by_count") or {}).get(str(n), config["target"]["raw"]))


def _halves(tile: str) -> tuple[int, int]:
    a, b = tile[1:-1].split("|")
    return int(a), int(b)


def _shaped(deal: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """A deal as dealt, or cut short (few tiles in hand and boneyard: blocks, passes, dominoes soon), or with the
    doubles out of the hands (rounds opened by a double that nobody holds)."""
    shape = rng.choice(("full", "full", "short", "short", "no-doubles", "tiny"))
    if shape == "tiny":  # a tile or two each and nothing to draw: blocks at once, hands tied on pips now and then
        keep = rng.randint(1, 2)
        deal = {**deal, "hands": [h[:keep] for h in deal["hands"]], "boneyard": []}
    elif shape == "short":
        keep = rng.randint(2, 5)
        deal = {**deal, "hands": [h[:keep] for h in deal["hands"]], "boneyard": deal["boneyard"][:rng.randint(0, 6)]}
    elif shape == "no-doubles":
        hands = [[t for t in h if len(set(_halves(t))) == 2] for h in deal["hands"]]
        if all(hands):
            deal = {**deal, "hands": hands}
    return deal


def _start_scores(config: dict[str, Any], n: int, sides: int, rng: random.Random) -> list[int] | None:
    """Starting scores: none (zeros), near the target (ends, overshoots), or every side tied at it (ties at the top)."""
    unit = config["scoring"]["unit"]
    start = rng.random()
    if config["target"]["mode"] != "rounds" and start < 0.45:
        goal = _target(config, n)
        return [max(0, (goal - rng.randint(0, 25)) // unit * unit) if rng.random() < 0.7 else 0 for _ in range(sides)]
    if config["target"]["mode"] != "rounds" and start < 0.6:
        return [_target(config, n) // unit * unit] * sides
    return None


def _play_out(match: Match, config: dict[str, Any], rounds: int, bot: Any, rng: random.Random,
              first: dict[str, Any]) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """(the deals, the steps) of MATCH played by BOT for ROUNDS rounds at most; under the muggins rule the claims are
    right or wrong at random, and a random seat often calls (a refused call is kept: the case expects it)."""
    unit = config["scoring"]["unit"]
    n = match.round.players
    deals = [dict(first)]
    moves: list[dict[str, Any]] = []
    current = match.round
    claims = config.get("claims", "none") != "none"
    while not match.over and len(match.rounds) < rounds and len(moves) < MAX_MOVES:
        if match.round is not current:
            current = match.round
            deals.append(deal_of(current))
        move = bot(match.observation(seat_to_move(match)), match.legal_moves())
        step: dict[str, Any] = {"play": str(move)} if str(move) not in ("draw", "pass") else {str(move): True}
        if claims and "play" in step:
            points = match.round.points_of(move) // unit
            claim = points if rng.random() < 0.7 else rng.choice((0, points + 1, max(points - 1, 0)))
            move = replace(move, claim=claim)
            step["claim"] = claim
        try:
            match.play(move)
        except Exception:  # noqa: BLE001 - a claim the rules refuse: end the draft here
            break
        moves.append(step)
        if claims and "claim" in step and not match.over and rng.random() < 0.6:
            caller = rng.randrange(n)
            try:
                match.call(caller)
            except Exception:  # noqa: BLE001 - a call the rules refuse
                pass
            moves.append({"call": caller})
    return deals, moves


def play(config: dict[str, Any], other: dict[str, Any], seed: int, players: int | None = None) -> dict[str, Any] | None:
    """A seeded match under CONFIG as a case draft (players, setup, next_rounds, steps), openers given wherever
    CONFIG or OTHER would draw lots; None when it cannot be set up."""
    rng = random.Random(seed)
    n = players or rng.choice(config["players"]["counts"])
    rounds = rng.choice((1, 1, 2, 3, 5))
    sides = 2 if n in config["players"]["partnerships"] else n
    try:
        first = _shaped(deal_of(Match(config, n, seed=seed).round), rng)
    except Exception:  # noqa: BLE001 - a configuration the engine cannot deal (a hand of 0 tiles)
        return None
    top = min(c.get("tiles", 6) for c in (config, other))
    if top < config.get("tiles", 6):  # a twin on a smaller set: one round of the tiles both sets hold
        first = {**first, "hands": [[t for t in h if _halves(t)[1] <= top] for h in first["hands"]],
                 "boneyard": [t for t in first["boneyard"] if _halves(t)[1] <= top]}
        rounds = 1
        if not all(first["hands"]):
            return None
    scores = _start_scores(config, n, sides, rng)
    if scores is not None:
        first["scores"] = scores
    try:
        match = Match(config, n, seed=seed, deal=[first])
    except Exception:  # noqa: BLE001 - scores the configuration refuses: no draft from this seed
        return None
    bot = greedy_player(seed) if rng.random() < 0.5 else random_player(seed)
    deals, moves = _play_out(match, config, rounds, bot, rng, first)
    if not moves:
        return None
    for i, d in enumerate(deals):
        prev = match.rounds[i - 1] if 0 < i <= len(match.rounds) else None
        kind = prev.kind if prev is not None else None
        if not any(_lottery(_opener_rule(c, i, kind), prev) for c in (config, other)):
            d["opener"] = None  # the rule decides: the case checks the engine's choice
    draft: dict[str, Any] = {"players": n, "setup": deals[0], "steps": moves}
    if deals[1:]:
        draft["next_rounds"] = deals[1:]
    return draft


def _observed(config: dict[str, Any], draft: dict[str, Any]) -> list[dict[str, Any]] | None:
    try:
        return list(run_case({"config": config, **draft})["steps"])
    except Exception:  # noqa: BLE001 - a configuration the deal does not fit
        return None


def first_difference(config: dict[str, Any], other: dict[str, Any], draft: dict[str, Any]) -> dict[str, Any] | None:
    """DRAFT cut at the first step observed differently under OTHER, expecting CONFIG's observation of what differs."""
    mine, theirs = _observed(config, draft), _observed(other, draft)
    if mine is None or theirs is None or any(o.get("reject") for o, s in zip(mine, draft["steps"]) if "call" not in s):
        return None  # only a call may be refused (it is kept: the case expects the refusal)
    done = [{**s, "reject": o["reject"]} if o.get("reject") else s for s, o in zip(draft["steps"], mine)]
    for i, (x, y) in enumerate(zip(mine, theirs)):
        keys = [k for k in KEYS if x.get(k, "?") != y.get(k, "?")]
        if not keys:
            continue
        if x.get("reject"):
            return {**draft, "steps": done[:i + 1]}
        expect = {k: x[k] for k in keys if k != "reject" and k in x}
        if not expect:
            expect = {"seat": x["seat"]} if "seat" in x else {"scores": x["scores"]}
        return {**draft, "steps": [*done[:i], {**done[i], "expect": expect}]}
    return None


class TwinEngine:
    """The built-in engine playing the twin configuration: the "failing engine" the shrinker keeps failing."""

    def __init__(self, config: dict[str, Any]):
        self.config = config

    def run(self, seq: int, request: dict[str, Any], timeout: float) -> dict[str, Any]:
        try:
            return {"seq": seq, "result": run_case({**request, "config": self.config})}
        except Exception as exc:  # noqa: BLE001 - the twin cannot play it: no result
            return {"seq": seq, "errored": {"message": str(exc)}}


@cache
def _checker(path: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(f"checker_{Path(path).stem}", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def capabilities_of(module: ModuleType) -> dict[str, Any]:
    supported = getattr(module, "SUPPORTED", None)
    return dict(supported) if supported else {"@fields": module.ANY_VALUE, **module.VALUES}


def check(config: dict[str, Any], data: dict[str, Any]) -> tuple[str | None, list[str]]:
    """(the first independent engine that plays CONFIG and passes DATA, the ones that play it and disagree):
    every independent engine that plays it is asked."""
    request = {"config": config, **{k: v for k, v in data.items() if k in ("players", "setup", "next_rounds")},
               "steps": [{k: s[k] for k in ("play", "claim", "draw", "pass", "call", "observe") if k in s}
                         for s in data["steps"]]}
    disagree: list[str] = []
    agree: str | None = None
    for name, path in CHECKERS.items():
        if not path.exists():
            continue
        module = _checker(str(path))
        if unsupported(capabilities_of(module), request) is not None:
            continue
        try:
            result = module.run_case(request)
        except Exception:  # noqa: BLE001 - an engine failure is a disagreement
            result = None
        if compare(data, result) is not None:
            disagree.append(name)
        elif agree is None:
            agree = name
    return agree, disagree


def search(pair: Pair, tries: int = 60, seed: int = 1, shrinking: bool = True,
           configs: list[tuple[str, dict[str, Any], dict[str, Any]]] | None = None) -> Found | None:
    """A deciding case for PAIR (a draft under F = a that the twin F = b observes otherwise), shrunk; None when
    TRIES seeded matches on each base found none."""
    players = None
    last = pair.field.rsplit(".", 1)[-1]
    if last.isdigit() and not pair.field.startswith("players.counts"):
        players = int(last)
    for name, ca, cb in (configs if configs is not None else list(configs_for(pair))):
        for k in range(tries):
            s = seed * 100_003 + k
            draft = play(ca, cb, s, players)
            cut = first_difference(ca, cb, draft) if draft is not None else None
            if cut is None:
                continue
            data = shrunk(ca, cb, cut) if shrinking else cut
            return Found(pair, name, ca, cb, data, s)
    return None


def shrunk(config: dict[str, Any], other: dict[str, Any], data: dict[str, Any]) -> dict[str, Any]:
    """DATA made as small as the shrinker finds while the twin still fails it the same way."""
    full = {"id": "deciding-draft", "description": "a draft", "source": {"text": "generated", "where": "search"},
            "tags": ["partial-deal"], **data}
    case = Case("deciding-draft", "deciding", "deciding", Path("deciding.json"), full, {"text": text_of(config)})
    got = shrink(case, TwinEngine(other), max_runs=SHRINK_RUNS)
    if got is None:
        return data
    return {k: v for k, v in got.data.items() if k in ("players", "setup", "next_rounds", "steps")}


def slug(value: Any) -> str:
    """A value in an id: `"one-half"` -> one-half, `"seat-0"` -> seat-0, -1 -> minus-1, [1, 2] -> 1-2, [] -> empty."""
    text = json.dumps(value).strip('"').lower()
    if not isinstance(value, str):  # a number's sign (a word such as seat-0 keeps its hyphen)
        text = re.sub(r"(?<![0-9])-(?=[0-9])", "minus-", text)
    return re.sub(r"[^a-z0-9]+", "-", text).strip("-") or "empty"
