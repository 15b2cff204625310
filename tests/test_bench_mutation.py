"""The mutation script keeps working as the engine and the language change (the score is measured by running it)."""
from __future__ import annotations

import ast
import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import compiled_in_tree

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "bench" / "mutation.py"
sys.path.insert(0, str(ROOT / "bench"))

import mutants  # noqa: E402 - the bench folder is no package

# the mutation tooling's own tests: a CI step of their own (`python -m pytest -m tooling`, .ci/run)
pytestmark = pytest.mark.tooling

# the engine compiled into the checkout (.ci/run's second pass): the script refuses to judge mutants
COMPILED_IN_TREE = compiled_in_tree()
# cosmic-ray (the `dev` extra) makes the default mutants; without it the script runs the project's operators alone
HAS_COSMIC_RAY = importlib.util.find_spec("cosmic_ray") is not None
SOURCE = [] if HAS_COSMIC_RAY else ["--source", "project"]
needs_cosmic_ray = pytest.mark.skipif(not HAS_COSMIC_RAY, reason="cosmic-ray is not installed (pip install '.[dev]')")


# a mutant the suite kills: "events of net raw 0 are not recorded" turned around
RAW_DROP_NOT = "interpreter/round.py::Round._event::if not raw:::drop-not"


def _wrong_entry(mutant_id: str) -> dict:
    """An allow-list entry for a mutant of `Round._event`, listed as equivalent, its fingerprint current."""
    code = ["interpreter/round.py::Round._event"]
    return {"id": mutant_id, "reason": "equivalent: wrongly", "code": code, "fingerprint": mutants.fingerprint(code)}


def _allowlist(tmp_path: Path, *entries: dict) -> Path:
    """An allow-list file holding these entries."""
    path = tmp_path / "eq.json"
    path.write_text(json.dumps({"description": "", "equivalent": list(entries)}))
    return path


def _run(*args: str) -> subprocess.CompletedProcess:
    args = (*args, *SOURCE) if "--serve" not in args else args
    return subprocess.run([sys.executable, str(SCRIPT), *args], capture_output=True, text=True, timeout=300, cwd=ROOT)


def test_it_finds_mutants_in_every_rule_module_and_the_language():
    res = _run("--list")
    assert res.returncode == 0, res.stderr
    files = {line.split(":")[0] for line in res.stdout.splitlines() if line.startswith(("interpreter/", "rulelang/"))}
    assert {"interpreter/round.py", "interpreter/settlement.py", "rulelang/language/compiler.py", "rulelang/config/rules.py",
            "rulelang/config/validation.py", "rulelang/language/statements/deal.py"} <= files
    assert not any(f.endswith(("transcript.py", "players.py", "errors.py")) for f in files)


def test_every_operator_on_every_node_of_a_line(tmp_path):
    module = tmp_path / "m.py"
    module.write_text("def f(a, b, xs):\n"
                      "    if a < b and not xs[1:3] or min(a, b) == 0:\n"
                      "        return sorted(xs, reverse=True)\n"
                      "    for x in xs:\n"
                      "        break\n"
                      "    return -a + b\n")
    found = mutants.mutants_of(module, {"sorted": {"reverse"}})
    labels = {(m.line, m.label) for m in found}
    assert {(2, "Lt->LtE"), (2, "Eq->NotEq"), (2, "And->Or"), (2, "Or->And"), (2, "drop-not"), (2, "add-not"),
            (2, "slice-drop-lower"), (2, "slice-drop-upper"), (2, "min->max"), (2, "0->1"), (2, "0->-1"),
            (2, "1->2"), (2, "1->0"), (2, "3->4"), (2, "3->2"), (2, "3->0"), (3, "True->False"),
            (3, "return->None"), (3, "drop-kwarg-reverse"), (5, "break->continue"), (6, "Add->Sub"),
            (6, "drop-neg")} <= labels
    assert len({m.id for m in found}) == len(found)
    for m in found:  # each mutant is one valid change of the module
        text = mutants.mutated_source(m, {"sorted": {"reverse"}})
        assert ast.dump(ast.parse(text)) != ast.dump(ast.parse(module.read_text()))


def test_the_operators_beyond_the_boundary_ones(tmp_path):
    # the comparison turned round, a test made constant, a loop that never runs, a value dropped, a call
    # removed, a plain assignment for an augmented one, and a string a comparison looks for
    module = tmp_path / "m.py"
    module.write_text("def f(mode, xs):\n"
                      "    total = 0\n"
                      "    for x in xs:\n"
                      "        total += x\n"
                      "    xs.append(total)\n"
                      "    if mode in ('exact', 'at-least') and total < 5:\n"
                      "        return total\n"
                      "    return 0\n")
    found = mutants.mutants_of(module, {})
    labels = {(m.line, m.label) for m in found}
    assert {(2, "assign->None"), (3, "for-over-nothing"), (4, "aug->assign"), (5, "drop-call"), (6, "if->True"),
            (6, "if->False"), (6, "flip-Lt->Gt"), (6, "'exact'->'XXexactXX'"),
            (6, "'at-least'->'XXat-leastXX'")} <= labels
    mutated = {m.label: mutants.mutated_source(m, {}) for m in found}
    assert "for x in []:" in mutated["for-over-nothing"] and "total = x" in mutated["aug->assign"]
    assert "xs.append" not in mutated["drop-call"] and "'XXexactXX'" in mutated["'exact'->'XXexactXX'"]
    assert "if True:" in mutated["if->True"] and "total > 5" in mutated["flip-Lt->Gt"]


def test_a_rule_mistake_is_killed_by_the_suite(tmp_path):
    # "events of net raw 0 are not recorded" turned around: a case sees it at once
    res = _run("--match", RAW_DROP_NOT, "--json", str(tmp_path / "m.json"), "--no-probe")
    if COMPILED_IN_TREE:  # the mutants would not be run: the script says so
        assert res.returncode == 2 and "shadow the source" in res.stderr
        return
    assert res.returncode == 0, res.stdout + res.stderr
    doc = json.loads((tmp_path / "m.json").read_text())
    assert doc["judged"] == 1 and doc["killed"] == 1 and doc["score"] == 1.0
    assert doc["areas"]["engine"]["killed"] == 1


def test_every_listed_equivalent_mutant_has_a_reason_and_a_unique_id():
    doc = json.loads((ROOT / "bench" / "mutation-equivalent.json").read_text())
    ids = [e["id"] for e in doc["equivalent"]]
    assert len(ids) == len(set(ids))
    assert all(e["reason"].split(":")[0] in ("equivalent", "unobservable", "unreachable") for e in doc["equivalent"])


@pytest.mark.skipif(COMPILED_IN_TREE, reason="the engine is compiled into the checkout: the script refuses to run")
def test_a_language_mistake_that_changes_a_configuration_is_killed_by_a_case(tmp_path):
    # `placements score multiples of N` no longer sets the multiple: the compiled configurations change
    res = _run("--match", "rulelang/language/statements/scoring.py::_set_scoring::multiple = v.multiple if v.multiple is not None else c.multiple::IsNot->Is",
               "--json", str(tmp_path / "m.json"))
    assert res.returncode == 0, res.stdout + res.stderr
    doc = json.loads((tmp_path / "m.json").read_text())
    assert doc["areas"]["statements"]["judged"] == 1 and doc["areas"]["statements"]["killed"] == 1
    [verdict] = doc["verdicts"]
    assert verdict["stage"] == "cases" and verdict["by"] and "bundled:all-threes" in verdict["changed"]


@pytest.mark.skipif(COMPILED_IN_TREE, reason="the engine is compiled into the checkout: the script refuses to run")
def test_a_configuration_change_no_case_sees_is_judged_by_the_language_tests(tmp_path):
    # the base's label (`based_on`, metadata no engine reads) set to None: every child's configuration changes,
    # every case passes
    res = _run("--match", "rulelang/language/compiler.py::analyse_ruleset::base_label = based.value.ref::assign->None",
               "--json", str(tmp_path / "m.json"))
    assert res.returncode == 0, res.stdout + res.stderr
    [verdict] = json.loads((tmp_path / "m.json").read_text())["verdicts"]
    assert verdict["verdict"] == "killed" and verdict["stage"] == "cases, then tests" and verdict["by"].startswith("tests/")
    assert "bundled:muggins-claims" in verdict["changed"] and "NO CASE SAW [compiler]" in res.stdout


@pytest.mark.skipif(COMPILED_IN_TREE, reason="the engine is compiled into the checkout: the script refuses to run")
def test_verify_allowlist_reports_an_entry_the_suite_kills(tmp_path):
    listed = _allowlist(tmp_path, _wrong_entry(RAW_DROP_NOT))
    res = _run("--verify-allowlist", "--equivalent", str(listed), "--no-probe")
    assert res.returncode == 1, res.stdout + res.stderr
    assert "listed as equivalent but killed by" in res.stdout and "1 wrong" in res.stdout


@pytest.mark.skipif(COMPILED_IN_TREE, reason="the engine is compiled into the checkout: the script refuses to run")
def test_verify_allowlist_with_match_reruns_only_the_matching_entries(tmp_path):
    kept = RAW_DROP_NOT  # listed wrongly, but not matched: not rerun
    listed = _allowlist(tmp_path, _wrong_entry(kept),
                        {"id": "interpreter/round.py::Round.gone::x = 1::1->2", "reason": "equivalent: test"})
    res = _run("--verify-allowlist", "--equivalent", str(listed), "--match", "Round.gone", "--no-probe")
    assert res.returncode == 1, res.stdout + res.stderr
    assert "names no mutant" in res.stdout and "allow-list: 1 entries, 0 rerun, 1 wrong" in res.stdout
    assert kept not in res.stdout


@pytest.mark.skipif(COMPILED_IN_TREE, reason="the engine is compiled into the checkout: the script refuses to run")
def test_entries_naming_no_mutant_are_reported_as_stale(tmp_path):
    # an entry whose line changed names no mutant: the run says so, so that it is judged again
    gone = "interpreter/round.py::Round.gone::x = 1::1->2"
    listed = _allowlist(tmp_path, {"id": gone, "reason": "equivalent: test"})
    res = _run("--match", "no such mutant", "--equivalent", str(listed), "--json", str(tmp_path / "m.json"))
    assert res.returncode == 0, res.stdout + res.stderr
    assert "stale: 1 entries" in res.stdout
    assert json.loads((tmp_path / "m.json").read_text())["stale"] == [gone]


@pytest.mark.skipif(COMPILED_IN_TREE, reason="the engine is compiled into the checkout: the script refuses to run")
def test_an_engine_survivor_is_run_against_the_probe(tmp_path):
    # the bots' claim (the muggins rule): no case and no probe game can see it; the table says so
    bot_claim = "interpreter/claims.py::bot_claim::return 0::0->1"
    res = _run("--match", bot_claim, "--json", str(tmp_path / "m.json"), "--equivalent", str(_allowlist(tmp_path)),
               "--probe-scope", "suite")
    assert res.returncode == 0, res.stdout + res.stderr
    doc = json.loads((tmp_path / "m.json").read_text())
    [verdict] = doc["verdicts"]
    assert verdict["verdict"] == "survived" and verdict["seen"] is None
    assert doc["areas"]["engine"]["seen"] == 0 and "the probe does not see it" in res.stdout


@pytest.mark.skipif(COMPILED_IN_TREE, reason="the engine is compiled into the checkout: the script refuses to run")
def test_a_mutant_served_as_an_engine_fails_the_cases_it_breaks(tmp_path):
    # `--serve ID`: the mutated engine over the protocol, for `rulelang conform --engine` (and --shrink)
    engine = f"{sys.executable} {SCRIPT} --serve '{RAW_DROP_NOT}'"
    res = subprocess.run([sys.executable, "-m", "rulelang", "conform", "--variant", "allfives", "--engine", engine,
                          "--tag", "placement-score"], capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert res.returncode == 1 and "FAILED" in res.stdout and "breaks seed:004" in res.stdout, res.stdout + res.stderr
    bad = _run("--serve", "interpreter/round.py::nowhere::x::1->2")
    assert bad.returncode == 2 and "--serve takes the id of an engine mutant" in bad.stderr


@pytest.mark.skipif(COMPILED_IN_TREE, reason="the engine is compiled into the checkout: the script refuses to run")
def test_survivors_of_a_file_with_no_verdicts_is_refused(tmp_path):
    empty = tmp_path / "run.progress"
    empty.write_text("")
    res = _run("--survivors-of", str(empty))
    assert res.returncode == 2 and f"no verdicts in {empty}" in res.stderr


def test_a_judge_stopped_past_its_time_is_killed_unless_the_suite_had_passed():
    # a judge prints the suite's verdict before it runs the probe: stopped in the probe, the mutant survived the
    # suite and counts as seen; stopped before any verdict (an endless loop in a case), it is killed
    import mutation

    survivor = json.dumps({"by": None, "stage": "cases", "seen": "(the probe did not finish)"})
    verdict, by, detail = mutation._stopped(("noise\n" + survivor + "\n").encode())
    assert (verdict, by, detail["seen"]) == ("survived", None, "(the probe did not finish)")
    for out in (None, b"", "not json\n", json.dumps({"by": "some-case", "stage": "cases"})):
        assert mutation._stopped(out)[:2] == ("killed", "(timeout)")


# the six-set table of tiles sharing a half, built with wrong move codes (key 1, not 0): a larger set's case, run
# earlier in the same process, extends the table (extend_shifted rewrites the six-set's subsets too) and so hides
# the mistake from every later case (a table built without the 6s no longer serves: a miss is now made on use)
SHIFTED_SIX = ("interpreter/layout.py::_shifted_table::out[sum(1 << i for i in chosen)] = "
               "tuple(move_code(i, 0) for i in chosen)::0->1")


@pytest.mark.skipif(COMPILED_IN_TREE, reason="the engine is compiled into the checkout: a mutant would not load")
def test_a_mutant_hidden_by_the_order_of_the_cases_is_judged_again_in_the_suites_order(tmp_path):
    import mutation

    ctx = mutation.Context(tmp_path, {}, {"engine"}, trace=False, probe=False)
    [m] = [m for m in mutants.mutants_of(ROOT / "interpreter" / "layout.py") if m.id == SHIFTED_SIX]
    larger_first = [c["id"] for c in json.loads(ctx.suite.read_text()) if c["id"].startswith("double-nine-six")]
    assert mutation._judge_once(m, ctx, larger_first, 40, False)[0] == "survived"  # hidden in that order
    verdict, by, _ = mutation.judge(m, ctx, larger_first, 40)
    assert verdict == "killed" and not by.startswith("double-nine-six")


MODULE = ("def f(a, b, xs, d):\n"
          "    if a < b and not xs[1:3] or min(a, b) == 0:\n"
          "        return sorted(xs, reverse=True)\n"
          "    elif a in xs:\n"
          "        a += 1\n"
          "    try:\n"
          "        b = {**d, 'k': -a + b}\n"
          "    except KeyError:\n"
          "        pass\n"
          "    return b\n")


@needs_cosmic_ray
def test_cosmic_ray_makes_the_mutants_under_the_projects_ids(tmp_path):
    import cosmic
    from cosmic_ray.mutating import mutate_code

    module = tmp_path / "m.py"
    module.write_text(MODULE)
    found = mutants.mutants_of(module, {"sorted": {"reverse"}}, source="cosmic-ray")
    labels = {(m.line, m.label, m.cr is not None) for m in found}
    # cosmic-ray's changes, named as the project names the same change (a comparison replaced by every other)
    assert {(2, "Lt->LtE", True), (2, "Lt->Eq", True), (2, "flip-Lt->Gt", True), (2, "And->Or", True),
            (2, "drop-not", True), (2, "add-not", True), (2, "1->2", True), (2, "Eq->NotEq", True),
            (7, "Add->Sub", True), (7, "Add->Mult", True), (7, "drop-neg", True), (7, "USub->UAdd", True),
            (3, "True->False", True), (8, "except-KeyError->CosmicRayTestingException", True)} <= labels
    # and only what no cosmic-ray operator does, from the project's: `in`, `+=`, a number made 0, an elif negated,
    # a returned value, a slice bound, min/max, a keyword argument
    assert {(4, "In->NotIn", False), (5, "Add->Sub", False), (5, "aug->assign", False), (2, "3->0", False),
            (4, "add-not", False), (3, "return->None", False), (2, "slice-drop-lower", False),
            (2, "min->max", False), (3, "drop-kwarg-reverse", False)} <= labels
    assert not {(2, "1->0", False), (2, "Lt->LtE", False), (2, "drop-not", False)} & labels  # cosmic-ray's
    assert not [m for m in found if m.line == 7 and m.label.startswith("Pow->")]  # `{**d}` is no power
    assert len({m.id for m in found}) == len(found)
    for m in found:  # each mutant is one change that compiles; cosmic-ray's are its own mutate_code's
        text = mutants.mutated_source(m, {"sorted": {"reverse"}})
        compile(text, "m.py", "exec")
        assert ast.dump(ast.parse(text)) != ast.dump(ast.parse(MODULE))
        if m.cr is not None and not m.label.startswith("except-"):
            assert text == mutate_code(MODULE, cosmic.operators()[m.cr[0]], m.cr[1])
    # ids survive line moves: a function added above changes none of them
    module.write_text("def g():\n    return 1\n\n\n" + MODULE)
    moved = mutants.mutants_of(module, {"sorted": {"reverse"}}, source="cosmic-ray")
    assert {m.id for m in found} <= {m.id for m in moved}


@needs_cosmic_ray
def test_an_exception_replaced_by_cosmic_ray_runs(tmp_path):
    module = tmp_path / "m.py"
    module.write_text("def f(d):\n    try:\n        return d['x']\n    except KeyError:\n        return 0\n")
    [m] = [m for m in mutants.mutants_of(module, {}, source="cosmic-ray") if m.label.startswith("except-")]
    space: dict = {}
    exec(mutants.mutated_source(m, {}), space)
    with pytest.raises(KeyError):  # the handler no longer catches it: the mutant is observable, not a NameError
        space["f"]({})


@needs_cosmic_ray
def test_the_allow_list_names_mutants_of_the_default_source():
    import allowlist
    import mutation

    ids = {m.id for ms in mutation.all_mutants().values() for m in ms}
    assert [e["id"] for e in allowlist.load() if e["id"] not in ids] == []


def test_without_cosmic_ray_the_script_says_how_to_install_it(tmp_path, monkeypatch):
    import mutation

    monkeypatch.setattr(mutation, "available_sources", lambda: ("project",))
    assert mutation.main(["--match", "nothing", "--source", "cosmic-ray"]) == 2


def test_the_language_tests_the_judge_runs_exist():
    import judge

    assert [path for path in judge.LANGUAGE_TESTS if not (ROOT / path).is_file()] == []
