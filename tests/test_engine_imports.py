"""The engine's modules import each other without cycles, all at module top, and never the language
(the configuration layer, `rulelang.config`, is below the engine: it may import that).

Every import counts, wherever it is written (a function-local or `TYPE_CHECKING` import
would hide a cycle), so the test also asks that there be none of those.
"""
from __future__ import annotations

import ast
import pathlib

ENGINE = pathlib.Path(__file__).resolve().parent.parent / "interpreter"
PACKAGE = "rulelang.interpreter"
BELOW_THE_ENGINE = ("rulelang.config",)


def _imports(tree: ast.Module, module: str) -> list[tuple[ast.stmt, str]]:
    """(statement, imported module) for every import in `tree`, the engine's modules by their short name."""
    out: list[tuple[ast.stmt, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out += [(node, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level == 0:
                base = node.module or ""
                if base.startswith(PACKAGE + "."):
                    base = base[len(PACKAGE) + 1:].split(".")[0]
                out.append((node, base))
            elif node.module:
                out.append((node, node.module.split(".")[0]))
            else:  # from . import x
                out += [(node, alias.name) for alias in node.names]
    return out


def _graph() -> dict[str, dict[str, list[ast.stmt]]]:
    modules = {p.stem for p in ENGINE.glob("*.py")}
    graph: dict[str, dict[str, list[ast.stmt]]] = {}
    for path in sorted(ENGINE.glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        edges: dict[str, list[ast.stmt]] = {}
        for node, target in _imports(tree, path.stem):
            edges.setdefault(target if target in modules else "<outside>:" + target, []).append(node)
        graph[path.stem] = edges
    return graph


def _cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import cycle of `graph`, or None."""
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(m: str) -> list[str] | None:
        state[m] = 1
        stack.append(m)
        for n in sorted(graph.get(m, ())):
            if state.get(n) == 1:
                return stack[stack.index(n):] + [n]
            if n not in state:
                found = visit(n)
                if found:
                    return found
        stack.pop()
        state[m] = 2
        return None

    for m in sorted(graph):
        if m not in state:
            found = visit(m)
            if found:
                return found
    return None


def test_the_engine_modules_import_without_cycles() -> None:
    graph = {m: {t for t in edges if not t.startswith("<outside>")} for m, edges in _graph().items()}
    assert _cycle(graph) is None


def test_every_import_is_at_module_top() -> None:
    late = []
    for path in sorted(ENGINE.glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        top = set(map(id, tree.body))
        late += [f"{path.name}:{node.lineno}" for node, _ in _imports(tree, path.stem) if id(node) not in top]
    assert late == []


def test_the_engine_never_imports_the_language() -> None:
    found = []
    for module, edges in _graph().items():
        outside = [t[len("<outside>:"):] for t in edges if t.startswith("<outside>:")]
        found += [f"{module} imports {t}" for t in outside if t.split(".")[0] in ("rulelang", "conformance")
                  and not t.startswith(BELOW_THE_ENGINE)]
    assert found == []


def test_the_cycle_finder_finds_a_cycle() -> None:
    assert _cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert _cycle({"a": {"b"}, "b": set()}) is None
