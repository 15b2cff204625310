"""The installed package takes one top-level name, `rulelang`.

The repository keeps its top-level folders (`interpreter/`, `conformance/`,
`rulesets/`), and `rulelang/` links to them, so the wheel installs them as
`rulelang.interpreter`, `rulelang.conformance` and `rulelang.rulesets`. Code
imports them only by those names: a module imported under two names would be
two modules (two `IllegalMove` classes, two caches).
"""
from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
NESTED = ("interpreter", "conformance", "rulesets")
TOP_LEVEL_IMPORT = re.compile(rf"^\s*(from|import)\s+({'|'.join(NESTED)})(\s|\.|$)", re.M)


@pytest.mark.parametrize("name", NESTED)
def test_rulelang_links_to_the_top_level_folder(name):
    link = ROOT / "rulelang" / name
    assert link.is_symlink() and link.resolve() == (ROOT / name).resolve()


def _python_files():
    for folder in ("rulelang", "tests", "bench", *NESTED):
        for path in (ROOT / folder).rglob("*.py"):
            rel = path.relative_to(ROOT)
            if rel.parts[0] == "rulelang" and rel.parts[1] in NESTED:
                continue  # rulelang/<link>/ is the top-level folder, walked once
            if "examples" in rel.parts or path.name == "fresh_engine.py":
                continue  # the example engines import nothing of ours
            yield path


def test_no_module_imports_the_nested_packages_by_their_top_level_names():
    offenders = [f"{p.relative_to(ROOT)}:{text[:m.start()].count(chr(10)) + 1}"
                 for p in _python_files() for text in [p.read_text(encoding="utf-8")]
                 for m in TOP_LEVEL_IMPORT.finditer(text)]
    assert not offenders, "import these as rulelang.<name>: " + ", ".join(offenders)


def test_the_wheel_takes_only_the_rulelang_name():
    setuptools = pytest.importorskip("setuptools")
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    include = project["tool"]["setuptools"]["packages"]["find"]["include"]
    packages = setuptools.find_packages(where=str(ROOT), include=include)
    assert {p.split(".")[0] for p in packages} == {"rulelang"}
    assert {f"rulelang.{n}" for n in NESTED} <= set(packages)
    data = project["tool"]["setuptools"]["package-data"]
    assert set(data) <= set(packages), "package data must name installed packages"
