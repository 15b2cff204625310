"""The engine compiled by mypyc (setup.py) plays exactly as its source.

The rest of the suite runs the source in this checkout. `pip install .` also
compiles the engine's hot modules, so here the installed package is run from
another folder (where this checkout is not on the path) and compared with the
source: the same digest of seeded matches, replays, searches and refusals for
every bundled variant (tests/engine_digest.py), and the whole conformance suite.
These tests skip when no compiled engine of this revision is installed.
"""
from __future__ import annotations

import ast
import json
import os
import pathlib
import subprocess
import sys

import pytest
from conftest import compiled_in_tree

ROOT = pathlib.Path(__file__).resolve().parent.parent
DIGEST = ROOT / "tests" / "engine_digest.py"


def _outside(tmp: pathlib.Path, *args: str, timeout: float = 600) -> subprocess.CompletedProcess[str]:
    """Run this interpreter in `tmp`, so that `rulelang` is the installed package, not this checkout."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    return subprocess.run([sys.executable, *args], cwd=tmp, env=env, capture_output=True, text=True, timeout=timeout)


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> pathlib.Path:
    """A folder outside the checkout where `import rulelang` gives a compiled engine of this revision."""
    tmp = tmp_path_factory.mktemp("outside")
    probe = _outside(tmp, "-c", "import json, rulelang.interpreter as i, rulelang.interpreter.build as b; "
                                "print(json.dumps([i.__path__[0], b.engine_build()]))")
    if probe.returncode:
        pytest.skip("rulelang is not installed (pip install .)")
    where, build = json.loads(probe.stdout)
    where = pathlib.Path(where).resolve()
    if where == (ROOT / "interpreter").resolve():
        pytest.skip("the installed rulelang is this checkout (an editable install)")
    if build != "compiled (mypyc)":
        pytest.skip(f"the installed engine is {build} (no C compiler, or RULELANG_PURE_PYTHON was set)")
    for source in (ROOT / "interpreter").glob("*.py"):
        twin = where / source.name
        if not twin.is_file() or twin.read_bytes() != source.read_bytes():
            pytest.skip(f"the installed engine is of another revision ({source.name} differs): pip install . again")
    return tmp


def test_the_compiled_engine_plays_as_the_source(installed: pathlib.Path) -> None:
    source = subprocess.run([sys.executable, str(DIGEST)], capture_output=True, text=True, timeout=600,
                            env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert source.returncode == 0, source.stderr
    compiled = _outside(installed, str(DIGEST))
    assert compiled.returncode == 0, compiled.stderr
    mine, theirs = json.loads(source.stdout), json.loads(compiled.stdout)
    # (the checkout runs the source, unless .ci/run's second pass compiled the engine into it)
    in_tree = compiled_in_tree()
    assert mine.pop("build") == ("compiled (mypyc)" if in_tree else "pure Python")
    assert theirs.pop("build") == "compiled (mypyc)"
    assert len(mine) > 40  # every bundled variant at its player counts
    differ = sorted(k for k in mine if mine[k] != theirs.get(k))
    assert not differ, f"the compiled engine plays otherwise: {differ}"


def test_the_compiled_engine_passes_the_conformance_suite(installed: pathlib.Path) -> None:
    res = _outside(installed, "-m", "rulelang", "conform")
    assert res.returncode == 0, res.stdout[-2000:] + res.stderr[-2000:]
    version = _outside(installed, "-m", "rulelang", "--version")
    assert "(engine: compiled (mypyc))" in version.stdout


def test_the_checkout_says_which_engine_it_runs() -> None:
    """The source, unless the engine was compiled into the checkout (.ci/run's second pass)."""
    from rulelang.interpreter.build import engine_build

    in_tree = compiled_in_tree()
    assert engine_build() == ("compiled (mypyc)" if in_tree else "pure Python")


def test_setup_compiles_modules_that_exist() -> None:
    """setup.py's list names engine modules, and the classes users build or subclass stay Python."""
    tree = ast.parse((ROOT / "setup.py").read_text(encoding="utf-8"))
    names = next(ast.literal_eval(n.value) for n in ast.walk(tree)
                 if isinstance(n, ast.Assign) and getattr(n.targets[0], "id", "") == "COMPILED")
    assert names and all((ROOT / "interpreter" / f"{n}.py").is_file() for n in names)
    assert not {"tiles", "players", "config", "errors"} & set(names)


def test_the_build_asks_for_mypy_only_when_it_compiles(monkeypatch: pytest.MonkeyPatch) -> None:
    """The in-tree build backend adds mypy (mypyc) to the build's needs unless RULELANG_PURE_PYTHON is set,
    and asks for the mypy requirements-dev.txt pins (the one the lint tests type-check the engine with)."""
    import importlib.util
    import tomllib

    spec = importlib.util.spec_from_file_location("rulelang_build", ROOT / "build_backend" / "rulelang_build.py")
    assert spec is not None and spec.loader is not None
    backend = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(backend)
    monkeypatch.delenv("RULELANG_PURE_PYTHON", raising=False)
    assert backend._compiler_requires() == [backend.MYPYC, *backend.TYPED_IMPORTS]
    monkeypatch.setenv("RULELANG_PURE_PYTHON", "1")
    assert backend._compiler_requires() == []
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert backend.MYPYC in (ROOT / "requirements-dev.txt").read_text(encoding="utf-8").split()
    assert project["build-system"]["build-backend"] == "rulelang_build"


def test_a_compiled_module_older_than_its_source_is_found(tmp_path: pathlib.Path) -> None:
    import os

    from conftest import stale_compiled_modules

    (tmp_path / "round.py").write_text("x = 1\n")
    ext = tmp_path / "round.cpython-311-x86_64-linux-gnu.so"
    ext.write_bytes(b"")
    (tmp_path / "compiled__mypyc.cpython-311-x86_64-linux-gnu.so").write_bytes(b"")  # no source: never stale
    os.utime(ext, (1_000_000, 1_000_000))  # compiled long before the source was written
    assert stale_compiled_modules(tmp_path) == [ext.name]
    os.utime(ext)  # rebuilt now
    assert stale_compiled_modules(tmp_path) == []
