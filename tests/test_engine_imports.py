"""Every import of the engine's modules is at module top: none inside a function or under
`if TYPE_CHECKING:` (tests/test_layers.py counts those too, for layers and cycles; here
the engine also keeps none, so that its import graph is what a reader sees at the top)."""
from __future__ import annotations

import ast
import pathlib

ENGINE = pathlib.Path(__file__).resolve().parent.parent / "interpreter"


def late_imports(folder: pathlib.Path = ENGINE) -> list[str]:
    """`file:line` of every import in `folder`'s modules that is not a statement of the module body."""
    late = []
    for path in sorted(folder.glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        top = set(map(id, tree.body))
        late += [f"{path.name}:{node.lineno}" for node in ast.walk(tree)
                 if isinstance(node, (ast.Import, ast.ImportFrom)) and id(node) not in top]
    return late


def test_every_engine_import_is_at_module_top() -> None:
    assert late_imports() == []


def test_a_local_import_is_found(tmp_path: pathlib.Path) -> None:
    (tmp_path / "m.py").write_text("import os\n\n\ndef f():\n    import sys\n    return sys\n", encoding="utf-8")
    assert late_imports(tmp_path) == ["m.py:5"]
