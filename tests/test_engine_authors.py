"""What an engine author is given: the CI recipe runs, the GitHub Action is wired to it, the tutorial is linked."""
from __future__ import annotations

import os
import shlex
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FRESH = ROOT / "tests" / "data" / "conformance" / "fresh_engine.py"
RECIPE = ROOT / "conformance" / "ci-recipe.sh"


def _recipe(tmp_path, **env):
    full = dict(os.environ, OUT=str(tmp_path / "out"), RULELANG_CMD=f"{shlex.quote(sys.executable)} -m rulelang",
                ENGINE=f"{shlex.quote(sys.executable)} {shlex.quote(str(FRESH))}")
    full.update(env)
    return subprocess.run(["bash", str(RECIPE)], cwd=ROOT, env=full, capture_output=True, text=True, timeout=300)


def test_the_shell_recipe_runs_the_suite_and_writes_both_reports(tmp_path):
    res = _recipe(tmp_path, VARIANTS="pagat", TAGS="diagram")
    assert res.returncode == 0, res.stdout + res.stderr
    junit = (tmp_path / "out" / "junit.xml").read_text(encoding="utf-8")
    assert 'name="pagat-diagram-66"' in junit
    assert (tmp_path / "out" / "report.json").exists()


def test_the_shell_recipe_fails_when_the_engine_fails(tmp_path):
    toy = ROOT / "conformance" / "examples" / "toy_engine.py"
    res = _recipe(tmp_path, VARIANTS="pagat", TAGS="diagram",
                  ENGINE=f"{shlex.quote(sys.executable)} {shlex.quote(str(toy))} --break internal-double-counts")
    assert res.returncode == 1
    assert "failures=" in (tmp_path / "out" / "junit.xml").read_text(encoding="utf-8")


def test_the_shell_recipe_needs_an_engine(tmp_path):
    env = {k: v for k, v in os.environ.items() if k != "ENGINE"}
    res = subprocess.run(["bash", str(RECIPE)], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)
    assert res.returncode != 0
    assert "set ENGINE" in res.stderr


def test_the_action_runs_the_recipe_with_its_inputs_and_uploads_the_reports():
    import pytest

    yaml = pytest.importorskip("yaml")
    text = (ROOT / "action.yml").read_text(encoding="utf-8")
    doc = yaml.safe_load(text)
    assert doc["runs"]["using"] == "composite"
    assert {"engine", "variant", "tag", "cases", "strict"} <= set(doc["inputs"])
    assert doc["inputs"]["engine"]["required"] is True
    for needed in ("using: composite", "engine:", "variant:", "tag:", "conformance/ci-recipe.sh",
                   "actions/upload-artifact", "ENGINE: ${{ inputs.engine }}", "VARIANTS: ${{ inputs.variant }}",
                   "TAGS: ${{ inputs.tag }}"):
        assert needed in text, needed


def test_the_readme_points_engine_authors_to_the_tutorial_and_the_ci_recipes():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for link in ("docs/engine-authors.md", "action.yml", "conformance/ci-recipe.sh", "conformance/PROTOCOL.md"):
        assert link in readme, link
