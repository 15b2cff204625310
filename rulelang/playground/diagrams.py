"""The conformance cases' positions, browsable and drawn (the `rulelang render --case` machinery).

Only ids found in the bundled suite are accepted, so a request never names a file.
"""
from __future__ import annotations

from functools import cache
from typing import TypedDict

from rulelang.playground.limits import ApiError
from rulelang.tools.cases import CASES_DIR, case_round_at, suite_cases
from rulelang.tools.configs import ToolError
from rulelang.tools.svg import round_svg


class CaseEntry(TypedDict):
    """A case of the suite as the Diagrams tab lists it."""

    id: str
    variant: str
    file: str
    description: str
    tags: list[str]
    steps: int


@cache
def case_index() -> tuple[CaseEntry, ...]:
    """Every case of the suite: id, variant, file, description, tags and number of steps."""
    return tuple({"id": case["id"], "variant": f.parent.name, "file": f.relative_to(CASES_DIR).as_posix(),
                  "description": str(case.get("description", "")),
                  "tags": list(case.get("tags", case.get("features", [])) or []),
                  "steps": len(case.get("steps", []))}
                 for _data, case, f in suite_cases())


def case_svg(case_id: str, step: int | None) -> str:
    """The SVG of a case's position after its first STEP steps (default: all)."""
    entry = next((c for c in case_index() if c["id"] == case_id), None)
    if entry is None:
        raise ApiError(404, f"no conformance case {case_id!r}")
    try:
        rnd, case, k, info = case_round_at(f"{CASES_DIR / entry['file']}:{entry['id']}", step)
    except ToolError as exc:
        raise ApiError(400, exc.format_message()) from None
    title = f"case {case['id']}, after step {k} of {len(case['steps'])}"
    notes = [entry["description"][:110]] + info[-1:]
    return round_svg(rnd, title=title, notes=notes)
