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
   match ends as the ruleset says (mid-round or after settlement).

The cases are only as right as the two engines that agree on them; they pin
a house variant's behaviour against regressions and against other engines,
and they say so in their `source`.
"""
from __future__ import annotations

import copy
import json
import re
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from .drafting import deal_of, seat_to_move

OBSERVED = ("seat", "drawn", "passed", "pass_drawn", "offered", "counted", "count", "points", "events", "scores",
            "round", "match")
PLAYER_TAGS = {2: "two-players", 3: "three-players", 4: "four-players"}


class GenerateError(Exception):
    """A ruleset that cannot be made into cases (the message says why)."""


@dataclass
class Suite:
    name: str
    ruleset: Any  # a bundled name, or {"text": ..., "filename": ...}
    config: dict[str, Any]
    cases: list[dict[str, Any]] = field(default_factory=list)
    dropped: list[tuple[str, str]] = field(default_factory=list)  # (case id, why) the check engine disagreed on


def load_ruleset(spec: str) -> tuple[str, Any, dict[str, Any]]:
    """(name, what a case file gives as its ruleset, the compiled configuration) for a bundled name or a .rules file."""
    import rulelang

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


def play_round(config: dict[str, Any], players: int, seed: int, scores: list[int] | None = None):
    """(setup, moves, first scoring event or None, how the round ended) of round 1 of `Match(seed)`, greedy players."""
    from interpreter import Match, greedy_player

    first = Match(config, players, seed=seed).round
    setup = deal_of(first)
    if scores is not None:
        setup["scores"] = scores
    match = Match(config, players, seed=seed, deal=[setup])
    bot = greedy_player(seed)
    moves: list[str] = []
    scoring = None
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
    from .builtin import run_case

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


def _tags(config: dict[str, Any], players: int, steps: list[dict[str, Any]], inline: bool) -> list[str]:
    tags = {PLAYER_TAGS[players]}
    if players in config["players"]["partnerships"]:
        tags.add("partnerships")
    if inline:
        tags.add("inline-ruleset")
    if config.get("claims", "none") != "none":
        tags.add("claims")
    for s in steps:
        e = s["expect"]
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
    return sorted(tags)


def _case(suite: Suite, cid: str, description: str, players: int, setup: dict[str, Any], steps: list[dict[str, Any]],
          seed: int) -> dict[str, Any]:
    return {
        "id": cid, "description": description,
        "source": {"text": "generated", "where": f"rulelang cases generate {suite.name}: Match seed {seed}, greedy "
                   "players, drafted by the built-in engine and kept because the check engine agrees"},
        "tags": _tags(suite.config, players, steps, not isinstance(suite.ruleset, str)),
        "players": players, "setup": setup, "steps": steps,
    }


def draft(spec: str, seeds: int = 40) -> Suite:
    """Every case for the ruleset `spec`, before the cross-check."""
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
    return suite


def cross_check(suite: Suite, engine: Any, timeout: float = 30.0) -> Suite:
    """Keep the cases `engine` passes; the others go to `suite.dropped` with the first difference."""
    from .cases import Case
    from .runner import run

    tmp = [Case(c["id"], suite.name, "generated", Path("generated.json"), c, suite.ruleset) for c in suite.cases]
    result = run(engine, tmp, timeout=timeout, expected_failures={})
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
                          "and target cases at each player count, drafted by the built-in engine and kept where an "
                          "independent engine agrees.",
           "ruleset": suite.ruleset, "cases": suite.cases}
    path.write_text(json.dumps(doc, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    return path
