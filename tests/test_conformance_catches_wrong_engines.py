"""The suite has teeth: engines with one rule wrong are caught by at least one case."""
from __future__ import annotations

import copy
import inspect
import sys
import textwrap
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from ruleset_text import compiled

from rulelang.conformance import builtin, cases, configs, runner
from rulelang.conformance.protocol import InProcessEngine, SubprocessEngine
from rulelang.interpreter import deal, legality, settlement, tiles
from rulelang.language.statements import settlement as settlement_statements

TOY = Path(__file__).parents[1] / "conformance" / "examples" / "toy_engine.py"
CASES = cases.lint().cases

# breakage -> cases that must catch it (a subset of what fails; each is worked out by hand)
TOY_BREAKAGES = {
    "internal-double-counts": {"exact61-prose-terminal-66-plus-3", "pagat-diagram-34"},
    "branch-early": {"pagat-diagram-44", "pagat-illegal-branch-before-line"},
    "round-2-up": {"pagat-domino-each-loses-own-hand"},
    "pool-partners": {"pagat-partners-rounded-separately"},
    "target-before-settlement": {"pagat-target-not-checked-mid-round", "pagat-tie-break-round-decides-below-target"},
    "no-overshoot-discard": {"exact61-placement-overshoot-discarded", "exact61-domino-event-discarded-whole"},
}


def _failed(result):
    return {r.case.id for r in result.results if r.outcome in ("fail", "error")}


@pytest.mark.parametrize("breakage", sorted(TOY_BREAKAGES))
def test_each_broken_engine_is_caught(breakage):
    engine = SubprocessEngine([sys.executable, str(TOY), "--break", breakage])
    result = runner.run(engine, CASES, timeout=30, expected_failures={})
    assert not result.ok
    failed = _failed(result)
    assert TOY_BREAKAGES[breakage] <= failed, f"{breakage}: caught only by {sorted(failed)}"


# -- the built-in engine, broken in-process by a wrapper or a monkeypatch -------------------

def _wrapped(mutate):
    """The built-in engine fed a configuration with one rule changed: it behaves as if it ignored that rule."""
    def run_case(request):
        req = copy.deepcopy(request)
        mutate(req["config"])
        return builtin.run_case(req)
    return InProcessEngine(run_case, {"name": "broken"}, {})


def _set(path, value, only=None):
    def mutate(cfg):
        if only and cfg["name"] not in only:
            return
        node = cfg
        for k in path[:-1]:
            node = node[k]
        node[path[-1]] = value
    return mutate


BUILTIN_BREAKAGES = {
    # a branch opening before both in-line sides are occupied
    "branch-early": (_set(["doubles", "branch_sides"], "at-once", {"pagat", "exact61"}), {"pagat-diagram-34"}),
    # the Pagat target checked after every event instead of after settlement
    "target-before-settlement": (_set(["target", "check"], "every-event", {"pagat"}),
                                 {"pagat-target-not-checked-mid-round"}),
    # an overshoot bounced back instead of discarded
    "overshoot-bounced": (_set(["target", "overshoot"], "bounce", {"exact61"}),
                          {"exact61-placement-overshoot-discarded"}),
    # every hand pooled before rounding (Pagat)
    "pooled-hands": (_set(["settlement", "domino", "terms", 0, "pooling"], "pooled", {"pagat"}),
                     {"pagat-partners-rounded-separately"}),
}


@pytest.mark.parametrize("breakage", sorted(BUILTIN_BREAKAGES))
def test_each_broken_builtin_wrapper_is_caught(breakage):
    mutate, must = BUILTIN_BREAKAGES[breakage]
    result = runner.run(_wrapped(mutate), CASES, expected_failures={})
    assert must <= _failed(result)


def test_rounding_two_up_in_the_builtin_engine_is_caught(monkeypatch):
    import rulelang.interpreter.settlement as engine_round
    from rulelang.interpreter.build import engine_build

    if engine_build() != "pure Python":
        pytest.skip("a compiled engine calls its own round5: replacing it at run time changes nothing")

    monkeypatch.setattr(engine_round, "round5", lambda x: (x + 3) // 5 * 5)
    engine = InProcessEngine(builtin.run_case, {"name": "broken"}, {})
    result = runner.run(engine, CASES, expected_failures={})
    assert "pagat-domino-each-loses-own-hand" in _failed(result)


LINT = cases.lint()


BY_ID = {c.id: c for c in LINT.cases}


ROTATING = ["muggins-rotating-double-wraps-after-double-blank",
            "double-nine-six-rotating-double-wraps-after-double-blank"]


DRAW_OUT = ["allfives-no-double-draw-boneyard-runs-out"]


HIGHEST = ["double-nine-six-highest-double-opens", "double-nine-six-highest-double-heaviest-tile",
           "double-nine-six-d12-highest-double-opens", "double-nine-six-d12-highest-double-heaviest-tile"]


PIPS = ["double-nine-six-domino-hand-pips-above-six"]


NO_MATCH = ["allfives-illegal-no-match-on-the-spinner-and-an-end"]


NO_WINNER = ["muggins-house-block-shared-lightest-pays-nothing-to-the-winner"]


HEAVIEST = ["muggins-house-heaviest-hand-in-pip-order-per-hand"]


PER_TILE = ["allfives-house-one-point-per-tile"]


NEW = ROTATING + DRAW_OUT + HIGHEST + PIPS + NO_MATCH + NO_WINNER + HEAVIEST + PER_TILE


@contextmanager
def mutated(func: Callable[..., Any], old: str, new: str) -> Iterator[None]:
    """FUNC with OLD (once in its source) changed to NEW, in place: every caller runs the changed code."""
    src = textwrap.dedent(inspect.getsource(func))
    assert src.count(old) == 1, f"{old!r} is not once in {func.__name__}"
    namespace = dict(func.__globals__)
    exec(compile(src.replace(old, new), inspect.getsourcefile(func) or "<mutant>", "exec"), namespace)  # noqa: S102
    code = func.__code__
    func.__code__ = namespace[func.__name__].__code__
    try:
        yield
    finally:
        func.__code__ = code


def _outcomes(ids: list[str]) -> dict[str, str]:
    configs._inline.cache_clear()  # the runner compiles an inline ruleset once a process: a compiler mistake is new
    engine = InProcessEngine(builtin.run_case, builtin.implementation(), builtin.capabilities())
    result = runner.run(engine, [BY_ID[i] for i in ids], expected_failures={})
    return {r.case.id: r.outcome for r in result.results}


MUTANTS = {
    # the rotating double: after [0|0] the top double again (not one round early, not [5|5], not stuck on [0|0])
    "rotation-modulo-top": (deal.round_double, "round_no % (cfg.tiles + 1)", "round_no % cfg.tiles", ROTATING),
    "rotation-stops-at-blank": (deal.round_double, "cfg.tiles - round_no % (cfg.tiles + 1)",
                                "max(cfg.tiles - round_no, 0)", ROTATING),
    # opening draws until a double turns up, when the boneyard runs out first
    "draws-stop-one-short": (deal.open_by_double, "for k in range(bend):", "for k in range(bend - 1):", DRAW_OUT),
    "draws-from-seat-1": (deal.open_by_double, "        seat = 0\n", "        seat = 1\n", DRAW_OUT),
    "run-out-lead-not-forced": (deal.open_by_double,
                                "deciding_tile(masks[opener]) if cfg.lead == \"forced\" else -1, tuple(drawn)",
                                "-1, tuple(drawn)", DRAW_OUT),
    # the highest double and the heaviest tile on a larger set
    "highest-of-double-six-only": (deal.deciding_tile, "(_RANK_ORDER_6 if mask <= _SIX else _RANK_ORDER)",
                                   "_RANK_ORDER_6", HIGHEST),
    # the hand pips of tiles past the double-six set
    "pips-of-one-larger-block": (tiles.mask_pips, "for table in _larger_pips_tables():",
                                 "for table in _larger_pips_tables()[:1]:", PIPS),
    # the reason a move that does not match a double's side is refused
    "no-match-unchecked-on-doubles": (legality.diagnose, "if not MASK_ALL[v] >> ti & 1:",
                                      "if not IS_DOUBLE[t] and not MASK_ALL[v] >> ti & 1:", NO_MATCH),
    "no-match-on-a-branch-called-closed": (legality.diagnose, "    v = lay.free[key]\n",
                                           "    v = lay.free[key]\n    if side in (BRANCH_A, BRANCH_B) and not "
                                           "MASK_ALL[v] >> ti & 1:\n        illegal(\"branch-closed\", \"closed\")\n",
                                           NO_MATCH),
    # a block without a winner: a term to the winner pays nothing
    "heaviest-without-a-winner": (settlement._amounts, "elif wside is not None:  # heaviest", "else:  # heaviest",
                                  NO_WINNER),
    # the heaviest hand is a hand amount under `one event per hand`, ordered by its pips
    "heaviest-after-pooled": (settlement._amounts, "_amount(pips[h], term), h, (0, pips[h], rank[h], k), k))",
                              "_amount(pips[h], term), h, (1, k), k))", HEAVIEST),
    # the compiler refusing the smallest amount per tile
    "one-per-tile-refused": (settlement_statements._check_terms, "term.per_tile < 1", "term.per_tile <= 1", PER_TILE),
}


def test_the_unchanged_engine_passes_the_new_cases():
    assert set(NEW) <= set(BY_ID)
    assert set(_outcomes(NEW).values()) == {"pass"}


@pytest.mark.parametrize("name", sorted(MUTANTS))
def test_a_deliberate_mistake_fails_its_case(name):
    func, old, new, ids = MUTANTS[name]
    if not hasattr(func, "__code__"):
        pytest.skip("a function of the compiled engine (mypyc) cannot be changed in place: the pure pass runs this")
    with mutated(func, old, new):
        outcomes = _outcomes(ids)
    assert "pass" not in outcomes.values(), outcomes
    assert set(_outcomes(ids).values()) == {"pass"}  # restored


def test_one_point_per_tile_is_the_smallest_amount_and_compiles():
    config = compiled("allfives", "on domino:\n  credit opponents' hands pooled, 1 point per tile, to the winner\n"
                                  "  as one event\n")
    assert config["settlement"]["domino"]["terms"] == [
        {"kind": "tiles", "hands": "opponents", "pooling": "pooled", "per_tile": 1, "to": "winner", "sign": "credit"}]
