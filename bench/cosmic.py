"""The mutants cosmic-ray's operators make of a module, under this project's ids.

cosmic-ray (PyPI `cosmic-ray`, the `dev` extra) keeps its operators as plugins
over parso trees: each says where it applies (`mutation_positions(node)`) and
makes the change (`mutate(node, index)`), and `cosmic_ray.mutating.mutate_code`
applies the Nth occurrence of one operator to a module's source, keeping its
layout and comments. This module walks a module's parso tree once, asks every
core operator where it applies, and gives each occurrence a `Mutant` whose id
follows the project's scheme (`path::function::line text::label[#N]`, so ids
survive line moves). Labels name the change in the words bench/mutants.py
uses where it makes the same change (`Lt->LtE`, `flip-Lt->Gt`, `Add->Sub`,
`drop-not`, `add-not`, `True->False`, `3->4`, `for-over-nothing`), so an
allow-list entry judged under either source names the same mutant.

Left to the project's operators (bench/mutants.py `SPECIFIC`) is only what no
cosmic-ray operator does: `in` / `not in`, augmented arithmetic (`+=`), a number
made 0, `return None`, a value assigned made None, a call statement removed,
`x += y` made `x = y`, an `if` made True or False, a slice bound dropped,
`min` / `max`, a keyword argument with a default dropped, and a string a
comparison looks for changed. cosmic-ray's `VariableReplacer` and
`VariableInserter` need a cause and an effect variable named per run (they are
for its own sampling of data-flow mutants) and are not used.

Mutants in docstrings, type annotations and `__repr__` are skipped, as the
project's are (with `from __future__ import annotations` an annotation is never
evaluated: every change there is equivalent).
"""
from __future__ import annotations

import ast
import functools
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

# cosmic-ray's operator names -> the project's words for the same change
_AST_NAMES = {"Mul": "Mult"}
_KEYWORDS = {"ReplaceTrueWithFalse": "True->False", "ReplaceFalseWithTrue": "False->True",
             "ReplaceAndWithOr": "And->Or", "ReplaceOrWithAnd": "Or->And",
             "ReplaceBreakWithContinue": "break->continue", "ReplaceContinueWithBreak": "continue->break",
             "AddNot": "add-not", "ZeroIterationForLoop": "for-over-nothing", "RemoveDecorator": "drop-decorator"}
# the changes bench/mutants.py calls flips (a comparison turned round) rather than a boundary or negation
_FLIPS = {("Lt", "Gt"), ("LtE", "GtE"), ("Gt", "Lt"), ("GtE", "LtE")}
UNUSED = ("VariableReplacer", "VariableInserter")  # they need per-run arguments (see the module's docstring)


@functools.cache
def operators() -> dict[str, Any]:
    """{name: an instance} of every core cosmic-ray operator this module uses (`core/` names, short)."""
    from cosmic_ray.plugins import get_operator, operator_names

    out: dict[str, Any] = {}
    for full in operator_names():
        provider, _, name = full.partition("/")
        if provider == "core" and name not in UNUSED:
            out[name] = get_operator(full)()
    return out


def _symbol_index() -> tuple[dict[str, list[str]], list[str]]:
    """(operators asked only at a leaf of a given text, keyed by it; operators asked at every node).

    Most of the ~200 operators are one replacement of one binary operator by another: asking each only at the
    leaves that hold its symbol keeps the walk of a module to a fraction of a second."""
    from cosmic_ray.operators.binary_operator_replacement import BinaryOperators

    by_symbol: dict[str, list[str]] = {}
    rest: list[str] = []
    for name in operators():
        if name.startswith("ReplaceBinaryOperator_"):
            by_symbol.setdefault(BinaryOperators[name.split("_")[1]].value, []).append(name)
        else:
            rest.append(name)
    return by_symbol, rest


def label(name: str, leaf_text: str, index: int) -> str:
    """The project's label of the `index`th change operator `name` makes at a node whose code is `leaf_text`."""
    if name in _KEYWORDS:
        return _KEYWORDS[name]
    kind, _, pair = name.partition("_")
    if kind in ("ReplaceBinaryOperator", "ReplaceComparisonOperator", "ReplaceUnaryOperator"):
        a, b = pair.split("_")
        if a == "Delete":
            return {"Not": "drop-not", "USub": "drop-neg"}.get(b, f"drop-{b}")
        a, b = _AST_NAMES.get(a, a), _AST_NAMES.get(b, b)
        return f"flip-{a}->{b}" if kind == "ReplaceComparisonOperator" and (a, b) in _FLIPS else f"{a}->{b}"
    if name == "NumberReplacer":
        value = ast.literal_eval(leaf_text.strip())
        return f"{value}->{value + (1, -1)[index]}"
    if name == "ExceptionReplacer":
        return f"except-{leaf_text.strip()}->CosmicRayTestingException"
    return name


def _char_col(lines: list[str], line: int, byte_col: int) -> int:
    """ast's byte column as a column of characters (parso's)."""
    return len(lines[line - 1].encode("utf-8")[:byte_col].decode("utf-8", errors="ignore"))


def _spans(lines: list[str], nodes: list[ast.AST]) -> list[tuple[tuple[int, int], tuple[int, int]]]:
    """((line, col), (end line, end col)) of each node, columns in characters."""
    return [((n.lineno, _char_col(lines, n.lineno, n.col_offset)),  # type: ignore[attr-defined]
             (n.end_lineno, _char_col(lines, n.end_lineno, n.end_col_offset)))  # type: ignore[attr-defined]
            for n in nodes]


def _inside(pos: tuple[int, int], spans: list[tuple[tuple[int, int], tuple[int, int]]]) -> bool:
    return any(a <= pos < b for a, b in spans)


def positions(text: str) -> Iterator[tuple[str, int, int, tuple[int, int], str]]:
    """(operator, occurrence in the module, index at its node, start (line, col), the node's code) of every change
    cosmic-ray's operators offer in `text`, in the order `cosmic_ray.mutating.mutate_code` counts them."""
    import parso
    from cosmic_ray.ast import ast_nodes

    ops = operators()
    by_symbol, rest = _symbol_index()
    count: dict[str, int] = {}
    for node in ast_nodes(parso.parse(text)):
        names = rest + by_symbol.get(getattr(node, "value", None), []) if node.type == "operator" else rest
        if node.type == "operator" and node.value == "**" and node.parent.type in ("dictorsetmaker", "atom"):
            names = rest  # `{**a, **b}` unpacks: cosmic-ray takes it for a power (its mutants do not compile)
        for name in names:
            for index, (start, _end) in enumerate(ops[name].mutation_positions(node)):
                k = count.get(name, 0)
                count[name] = k + 1
                code = node.get_code(include_prefix=False) if name == "NumberReplacer" else ""
                if name == "ExceptionReplacer":  # the name replaced, not the clause
                    found = re.match(r"[\w.]+", text.splitlines()[start[0] - 1][start[1]:])
                    code = found.group() if found else ""
                yield name, k, index, start, code


def mutants_of(path: Path, mutant_type: Any, owner_of: Any, skipped_nodes: Any) -> list[Any]:
    """Every cosmic-ray mutant of one module as `mutant_type` (bench/mutants.py `Mutant`), occurrences unnumbered:
    `owner_of(tree)` gives {node id: function}, `skipped_nodes(tree)` the nodes no mutant touches."""
    text = path.read_text(encoding="utf-8")
    tree = ast.parse(text)
    lines = text.splitlines()
    skip_ids = skipped_nodes(tree)
    skipped = _spans(lines, [n for n in ast.walk(tree) if id(n) in skip_ids and hasattr(n, "end_lineno")])
    owner = owner_of(tree)
    scopes = [(n, owner.get(id(n.body[0]), "<module>")) for n in ast.walk(tree)
              if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))]
    reprs = _spans(lines, [n for n, fn in scopes if fn.endswith("__repr__")])
    scope_spans = [(min([n.lineno, *(d.lineno for d in n.decorator_list)]), n.end_lineno, fn) for n, fn in scopes]
    # a statement's lines (a definition's from its first decorator, as bench/mutants.py counts a decorator's nodes)
    stmts = [(min([s.lineno, *(d.lineno for d in getattr(s, "decorator_list", []))]), s.end_lineno, s)
             for s in ast.walk(tree) if isinstance(s, ast.stmt)]
    out = []
    for name, occurrence, index, start, code in positions(text):
        if _inside(start, skipped) or _inside(start, reprs):
            continue
        line = start[0]
        inner = [sp for sp in scope_spans if sp[0] <= line <= sp[1]]
        function = min(inner, key=lambda sp: sp[1] - sp[0])[2] if inner else "<module>"
        holding = [s for s in stmts if s[0] <= line <= s[1]]
        stmt_line = min(holding, key=lambda s: s[1] - s[0])[2].lineno if holding else line
        out.append(mutant_type(path, line, function, lines[line - 1].strip(), label(name, code, index),
                               "cosmic-ray", -1, stmt_line, cr=(name, occurrence), col=start[1]))
    return out


def mutated_source(path: Path, name: str, occurrence: int) -> str:
    """The module's source with the `occurrence`th change of cosmic-ray's operator `name` made."""
    from cosmic_ray.mutating import mutate_code

    code = mutate_code(path.read_text(encoding="utf-8"), operators()[name], occurrence)
    if code is None:
        raise KeyError(f"{path}: cosmic-ray's {name} has no occurrence {occurrence}")
    if "CosmicRayTestingException" in code and name == "ExceptionReplacer":
        # the exception an `except` clause is changed to: defined in the module, so the mutant runs anywhere
        code += "\n\nclass CosmicRayTestingException(Exception):\n    pass\n"
    return str(code)
