"""A conformance suite for any ruleset: `rulelang cases generate RULESET -o DIR`.

A house variant has no hand-worked cases. This drafts them from the built-in
engine, then keeps only what an independent engine agrees with, so a case
records a behaviour two implementations reached separately:

1. complete rounds at each allowed player count, from seeded deals played by
   greedy players, one ending by a domino and one by a block where the seeds
   give both (every step's observation is expected: draws, passes, offered
   moves, counted ends, points, events, the settlement and the result);
2. a target case per player count: the same round started from scores that
   put the first scoring side exactly one event short of the target, so the
   match ends as the ruleset says (mid-round or after settlement);
3. a targeted position for each statement the ruleset states (`targeted`):
   a short case cut right after a step that an engine playing the statement
   another way (one of its other spellings in the statement table) would
   observe differently: a forced lead's offered tile, a branch that opens, a
   block's winner, a settlement's events, the round after a domino...

The cases are only as right as the two engines that agree on them; they pin
a house variant's behaviour against regressions and against other engines,
and they say so in their `source`.
"""
from __future__ import annotations

import copy
import json
import re
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import rulelang
from rulelang.config.reading import read_record
from rulelang.interpreter import Match, greedy_player
from rulelang.language.formatter import config_statements, statement_lines, statements_to_text
from rulelang.language.statements import INFO, TABLE

from .builtin import run_case
from .cases import Case
from .drafting import deal_of, seat_to_move
from .runner import run

OBSERVED = ("seat", "drawn", "passed", "pass_drawn", "offered", "counted", "count", "points", "events", "scores",
            "round", "match")
PLAYER_TAGS = {2: "two-players", 3: "three-players", 4: "four-players"}


class GenerateError(Exception):
    """A ruleset that cannot be made into cases (the message says why)."""


class CheckEngineError(Exception):
    """The check engine did not start, so no case was checked (the message says why)."""


@dataclass
class Suite:
    name: str
    ruleset: Any  # a bundled name, or {"text": ..., "filename": ...}
    config: dict[str, Any]
    cases: list[dict[str, Any]] = field(default_factory=list)
    dropped: list[tuple[str, str]] = field(default_factory=list)  # (case id, why) the check engine disagreed on
    undecided: list[str] = field(default_factory=list)  # alternatives of a statement no position told apart


def load_ruleset(spec: str) -> tuple[str, Any, dict[str, Any]]:
    """(name, what a case file gives as its ruleset, the compiled configuration) for a bundled name or a .rules file."""
    path = Path(spec)
    if spec in rulelang.bundled_names() and not path.exists():
        return spec, spec, rulelang.compile_bundled(spec)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise GenerateError(f"cannot read {spec}: {exc} (give a bundled name or a .rules file)") from None
    if re.search(r'^\s*based on\s+"', text, re.M):
        raise GenerateError(f"{spec} is based on a file: a case's inline ruleset may be based only on a bundled ruleset")
    try:
        config = rulelang.compile_text(text, path.name)
    except rulelang.RulesetError as exc:
        raise GenerateError(str(exc)) from None
    return config["name"], {"text": text, "filename": path.name}, config


def play_round(config: dict[str, Any], players: int, seed: int,
               scores: list[int] | None = None) -> tuple[dict[str, Any], list[str], tuple[int, int, int] | None, str]:
    """(setup, moves, first scoring event or None, how the round ended) of round 1 of `Match(seed)`, greedy players."""
    first = Match(config, players, seed=seed).round
    setup = deal_of(first)
    if scores is not None:
        setup["scores"] = scores
    match = Match(config, players, seed=seed, deal=[setup])
    bot = greedy_player(seed)
    moves: list[str] = []
    scoring: tuple[int, int, int] | None = None
    claims = config.get("claims", "none") != "none"  # the muggins rule: the bot claims every point
    while not match.over and not match.rounds:
        move = bot(match.observation(seat_to_move(match)), match.legal_moves())
        if claims:
            move = replace(move, claim=match.round.points_of(move) // config["scoring"]["unit"])
        turn = match.play(move)
        moves.append(str(move))
        for e in turn.events:
            if scoring is None and e.accepted and e.raw > 0:
                scoring = (e.side, e.raw, e.score_after)
    kind = match.rounds[0].kind if match.rounds else "target"
    return setup, moves, scoring, kind


def observe(config: dict[str, Any], players: int, setup: dict[str, Any], moves: list[str]) -> list[dict[str, Any]]:
    """Each step with everything the built-in engine observes after it."""
    plays = [_step(m) for m in moves]
    out = run_case({"config": config, "players": players, "setup": setup, "steps": plays})
    steps = []
    for play, obs in zip(plays, out["steps"], strict=True):
        steps.append({**play, "expect": {k: obs[k] for k in OBSERVED if k in obs}})
    return steps


def _step(move: str) -> dict[str, Any]:
    """A `play` step; a move with its claim (the muggins rule) gives the claim its own field."""
    text, said, claim = move.partition(" claim ")
    return {"play": text, "claim": int(claim)} if said else {"play": move}


def config_tags(config: dict[str, Any]) -> set[str]:
    """The feature tags (features.json) a case needs only because its ruleset states a rule a certain way: an
    engine that does not claim one of them skips the case instead of failing it."""
    op, dbl, sc, tgt = config["opener"], config["doubles"], config["scoring"], config["target"]
    settle = config["settlement"]
    pairs = [
        (dbl["branching"] == "every", "branching-every"), (dbl["branching"] == "first", "branching-first"),
        (dbl["branching"] == "lead", "branching-lead"), (dbl["branching"] == "all-but-lead", "branching-all-but-lead"),
        (dbl["branch_sides"] == "after-line", "branch-after-line"), (dbl["branch_sides"] == "at-once", "branch-at-once"),
        (dbl["branch_sides"] == "spinner-first", "spinner-first"), (config["drawing"] == "until-found", "draw-or-block"),
        (config["drawing"] == "draw-and-pass", "draw-and-pass"),
        (dbl["terminal_count"] == "one-half", "terminal-one-half"), (op["lead"] == "forced", "forced-lead"),
        ("next-seat" in (op["after_domino"], op["after_block"]), "opener-next-seat"),
        ("lowest-double" in op.values(), "opener-lowest-double"), ("heaviest-tile" in op.values(), "opener-heaviest-tile"),
        (op.get("after_domino") == "after-dominoer", "opener-after-dominoer"),
        (op.get("after_block") == "after-last-placer", "opener-after-last-placer"),
        (op.get("after_block") == "last-placer", "opener-last-placer"), (op["lead"] == "double", "lead-double"),
        (op["after_block"] == "block-winner", "opener-block-winner"), ("seat-0" in op.values(), "opener-seat-0"),
        (config["drawing"] == "none", "no-drawing"), (config.get("draw_limit") is not None, "draw-limit"),
        (bool(config.get("draw_while_able")), "draw-while-able"), (config.get("redeal_doubles") is not None, "many-doubles-redeal"),
        (any(config.get("reserve", {}).values()), "reserve"), (not sc["in_play"], "no-placement-score"),
        (sc.get("multiple") == 3, "multiple-3"), (sc.get("formula") == "per-multiple", "formula-per-multiple"),
        (sc.get("formula") == "face-value", "formula-face-value"), (sc.get("formula") == "face-value-once", "formula-face-value-once"),
        (sc["unit"] == 5, "unit-5"), (sc["unit"] == 1, "unit-1"), (sc["unit"] == 3, "unit-3"),
        (tgt.get("mode") == "exact", "target-exact"), (tgt.get("mode") == "rounds", "fixed-rounds"),
        (tgt.get("overshoot") == "discard", "overshoot-discard"), (tgt.get("overshoot") == "bounce", "overshoot-bounce"),
        (tgt.get("check") == "every-event", "target-every-event"),
        (tgt.get("check") == "after-settlement", "target-after-settlement"),
        (tgt.get("ties") == "extra-rounds", "tie-extra-rounds"), (tgt.get("ties") == "draw", "tie-draw"),
        (tgt.get("ties") == "round-opener", "tie-round-opener"), (tgt.get("ties") == "match-opener", "tie-match-opener"),
        (bool(tgt.get("raw_by_count")), "target-by-count"), (tgt.get("entry") is not None, "entry-threshold"),
        (bool(tgt.get("lead_cannot_win")), "lead-cannot-win"),
        (bool(sc.get("minimum")), "placement-minimum"), (config.get("score_floor") is not None, "score-floor"),
        (config.get("round_end") == "side-out", "side-out"), (config.get("tiles", 6) != 6, "larger-set"),
        (config.get("claims", "none") != "none", "claims"),  # the muggins rule
        (config.get("claims") in ("any-opponent", "lost-if-called"), "claims-any-opponent"),
        (config.get("claims") == "lost-if-called", "claims-lost-if-called"),
        (settle["domino"].get("bonus") is not None, "domino-bonus"),
        (settle["block"]["winner"] == "fewest-tiles", "block-fewest-tiles"),
        (settle["block"]["winner"] == "lightest-side", "block-lightest-side"),
        (settle["block"].get("partners_tie") == "no-winner", "partners-tie-no-winner"),
        ("per-term" in (settle["domino"]["events"], settle["block"]["events"]), "events-per-term"),
    ]
    for term in settle["domino"]["terms"] + settle["block"]["terms"]:
        pairs += [(term.get("kind") == "differences", "settle-differences"),
                  (term.get("kind") == "heaviest", "settle-heaviest"),
                  (term.get("kind") == "tiles", "settle-tiles"), (term.get("kind") == "net", "settle-net"),
                  (term.get("divisor", 1) != 1, "settle-divided"),
                  (term.get("hands") == "partner", "partner-debit"), (term.get("hands") == "own", "own-hand"),
                  (term.get("kind") == "hands" and term.get("pooling") == "pooled", "settle-pooled"),
                  (term.get("kind") == "hands" and term.get("pooling") == "each", "settle-each"),
                  (term.get("rounding") == "none", "no-rounding"), (term.get("rounding") == "round3", "rounding-3")]
    return {tag for cond, tag in pairs if cond}


def _tags(config: dict[str, Any], players: int, steps: list[dict[str, Any]], inline: bool) -> list[str]:
    tags = {PLAYER_TAGS[players]} | config_tags(config)
    if players in config["players"]["partnerships"]:
        tags.add("partnerships")
    if inline:
        tags.add("inline-ruleset")
    for s in steps:
        tags |= expectation_tags(s["expect"])
    return sorted(tags)


def expectation_tags(e: dict[str, Any]) -> set[str]:
    """The feature tags a step's expectation shows: a draw, a pass, a placement's points, a round's or the match's
    end."""
    tags = set()
    if e.get("drawn") or any(e.get("pass_drawn") or []):
        tags.add("draw")
    if e.get("passed"):
        tags.add("pass")
    if e.get("points"):
        tags.add("placement-score")
    rnd = e.get("round")
    if rnd:
        tags.add({"domino": "domino", "blocked": "block", "target": "match-end"}[rnd["kind"]])
    if (e.get("match") or {}).get("over"):
        tags.add("match-end")
    return tags


def _case(suite: Suite, cid: str, description: str, players: int, setup: dict[str, Any], steps: list[dict[str, Any]],
          seed: int) -> dict[str, Any]:
    return {
        "id": cid, "description": description,
        "source": {"text": "generated", "where": f"rulelang cases generate {suite.name}: Match seed {seed}, greedy "
                   "players, drafted by the built-in engine and kept because the check engine agrees"},
        "tags": _tags(suite.config, players, steps, not isinstance(suite.ruleset, str)),
        "players": players, "setup": setup, "steps": steps,
    }


def draft(spec: str, seeds: int = 40, positions: bool = True) -> Suite:
    """Every case for the ruleset `spec`, before the cross-check: complete rounds, target cases, and (with
    `positions`) a deciding position for each statement it states."""
    name, ruleset, config = load_ruleset(spec)
    suite = Suite(name, ruleset, config)
    slug = re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")
    for n in config["players"]["counts"]:
        found: dict[str, int] = {}
        for seed in range(1, seeds + 1):
            setup, moves, scoring, kind = play_round(config, n, seed)
            if kind in ("domino", "blocked") and kind not in found:
                found[kind] = seed
                steps = observe(config, n, setup, moves)
                ended = "a domino" if kind == "domino" else "a block"
                suite.cases.append(_case(
                    suite, f"{slug}-gen-{n}p-{'domino' if kind == 'domino' else 'block'}-seed{seed}",
                    f"a complete round of {n} players ending in {ended} (Match seed {seed}): every step's draws, "
                    "passes, offered moves, counted ends, points and events, the settlement and the result",
                    n, setup, steps, seed))
            if "target" not in found and scoring is not None:
                side, raw, after = scoring
                nsides = 2 if n in config["players"]["partnerships"] else n
                start = [0] * nsides
                start[side] = config["target"]["raw"] - raw  # one scoring event short of the target
                setup_t, moves_t, _, _ = play_round(config, n, seed, start)
                steps = observe(config, n, setup_t, moves_t)
                found["target"] = seed
                suite.cases.append(_case(
                    suite, f"{slug}-gen-{n}p-target-seed{seed}",
                    f"from {start[side]} raw, side {side}'s first scoring event of {raw} reaches the target "
                    f"{config['target']['raw']}; the match ends as the ruleset says (Match seed {seed}, {n} players)",
                    n, setup_t, steps, seed))
            if len(found) == 3:
                break
    if positions:
        suite.undecided = targeted(suite, min(seeds, PROBE_SEEDS))
    return suite


# ---------------------------------------------------------------------------
# Targeted positions: for each statement the ruleset states, a position where it decides
#
# Driven by the statement table (rulelang/language/statements): a statement's other
# spellings (its `examples`) give alternative configurations, the ruleset with
# that one line changed. A position decides for the statement when the
# built-in engine, replaying the same deal and moves under an alternative,
# observes something else at some step; the case is cut right after the first
# such step, with the ruleset's own expectations. An engine that plays the
# statement like one of its alternatives then fails that case.

NOT_TARGETED = frozenset({"ruleset", "source", "based_on",  # no rule of play
                          "tiles", "players", "hand"})  # they shape the deal itself, which a case gives explicitly
PROBE_SEEDS = 12  # seeds tried per player count for the positions (the complete rounds use --seeds)


@dataclass
class Trace:
    """A deal (and later deals) and greedy moves under the ruleset: a place to look for deciding positions."""
    players: int
    seed: int
    kind: str  # round / target / overshoot / next-round
    setup: dict[str, Any]
    next_rounds: list[dict[str, Any]]
    moves: list[str]
    observed: list[dict[str, Any]] = field(default_factory=list)  # the ruleset's own observations


def _lottery(config: dict[str, Any], rule: str, prev: Any) -> bool:
    """Whether an opener `rule` would draw lots (the case must then give the seat)."""
    return rule == "lottery" or (rule == "block-winner" and (prev is None or prev.seat is None))


def _match_trace(config: dict[str, Any], players: int, seed: int, kind: str, scores: list[int] | None,
                 rounds: int) -> Trace | None:
    """`rounds` rounds of `Match(seed)` by greedy players, from `scores`; openers left to the rule where it decides."""
    first = deal_of(Match(config, players, seed=seed).round)
    if scores is not None:
        first["scores"] = scores
    match = Match(config, players, seed=seed, deal=[first])
    bot = greedy_player(seed)
    deals: list[dict[str, Any]] = [dict(first)]
    moves: list[str] = []
    current = match.round
    while not match.over and len(match.rounds) < rounds:
        if match.round is not current:
            current = match.round
            deals.append(deal_of(current))
        move = bot(match.observation(seat_to_move(match)), match.legal_moves())
        if config.get("claims", "none") != "none":  # the muggins rule: the bot claims every point
            move = replace(move, claim=match.round.points_of(move) // config["scoring"]["unit"])
        match.play(move)
        moves.append(str(move))
    if len(match.rounds) < rounds and not match.over:
        return None
    if len(deals) < rounds:
        return None  # the match ended before the rounds asked for
    op = config["opener"]
    for i, d in enumerate(deals):
        prev = match.rounds[i - 1] if i else None
        rule = (op["first_round"] if prev is None else op["after_domino"] if prev.kind == "domino"
                else op["after_block"])
        if not _lottery(config, rule, prev):
            d["opener"] = None  # the rule decides: the case checks the engine's choice
    return Trace(players, seed, kind, deals[0], deals[1:], moves)


def traces(config: dict[str, Any], probe_seeds: int = PROBE_SEEDS) -> Iterator[Trace]:
    """Deals to look for deciding positions in: per seed and player count, a round from 0, a round one event
    short of the target, one whose first event passes it, and two rounds in a row."""
    for seed in range(1, probe_seeds + 1):
        for n in config["players"]["counts"]:
            t = _match_trace(config, n, seed, "round", None, 1)
            if t is not None:
                yield t
            _, _, scoring, _ = play_round(config, n, seed)
            if scoring is not None and config["target"].get("mode", "at-least") != "rounds":
                side, raw, _ = scoring
                nsides = 2 if n in config["players"]["partnerships"] else n
                goal = _target_raw(config, n)
                for kind, short in (("target", raw), ("overshoot", raw - 1)):
                    start = [0] * nsides
                    start[side] = goal - short
                    if start[side] > 0 and (t := _match_trace(config, n, seed, kind, start, 1)) is not None:
                        yield t
            t = _match_trace(config, n, seed, "next-round", None, 2)
            if t is not None:
                yield t


def _target_raw(config: dict[str, Any], players: int) -> int:
    by_count = config["target"].get("raw_by_count") or {}
    return int(by_count.get(str(players), config["target"]["raw"]))


def _observe_all(config: dict[str, Any], t: Trace) -> list[dict[str, Any]] | None:
    """What the built-in engine observes at each step of `t` under `config` (None: it cannot play it)."""
    try:
        out = run_case({"config": config, "players": t.players, "setup": t.setup, "next_rounds": t.next_rounds,
                        "steps": [_step(m) for m in t.moves]})
    except Exception:  # an alternative the deal does not fit: no position here
        return None
    return [{k: o[k] for k in (*OBSERVED, "reject") if k in o} for o in out["steps"]]


def _with_lines(config: dict[str, Any], lines: dict[str, str]) -> dict[str, Any] | None:
    """The ruleset with statement `key` said by `lines[key]` instead (added when it is not stated), compiled;
    None when that does not compile."""
    said = {k: statement_lines(k, v) for k, v in config_statements(config) if k != "based_on"}
    said.update({k: [line] for k, line in lines.items()})
    try:
        return rulelang.compile_text(statements_to_text(said), "alternative.rules")
    except Exception:  # the line does not go with the rest of the ruleset
        return None


def alternatives(config: dict[str, Any], key: str) -> list[tuple[str, dict[str, Any]]]:
    """(line, configuration) for each other spelling of statement `key` (its examples in the statement table).

    A spelling that does not go with the rest of the ruleset is tried with one other statement of its group
    changed too (`check the target after settlement` needs `ties at the top: ...` other than impossible).
    """
    st = INFO[key]
    own = st.from_config(read_record(config))
    out = []
    for line in st.examples:
        alt = _with_lines(config, {key: line})
        said = f"`{line}`"
        if alt is None:
            for other in TABLE:
                if other.key == key or other.group != st.group or other.key in NOT_TARGETED:
                    continue
                for line2 in other.examples:
                    if (alt := _with_lines(config, {key: line, other.key: line2})) is not None:
                        said = f"`{line}` (with `{line2}`)"
                        break
                if alt is not None:
                    break
        if alt is not None and st.from_config(read_record(alt)) != own:
            out.append((said, alt))
    return out


def _first_difference(a: list[dict[str, Any]], b: list[dict[str, Any]]) -> tuple[int, str] | None:
    for i, (x, y) in enumerate(zip(a, b)):
        for k in ("reject", *OBSERVED):
            if x.get(k) != y.get(k):
                return i, k
    return None


def targeted(suite: Suite, probe_seeds: int = PROBE_SEEDS) -> list[str]:
    """Add to `suite` a deciding position for each statement the ruleset states; return the statements (and
    alternatives) no position was found for."""
    config = suite.config
    pool: list[Trace] = []
    gen = traces(config, probe_seeds)

    def trace(i: int) -> Trace | None:
        while len(pool) <= i:
            t = next(gen, None)
            if t is None:
                return None
            obs = _observe_all(config, t)
            if obs is None or any(o.get("reject") for o in obs):
                continue
            t.observed = obs
            pool.append(t)
        return pool[i]

    slug = re.sub(r"[^a-z0-9]+", "-", suite.name.lower()).strip("-")
    missing: list[str] = []
    for key, value in config_statements(config):
        if key in NOT_TARGETED:
            continue
        own_line = "; ".join(statement_lines(key, value))
        found: dict[int, list[tuple[int, str, str]]] = {}  # trace index -> (step, observed key, alternative line)
        for line, alt in alternatives(config, key):
            i = 0
            while (t := trace(i)) is not None:
                obs = _observe_all(alt, t)
                diff = _first_difference(t.observed, obs) if obs is not None else None
                if diff is not None:
                    found.setdefault(i, []).append((diff[0], diff[1], line))
                    break
                i += 1
            else:
                missing.append(f"{key}: no position tells `{own_line}` from {line} in {probe_seeds} seeds")
        for i, diffs in found.items():
            t = pool[i]
            cut = max(d[0] for d in diffs)
            steps: list[dict[str, Any]] = [{**_step(m), "expect": {k: v for k, v in o.items() if k != "reject"}}
                     for m, o in zip(t.moves[:cut + 1], t.observed[:cut + 1])]
            against = "; ".join(f"{line} would refuse the move of step {step}" if what == "reject" else
                                f"{line} would observe another `{what}` at step {step}" for step, what, line in diffs)
            case = _case(suite, f"{slug}-gen-{t.players}p-pos-{key.replace('_', '-')}-{t.kind}-seed{t.seed}",
                         f"a position where `{own_line}` ({INFO[key].words}) decides ({t.players} players, "
                         f"{t.kind}, Match seed {t.seed}): {against}", t.players, t.setup, steps, t.seed)
            case["source"] = dict(case["source"], where=(
                f"rulelang cases generate {suite.name}: a targeted position for the statement `{own_line}`, found by "
                f"replaying Match seed {t.seed} ({t.kind}, greedy players) under its other spellings; drafted by the "
                "built-in engine and kept because the check engine agrees"))
            if t.next_rounds:
                case["next_rounds"] = t.next_rounds
                if any(s["expect"].get("round") for s in steps[:-1]):
                    case["tags"] = sorted({*case["tags"], "multi-round"})
            suite.cases.append(case)
    return missing


def cross_check(suite: Suite, engine: Any, timeout: float = 30.0) -> Suite:
    """Keep the cases `engine` passes; the others go to `suite.dropped` with the first difference.

    Raises CheckEngineError when the engine does not start (no case was checked: none disagreed)."""
    tmp = [Case(c["id"], suite.name, "generated", Path("generated.json"), c, suite.ruleset) for c in suite.cases]
    result = run(engine, tmp, timeout=timeout, expected_failures={})
    if result.engine.get("start_error"):
        raise CheckEngineError(result.engine["start_error"]["message"])
    kept = []
    for case, res in zip(suite.cases, result.results, strict=True):
        if res.outcome == "pass":
            kept.append(case)
        else:
            why = res.difference.to_dict() if res.difference else (res.error or {"outcome": res.outcome})
            suite.dropped.append((case["id"], json.dumps(why)[:300]))
    out = copy.copy(suite)
    out.cases = kept
    return out


def write(suite: Suite, directory: Path) -> Path:
    """DIR/<name>/generated.json, a case file `rulelang conform --cases DIR` runs."""
    folder = directory / suite.name
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "generated.json"
    doc = {"description": f"Cases generated for the ruleset {suite.name} by `rulelang cases generate`: complete rounds "
                          "and target cases at each player count, and a position where each statement decides, "
                          "drafted by the built-in engine and kept where an independent engine agrees.",
           "ruleset": suite.ruleset, "cases": suite.cases}
    path.write_text(json.dumps(doc, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    return path
