"""No function longer than 60 lines: a longer one is split into named steps."""
from __future__ import annotations

import ast
import pathlib

ROOT = pathlib.Path(__file__).resolve().parent.parent
MAX_LINES = 60
# the folders held to the limit so far; the rest of the package joins as it is brought under it
DIRECTORIES_UNDER_THE_LIMIT = ("interpreter",)
GENERATED = ("parser_tables.py",)


def _functions(tree: ast.AST) -> list[ast.FunctionDef | ast.AsyncFunctionDef]:
    return [node for node in ast.walk(tree) if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))]


def long_functions(folders: tuple[str, ...] = DIRECTORIES_UNDER_THE_LIMIT) -> list[str]:
    """`path:line name (N lines)` for every function longer than MAX_LINES in `folders`."""
    out = []
    for folder in folders:
        for path in sorted((ROOT / folder).rglob("*.py")):
            if path.name in GENERATED:
                continue
            tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
            for fn in _functions(tree):
                length = (fn.end_lineno or fn.lineno) - fn.lineno + 1  # from `def` to the last line
                if length > MAX_LINES:
                    out.append(f"{path.relative_to(ROOT)}:{fn.lineno} {fn.name} ({length} lines)")
    return out


def test_no_function_is_longer_than_the_limit() -> None:
    assert long_functions() == []


def test_the_check_finds_a_long_function(tmp_path: pathlib.Path) -> None:
    body = "\n".join(f"    x{i} = {i}" for i in range(MAX_LINES))
    source = f"def long():\n{body}\n\n\ndef short():\n    return 1\n"
    fns = _functions(ast.parse(source))
    lengths = {fn.name: (fn.end_lineno or fn.lineno) - fn.lineno + 1 for fn in fns}
    assert lengths == {"long": MAX_LINES + 1, "short": 2}
