"""The code base is clean under ruff and mypy (configured in pyproject.toml), as CI requires."""
import ast
import functools
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from test_layers import layer_map, modules, part_of

ROOT = Path(__file__).resolve().parent.parent


def _run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", *args], cwd=ROOT, capture_output=True, text=True, timeout=600)


@pytest.mark.skipif(not (ROOT / "pyproject.toml").exists(), reason="needs the source tree")
def test_ruff_finds_nothing():
    if shutil.which("ruff") is None and _run("ruff", "--version").returncode:
        pytest.skip("ruff is not installed (pip install '.[test]')")
    res = _run("ruff", "check", ".")
    assert res.returncode == 0, res.stdout + res.stderr


@functools.cache
def _mypy_strict() -> tuple[int, str]:
    """One `mypy --strict` run over the whole package (`strict = true` in pyproject.toml: a plain `mypy` is the same)."""
    res = _run("mypy", "--strict")
    return res.returncode, res.stdout + res.stderr


def _part_of_error(line: str) -> str | None:
    """The layer part (tests/layers.toml) of the module an error line of mypy names."""
    match = re.match(r"(rulelang/\S+?)\.py:\d+: error:", line)
    if match is None:
        return None
    name = match.group(1).replace("/", ".").removesuffix(".__init__")
    return part_of(name)


@pytest.mark.skipif(not (ROOT / "pyproject.toml").exists(), reason="needs the source tree")
@pytest.mark.parametrize("part", list(layer_map()[1]))
def test_mypy_strict_finds_nothing(part):
    """The whole package under `mypy --strict`; a failure names the part of the layer map it is in."""
    if _run("mypy", "--version").returncode:
        pytest.skip("mypy is not installed (pip install '.[test]')")
    assert (ROOT / "interpreter" / "py.typed").exists()  # the engine ships its annotations
    code, out = _mypy_strict()
    mine = [line for line in out.splitlines() if _part_of_error(line) == part]
    assert not mine, "\n".join(mine)
    if part == "commands":  # errors outside the package's modules (configuration, syntax) fail one test
        assert code == 0 or any(_part_of_error(line) for line in out.splitlines()), out


MAX_FUNCTION_LINES = 60


def _long_functions(name: str) -> list[str]:
    path = modules()[name]
    text = path.read_text(encoding="utf-8")
    if text.startswith('"""GENERATED'):  # a generated module is data, not a function to read
        return []
    return [f"{path.relative_to(ROOT)}:{node.lineno}: {node.name} has {node.end_lineno - node.lineno + 1} lines"
            for node in ast.walk(ast.parse(text))
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.end_lineno is not None
            and node.end_lineno - node.lineno + 1 > MAX_FUNCTION_LINES]


@pytest.mark.skipif(not (ROOT / "pyproject.toml").exists(), reason="needs the source tree")
@pytest.mark.parametrize("part", list(layer_map()[1]))
def test_no_function_is_longer_than_60_lines(part):
    """A function that does one job fits on a screen; a failure names the part of the layer map it is in."""
    long = [line for name in modules() if part_of(name) == part for line in _long_functions(name)]
    assert not long, "\n".join(long)
