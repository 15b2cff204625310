"""The package keeps its layers (tests/layers.toml) and has no import cycle.

Every module's source is parsed with `ast`, and every import counts: at the top,
inside a function, under `if TYPE_CHECKING:`, relative ones resolved against their
package, and `importlib.import_module("...")` with a constant name. An import that
goes up a layer, or across two parts of one layer (the engine and the language),
fails with the file and line; a cycle fails with every step of it. The tests are
parametrized by part, so a failure names the part that has to change.
"""
from __future__ import annotations

import ast
import os
import subprocess
import sys
import tomllib
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "rulelang"
MAP = Path(__file__).with_name("layers.toml")
SKIP_DIRS = {"__pycache__", "static", "templates"}

pytestmark = pytest.mark.skipif(not (ROOT / "pyproject.toml").exists(), reason="needs the source tree")


@dataclass(frozen=True)
class Import:
    """One import of one module: where it is written and the package module it loads."""

    importer: str
    target: str
    path: Path
    line: int

    def where(self) -> str:
        return f"{self.path.relative_to(ROOT)}:{self.line}"


@cache
def modules() -> dict[str, Path]:
    """Every module of the package (following the symlinked engine and suite), by dotted name."""
    found: dict[str, Path] = {}
    for dirpath, dirnames, filenames in os.walk(PACKAGE, followlinks=True):
        dirnames[:] = sorted(d for d in dirnames if d not in SKIP_DIRS)
        for filename in sorted(filenames):
            if filename.endswith(".py"):
                path = Path(dirpath) / filename
                parts = list(path.relative_to(ROOT).with_suffix("").parts)
                if parts[-1] == "__init__":
                    parts.pop()
                found[".".join(parts)] = path
    return found


def _known(name: str) -> str | None:
    """The deepest package module that importing `name` loads (None outside the package)."""
    while name and name not in modules():
        name = name.rpartition(".")[0]
    return name or None


def _import_module_name(node: ast.Call) -> str | None:
    func = node.func
    called = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
    if called in ("import_module", "__import__") and node.args:
        first = node.args[0]
        if isinstance(first, ast.Constant) and isinstance(first.value, str):
            return first.value
    return None


def _targets(node: ast.AST, package: str) -> Iterator[str]:
    if isinstance(node, ast.Import):
        yield from (alias.name for alias in node.names)
    elif isinstance(node, ast.ImportFrom):
        if node.level:
            base = package.split(".")[: len(package.split(".")) - node.level + 1]
            source = ".".join(base + ([node.module] if node.module else []))
        else:
            source = node.module or ""
        for alias in node.names:
            submodule = f"{source}.{alias.name}"
            yield submodule if submodule in modules() else source
    elif isinstance(node, ast.Call):
        name = _import_module_name(node)
        if name is not None:
            yield name


@cache
def imports_of(name: str) -> tuple[Import, ...]:
    path = modules()[name]
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        for target in _targets(node, package):
            known = _known(target)
            if known is not None and known != name:
                found.append(Import(name, known, path, getattr(node, "lineno", 0)))
    return tuple(sorted(found, key=lambda i: i.line))


@cache
def layer_map() -> tuple[dict[str, int], dict[str, list[str]]]:
    """part -> its layer's rank (0 at the bottom), and part -> the names it holds."""
    data = tomllib.loads(MAP.read_text(encoding="utf-8"))
    rank = {part: i for i, layer in enumerate(data["order"]) for part in layer}
    parts: dict[str, list[str]] = data["parts"]
    assert set(rank) == set(parts), "every part is in one layer of `order`, and every layer's part is listed"
    return rank, parts


def part_of(module: str) -> str | None:
    best, best_len = None, -1
    for part, names in layer_map()[1].items():
        for entry in names:
            stem = entry.removesuffix(".*")
            matches = module == stem or (entry.endswith(".*") and module.startswith(stem + "."))
            if matches and len(stem) > best_len:
                best, best_len = part, len(stem)
    return best


def _parts() -> list[str]:
    return list(layer_map()[1])


def test_every_module_has_a_part() -> None:
    unplaced = sorted(m for m in modules() if part_of(m) is None)
    assert not unplaced, "place these modules in tests/layers.toml: " + ", ".join(unplaced)


def _allowed(importer: str, target: str) -> bool:
    rank = layer_map()[0]
    mine, theirs = part_of(importer), part_of(target)
    if mine is None or theirs is None or mine == theirs:
        return True
    return rank[theirs] < rank[mine]


@pytest.mark.parametrize("part", _parts())
def test_no_import_goes_up_a_layer_or_across(part: str) -> None:
    rank = layer_map()[0]
    bad = [imp for name in modules() if part_of(name) == part
           for imp in imports_of(name) if not _allowed(imp.importer, imp.target)]
    lines = [f"{imp.where()}: {imp.importer} ({part}, layer {rank[part]}) imports {imp.target} "
             f"({part_of(imp.target)}, layer {rank[part_of(imp.target) or part]})" for imp in bad]
    assert not bad, "imports against tests/layers.toml:\n" + "\n".join(lines)


def _cycles() -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan, iterative)."""
    graph = {name: sorted({imp.target for imp in imports_of(name)}) for name in modules()}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    components: list[list[str]] = []
    for root in graph:
        if root in index:
            continue
        work = [(root, iter(graph[root]))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(graph[child])))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    components.append(sorted(component))
    return components


def _one_cycle(component: list[str]) -> list[Import]:
    """A shortest cycle through the component's first module, as its imports (breadth first)."""
    members = set(component)
    start = component[0]
    came: dict[str, Import] = {}
    frontier = [start]
    while frontier:
        following = []
        for name in frontier:
            for imp in imports_of(name):
                if imp.target not in members:
                    continue
                if imp.target == start:
                    steps = [imp]
                    while steps[0].importer != start:
                        steps.insert(0, came[steps[0].importer])
                    return steps
                if imp.target not in came:
                    came[imp.target] = imp
                    following.append(imp.target)
        frontier = following
    raise AssertionError(f"no cycle through {start}")


@pytest.mark.parametrize("part", _parts())
def test_no_import_cycle(part: str) -> None:
    mine = [c for c in _cycles() if any(part_of(m) == part for m in c)]
    messages = []
    for component in mine:
        steps = "\n".join(f"    {imp.where()}: {imp.importer} imports {imp.target}" for imp in _one_cycle(component))
        messages.append(f"cycle among {', '.join(component)}; one of them:\n{steps}")
    assert not mine, "\n".join(messages)


def _loaded_by(statement: str) -> list[str]:
    code = f"import sys\n{statement}\nprint('\\n'.join(m for m in sys.modules if m.startswith('rulelang')))"
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))}
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd=ROOT, timeout=120)
    assert res.returncode == 0, res.stderr
    return res.stdout.split()


def test_importing_the_engine_loads_no_language_module() -> None:
    """`import rulelang.interpreter` runs `rulelang/__init__.py` first: the facade must stay lazy."""
    language = [m for m in _loaded_by("import rulelang.interpreter") if part_of(m) not in ("base", "config", "engine")]
    assert language == ["rulelang"], f"importing the engine loaded {language}"


def test_importing_the_language_loads_no_engine_module() -> None:
    loaded = _loaded_by("import rulelang.language.compiler, rulelang.language.formatter, rulelang.language.explain")
    assert not [m for m in loaded if part_of(m) == "engine"], loaded


def test_the_map_names_only_modules_that_exist() -> None:
    missing = [entry for names in layer_map()[1].values() for entry in names
               if entry.removesuffix(".*") not in modules() and not entry.endswith(".*")]
    assert not missing, f"tests/layers.toml names modules that do not exist: {missing}"


def test_the_map_places_packages_not_single_modules() -> None:
    """A part is made of packages (`pkg.*`) and of modules of `rulelang/` itself: a module inside a package takes
    its package's part, so that the folders show the layers."""
    single = [entry for names in layer_map()[1].values() for entry in names
              if not entry.endswith(".*") and entry.count(".") > 1]
    assert not single, f"tests/layers.toml places single modules of a package: {single}; place the package"


def test_the_facade_serves_every_public_name() -> None:
    import rulelang

    served = {"__version__", *rulelang._WHERE, *rulelang._ALIASES}
    assert set(rulelang.__all__) <= served
    assert all(getattr(rulelang, name) is not None for name in served)


def test_every_kind_of_import_is_seen() -> None:
    """The scan counts what Python would load: relative, function-local, TYPE_CHECKING and import_module imports."""
    source = (
        "from typing import TYPE_CHECKING\n"
        "from . import svg\n"
        "from ..interpreter import Round\n"
        "if TYPE_CHECKING:\n"
        "    from rulelang.language.compiler import analyse\n"
        "def f():\n"
        "    import rulelang.players.arena\n"
        "    importlib.import_module('rulelang.lsp.server')\n"
    )
    found = {_known(t) for node in ast.walk(ast.parse(source)) for t in _targets(node, "rulelang.tools")} - {None}
    assert found == {"rulelang.tools.svg", "rulelang.interpreter", "rulelang.language.compiler", "rulelang.players.arena",
                     "rulelang.lsp.server"}
