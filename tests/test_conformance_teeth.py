"""The suite has teeth: engines with one rule wrong are caught by at least one case."""
from __future__ import annotations

import copy
import sys
from pathlib import Path

import pytest

from rulelang.conformance import builtin, cases, runner
from rulelang.conformance.protocol import InProcessEngine, SubprocessEngine

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
