#!/usr/bin/env python3
"""Run the pending conformance cases against an engine over the protocol.

The pending variants (family.md tier A) cannot be compiled yet, so the runner
cannot make their configurations from a bundled name. This harness lints
`pending/cases/` like the suite, then runs them with the suite's own runner,
comparison and subprocess engine; the only difference is that a case's ruleset
name is looked up in `pending/configs/NAME.json` (the expected compiled
configuration) before the bundled rulesets. When the language and the engine
catch up, the files move to `rulesets/` and `conformance/cases/` and this goes.

    python conformance/pending/run_pending.py --engine "python tests/data/conformance/toy_engine.py"
"""
from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from unittest import mock

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
if str(ROOT) not in sys.path:  # run as a script from anywhere: the worktree's conformance package
    sys.path.insert(0, str(ROOT))

from conformance import runner  # noqa: E402
from conformance.cases import Case, lint  # noqa: E402
from conformance.configs import compiled  # noqa: E402
from conformance.protocol import SubprocessEngine  # noqa: E402

CASES = HERE / "cases"
CONFIGS = HERE / "configs"


def pending_config(name: str) -> dict[str, Any] | None:
    """The expected compiled configuration of a pending variant, or None when it is not pending."""
    path = CONFIGS / f"{name}.json"
    if not path.is_file():
        return None
    try:
        cfg = json.loads(path.read_text(encoding="utf-8"))
    except ValueError as exc:
        raise ValueError(f"{path}: not JSON: {exc}") from exc
    if not isinstance(cfg, dict):
        raise ValueError(f"{path}: a configuration is a JSON object")
    return cfg


def _compiled_with_pending(ruleset: Any) -> dict[str, Any]:
    if isinstance(ruleset, str):
        cfg = pending_config(ruleset)
        if cfg is not None:
            return cfg
    return compiled(ruleset)


@contextmanager
def pending_rulesets() -> Iterator[None]:
    """While active, the runner finds the pending variants' configurations by name."""
    with mock.patch.object(runner, "compiled", _compiled_with_pending):
        yield


def load() -> list[Case]:
    """Every pending case, linted as the suite lints itself (raises ValueError on a problem)."""
    rep = lint(CASES)
    if not rep.ok:
        raise ValueError("the pending cases do not lint:\n" + "\n".join(rep.errors))
    missing = sorted({c.ruleset for c in rep.cases if isinstance(c.ruleset, str) and pending_config(c.ruleset) is None})
    if missing:
        raise ValueError(f"no pending configuration for {', '.join(missing)} (expected in {CONFIGS})")
    return rep.cases


def run(command: str | list[str], cases: list[Case] | None = None, timeout: float = 10.0) -> runner.RunResult:
    """Run the pending cases on the engine started by `command`; no expected failures."""
    cases = load() if cases is None else cases
    with pending_rulesets():
        return runner.run(SubprocessEngine(command, cwd=str(ROOT)), cases, timeout=timeout, expected_failures={})


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--engine", required=True, help="the engine command (it speaks conformance/PROTOCOL.md)")
    ap.add_argument("--variant", action="append", default=[], help="only this variant (repeatable)")
    ap.add_argument("--timeout", type=float, default=10.0)
    args = ap.parse_args(argv)
    try:
        cases = load()
    except ValueError as exc:
        print(exc, file=sys.stderr)
        return 2
    if args.variant:
        cases = [c for c in cases if c.variant in args.variant]
    if not cases:
        print("no pending case selected", file=sys.stderr)
        return 2
    result = run(args.engine, cases, args.timeout)
    for r in result.results:
        if r.outcome != "pass":
            detail = r.difference.to_dict() if r.difference else (r.error or r.skip_reason)
            print(f"{r.outcome.upper()} {r.case.id}: {json.dumps(detail)}")
    counts = {k: v for k, v in result.counts().items() if v}
    print(f"{len(result.results)} pending cases: " + ", ".join(f"{v} {k}" for k, v in counts.items()))
    return 0 if result.ok else 1


if __name__ == "__main__":
    sys.exit(main())
