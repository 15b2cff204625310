"""The code base is clean under ruff and mypy (configured in pyproject.toml), as CI requires."""
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", *args], cwd=ROOT, capture_output=True, text=True, timeout=600)


@pytest.mark.skipif(not (ROOT / "pyproject.toml").exists(), reason="needs the source tree")
def test_ruff_finds_nothing():
    if shutil.which("ruff") is None and _run("ruff", "--version").returncode:
        pytest.skip("ruff is not installed (pip install '.[test]')")
    res = _run("ruff", "check", ".")
    assert res.returncode == 0, res.stdout + res.stderr


@pytest.mark.skipif(not (ROOT / "pyproject.toml").exists(), reason="needs the source tree")
def test_mypy_finds_nothing():
    if _run("mypy", "--version").returncode:
        pytest.skip("mypy is not installed (pip install '.[test]')")
    res = _run("mypy")
    assert res.returncode == 0, res.stdout + res.stderr


# The language modules are held to `mypy --strict` (the engine and the runner have their own owners).
STRICT = ["rulelang/ast.py", "rulelang/parser.py", "rulelang/parser_cache.py", "rulelang/compiler.py",
          "rulelang/formatter.py", "rulelang/explain.py", "rulelang/errors.py", "rulelang/bundled.py",
          "rulelang/statements", "rulelang/config", "interpreter/config.py", "rulelang/generate.py", "rulelang/limits.py",
          "rulelang/fastparser.py", "rulelang/parser_tables.py", "rulelang/parser_generate.py", "rulelang/entry.py",
          "rulelang/sources.py", "rulelang/record.py"]


@pytest.mark.skipif(not (ROOT / "pyproject.toml").exists(), reason="needs the source tree")
def test_mypy_strict_on_the_language():
    if _run("mypy", "--version").returncode:
        pytest.skip("mypy is not installed (pip install '.[test]')")
    res = _run("mypy", "--strict", "--follow-imports=silent", *STRICT)
    assert res.returncode == 0, res.stdout + res.stderr


@pytest.mark.skipif(not (ROOT / "pyproject.toml").exists(), reason="needs the source tree")
def test_mypy_strict_finds_nothing_in_the_engine():
    if _run("mypy", "--version").returncode:
        pytest.skip("mypy is not installed (pip install '.[test]')")
    assert (ROOT / "interpreter" / "py.typed").exists()  # the engine ships its annotations
    res = _run("mypy", "--strict", "-p", "rulelang.interpreter")
    assert res.returncode == 0, res.stdout + res.stderr
