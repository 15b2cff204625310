"""A held-out probe of what the protocol can see, to tell a surviving mutant that matters from one that cannot.

The probe is a set of protocol requests: for every ruleset the suite uses,
every bundled ruleset, every house ruleset of `tests/data/rulesets/house/` and
every bundled double-six ruleset played on the larger sets (double-nine and
double-twelve), and every player count each allows, seeded matches of random
and greedy players (starting near the target in half of them; the first round
dealt in full, dealt short, or dealt so that it blocks at once, its hands often
tied, partners' too, so that a block's winner and tie-breaks decide; and one
long match from 0 to the target, `LONG_STEPS` steps at most), with a seat's
view (`observe`) after every turn, an illegal attempt for every reason a move,
a draw, a pass, a claim or a call can be refused (PROTOCOL.md 3.11, 3.13,
3.14: `REFUSALS`), claims off by one and calls under the muggins rule, and,
once the match is over, a move, a call, a draw and a view that are
`round-over`; over up to `MAX_ROUNDS` rounds (the long match: to its end)
with the later deals' openers left to the rules. The unmutated built-in engine answers it
once; a mutated engine is *seen* when it answers any step otherwise, compared
as a case would compare it (`conformance/compare.py`, hidden tiles included).

A mutant the suite does not kill but the probe sees is a gap of the suite: a
rule mistake an engine author could make and the suite would pass. One the
probe does not see is *presumed* unobservable: the probe plays many states,
not every state, so the presumption is only as good as the probe's reach.

The probe shares no game with the suite (its seeds are `PROBE_SEEDS`, its
players random), so it is an independent witness. Its requests are never
cases: a gap it finds is closed by a case worked by hand or checked by an
independent engine (`python bench/probe.py witness ...` prints the game).
"""
from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
PROBE_SEEDS = (9001,)  # one match per ruleset and player count: disjoint from every seed the suite's cases use
# and one more whose first round is dealt short (a few tiles a hand, the rest out of play): blocks, pip ties
# and settlements of small hands come often there, and rarely in full deals
SHORT_SEEDS = (9002,)
# and two more, of one round each, dealt tied: no boneyard, hands whose pip totals tie (doubles that block at
# once, or 2 or 3 random tiles of equal totals), so that the round blocks with the lightest hands tied and the
# block's tie-break decides (a state the other matches reach about once in a few hundred rounds)
TIED_SEEDS = (9003, 9005)
# and two more, of one round each, dealt doubles only (1 to 3 a hand, no boneyard): the round blocks after the
# lead, and the seat with the fewest tiles is often not the one with the lightest hand
DOUBLES_SEEDS = (9004, 9006)
# and, where partners play, three more, of one round each, dealt doubles so that two partners share the lightest
# hand after the lead (now and then with an opponent too): partners' ties, which decide a block only there
PARTNERS_SEEDS = (9007, 9008, 9009)
# and one long match, from 0 to the target (several rounds): the engine's scores, ends and later openers over a
# whole match, and the target reached by any kind of event
LONG_SEEDS = (9010,)
TIED_TRIES = 400  # random attempts at a tied deal before the match falls back to a short one
MAX_ROUNDS = 3
MAX_STEPS = 300  # steps of one match at most (observations and attempts included)
LONG_STEPS = 1500  # steps of a long match at most (most end at the target before; bench/README.md says how many)
LARGER_SETS = ("double-nine", "double-twelve")
# every reason a step can be refused (conformance/PROTOCOL.md 3.11, 3.13, 3.14): the probe offers each where the
# state allows it (tests/test_bench_probe.py checks that its answers hold every one)
REFUSALS = ("round-over", "not-in-hand", "must-lead", "forced-lead", "must-play-drawn", "not-on-layout",
            "no-such-side", "branch-closed", "side-occupied", "dead-end", "no-match", "orientation-not-allowed",
            "must-place", "boneyard-empty", "claims-off", "negative-claim", "no-calls", "late-call", "not-caller",
            "nothing-to-take", "spinner-first")
ILLEGAL = 0.15  # chance of an illegal attempt before a turn
CALL = 0.35  # chance of a call after a placement, under the muggins rule
WRONG_CLAIM = 0.3  # chance that a claim is off by one unit
GLANCE = 0.3  # chance that a seat other than the one to move is observed after a turn
LONG_OBSERVE = 0.2  # in a long match, chance of a view after a turn (the other matches look after every turn)


def _step(move: str) -> dict[str, Any]:
    """A `play` step, a claim (the muggins rule) in its own field; the draw move is a `draw` step."""
    if move == "draw":
        return {"draw": True}  # (PROTOCOL.md: a step's `play` is a placement or a lead, never "draw")
    text, said, claim = move.partition(" claim ")
    return {"play": text, "claim": int(claim)} if said else {"play": move}


def _placement(move: Any) -> str:
    """A move's text without its tile: `` on [1|2] high`` (the lead: empty)."""
    from rulelang.interpreter import format_tile

    return "" if move.target is None else f" on {format_tile(move.target)} {move.side}"


def _refusals(match: Any, seat: int, legal: list[Any]) -> list[dict[str, Any]]:
    """A step of each kind the seat to move may not make now (PROTOCOL.md 3.11, 3.13, 3.14), where the state
    allows one: which code refuses it is the engine's to say (the unmutated engine's answer is the probe's)."""
    from rulelang.interpreter import format_tile
    from rulelang.interpreter.tiles import SIDES

    rnd, cfg = match.round, match.config
    obs = match.observation(seat)
    hand = [format_tile(t) for t in obs["hand"]]
    layout = [format_tile(t) for t in obs["layout"]]
    placements = [m for m in legal if not m.draw]
    placed = {format_tile(m.tile) for m in placements}
    others = [format_tile(t) for s, h in enumerate(rnd.hands) if s != seat for t in h]
    out: list[dict[str, Any]] = []
    where = _placement(placements[0]) if placements else ""
    if others:  # not-in-hand
        out.append({"play": others[len(out) % len(others)] + where})
    if not layout and hand:  # must-lead (a target on the lead), forced-lead (another tile than the forced one)
        out.append({"play": f"{hand[0]} on {hand[-1]} high"})
        out += [{"play": t} for t in hand if t not in placed][:1]
    elif hand:
        out.append({"play": hand[0]})  # must-lead: no target after the lead
        outside = [t for t in hand + others if t not in layout]
        out.append({"play": f"{hand[0]} on {outside[-1]} high"})  # not-on-layout
        target = layout[len(hand) % len(layout)]
        a, b = target.strip("[]").split("|")
        wrong = [x for x in SIDES if (x in ("high", "low")) == (a == b)]  # no-such-side (or branch-closed)
        out.append({"play": f"{hand[-1]} on {target} {wrong[len(layout) % len(wrong)]}"})
        for tile, side, other, _ in obs["connections"][-2:]:  # side-occupied, dead-end
            out.append({"play": f"{hand[0]} on {format_tile(tile)} {side}"})
            out.append({"play": f"{hand[-1]} on {format_tile(other)} {SIDES[len(hand) % len(SIDES)]}"})
        if [t for t in hand if t not in placed] and placements:  # no-match, or must-play-drawn
            out.append({"play": [t for t in hand if t not in placed][0] + where})
    if placements:  # orientation-not-allowed: an orientation on a move that is not the spinner's, or refused
        text = str(placements[-1])
        out.append({"play": text.removesuffix(" endwise") + (" crosswise" if text.endswith(" endwise") or len(hand) % 2
                                                              else " endwise")})
        out.append({"pass": True})  # must-place
        if not cfg.draw_while_able:
            out.append({"draw": True})  # must-place
    if cfg.draw_while_able and obs["drawable"] == 0:
        out.append({"draw": True})  # boneyard-empty
    if placements:  # claims-off (no claims), negative-claim
        out.append({"play": str(placements[0]), "claim": 1 if cfg.claims == "none" else -1})
    out.append({"call": (seat + len(hand)) % len(rnd.hands)})  # claims-off, no-calls, late-call, not-caller
    return out


def _illegal(rng: random.Random, match: Any, seat: int, legal: list[Any]) -> dict[str, Any] | None:
    """A step the seat to move may not make now (one of `_refusals`, drawn at random), or None."""
    steps = _refusals(match, seat, legal)
    return rng.choice(steps) if steps else None


def _apply(match: Any, step: dict[str, Any]) -> bool:
    """Make the step as the built-in engine's protocol side makes it; whether it was accepted."""
    from rulelang.interpreter import IllegalMove, Move

    rnd = match.round
    try:
        if match.over:
            return False  # every step after the match is `round-over`
        if "observe" in step:
            return True
        if "play" in step:
            move = Move.parse(step["play"])
            match.play(move if "claim" not in step else replace(move, claim=step["claim"]))
        elif "call" in step:
            match.call(step["call"])
        elif "draw" in step:
            rnd.draw()
        else:
            rnd.pass_turn()
    except IllegalMove:
        return False
    return True


def _pips(tile: str) -> int:
    """The pips of a tile written as text (`[2|5]`: 7)."""
    return sum(int(half) for half in tile.strip("[]").split("|"))


def _doubles_of(tiles: list[str]) -> list[str]:
    """The doubles among `tiles` (as text)."""
    return [t for t in tiles if len(set(t.strip("[]").split("|"))) == 1]


def _deal_doubles(rng: random.Random, doubles: list[str], sizes: Callable[[], list[int]]) -> list[list[str]] | None:
    """Hands of the given sizes (`sizes()`, drawn after the shuffle) cut from a shuffle of `doubles`, or None
    when there are too few."""
    pool = rng.sample(doubles, len(doubles))
    cut = sizes()
    if sum(cut) > len(pool):
        return None
    hands, k = [], 0
    for size in cut:
        hands.append(pool[k: k + size])
        k += size
    return hands


def _doubles_hands(rng: random.Random, tiles: list[str], players: int, tied: bool) -> list[list[str]] | None:
    """`players` disjoint hands of 1 to 3 doubles of `tiles` (a full set, as text), or None when the set has
    too few. Doubles match nothing in another hand, so the round blocks after the lead. `tied`: the lightest
    hands tie once the heaviest double has led (the usual openers lead it), half the time with as many tiles
    each (so that a tie of pips is one of tile counts too); otherwise the sizes are random, and the fewest
    tiles and the lightest hand are often different seats."""
    doubles = _doubles_of(tiles)
    same_size = rng.random() < 0.5

    def sizes() -> list[int]:
        return [rng.choice((1, 2, 3))] * players if same_size else [rng.choice((1, 2, 3)) for _ in range(players)]

    best: list[list[str]] | None = None
    best_tied = 1
    for _ in range(TIED_TRIES):
        hands = _deal_doubles(rng, doubles, sizes)
        if hands is None:
            continue
        if not tied:
            return hands
        lead = max((t for h in hands for t in h), key=_pips)
        after = [sum(_pips(t) for t in h if t != lead) for h in hands]
        count = after.count(min(after))
        if count == players:
            return hands
        if count > best_tied:
            best, best_tied = hands, count
    return best


def _partners_tied_hands(rng: random.Random, tiles: list[str], sides: tuple[int, ...],
                         opener: int | None) -> list[list[str]] | None:
    """Hands of 1 to 3 doubles of `tiles` a seat where two partners (`sides`: the side of each seat) hold the
    lightest hands, equal, whatever the leader leads: the leader (`opener`, or the holder of the heaviest double,
    who leads it under the usual openers) is not one of them and keeps more than them after any lead; or None
    when random attempts find none."""
    doubles = _doubles_of(tiles)
    for _ in range(10 * TIED_TRIES):  # a rarer deal than a tie of any two hands
        hands = _deal_doubles(rng, doubles, lambda: [rng.choice((1, 2, 3)) for _seat in sides])
        if hands is None:
            continue
        heaviest = max((t for h in hands for t in h), key=_pips)
        leader = opener if opener is not None else next(s for s, h in enumerate(hands) if heaviest in h)
        totals = [sum(_pips(t) for t in h) for h in hands]
        left = [x - (max(_pips(t) for t in hands[s]) if s == leader else 0) for s, x in enumerate(totals)]
        for pa in range(len(sides)):
            for pb in range(pa + 1, len(sides)):
                if sides[pa] != sides[pb] or leader in (pa, pb) or totals[pa] != totals[pb]:
                    continue
                if len(hands[leader]) > 1 and all(left[s] >= totals[pa] if s != leader else left[s] > totals[pa]
                                                  for s in range(len(sides)) if s not in (pa, pb)):
                    return hands
    return None


def _equal_total_hands(rng: random.Random, tiles: list[str], players: int) -> list[list[str]] | None:
    """`players` disjoint hands of 2 or 3 random tiles of `tiles`, every hand of the same pip total, or None
    when random attempts find none."""
    for _ in range(TIED_TRIES):
        pool = rng.sample(tiles, len(tiles))
        first = pool[: rng.choice((2, 3))]
        total = sum(_pips(t) for t in first)
        hands, used = [first], set(first)
        for _seat in range(players - 1):
            size = rng.choice((2, 3))
            left = [t for t in pool if t not in used]
            if len(left) < size:  # more players than the set leaves tiles for (twelve on a double-six)
                break
            for _attempt in range(40):
                hand = rng.sample(left, size)
                if sum(_pips(t) for t in hand) == total:
                    break
            else:
                break
            hands.append(hand)
            used.update(hand)
        if len(hands) == players:
            return hands
    return None


def _blocking_hands(rng: random.Random, tiles: list[str], players: int, deal: str) -> list[list[str]] | None:
    """The hands of a "tied" deal (half of them doubles, half random tiles of equal totals) or of a "doubles"
    deal (doubles of random sizes), or None."""
    if deal == "doubles":
        return _doubles_hands(rng, tiles, players, tied=False)
    if rng.random() < 0.5:
        got = _doubles_hands(rng, tiles, players, tied=True)
        if got is not None:
            return got
    return _equal_total_hands(rng, tiles, players)


def game(config: dict[str, Any], players: int, seed: int, name: str,
         deal: str = "full") -> tuple[dict[str, Any], list[bool]]:
    """One probe match: (its request, whether each of its steps was accepted), played by the engine now loaded;
    `deal`: "full" as the rules deal it, "long" (in full, from 0 to the target: the whole match), "short" (its
    first round dealt 2 to 4 tiles a hand and at most 3 in the boneyard), "tied" (no boneyard, hands whose pip totals tie), "doubles" (no boneyard, 1 to 3
    doubles a hand) or "partners" (doubles where two partners share the lightest hand); a deal the set cannot
    give falls back to a short one."""
    from rulelang.interpreter import Match, as_config, greedy_player, random_player

    cfg = as_config(config)
    rng = random.Random(f"probe:{name}:{players}:{seed}")
    first = Match(cfg, players, seed=seed, record=True)
    deal0 = first.round.deal_dict()
    setup: dict[str, Any] = {"hands": deal0["hands"], "boneyard": deal0["boneyard"],
                             "opener": deal0["opener"] if deal0["opening"] == "lottery" else None}
    tiles = [t for h in deal0["hands"] for t in h] + deal0["boneyard"]
    if deal == "partners":
        blocking = _partners_tied_hands(rng, tiles, cfg.sides_of(players), setup["opener"])
    else:
        blocking = _blocking_hands(rng, tiles, players, deal) if deal in ("tied", "doubles") else None
    if blocking is not None:
        setup["hands"], setup["boneyard"] = blocking, []
    elif deal != "full":
        setup["hands"] = [rng.sample(h, min(len(h), rng.randint(2, 4))) for h in setup["hands"]]
        setup["boneyard"] = setup["boneyard"][: rng.randint(0, 3)]
    nsides = max(cfg.sides_of(players)) + 1
    target = config["target"]
    if deal != "long" and rng.random() < 0.5 and target.get("mode") != "rounds" and target.get("raw"):
        unit = config["scoring"]["unit"]
        setup["scores"] = [max(0, target["raw"] - unit * rng.randint(1, 6)) for _ in range(nsides)]
    match = Match(cfg, players, seed=seed, record=True, deal=[setup], trust_openers=False)
    bots = [(random_player if rng.random() < 0.5 else greedy_player)(f"{seed}:{s}") for s in range(players)]
    claims = config.get("claims", "none") != "none"
    steps: list[dict[str, Any]] = [{"observe": s} for s in range(players)]
    accepted = [True] * players

    def add(step: dict[str, Any]) -> bool:
        ok = _apply(match, step)
        steps.append(step)
        accepted.append(ok)
        return ok

    # a blocking deal is there for its own round; a long match plays to its end
    rounds = 1 if blocking is not None else MAX_ROUNDS if deal != "long" else sys.maxsize
    cap = LONG_STEPS if deal == "long" else MAX_STEPS
    while not match.over and len(match.rounds) < rounds and len(steps) < cap:
        seat = match.seat_to_move
        legal = match.legal_moves()
        if rng.random() < ILLEGAL:
            bad = _illegal(rng, match, seat, legal)
            if bad is not None and add(bad):
                continue  # it was legal after all: it was the turn
        move = bots[seat](match.observation(seat), legal)
        if claims and not move.draw:
            claim = match.round.points_of(move) // config["scoring"]["unit"]
            if rng.random() < WRONG_CLAIM:
                claim = max(0, claim + rng.choice((-1, 1)))
            move = replace(move, claim=claim)
        add(_step(str(move)))
        if claims and not match.over and rng.random() < CALL:
            add({"call": rng.randrange(players)})
        if not match.over and (deal != "long" or rng.random() < LONG_OBSERVE):
            add({"observe": match.seat_to_move})
            if deal != "long" and rng.random() < GLANCE:
                add({"observe": rng.randrange(players)})
    if match.over:  # after the match every step is refused (`round-over`), whatever it is
        for step in ({"play": "[0|0]"}, {"call": 0}, {"draw": True}, {"pass": True}, {"observe": 0}):
            add(step)
    thrown0 = first.transcript()["rounds"][0].get("thrown_in", [])  # the deals thrown in before the first
    return _request(match, thrown0, setup, steps, name, players, seed), accepted


def _request(match: Any, thrown0: list[dict[str, Any]], setup: dict[str, Any], steps: list[dict[str, Any]],
             name: str, players: int, seed: int) -> dict[str, Any]:
    """The protocol request replaying the match: every deal (thrown-in ones too, from its transcript), openers
    left to the rules."""
    deals: list[dict[str, Any]] = []
    for k, rnd in enumerate(match.transcript()["rounds"]):
        thrown = (thrown0 if k == 0 else []) + rnd.get("thrown_in", [])
        deals += [dict(t, opener=None) for t in thrown]
        d = rnd["deal"]
        deals.append({"hands": d["hands"], "boneyard": d["boneyard"],
                      "opener": d["opener"] if d["opening"] == "lottery" else None})
    if "scores" in setup:
        deals[0]["scores"] = setup["scores"]
    return {"id": f"probe-{name}-{players}p-{seed}", "config": match.config.to_dict(), "players": players,
            "setup": deals[0], "next_rounds": deals[1:], "steps": steps}


def rulesets(cases: list[dict[str, Any]], extra: bool = True) -> list[tuple[str, Any]]:
    """(name, ruleset) of every ruleset the suite's cases use and, with `extra`, every bundled ruleset, every house
    ruleset (`house-NAME`, tests/data/rulesets/house/) and every bundled double-six ruleset on the larger sets
    (`NAME-double-nine`, `NAME-double-twelve`, inline texts `based on NAME`), once each, in a fixed order."""
    import hashlib

    seen: dict[str, Any] = {}
    for c in cases:
        r = c["ruleset"]
        key = r if isinstance(r, str) else "inline-" + hashlib.sha256(
            json.dumps(r, sort_keys=True).encode()).hexdigest()[:10]
        seen.setdefault(key, r)
    if extra:
        seen.update({k: v for k, v in extra_rulesets() if k not in seen})
    return sorted(seen.items())


def extra_rulesets() -> list[tuple[str, Any]]:
    """The rulesets beyond the suite's (see `rulesets`): bundled, house, and the larger sets."""
    import rulelang

    out: list[tuple[str, Any]] = [(name, name) for name in rulelang.bundled_names()]
    for path in sorted((REPO / "tests" / "data" / "rulesets" / "house").glob("*.rules")):
        out.append((f"house-{path.stem}", {"text": path.read_text(encoding="utf-8"),
                                           "filename": path.relative_to(REPO).as_posix()}))
    for name in rulelang.bundled_names():
        if rulelang.compile_bundled(name).get("tiles", 6) != 6:
            continue
        for tiles in LARGER_SETS:
            text = (f'ruleset {name}-{tiles} "{name} on a {tiles} set (bench/probe.py)"\n'
                    f'source "bench/probe.py: a bundled ruleset on a larger set"\nbased on {name}\n\ntiles {tiles}\n')
            out.append((f"{name}-{tiles}", {"text": text, "filename": f"{name}-{tiles}.rules"}))
    return out


def build(cases: list[dict[str, Any]], seeds: tuple[int, ...] = PROBE_SEEDS,
          short_seeds: tuple[int, ...] = SHORT_SEEDS,
          tied_seeds: tuple[int, ...] = TIED_SEEDS,
          doubles_seeds: tuple[int, ...] = DOUBLES_SEEDS,
          partners_seeds: tuple[int, ...] = PARTNERS_SEEDS,
          long_seeds: tuple[int, ...] = LONG_SEEDS,
          extra: bool = True) -> tuple[list[dict[str, Any]], list[str]]:
    """The probe for the suite's rulesets (and, with `extra`, the others of `rulesets`): [{"request", "answer"}]
    from the engine now loaded (unmutated), and the matches left out (a replay that does not accept what the
    match accepted)."""
    from rulelang.conformance.builtin import run_case
    from rulelang.conformance.configs import compiled
    from rulelang.interpreter import as_config

    entries: list[dict[str, Any]] = []
    dropped: list[str] = []
    for k, (name, ruleset) in enumerate(rulesets(cases, extra)):
        try:
            config = compiled(ruleset)
        except Exception:  # noqa: BLE001 - a case ruleset that does not compile is the suite's business
            continue
        partnerships = as_config(config).partnerships
        counts = config["players"]["counts"]
        for players in counts:
            plan = [(s, "full") for s in seeds] + [(s, "short") for s in short_seeds] \
                + [(s, "tied") for s in tied_seeds] + [(s, "doubles") for s in doubles_seeds]
            if players == counts[k % len(counts)]:  # a long match at one count a ruleset, the counts in turn
                plan += [(s, "long") for s in long_seeds]
            if players in partnerships:
                plan += [(s, "partners") for s in partners_seeds]
            for seed, deal in plan:
                request, accepted = game(config, players, seed, name, deal)
                answer = run_case(request)
                replayed = [s.get("reject") is None for s in answer["steps"]]
                if replayed != accepted:
                    dropped.append(request["id"])
                    continue
                entries.append({"ruleset": ruleset, "request": request, "answer": answer})
    return entries, dropped


def refusal_codes(entries: list[dict[str, Any]]) -> dict[str, int]:
    """{reason code: how many steps of the probe the unmutated engine refused with it}."""
    out: dict[str, int] = {}
    for e in entries:
        for a in e["answer"]["steps"]:
            if a.get("reject"):
                out[a["reject"]] = out.get(a["reject"], 0) + 1
    return dict(sorted(out.items()))


def as_case(entry: dict[str, Any]) -> dict[str, Any]:
    """The probe match as a case: each step expects everything the unmutated engine answered to it."""
    steps = []
    for step, ans in zip(entry["request"]["steps"], entry["answer"]["steps"], strict=True):
        s = dict(step)
        if ans.get("reject") is not None:
            s["reject"] = ans["reject"]  # a refused step is answered by its code alone
        else:
            s["expect"] = {k: v for k, v in ans.items() if k != "reject"}
        steps.append(s)
    return {"steps": steps}


def first_seen(entries: list[dict[str, Any]]) -> str | None:
    """Where the engine now loaded first answers the probe otherwise (`ID step N PATH: expected X, got Y`)."""
    from rulelang.conformance.builtin import run_case
    from rulelang.conformance.compare import compare

    for entry in entries:
        request = entry["request"]
        try:
            result = run_case(request)
        except Exception as exc:  # noqa: BLE001 - a mutant may break anything: its crash is seen
            return f"{request['id']}: {type(exc).__name__}: {str(exc)[:120]}"
        if result == entry["answer"]:
            continue  # the same answer (the fast way; a case compares only what it expects)
        diff = compare(as_case(entry), result)
        if diff is not None:
            return (f"{request['id']} step {diff.step} {diff.path}: expected {json.dumps(diff.expected)[:80]}, "
                    f"got {json.dumps(diff.got)[:80]}")
    return None


def witness(entry: dict[str, Any], upto: int | None) -> dict[str, Any]:
    """One probe match as a draft case file (steps up to `upto`, each expecting what the unmutated engine
    answered): to run against a mutant (`rulelang conform --cases DIR --engine "python bench/mutation.py
    --serve ID" --shrink OUT`) and then to work by hand. A draft, never a case: its expectations are the
    built-in engine's, and its source says so."""
    from rulelang.conformance.generate import _tags

    request = entry["request"]
    steps = as_case(entry)["steps"][: None if upto is None else upto + 1]
    config = request["config"]
    tags = set(_tags(config, request["players"], [s for s in steps if "expect" in s],
                     not isinstance(entry["ruleset"], str)))
    if any("observe" in s for s in steps):
        tags.add("observation")
    if any(s.get("reject") for s in steps):
        tags.add("illegal-move")
    if request["next_rounds"]:
        tags.add("multi-round")
    case = {"id": request["id"], "description": "a probe match (bench/probe.py), cut after the step a mutant "
            "answers otherwise: a DRAFT whose expectations are the built-in engine's, to be worked by hand",
            "source": {"text": "generated", "where": "bench/probe.py witness: the built-in engine's answers, "
                       "not checked; replace by the clause the case tests once worked by hand"},
            "tags": sorted(tags), "players": request["players"], "setup": request["setup"],
            **({"next_rounds": request["next_rounds"]} if request["next_rounds"] else {}), "steps": steps}
    return {"description": f"a draft from the probe match {request['id']}", "ruleset": entry["ruleset"],
            "cases": [case]}


def main(argv: list[str] | None = None) -> int:
    """`probe.py build OUT`: write the probe; `probe.py witness PROBE ID [--upto N] [-o FILE]`: one match as a
    draft case file (its steps up to N), a starting point for a hand-worked case."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    b = sub.add_parser("build", help="write the probe (requests and the unmutated answers) to OUT")
    b.add_argument("out", type=Path)
    w = sub.add_parser("witness", help="write one probe match as a draft case file")
    w.add_argument("probe", type=Path)
    w.add_argument("id")
    w.add_argument("--upto", type=int, help="keep the steps up to this one (the step the mutant answers otherwise)")
    w.add_argument("-o", "--out", type=Path, help="the case file to write (default: standard output)")
    args = ap.parse_args(argv)
    sys.path.insert(0, str(REPO))
    if args.cmd == "build":
        sys.path.insert(0, str(Path(__file__).resolve().parent))
        import judge

        t0 = time.process_time()
        entries, dropped = build(judge.case_list())
        args.out.write_text(json.dumps(entries), encoding="utf-8")
        codes = refusal_codes(entries)
        print(f"probe: {len(entries)} matches of {len({e['request']['id'].rsplit('-', 2)[0] for e in entries})} "
              f"rulesets, {sum(len(e['request']['steps']) for e in entries)} steps, built in "
              f"{time.process_time() - t0:.0f} s of CPU"
              + (f"; left out (the replay differs): {', '.join(dropped)}" if dropped else ""))
        print("refused: " + ", ".join(f"{k} {n}" for k, n in codes.items()))
        missing = [k for k in REFUSALS if k not in codes]
        if missing:
            print(f"never refused: {', '.join(missing)}")
        return 0
    try:
        entries = json.loads(args.probe.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        print(f"probe: cannot read {args.probe}: {exc}", file=sys.stderr)
        return 2
    entry = next((e for e in entries if e["request"]["id"] == args.id), None)
    if entry is None:
        print(f"probe: no match {args.id!r} in {args.probe}", file=sys.stderr)
        return 2
    if "ruleset" not in entry:
        print(f"probe: {args.probe} was written by an older probe.py: build it again", file=sys.stderr)
        return 2
    text = json.dumps(witness(entry, args.upto), indent=2) + "\n"
    if args.out is None:
        sys.stdout.write(text)
    else:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
