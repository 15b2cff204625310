"""What a release and its users' CI read: the package's metadata, the wheels, the pre-commit hooks, the action.

A package index refuses a wheel tagged `linux_x86_64`, so compiled wheels come from
cibuildwheel and every other platform gets the pure `py3-none-any` wheel; the public
metadata names no pinned linter; the hooks and the action install the pure engine,
which compiles nothing (`check`, `fmt` and an external engine's suite never run it).
"""
from __future__ import annotations

import importlib.util
import os
import re
import shlex
import shutil
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parent.parent
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
yaml = pytest.importorskip("yaml")  # in the test extra (pyyaml)


def _name(requirement: str) -> str:
    return re.split(r"[\s\[<>=!~;]", requirement, maxsplit=1)[0].lower().replace("_", "-")


def _backend() -> ModuleType:
    spec = importlib.util.spec_from_file_location("rulelang_build", ROOT / "build_backend" / "rulelang_build.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _classifier_versions() -> list[str]:
    prefix = "Programming Language :: Python :: "
    return [c[len(prefix):] for c in PROJECT["project"]["classifiers"] if re.fullmatch(r"\d+\.\d+", c[len(prefix):])]


# -- the package's metadata ---------------------------------------------------------------

def test_no_extra_repeats_a_core_dependency():
    core = {_name(r) for r in PROJECT["project"]["dependencies"]}
    for extra, requirements in PROJECT["project"]["optional-dependencies"].items():
        assert not core & {_name(r) for r in requirements}, extra
    assert "serve" in PROJECT["project"]["optional-dependencies"]  # `pip install 'rulelang[serve]'` stays valid


def test_pip_install_rulelang_dask_installs_dask():
    """`pip install 'rulelang[dask]'` is what users type for `balance --dask`: the extra
    installs Dask, as `cluster` (still valid) does, and the messages name it."""
    extras = PROJECT["project"]["optional-dependencies"]
    assert "dask" in {_name(r) for r in extras["dask"]} and extras["dask"] == extras["cluster"]
    assert "rulelang[dask]" in (ROOT / "rulelang" / "tools" / "study.py").read_text(encoding="utf-8")


def test_the_public_metadata_pins_nothing_and_the_pins_are_in_the_development_file():
    for extra, requirements in PROJECT["project"]["optional-dependencies"].items():
        assert not [r for r in requirements if "==" in r], extra
    pins = dict(line.split("==") for line in (ROOT / "requirements-dev.txt").read_text(encoding="utf-8").split()
                if "==" in line)
    assert {"ruff", "mypy"} <= set(pins)
    assert f"mypy=={pins['mypy']}" == _backend().MYPYC  # the mypy whose mypyc compiles the engine
    test_extra = {_name(r) for r in PROJECT["project"]["optional-dependencies"]["test"]}
    assert {"ruff", "mypy"} <= test_extra  # `pip install '.[test]'` still runs the lint tests


def test_ci_installs_the_pins_then_runs_the_readme_test_command():
    run = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    command = "pip install '.[test]' && python -m pytest"
    assert command in readme and command in run
    assert -1 < run.find("-r requirements-dev.txt") < run.find(command)


def test_ci_checks_the_generated_files_and_runs_the_tooling_tests_as_their_own_step():
    run = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    suite = run.find("pip install '.[test]' && python -m pytest")
    assert suite > -1 and "\npython -m rulelang.generate --check\n" in run
    assert run.find("python -m pytest -m tooling") > suite and "python -m pytest -m tooling" in readme
    # the README's test command deselects them: `-m "not tooling"` in addopts, and the marker is declared
    options = PROJECT["tool"]["pytest"]["ini_options"]
    assert "-m 'not tooling'" in options["addopts"]
    assert any(m.startswith("tooling:") for m in options["markers"])


def test_the_classifiers_name_the_python_versions_ci_tests_and_the_wheels_are_built_for():
    versions = _classifier_versions()
    assert versions and PROJECT["project"]["requires-python"] == f">={versions[0]}"
    if os.environ.get("CI"):  # .ci/run's Python is the one CI tests
        assert f"{sys.version_info.major}.{sys.version_info.minor}" in versions
    cibw = PROJECT["tool"]["cibuildwheel"]
    assert cibw["build"].split() == [f"cp{v.replace('.', '')}-*" for v in versions]
    assert cibw["test-command"]  # every built wheel is installed and run before it is published
    assert any("compiled (mypyc)" in c for c in cibw["test-command"])


def test_the_build_needs_no_wheel_package():
    # setuptools builds wheels itself; mypy comes only for a compiled build (the backend asks for it)
    assert [_name(r) for r in PROJECT["build-system"]["requires"]] == ["setuptools"]


# -- the build backend ----------------------------------------------------------------------

def test_the_config_setting_or_the_environment_asks_for_the_pure_engine(monkeypatch: pytest.MonkeyPatch):
    backend = _backend()
    monkeypatch.delenv("RULELANG_PURE_PYTHON", raising=False)
    assert backend.get_requires_for_build_wheel() == [backend.MYPYC, *backend.TYPED_IMPORTS]
    assert backend.get_requires_for_build_wheel({"pure-python": "true"}) == []
    assert backend.get_requires_for_build_editable({"pure-python": "1"}) == []
    assert backend.get_requires_for_build_wheel({"pure-python": "false"}) == [backend.MYPYC, *backend.TYPED_IMPORTS]
    with backend._engine_choice({"pure-python": "true"}):
        assert os.environ["RULELANG_PURE_PYTHON"] == "1"  # what setup.py reads
    assert "RULELANG_PURE_PYTHON" not in os.environ
    assert backend._for_setuptools({"pure-python": "true", "--build-option": "x"}) == {"--build-option": "x"}
    monkeypatch.setenv("RULELANG_PURE_PYTHON", "1")
    assert backend.get_requires_for_build_wheel() == []


def test_setup_py_runs_once_per_build():
    # no metadata hook: the front end reads the metadata from the wheel (one setup.py and mypyc run, not three)
    backend = _backend()
    assert not hasattr(backend, "prepare_metadata_for_build_wheel")
    assert not hasattr(backend, "prepare_metadata_for_build_editable")


def test_the_pure_wheel_is_built_by_one_command(tmp_path: Path):
    """The documented command (pyproject.toml, [tool.cibuildwheel]) gives a py3-none-any wheel without extensions."""
    src = tmp_path / "src"
    shutil.copytree(ROOT, src, ignore=shutil.ignore_patterns(".git", ".venv*", "node_modules", "build", "dist",
                                                             "*.egg-info", "__pycache__", "*.so", ".pytest_cache"))
    comment = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    command = re.search(r"`(pip wheel [^`]+)`", comment)
    assert command, "pyproject.toml documents the pure wheel's command"
    argv = shlex.split(command.group(1).replace("-w dist", f"-w {tmp_path / 'dist'}"))
    env = {k: v for k, v in os.environ.items() if k != "RULELANG_PURE_PYTHON"}
    res = subprocess.run([sys.executable, "-m", *argv], cwd=src, env=env, capture_output=True, text=True, timeout=600)
    if res.returncode and re.search(r"No matching distribution|Could not find a version|NewConnectionError", res.stderr):
        pytest.skip("the build's setuptools cannot be fetched here (no package index)")
    assert res.returncode == 0, res.stdout + res.stderr
    wheels = list((tmp_path / "dist").glob("*.whl"))
    assert len(wheels) == 1 and wheels[0].name.endswith("-py3-none-any.whl"), wheels
    with zipfile.ZipFile(wheels[0]) as whl:
        names = whl.namelist()
        wheel_file = next(n for n in names if n.endswith(".dist-info/WHEEL"))
        assert "Root-Is-Purelib: true" in whl.read(wheel_file).decode()
        metadata = whl.read(wheel_file.replace("/WHEEL", "/METADATA")).decode()
    assert "Provides-Extra: dask" in metadata and 'extra == "dask"' in metadata  # `rulelang[dask]` installs Dask
    assert not [n for n in names if n.endswith((".so", ".pyd", ".c"))]
    assert "rulelang/interpreter/round.py" in names and "rulelang/playground/static/playground.js" in names
    # the documents and the playground's page and style, stored once in the repository, are in the wheel
    docs = {f"rulelang/docs/{p.name}" for p in (ROOT / "docs").glob("*.md")}
    assert docs and docs <= set(names), sorted(docs - set(names))
    assert {"rulelang/playground/static/index.html", "rulelang/playground/static/playground.css",
            "rulelang/playground/templates/sheet.html", "rulelang/language/ruleset.lark"} <= set(names)
    assert not [n for n in names if n.startswith("rulelang/docs/") and n.count("/") > 2]  # not docs/design/, docs/img/


# -- the pre-commit hooks -------------------------------------------------------------------

HOOKS = yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))


def test_every_hook_installs_the_pure_engine():
    # pre-commit installs a hook with `pip install . ADDITIONAL_DEPENDENCIES`: the option reaches the build backend
    for hook in HOOKS:
        assert "--config-settings=pure-python=true" in hook["additional_dependencies"], hook["id"]


def test_the_check_hook_prints_nothing_for_valid_files_and_the_errors_of_a_broken_one(tmp_path: Path):
    hook = next(h for h in HOOKS if h["id"] == "rulelang-check")
    argv = shlex.split(hook["entry"])
    valid = sorted(str(p) for p in (ROOT / "rulesets").glob("*.rules"))
    res = subprocess.run([sys.executable, "-m", "rulelang", *argv[1:], *valid], capture_output=True, text=True)
    assert (res.returncode, res.stdout, res.stderr) == (0, "", "")
    broken = tmp_path / "broken.rules"
    broken.write_text('ruleset broken "Broken"\nbogus\n', encoding="utf-8")
    res = subprocess.run([sys.executable, "-m", "rulelang", *argv[1:], valid[0], str(broken)],
                         capture_output=True, text=True)
    out = res.stdout + res.stderr
    assert res.returncode == 1 and "broken.rules:2:1" in out and valid[0] not in out


# -- the GitHub Action ----------------------------------------------------------------------

ACTION = yaml.safe_load((ROOT / "action.yml").read_text(encoding="utf-8"))


def test_the_action_uploads_under_a_name_of_its_job_and_matrix_index():
    upload = next(s for s in ACTION["runs"]["steps"] if str(s.get("uses", "")).startswith("actions/upload-artifact"))
    name = upload["with"]["name"]
    assert "github.job" in name and "strategy.job-index" in name and "inputs.artifact-name" in name
    assert ACTION["inputs"]["artifact-name"]["default"] == ""


def test_the_action_installs_the_pure_engine_unless_asked():
    install = next(s for s in ACTION["runs"]["steps"] if s.get("name") == "Install rulelang")
    assert ACTION["inputs"]["pure-python"]["default"] == "true"
    assert install["env"]["PURE"] == "${{ inputs.pure-python }}"
    assert "--config-settings=pure-python=true" in install["run"]
    assert ACTION["inputs"]["python-version"]["default"] in _classifier_versions()
