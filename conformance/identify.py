"""Which rules an engine plays: `rulelang identify --engine CMD [--like VARIANT]`.

An engine that plays one fixed variant is asked, through the protocol alone,
positions where one rule decides; its answers say which value of each
configuration field it plays.

1. The claimed variant V (`--like`, or the `implementation.variant` of the
   engine's `start` answer) is what every request carries.
2. For every field F of the declarations (the values of `deciding.domains`,
   V's own, and those the bundled variants use), each value x gives a *twin*
   of V (`deciding.twin`: V with F = x). Positions come from the suite's
   deciding cases of F, then from seeded greedy rounds of V and of each twin
   (`generate.traces`); a position is kept when the twins' transcripts differ
   on it, cut after the step where the last pair it tells apart differs.
   What each value expects is the built-in engine's transcript under its twin:
   the language's meaning of that value, in that position.
3. Each kept position is sent once per distinct expectation through the
   runner (timeouts, restarts, the deadline), and each field gets the values
   whose expectations agree with the engine on every one of its positions:
   one value is identified; none is "none of the language's values", shown
   by the case and its first difference.
4. A field that agrees with no value may only seem so because the engine
   differs from V in another field, and one change may seem to be two: the
   identified changes are applied to V and those fields, and the changed
   ones, are asked again (at most `PASSES` times).
"""
from __future__ import annotations

import dataclasses
import itertools
import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import rulelang

from . import deciding, generate
from .cases import Case
from .compare import Difference
from .identify_positions import (
    TRANSCRIPTS,
    Pool,
    Position,
    Transcripts,
    case_position,
    dealt_for,
    pool_of,
    searched,
    twin_positions,
)
from .identify_positions import json_key as _key
from .runner import CaseResult, run

PASSES = 3  # rounds of asking again the fields no value agreed with, after applying the changes found
SEPARATIONS = 2  # positions that tell each pair of values apart, when there are so many: one may agree by chance
# Fields a position cannot show: every case deals its own tiles and says how many players sit.
NOT_ASKED = {"tiles": "the set of tiles: a case deals its tiles, so the claimed variant's set is kept",
             "players.counts": "the player counts allowed: a case says how many players sit",
             "hand_size": "the hand sizes: a case deals the hands itself"}


class IdentifyError(Exception):
    """Identification cannot start (the message says why)."""


@dataclass
class Probe:
    """A position for one field, with the values grouped by the transcript each expects there."""

    field: str
    position: Position
    groups: list[tuple[list[Any], list[dict[str, Any]]]]  # (values, expected steps)


@dataclass
class FieldPlan:
    field: str
    claimed: Any  # the claimed variant's value
    values: list[Any]  # every value tried (the base's first)
    configs: list[dict[str, Any]]  # the twin of each value
    probes: list[Probe] = dataclasses.field(default_factory=list)
    untold: list[tuple[Any, Any]] = dataclasses.field(default_factory=list)  # pairs no position told apart
    note: str | None = None  # why the field is not asked


@dataclass
class FieldResult:
    field: str
    claimed: Any
    value: Any
    status: str  # identified / untold / none / error / not-asked
    agree: list[Any] = dataclasses.field(default_factory=list)
    values: list[Any] = dataclasses.field(default_factory=list)
    untold: list[tuple[Any, Any]] = dataclasses.field(default_factory=list)
    cases: list[str] = dataclasses.field(default_factory=list)
    evidence: list[dict[str, Any]] = dataclasses.field(default_factory=list)  # per value: the case and first difference refuting it
    note: str | None = None

    @property
    def changed(self) -> bool:
        return self.status in ("identified", "untold") and _key(self.value) != _key(self.claimed)

    def to_dict(self) -> dict[str, Any]:
        out = {"field": self.field, "status": self.status, "value": self.value, "claimed": self.claimed,
               "changed": self.changed, "agree": self.agree, "values": self.values, "cases": self.cases,
               "untold": [list(p) for p in self.untold], "evidence": self.evidence}
        if self.note:
            out["note"] = self.note
        return out


@dataclass
class Identification:
    """What identify found: the claimed variant, every field's result, and the configuration the engine plays."""

    engine: dict[str, Any]
    claimed: str
    claimed_config: dict[str, Any]
    fields: list[FieldResult]
    config: dict[str, Any]  # the claimed configuration with every identified change
    cases_run: int = 0
    errors: list[dict[str, Any]] = dataclasses.field(default_factory=list)  # engine failures: {case, field, error}

    @property
    def none(self) -> list[FieldResult]:
        return [r for r in self.fields if r.status == "none"]

    @property
    def complete(self) -> bool:
        """Every asked field got an answer from the engine (no error, no skip)."""
        return not any(r.status == "error" for r in self.fields)


# ------------------------------------------------------------------------------------------------ the values

def _bundled_values(name: str) -> list[Any]:
    out: list[Any] = []
    for bundled in rulelang.bundled_names():
        v = deciding.get_value(rulelang.compile_bundled(bundled), name)
        if v is not None and _key(v) not in {_key(x) for x in out}:
            out.append(v)
    return out


def asked_fields(config: dict[str, Any]) -> list[str]:
    """The fields identify asks about for a claimed configuration: every rule of play, per-count entries only for
    the counts it allows."""
    counts = {str(n) for n in config["players"]["counts"]}
    out = []
    for name in deciding.domains():
        head, _, last = name.rpartition(".")
        if last.isdigit() and (head in NOT_ASKED or last not in counts):
            continue
        out.append(name)
    return out


def candidates(config: dict[str, Any], name: str) -> list[tuple[Any, dict[str, Any]]]:
    """(value, twin) for each value of `name` to try against the base `config`, the base's own first."""
    own = deciding.get_value(config, name)
    values = [own, *deciding.domains()[name][0], *_bundled_values(name)]
    out: list[tuple[Any, dict[str, Any]]] = [(own, config)]
    seen = {_key(own)}
    for v in values:
        if _key(v) in seen:
            continue
        seen.add(_key(v))
        made = _twin(_key(config), name, _key(v))
        if made is not None:
            out.append((v, made))
    return out


@cache
def _twin(config: str, name: str, value: str) -> dict[str, Any] | None:
    """`deciding.twin` of JSON texts, remembered: the same claimed variant is asked about again and again."""
    try:
        made = deciding.twin(json.loads(config), name, json.loads(value))
    except (ValueError, KeyError, TypeError):  # a combination the configuration's checks cannot even read
        return None
    return None if made is None else made[0]


# ------------------------------------------------------------------------------------------------ the plans

def _first_difference(a: list[dict[str, Any]], b: list[dict[str, Any]]) -> int | None:
    for i, (x, y) in enumerate(zip(a, b)):
        if x != y:
            return i
    return None


def plan_field(base: dict[str, Any], name: str, claimed: Any, pool: Pool, deciding_positions: list[Position],
               own_positions: list[Position], transcripts: Transcripts, label: str,
               claimed_config: dict[str, Any] | None = None, search: int = 0) -> FieldPlan:
    """The positions that tell the values of `name` apart in `base`, each with what every value expects; with
    `search`, that many more shaped matches (the deciding cases' search) for a value no position told from the
    base's."""
    head = name.rpartition(".")[0] if name.rpartition(".")[2].isdigit() else name
    if head in NOT_ASKED:
        return FieldPlan(name, claimed, [claimed], [base], note=NOT_ASKED[head])
    tried = candidates(base, name)
    plan = FieldPlan(name, claimed, [v for v, _ in tried], [c for _, c in tried])
    if len(tried) < 2:
        plan.note = "no other value goes with the rest of the variant"
        return plan
    n = len(tried)
    need = {(i, j): SEPARATIONS for i in range(n) for j in range(i + 1, n)}  # positions still to find per pair
    left = set(need)

    def sources() -> Iterator[Position]:
        yield from deciding_positions
        yield from own_positions
        yield from pool
        for v, c in tried[1:]:
            yield from twin_positions(_key(c), f"{label}-{name}={json.dumps(v)}")
        for j in range(1, n):
            if search and (0, j) in left and need[0, j] == SEPARATIONS:
                found = searched(name, plan.values[0], plan.values[j], plan.configs[0], plan.configs[j], search, label)
                if found is not None:
                    yield found

    for pos in sources():
        if not left:
            break
        if not dealt_for(claimed_config, pos):
            continue
        runs = [transcripts.of(c, pos) for c in plan.configs]
        if runs[0] is None:
            continue
        firsts = {(i, j): _first_difference(runs[i] or [], runs[j] or []) for i, j in left
                  if runs[i] is not None and runs[j] is not None}
        told = {p: d for p, d in firsts.items() if d is not None}
        if not told:
            continue
        cut = max(told.values()) + 1
        groups: dict[str, tuple[list[Any], list[dict[str, Any]]]] = {}
        for v, r in zip(plan.values, runs):
            if r is not None:
                groups.setdefault(_key(r[:cut]), ([], r[:cut]))[0].append(v)
        steps = pos.steps[:cut]
        plan.probes.append(Probe(name, Position(pos.id, pos.players, pos.setup, pos.next_rounds, steps, pos.source),
                                 [(vs, _expected(steps, r)) for vs, r in groups.values()]))
        for i, j in list(left):
            ri, rj = runs[i], runs[j]
            if ri is not None and rj is not None and ri[:cut] != rj[:cut]:
                need[i, j] -= 1
                if not need[i, j]:
                    left.discard((i, j))
    plan.untold = sorted(((plan.values[i], plan.values[j]) for i, j in left if need[i, j] == SEPARATIONS), key=_key)
    return plan


def _expected(steps: list[dict[str, Any]], observed: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Case steps: each move with the reason it is refused, or what it shows."""
    out = []
    for s, o in zip(steps, observed):
        if o.get("reject"):
            out.append({**s, "reject": o["reject"]})
        else:
            out.append({**s, "expect": {k: v for k, v in o.items() if k != "reject"}})
    return out


# ------------------------------------------------------------------------------------------------- the vote

def probe_cases(plans: list[FieldPlan], ruleset: Any, variant: str) -> list[tuple[FieldPlan, Probe, int, Case]]:
    """One case per (probe, group): the position, with that group's expectations, under the claimed ruleset."""
    out = []
    for plan in plans:
        for probe in plan.probes:
            for g, (values, steps) in enumerate(probe.groups):
                pos = probe.position
                data: dict[str, Any] = {
                    "id": pos.id, "description": f"{plan.field} = {' or '.join(json.dumps(v) for v in values)}: "
                    f"{pos.source}", "tags": [], "players": pos.players, "setup": pos.setup, "steps": steps}
                if pos.next_rounds:
                    data["next_rounds"] = pos.next_rounds
                out.append((plan, probe, g, Case(pos.id, variant, "identify", Path("identify"), data, ruleset)))
    return out


def vote(plan: FieldPlan, outcomes: list[tuple[Probe, int, CaseResult]]) -> FieldResult:
    """The values of one field that agree with the engine on every one of its positions."""
    res = FieldResult(plan.field, plan.claimed, plan.claimed, "not-asked", values=plan.values, untold=plan.untold,
                      note=plan.note)
    if plan.note:
        res.agree = [plan.claimed]
        return res
    agree = list(plan.values)
    refuted: dict[str, dict[str, Any]] = {}
    for probe, g, r in outcomes:
        res.cases = list(dict.fromkeys([*res.cases, probe.position.id]))
        values = probe.groups[g][0]
        if r.outcome in ("error", "skip"):
            res.status = "error"
            res.note = _failure(r)
            res.evidence.append({"case": probe.position.id, "error": res.note})
            continue
        if r.outcome != "pass":
            agree = [v for v in agree if _key(v) not in {_key(x) for x in values}]
            for v in values:
                refuted.setdefault(_key(v), {"value": v, "case": probe.position.id,
                                             "difference": _difference(r.difference, r.case)})
    if res.status == "error":
        return res
    res.agree = agree
    res.evidence = [refuted[_key(v)] for v in plan.values if _key(v) in refuted]
    if not agree:
        res.status = "none"
    elif len(agree) == 1:
        res.status, res.value = "identified", agree[0]
    else:
        res.status = "untold"
        res.value = plan.claimed if _key(plan.claimed) in {_key(v) for v in agree} else _smallest(plan, agree)
    return res


def _leaves(obj: Any, path: str = "") -> dict[str, Any]:
    if isinstance(obj, dict):
        return {k: v for key, x in obj.items() for k, v in _leaves(x, f"{path}.{key}").items()}
    if isinstance(obj, list) and obj and all(isinstance(x, dict) for x in obj):
        return {k: v for i, x in enumerate(obj) for k, v in _leaves(x, f"{path}[{i}]").items()}
    return {path: obj}


def _distance(a: dict[str, Any], b: dict[str, Any]) -> int:
    """How many values of the configuration differ between `a` and `b`."""
    la, lb = _leaves(a), _leaves(b)
    return sum(la.get(k) != lb.get(k) for k in la.keys() | lb.keys())


def _smallest(plan: FieldPlan, agree: list[Any]) -> Any:
    """Of values the positions do not tell apart, the one whose twin changes the fewest values of the base (a
    pooled hand rather than another kind of term that happens to pay the same here)."""
    keys = [_key(v) for v in plan.values]
    return min(agree, key=lambda v: _distance(plan.configs[0], plan.configs[keys.index(_key(v))]))


def _difference(diff: Difference | None, case: Case) -> dict[str, Any] | None:
    if diff is None:
        return None
    out = diff.to_dict()
    steps = case.data["steps"]
    if diff.step < len(steps):
        from .cases import step_words

        out["move"] = step_words(steps[diff.step])
    return out


def _failure(r: CaseResult) -> str:
    if r.outcome == "skip":
        return f"the engine skipped case {r.case.id}: {r.skip_reason}"
    err = r.error or {}
    return f"the engine failed on case {r.case.id}: {err.get('message', 'an error')}"


# ------------------------------------------------------------------------------------------------- the run

@dataclass
class Claim:
    """The variant an engine claims: its name, what a case file gives as its ruleset, its configuration."""

    name: str
    ruleset: Any
    config: dict[str, Any]


def claim_of(spec: str) -> Claim:
    """A bundled name or a .rules file (based on a bundled ruleset, as a case's inline ruleset is)."""
    try:
        name, ruleset, config = generate.load_ruleset(spec)
    except generate.GenerateError as exc:
        raise IdentifyError(str(exc)) from None
    return Claim(name, ruleset, config)


def with_changes(config: dict[str, Any], changes: list[tuple[str, Any]]) -> dict[str, Any]:
    """`config` with each (field, value) set in turn, each through its twin (so the result stays valid)."""
    out = config
    for name, value in changes:
        made = deciding.twin(out, name, value)
        if made is not None:
            out = made[0]
    return out


MAX_EXPLAINED = 5  # changes whose subsets are weighed (2**5 configurations at most)
Known = list[tuple[Position, list[dict[str, Any]]]]  # positions with the expectation the engine's answer met


def _agrees(config: dict[str, Any], known: Known) -> bool:
    """Whether `config` expects what the engine answered at every position where its answer is known."""
    for pos, expected in known:
        got = TRANSCRIPTS.of(config, pos)
        if got is None or _expected(pos.steps, got[:len(expected)]) != expected:
            return False
    return True


def explanation(claimed: dict[str, Any], changes: list[tuple[str, Any]], known: Known) -> list[tuple[str, Any]]:
    """The fewest of `changes` that, made together to the claimed configuration, expect every answer the engine
    gave: one rule played otherwise may agree with a value of several fields (a target of 200 is also a target
    of 200 with 2 players), and the one change that explains them all is the one kept."""
    if len(changes) < 2 or len(changes) > MAX_EXPLAINED:
        return changes
    for size in range(1, len(changes)):
        made = [(list(chosen), with_changes(claimed, list(chosen))) for chosen in itertools.combinations(changes, size)]
        made.sort(key=lambda m: _distance(claimed, m[1]))  # of as many changes, the smallest first
        for chosen, config in made:
            if _agrees(config, known):
                return chosen
    return changes


def _first_answer(engine: Any, case: Case, timeout: float, deadline: Callable[[], float | None] | None) -> None:
    """One case alone first: an engine that hangs, crashes or prints garbage is said at once, not after it has
    cost a timeout or a restart on each of hundreds of cases."""
    left = None if deadline is None else deadline()
    out = run(engine, [case], timeout=timeout, expected_failures={},
              deadline=None if left is None else max(left, 0.001))
    if out.engine.get("start_error"):
        raise IdentifyError(f"the engine did not start: {out.engine['start_error']['message']}")
    res = out.results[0]
    if res.outcome == "error":
        raise IdentifyError(f"the engine failed on the first case, {case.id}: {(res.error or {}).get('message')}")
    if res.outcome == "skip":
        raise IdentifyError(f"the engine declines the claimed variant: it skipped {case.id}: {res.skip_reason}")


def suite_positions(suite: list[Case], fields: list[str], claim: Claim) -> tuple[dict[str, list[Position]], list[Position]]:
    """The suite's positions: its deciding cases by field, and the claimed variant's own cases."""
    by_field: dict[str, list[Position]] = {}
    own: list[Position] = []
    for case in suite:
        dec = case.data.get("decides") or {}
        if dec.get("field") in fields:
            by_field.setdefault(dec["field"], []).append(case_position(case, "the deciding case"))
        elif isinstance(claim.ruleset, str) and case.ruleset == claim.ruleset:
            own.append(case_position(case, f"the {claim.name} case"))
    return by_field, own


def _ask(engine: Any, plans: list[FieldPlan], claim: Claim, ident: Identification, known: Known, timeout: float,
         deadline: Callable[[], float | None] | None) -> dict[str, FieldResult]:
    """Send every probe of `plans` (one case per expectation) and vote on each field."""
    sent = probe_cases(plans, claim.ruleset, claim.name)
    if not ident.cases_run and sent:
        _first_answer(engine, sent[0][3], timeout, deadline)
    left = None if deadline is None else deadline()
    out = run(engine, [c for *_, c in sent], timeout=timeout, expected_failures={},
              deadline=None if left is None else max(left, 0.001))
    ident.engine = out.engine
    ident.cases_run += len(out.results)
    if out.engine.get("start_error"):
        raise IdentifyError(f"the engine did not start: {out.engine['start_error']['message']}")
    per_plan: dict[str, list[tuple[Probe, int, CaseResult]]] = {p.field: [] for p in plans}
    for (plan, probe, g, _), r in zip(sent, out.results):
        per_plan[plan.field].append((probe, g, r))
        if r.outcome == "pass":
            known.append((probe.position, probe.groups[g][1]))
    return {plan.field: vote(plan, per_plan[plan.field]) for plan in plans}


def identify(engine: Any, claim: Claim, suite: list[Case] | None = None, timeout: float = 10.0,
             deadline: Callable[[], float | None] | None = None,
             progress: Callable[[str], Any] | None = None, search: int = 0) -> Identification:
    """Ask `engine` (started by the runner for each round) what it plays; `claim` is what every request carries.

    `suite` gives positions: its deciding cases, for their fields, and the cases of the claimed variant, for
    every field. `deadline()` gives the seconds left for the engine's runs (None: no limit). `search` plays that
    many shaped matches more for each value no position told from the claimed one."""
    fields = asked_fields(claim.config)
    by_field, own = suite_positions(suite or [], fields, claim)
    results: dict[str, FieldResult] = {}
    base, todo = claim.config, fields
    ident = Identification({}, claim.name, claim.config, [], claim.config)
    known: Known = []
    for round_no in range(PASSES):
        if deadline is not None and (deadline() or 0) <= 0:  # no searching for positions nobody will be asked
            if not round_no:
                raise IdentifyError("the deadline passed before the engine was asked anything")
            break  # the last round's answers stand
        pool = pool_of(_key(base), claim.name if not round_no else f"{claim.name}-as-played-{round_no + 1}")
        plans = []
        for name in todo:
            if progress is not None:
                progress(name)
            plans.append(plan_field(base, name, deciding.get_value(claim.config, name), pool, by_field.get(name, []),
                                    own, TRANSCRIPTS, claim.name, claim.config, search))
        results.update(_ask(engine, plans, claim, ident, known, timeout, deadline))
        # asked again over the changes found: the fields that agreed with no value, and the changed ones, so that
        # a change one field's positions blamed on another (a seat-0 opener leads any tile) is weighed against it
        changes = [(r.field, r.value) for r in results.values() if r.changed]
        new_base = with_changes(claim.config, explanation(claim.config, changes, known))
        settled = len(changes) <= 1 and not any(r.status == "none" for r in results.values())
        if settled or _key(new_base) == _key(base):
            break
        base, todo = new_base, [n for n, r in results.items() if r.status == "none" or r.changed]
    ident.fields = [results[n] for n in fields]
    ident.config = with_changes(claim.config, [(r.field, r.value) for r in ident.fields if r.changed])
    ident.errors = [{"field": r.field, "error": r.note} for r in ident.fields if r.status == "error"]
    return ident
