"""Conformance cases for rendering: find a case by id or file, rebuild its round
with the engine and apply its steps up to K."""
from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import cast

import rulelang
from rulelang.base.jsontypes import ConfigJSON
from rulelang.base.readinput import read_json
from rulelang.interpreter import Config, IllegalMove, Match, Round
from rulelang.tools.configs import ToolError, load_config_dict
from rulelang.tools.documents import Case, CaseFile

CASES_DIR = Path(__file__).parents[1] / "conformance" / "cases"  # rulelang/conformance: the suite, installed or linked


def _read(path: Path) -> CaseFile:
    try:
        data = read_json(path)  # a regular file, bounded in size and nesting
    except FileNotFoundError:
        raise ToolError(f"no such file: {path}") from None
    except (OSError, ValueError) as exc:
        raise ToolError(f"cannot read case file {path}: {exc}") from None
    if not isinstance(data, dict) or not isinstance(data.get("cases"), list):
        raise ToolError(f"{path} is not a conformance case file (no 'cases' list)")
    for k, case in enumerate(data["cases"]):
        problem = _case_problem(case)
        if problem:
            raise ToolError(f"{path} is not a valid conformance case file: /cases/{k}: {problem} "
                            "(see `rulelang help conformance`)")
    return cast(CaseFile, data)  # what rendering needs of it checked above


def _case_problem(case: object) -> str | None:
    """What a case lacks for rendering (its structure only; `rulelang conform` lints the rest), or None."""
    if not isinstance(case, dict):
        return "a case must be an object"
    if not isinstance(case.get("id"), str):
        return "`id` must be a text"
    if not isinstance(case.get("players"), int):
        return "`players` must be a number"
    setup = case.get("setup")
    if not isinstance(setup, dict) or not isinstance(setup.get("hands"), list) \
            or not isinstance(setup.get("boneyard"), list):
        return "`setup` must be an object with `hands` and `boneyard` lists"
    for key in ("steps", "next_rounds"):
        items = case.get(key, [])
        if not isinstance(items, list) or not all(isinstance(x, dict) for x in items):
            return f"`{key}` must be a list of objects"
    return None


def suite_cases() -> Iterator[tuple[CaseFile, Case, Path]]:
    """(file data, case, path) of every case of the shipped suite that has an id; unreadable files are passed over."""
    for f in sorted(CASES_DIR.glob("**/*.json")):
        try:
            data = json.loads(f.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
        for case in data.get("cases", []) if isinstance(data, dict) else []:
            if isinstance(case, dict) and isinstance(case.get("id"), str):
                yield cast(CaseFile, data), cast(Case, case), f  # a case with an id (unchecked, as ever)


def find_case(spec: str) -> tuple[CaseFile, Case, Path]:
    """(file data, case, path) for CASE_ID, FILE (with one case) or FILE:CASE_ID."""
    file_part, _, id_part = spec.partition(".json:")
    if id_part:
        path = Path(file_part + ".json")
        data = _read(path)
        for case in data["cases"]:
            if case.get("id") == id_part:
                return data, case, path
        raise ToolError(f"no case {id_part!r} in {path} (cases: {', '.join(c.get('id', '?') for c in data['cases'])})")
    path = Path(spec)
    if path.suffix == ".json" or path.exists():
        data = _read(path)
        if not data["cases"]:
            raise ToolError(f"{path} holds no case")
        if len(data["cases"]) != 1:
            ids = ", ".join(c.get("id", "?") for c in data["cases"])
            raise ToolError(f"{path} holds {len(data['cases'])} cases; name one as {path}:CASE_ID ({ids})")
        return data, data["cases"][0], path
    for data, case, f in suite_cases():
        if case["id"] == spec:
            return data, case, f
    raise ToolError(f"no conformance case {spec!r} (give a case id, a case file, or FILE:CASE_ID)")


def case_config(data: CaseFile, case: Case) -> ConfigJSON:
    ruleset = case.get("ruleset", data.get("ruleset"))
    if isinstance(ruleset, str):
        return load_config_dict(ruleset)
    if isinstance(ruleset, dict) and "text" in ruleset:
        try:
            return rulelang.compile_text(ruleset["text"], ruleset.get("filename", "<case>"))
        except Exception as exc:
            raise ToolError(f"cannot compile the case's inline ruleset: {exc}") from None
    raise ToolError("the case names no ruleset")


def case_round_at(spec: str, step: int | None) -> tuple[Round, Case, int, list[str]]:
    """(round, case, applied steps, info lines) after the case's first ``step`` steps."""
    data, case, path = find_case(spec)
    cfg = Config.from_dict(case_config(data, case))
    steps = case["steps"]
    if step is None:
        step = len(steps)
    if step < 0 or step > len(steps):
        raise ToolError(f"--step {step}: case {case['id']} has {len(steps)} steps (0..{len(steps)})")
    deals = [dict(case["setup"])] + [dict(d) for d in case.get("next_rounds", [])]
    try:
        match = Match(cfg, case["players"], seed=0, record=True, deal=deals)
    except (ValueError, KeyError, TypeError) as exc:
        raise ToolError(f"case {case['id']}: invalid setup: {exc}") from None
    rnd = match.round
    info: list[str] = []
    for k, st in enumerate(steps[:step], 1):
        rnd = match.round
        try:
            if "play" in st:
                match.play(st["play"])
                info.append(f"step {k}: {st['play']}")
            elif "draw" in st:
                rnd.draw()
            else:
                rnd.pass_turn()
        except IllegalMove as exc:
            info.append(f"step {k}: {st.get('play', 'draw' if 'draw' in st else 'pass')} rejected ({exc.code})")
        except (ValueError, TypeError, AttributeError, KeyError) as exc:
            raise ToolError(f"case {case['id']}: step {k} ({json.dumps(st)[:80]}): {exc}") from None
        if match.over:
            break
    return rnd, case, step, info
