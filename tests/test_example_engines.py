"""The example engines ship with the package: `rulelang conform --engine example-python` / `example-js`."""
from __future__ import annotations

import fnmatch
import json
import shutil
import tomllib
from pathlib import Path

import pytest
from click.testing import CliRunner

from rulelang.cli import main
from rulelang.conformance import example_engines

ROOT = Path(__file__).parents[1]


def conform(*args):
    return CliRunner().invoke(main, ["conform", *args], catch_exceptions=False)


def test_the_examples_are_package_data_of_the_wheel():
    patterns = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"][
        "package-data"]["rulelang.conformance"]
    files = sorted(p.relative_to(ROOT / "conformance").as_posix() for p in (ROOT / "conformance" / "examples").iterdir()
                   if p.is_file())
    assert "examples/toy_engine.py" in files and "examples/toy_engine.mjs" in files
    for f in files:
        assert any(fnmatch.fnmatch(f, pat) for pat in patterns), f"{f} is not in the wheel's package data"
    for ex in example_engines.EXAMPLES.values():
        assert ex.path.is_file() and ex.path.resolve().parent == ROOT / "conformance" / "examples"


def test_the_examples_are_listed_with_their_files():
    res = conform("--example-engines")
    assert res.exit_code == 0
    for ex in example_engines.EXAMPLES.values():
        assert ex.name in res.output and str(ex.path) in res.output


def test_example_python_runs_by_name_with_its_own_flags(tmp_path):
    report = tmp_path / "r.json"
    res = conform("--engine", "example-python", "--variant", "pagat", "--tag", "diagram", "--report", str(report))
    assert res.exit_code == 0, res.output
    assert json.loads(report.read_text())["engine"]["implementation"]["name"] == "toy"
    broken = conform("--engine", "example-python --break branch-early", "--variant", "pagat", "--tag", "diagram")
    assert broken.exit_code == 1 and "FAIL pagat-" in broken.output


def test_example_js_runs_by_name(tmp_path):
    if shutil.which("node") is None:
        pytest.skip("node (Node.js) is not on PATH")
    report = tmp_path / "r.json"
    res = conform("--engine", "example-js", "--variant", "pagat", "--tag", "diagram", "--report", str(report))
    assert res.exit_code == 0, res.output
    assert json.loads(report.read_text())["engine"]["implementation"]["name"] == "toy-js"


def test_example_js_without_node_is_one_clear_message(tmp_path, monkeypatch):
    monkeypatch.setenv("PATH", str(tmp_path))  # an empty folder: no node
    for args in (["conform", "--engine", "example-js"], ["cases", "generate", "allfives", "-o", str(tmp_path / "o"),
                                                          "--check-engine", "example-js"]):
        res = CliRunner().invoke(main, args)
        assert res.exit_code == 2, res.output
        assert "example-js needs Node.js" in res.output and "Traceback" not in res.output
    assert not (tmp_path / "o").exists()


def test_other_commands_are_left_alone():
    assert example_engines.resolve(["./my-engine", "--fast"]) == ["./my-engine", "--fast"]
    assert example_engines.resolve(["python", "example-python"]) == ["python", "example-python"]


def test_show_prints_an_example_engine_to_start_from(tmp_path):
    runner = CliRunner()
    for ex in example_engines.EXAMPLES.values():
        res = runner.invoke(main, ["show", ex.name])
        assert res.exit_code == 0 and res.output == ex.path.read_text(encoding="utf-8")
    bad = runner.invoke(main, ["show", "example-rust"])
    assert bad.exit_code == 1 and "example engines: example-python, example-js" in bad.output  # an unknown name


def test_a_copy_of_the_example_passes_as_the_tutorial_says(tmp_path):
    copy = tmp_path / "toy.py"
    copy.write_text(CliRunner().invoke(main, ["show", "example-python"]).output, encoding="utf-8")
    import shlex
    import sys

    res = conform("--engine", f"{shlex.quote(sys.executable)} {shlex.quote(str(copy))}", "--variant", "allfives",
                  "--tag", "prose-example")
    assert res.exit_code == 0, res.output


def test_the_tutorial_is_installed_and_uses_the_shipped_examples():
    res = CliRunner().invoke(main, ["help", "engine-authors"])
    assert res.exit_code == 0 and res.output.startswith("# Write a conforming engine")
    text = (ROOT / "docs" / "engine-authors.md").read_text(encoding="utf-8")
    for needed in ("rulelang conform --engine example-python", "rulelang conform --engine example-js",
                   "rulelang show example-python > toy.py", "rulelang help protocol", "rulelang cases generate"):
        assert needed in text, needed
    assert "tests/data" not in text  # nothing a user of the installed package does not have
