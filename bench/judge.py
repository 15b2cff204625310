"""Judging one mutant, in a fresh process that loads the mutated module in place of its file.

An engine mutant is judged by the conformance suite (the built-in engine
in-process, every case, stopping at the first that fails); one that survives
is then run against the probe (bench/probe.py), which says whether the
protocol can see it at all (`seen`), without making it a kill. A language mutant
(compiler, checks, statements) is judged in three stages:

1. every ruleset the suite and the tests use (the bundled ones, every file
   under tests/data/rulesets/, every inline ruleset of a case) is compiled
   with the mutated language, and each outcome (the configuration, or the
   rendered errors) is compared with the unmutated one;
2. if the configuration of a ruleset a case uses changes, the cases of those
   rulesets run with the mutated configurations: killed when one fails;
3. otherwise (no configuration a case uses changed, or no case failed) the
   project's own tests of explain, fmt, diagnostics and the statement table
   (`LANGUAGE_TESTS`, a fixed fast subset) run in-process: killed when one
   fails (a change no case can see, such as a configuration's `based_on`, is
   judged by the tests).

`executed` traces which lines the unmutated code runs (sys.settrace) so the
caller need not run a mutant no judge ever executes.
"""
from __future__ import annotations

import contextlib
import hashlib
import importlib.machinery
import importlib.util
import io
import json
import os
import sys
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
RULESET_DATA = REPO / "tests" / "data" / "rulesets"
# golden errors and fmt of the examples, error rendering, explain and the statement table, warnings
LANGUAGE_TESTS = ["tests/test_lang_examples.py", "tests/test_lang_errors.py", "tests/test_outside_words.py",
                  "tests/test_statement_table.py", "tests/test_lang_unit_warnings.py",
                  # fmt lines, explain sentences, error messages and spans, round trips (a module per statement group)
                  "tests/test_statements_deal.py", "tests/test_statements_play.py", "tests/test_statements_scoring.py",
                  "tests/test_statements_settlement.py", "tests/test_statements_house.py", "tests/test_claims.py",
                  "tests/test_lang_compiler_checks.py", "tests/test_lang_inheritance.py", "tests/test_lang_round_trip.py",
                  "tests/test_lang_api.py",
                  # the engine's side of the family's house rules
                  "tests/test_engine_settlement.py", "tests/test_engine_scoring.py", "tests/test_engine_target.py"]


def module_name(path: Path) -> str:
    """The name a module is imported by (the engine as rulelang.interpreter: a link to the top-level folder)."""
    rel = path.resolve().relative_to(REPO).with_suffix("")
    parts = rel.parts[:-1] if rel.name == "__init__" else rel.parts
    return ".".join(("rulelang", *parts) if parts[0] == "interpreter" else parts)


class _MutantLoader(importlib.machinery.SourceFileLoader):
    """Loads one module from the mutated text instead of its file (no bytecode cache)."""

    def __init__(self, fullname: str, path: str, text: str):
        super().__init__(fullname, path)
        self.text = text

    def get_code(self, fullname):  # type: ignore[override]
        return compile(self.text, self.path, "exec")


class _MutantFinder:
    def __init__(self, fullname: str, path: str, text: str):
        self.fullname, self.path, self.text = fullname, path, text

    def find_spec(self, fullname, path=None, target=None):  # noqa: ANN001 - the finder protocol
        if fullname != self.fullname:
            return None
        is_pkg = self.path.endswith("__init__.py")
        return importlib.util.spec_from_file_location(
            fullname, self.path, loader=_MutantLoader(fullname, self.path, self.text),
            submodule_search_locations=[os.path.dirname(self.path)] if is_pkg else None)


def install(module_path: str, source_file: str) -> None:
    """Make the next import of the module load the mutated text."""
    path = Path(module_path)
    sys.meta_path.insert(0, _MutantFinder(module_name(path), str(path), Path(source_file).read_text(encoding="utf-8")))


# ----------------------------------------------------------------------------- what the suite and the tests compile


def ruleset_key(ruleset: Any) -> str:
    """A name for a case's ruleset: `bundled:NAME` or `inline:HASH`."""
    if isinstance(ruleset, str):
        return f"bundled:{ruleset}"
    return "inline:" + hashlib.sha256(json.dumps(ruleset, sort_keys=True).encode()).hexdigest()[:16]


def _render(errors: list[Any]) -> str:
    return "\n\n".join(f"[{e.code}]\n{e.render()}" for e in errors)


def _outcome(fn: Any) -> str:
    import rulelang

    try:
        return json.dumps(fn(), sort_keys=True)
    except rulelang.RulesetError as exc:
        return "errors:" + _render(exc.errors)
    except Exception as exc:  # noqa: BLE001 - a mutant may break anything: its crash is its outcome
        return f"crash:{type(exc).__name__}: {str(exc)[:200]}"


def snapshot(cases: list[dict[str, Any]]) -> dict[str, str]:
    """{ruleset key: its compiled configuration or rendered errors}, for every ruleset used."""
    import rulelang
    from rulelang.conformance.configs import compiled

    out: dict[str, str] = {}
    for name in rulelang.bundled_names():
        out[f"bundled:{name}"] = _outcome(lambda n=name: rulelang.compile_bundled(n))
    for case in cases:
        key = ruleset_key(case["ruleset"])
        if key not in out:
            out[key] = _outcome(lambda r=case["ruleset"]: compiled(r))
    here = os.getcwd()
    try:
        for path in sorted(RULESET_DATA.rglob("*.rules")):
            os.chdir(path.parent)  # messages name the file as given, and bases resolve beside it
            out["file:" + path.relative_to(REPO).as_posix()] = _outcome(lambda p=path: rulelang.compile_file(p.name))
    finally:
        os.chdir(here)
    return out


def case_list() -> list[dict[str, Any]]:
    """Every case of the suite: its id, data and ruleset (the request is built by whoever compiles)."""
    from rulelang.conformance import cases

    return [{"id": c.id, "data": c.data, "ruleset": c.ruleset} for c in cases.lint().cases]


def run_cases(cases: list[dict[str, Any]], requests: dict[str, Any] | None = None) -> str | None:
    """The id of the first case the built-in engine fails, or None; requests built here unless given."""
    from rulelang.conformance import builtin
    from rulelang.conformance.cases import Case
    from rulelang.conformance.compare import compare
    from rulelang.conformance.protocol import InProcessEngine
    from rulelang.conformance.runner import request_for

    engine = InProcessEngine(builtin.run_case, {}, {})
    for seq, c in enumerate(cases):
        if requests is not None:
            req = requests[c["id"]]
        else:
            try:
                req = request_for(Case(c["id"], "", "", REPO, c["data"], c["ruleset"]))
            except Exception:  # noqa: BLE001 - the runner reports a ruleset it cannot compile: the case errors
                return c["id"]
        answer = engine.run(seq, req, 5.0)
        if "result" not in answer or compare(c["data"], answer["result"]) is not None:
            return str(c["id"])
    return None


class _FirstFailure:
    """A pytest plugin that keeps the id of the first test that fails."""

    def __init__(self) -> None:
        self.failed: str | None = None

    def pytest_runtest_logreport(self, report: Any) -> None:
        if report.failed and self.failed is None:
            self.failed = report.nodeid


def run_tests(tests: list[str]) -> str | None:
    """The first failing test of the subset, run in this process, or None when all pass."""
    import pytest

    plugin = _FirstFailure()
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        rc = pytest.main([*tests, "-x", "-q", "-p", "no:cacheprovider"], plugins=[plugin])
    if rc == 0:
        return None
    return plugin.failed or f"(pytest exit {int(rc)})"


# ----------------------------------------------------------------------------- the workers


def engine_worker(suite_path: str, order_file: str, probe_path: str | None = None,
                  killed_too: str | None = None) -> dict[str, Any]:
    """The engine (already mutated by `install`) against the suite, cases that killed before first; a survivor
    then against the probe (bench/probe.py), with the suite's verdict printed first (the probe may time out).
    With `killed_too` ("killed-too"), a killed mutant is run against the probe as well: how much of what the
    suite sees the probe sees (its recall)."""
    suite = {c["id"]: c for c in json.loads(Path(suite_path).read_text(encoding="utf-8"))}
    order = json.loads(Path(order_file).read_text(encoding="utf-8"))
    ids = [i for i in order if i in suite] + sorted(i for i in suite if i not in order)
    killer = run_cases([suite[i] for i in ids], {i: suite[i]["request"] for i in ids})
    if probe_path is None or (killer is not None and killed_too is None):
        return {"by": killer, "stage": "cases"}
    if killer is None:  # a survivor: if the probe does not finish in the CPU time, it is seen
        print(json.dumps({"by": None, "stage": "cases", "seen": "(the probe did not finish)"}), flush=True)
    import probe

    return {"by": killer, "stage": "cases", "seen": probe.first_seen(_load_probe(probe_path))}


def _load_probe(path: str) -> list[dict[str, Any]]:
    return json.loads(Path(path).read_text(encoding="utf-8"))


def language_worker(cases_path: str, baseline_path: str) -> dict[str, Any]:
    """The language (already mutated) judged by the compiled rulesets, then the cases, then the tests."""
    cases = json.loads(Path(cases_path).read_text(encoding="utf-8"))
    baseline = json.loads(Path(baseline_path).read_text(encoding="utf-8"))
    now = snapshot(cases)
    changed = sorted(k for k in set(baseline) | set(now) if baseline.get(k) != now.get(k))
    used = {ruleset_key(c["ruleset"]) for c in cases}
    configs = [k for k in changed if k in used]  # a case's ruleset compiled otherwise (or not at all)
    if configs:
        hit = [c for c in cases if ruleset_key(c["ruleset"]) in configs]
        killer = run_cases(hit)
        if killer is not None:
            return {"by": killer, "stage": "cases", "changed": changed}
        # a change no case sees (the configuration's metadata, a field no engine reads) is still judged
        return {"by": run_tests(LANGUAGE_TESTS), "stage": "cases, then tests", "changed": changed}
    return {"by": run_tests(LANGUAGE_TESTS), "stage": "tests", "changed": changed}


def executed(files: list[str], run: Any) -> dict[str, list[int]]:
    """{file: its lines that ran} while `run()` runs, for the given files only (sys.settrace, main thread)."""
    wanted = {os.path.realpath(f) for f in files}
    known: dict[str, str | None] = {}
    lines: dict[str, set[int]] = {f: set() for f in wanted}

    def tracer(frame: Any, event: str, arg: Any) -> Any:
        name = frame.f_code.co_filename
        real = known.get(name, "")
        if real == "":
            real = known[name] = os.path.realpath(name) if os.path.realpath(name) in wanted else None
        if real is None:
            return None
        hits = lines[real]
        hits.add(frame.f_lineno)

        def local(frame: Any, event: str, arg: Any) -> Any:
            if event == "line":
                hits.add(frame.f_lineno)
            return local
        return local

    sys.settrace(tracer)
    try:
        run()
    finally:
        sys.settrace(None)
    return {os.path.relpath(f, REPO): sorted(v) for f, v in lines.items()}


def _service(kind: str, args: list[str]) -> Any:
    """The unmutated runs the caller needs once: the case list, the baseline snapshot, the traces."""
    if kind == "cases":
        return case_list()
    cases = json.loads(Path(args[0]).read_text(encoding="utf-8"))
    if kind == "baseline":
        return snapshot(cases)
    files = args[2:]
    if kind == "probe":
        import probe

        entries, _ = probe.build(cases, extra=files[:1] != ["suite"])
        return entries
    if kind == "trace-engine":
        # the lines the suite runs, and those the probe runs (given after the files as `--probe PATH`)
        suite = json.loads(Path(args[0]).read_text(encoding="utf-8"))
        probe_path = files[files.index("--probe") + 1] if "--probe" in files else None
        files = [f for f in files if f != "--probe" and f != probe_path]

        def both() -> None:
            run_cases(suite, {c["id"]: c["request"] for c in suite})
            if probe_path is not None:
                import probe

                probe.first_seen(_load_probe(probe_path))
        return executed(files, both)
    return executed(files, lambda: (snapshot(cases), run_tests(LANGUAGE_TESTS)))


def main(argv: list[str]) -> int:
    """`judge.py engine|language MODULE SOURCE ARG ARG [PROBE]`: prints the verdict as the last line of JSON.

    `judge.py cases|baseline|probe|trace-engine|trace-language IN OUT [FILES]`: writes an unmutated run's result
    to OUT. `judge.py serve MODULE SOURCE`: the mutated built-in engine as a protocol engine on stdin/stdout.
    """
    argv = [argv[0], *(a if a in ("--probe", "killed-too", "all", "suite") else os.path.abspath(a) for a in argv[1:])]
    sys.path.insert(0, str(REPO))
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    os.chdir(REPO)
    if argv[0] == "serve":
        install(argv[1], argv[2])
        from rulelang.conformance import builtin
        from rulelang.conformance.protocol import serve

        about = builtin.implementation()
        return serve(builtin.run_case, {**about, "name": f"{about.get('name', 'rulelang')} (a mutant)"},
                     builtin.capabilities())
    if argv[0] not in ("engine", "language"):
        out = _service(argv[0], argv[1:])
        Path(argv[2] if argv[0] != "cases" else argv[1]).write_text(json.dumps(out), encoding="utf-8")
        return 0
    kind, module_path, source_file, a, b, *rest = argv
    try:
        install(module_path, source_file)
        result = engine_worker(a, b, *rest) if kind == "engine" else language_worker(a, b)
    except BaseException as exc:  # noqa: BLE001 - a mutant may break anything, even the import: a kill
        result = {"by": f"({type(exc).__name__})", "stage": "import"}
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
