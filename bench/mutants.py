"""The mutants of a module: every applicable operator on every node of every line.

The operators follow the standard sets of mutmut, cosmic-ray and PIT: a
comparison changed at its boundary, negated or turned round, an arithmetic,
bitwise or boolean operator swapped, a `not` removed or added to a condition,
a condition made True and False (PIT's "remove conditionals"), a unary minus
dropped, a number changed by +1, -1 or to 0, a truth value flipped, a
returned or assigned value replaced by None (mutmut), a `for` loop over
nothing (cosmic-ray's zero iteration), a call made as a statement removed
(PIT's void calls), `x += y` made `x = y`, a slice bound dropped, `min` and
`max` swapped, `break` and `continue` swapped, a keyword argument removed
where the callee has a default for it, and a string that a comparison looks
for changed (mutmut's `XX` strings, only there: an error message or explain
sentence changed is judged by the language's golden files, not by mutating
every word).

Ids name the file, the function (or `<module>`, or a class body), the line's
text and the change, with `#N` for the Nth same change of the same text in
that function: they survive line moves, and a changed line drops out.

Two sources of mutants (`mutants_of(..., source=...)`): `cosmic-ray`, the
default, takes every change cosmic-ray's operators make (bench/cosmic.py) and
adds only the project's operators that do what none of cosmic-ray's does
(`SPECIFIC`); `project` is every operator below, as the figures before
cosmic-ray were measured.
"""
from __future__ import annotations

import ast
import functools
import hashlib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent

COMPARE_SWAP: dict[type, type] = {
    ast.Eq: ast.NotEq, ast.NotEq: ast.Eq, ast.Lt: ast.LtE, ast.LtE: ast.Lt, ast.Gt: ast.GtE, ast.GtE: ast.Gt,
    ast.In: ast.NotIn, ast.NotIn: ast.In, ast.Is: ast.IsNot, ast.IsNot: ast.Is}
COMPARE_FLIP: dict[type, type] = {ast.Lt: ast.Gt, ast.LtE: ast.GtE, ast.Gt: ast.Lt, ast.GtE: ast.LtE}
BINOP_SWAP: dict[type, type] = {
    ast.Add: ast.Sub, ast.Sub: ast.Add, ast.Mult: ast.FloorDiv, ast.FloorDiv: ast.Mult, ast.Mod: ast.FloorDiv,
    ast.Div: ast.Mult, ast.BitAnd: ast.BitOr, ast.BitOr: ast.BitAnd, ast.LShift: ast.RShift, ast.RShift: ast.LShift,
    ast.Pow: ast.Mult}
# keyword arguments of builtins whose removal still runs (the callee has a default)
BUILTIN_DEFAULTS = {"sorted": {"key", "reverse"}, "sort": {"key", "reverse"}, "min": {"key", "default"},
                    "max": {"key", "default"}}

OPERATORS = {
    "compare": "a comparison at its boundary or negated (< <=, > >=, == !=, in / not in, is / is not)",
    "binop": "an arithmetic or bitwise operator swapped (+ -, * //, % //, / *, & |, << >>, ** *), augmented too",
    "boolop": "`and` / `or` swapped",
    "not": "`not` removed, or added to an `if`, `while` or conditional-expression test",
    "neg": "a unary minus dropped",
    "number": "an integer +1, -1, or 0",
    "bool": "True / False flipped",
    "return": "a returned value replaced by None",
    "slice": "a slice's lower or upper bound dropped",
    "minmax": "`min` / `max` swapped",
    "loop": "`break` / `continue` swapped",
    "kwarg": "a keyword argument removed where the callee has a default for it",
    "flip": "a comparison turned round (< >, <= >=)",
    "condition": "an `if` or conditional-expression test replaced by True, and by False",
    "zero-iteration": "a `for` loop over an empty list",
    "assign": "an assigned value replaced by None",
    "aug-assign": "an augmented assignment made plain (`x += y` -> `x = y`)",
    "call": "a call made as a statement removed (`xs.append(x)` -> `pass`)",
    "string": "a string compared with, or listed in a comparison, changed (`'exact'` -> `'XXexactXX'`)",
}


SOURCES = ("cosmic-ray", "project")
# what the project's operators add to cosmic-ray's: (operator, which of its changes), a change kept when the test
# holds for its label and node (cosmic-ray has no `in` / `not in`, no augmented operator, numbers only +1 and -1,
# no `not` added to an `elif`, and none of the value, call, condition, slice, min/max, keyword and string changes)
SPECIFIC = {
    "compare": lambda label, node: label in ("In->NotIn", "NotIn->In"),
    "binop": lambda label, node: isinstance(node, ast.AugAssign),
    "number": lambda label, node: label.endswith("->0"),
    "not": lambda label, node: label == "add-not" and getattr(node, "is_elif", False),  # AddNot skips `elif`
    **{op: (lambda label, node: True) for op in ("return", "slice", "minmax", "kwarg", "condition", "assign",
                                                  "aug-assign", "call", "string")},
}


@dataclass
class Mutant:
    """One change at one node: where, what, and a stable id."""

    path: Path
    line: int
    function: str
    source_line: str
    label: str
    operator: str
    node_index: int  # the node's position in ast.walk order of the file
    stmt_line: int  # the first line of the statement holding it (what line tracing sees run)
    occurrence: int = 1
    cr: tuple[str, int] | None = None  # cosmic-ray's operator and its occurrence in the module (bench/cosmic.py)
    col: int = 0  # the column of the node changed (to tell two sources' same change apart)

    @property
    def rel(self) -> str:
        """The module's path from the repository (as given when outside it)."""
        return self.path.relative_to(REPO).as_posix() if self.path.is_relative_to(REPO) else self.path.as_posix()

    @property
    def id(self) -> str:
        base = f"{self.rel}::{self.function}::{self.source_line}::{self.label}"
        return base if self.occurrence == 1 else f"{base}#{self.occurrence}"


def scopes(tree: ast.AST) -> Iterator[tuple[str, ast.AST]]:
    """(qualified name, node) of every function and class, methods as Class.method."""
    def walk(node: ast.AST, prefix: str) -> Iterator[tuple[str, ast.AST]]:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                yield f"{prefix}{child.name}", child
                yield from walk(child, f"{prefix}{child.name}.")
    yield from walk(tree, "")


def _skipped(tree: ast.AST) -> set[int]:
    """Ids of the nodes no mutant touches: docstrings and type annotations (`str | None` is no rule)."""
    roots: list[ast.AST] = []
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if isinstance(node, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and body \
                and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
            roots.append(body[0])
        if isinstance(node, ast.arg) and node.annotation is not None:
            roots.append(node.annotation)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.returns is not None:
            roots.append(node.returns)
        elif isinstance(node, ast.AnnAssign):
            roots.append(node.annotation)
    return {id(n) for r in roots for n in ast.walk(r)}


def _defaults(trees: list[ast.AST]) -> dict[str, set[str]]:
    """{function name: its parameters with a default}, over the given modules and the builtins above."""
    out: dict[str, set[str]] = {k: set(v) for k, v in BUILTIN_DEFAULTS.items()}
    for tree in trees:
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                a = node.args
                pos = a.posonlyargs + a.args
                named = {p.arg for p in pos[len(pos) - len(a.defaults):]} if a.defaults else set()
                named |= {p.arg for p, d in zip(a.kwonlyargs, a.kw_defaults) if d is not None}
                out.setdefault(node.name, set()).update(named)
    return out


def _callee(call: ast.Call) -> str | None:
    f = call.func
    return f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else None


def _compared_strings(node: ast.Compare) -> Iterator[tuple[tuple[int, int | None], str]]:
    """((operand, element or None), text) of every string an operand of the comparison is or lists."""
    for i, operand in enumerate([node.left, *node.comparators]):
        if isinstance(operand, ast.Constant) and isinstance(operand.value, str):
            yield (i, None), operand.value
        elif isinstance(operand, (ast.Tuple, ast.List, ast.Set)):
            for j, e in enumerate(operand.elts):
                if isinstance(e, ast.Constant) and isinstance(e.value, str):
                    yield (i, j), e.value


def _plain_value(node: ast.AST) -> bool:
    return not (isinstance(node, ast.Constant) and node.value is None)


def changes(node: ast.AST, defaults: dict[str, set[str]]) -> Iterator[tuple[str, str, object]]:
    """(operator, label, how) for every change this node offers; `how` is read by `apply`."""
    if isinstance(node, ast.Compare):
        for i, op in enumerate(node.ops):
            if type(op) in COMPARE_SWAP:
                yield "compare", f"{type(op).__name__}->{COMPARE_SWAP[type(op)].__name__}", i
            if type(op) in COMPARE_FLIP:
                yield "flip", f"flip-{type(op).__name__}->{COMPARE_FLIP[type(op)].__name__}", i
        for where, text in _compared_strings(node):
            yield "string", f"{text!r}->'XX{text}XX'", where
    elif isinstance(node, ast.BoolOp):
        yield "boolop", "And->Or" if isinstance(node.op, ast.And) else "Or->And", None
    elif isinstance(node, (ast.BinOp, ast.AugAssign)) and type(node.op) in BINOP_SWAP:
        yield "binop", f"{type(node.op).__name__}->{BINOP_SWAP[type(node.op)].__name__}", None
    elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        yield "not", "drop-not", None
    elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub) and not isinstance(node.operand, ast.Constant):
        yield "neg", "drop-neg", None
    elif isinstance(node, ast.Constant) and isinstance(node.value, bool):
        yield "bool", f"{node.value}->{not node.value}", None
    elif isinstance(node, ast.Constant) and type(node.value) is int:
        n = node.value
        for new in dict.fromkeys((n + 1, n - 1, 0)):
            if new != n:
                yield "number", f"{n}->{new}", new
    elif isinstance(node, (ast.If, ast.While, ast.IfExp)) and not (
            isinstance(node.test, ast.UnaryOp) and isinstance(node.test.op, ast.Not)):
        yield "not", "add-not", None
    elif isinstance(node, ast.Return) and node.value is not None and not (
            isinstance(node.value, ast.Constant) and node.value.value is None):
        yield "return", "return->None", None
    elif isinstance(node, ast.Slice):
        if node.lower is not None:
            yield "slice", "slice-drop-lower", "lower"
        if node.upper is not None:
            yield "slice", "slice-drop-upper", "upper"
    elif isinstance(node, ast.Break):
        yield "loop", "break->continue", None
    elif isinstance(node, ast.Continue):
        yield "loop", "continue->break", None
    elif isinstance(node, (ast.For, ast.AsyncFor)):
        yield "zero-iteration", "for-over-nothing", None
    elif isinstance(node, ast.Assign) and _plain_value(node.value) or \
            isinstance(node, ast.AnnAssign) and node.value is not None and _plain_value(node.value):
        yield "assign", "assign->None", None
    elif isinstance(node, ast.Expr) and isinstance(node.value, ast.Call):
        yield "call", "drop-call", None
    if isinstance(node, (ast.If, ast.IfExp)):
        yield "condition", "if->True", True
        yield "condition", "if->False", False
    if isinstance(node, ast.AugAssign):
        yield "aug-assign", "aug->assign", None
    if isinstance(node, ast.Call):
        name = _callee(node)
        if isinstance(node.func, ast.Name) and name in ("min", "max"):
            yield "minmax", f"{name}->{'max' if name == 'min' else 'min'}", None
        for i, kw in enumerate(node.keywords):
            if kw.arg is not None and kw.arg in defaults.get(name or "", ()):
                yield "kwarg", f"drop-kwarg-{kw.arg}", i


class _Replace(ast.NodeTransformer):
    """Replaces one node (by identity) with another."""

    def __init__(self, target: ast.AST, new: ast.AST):
        self.target, self.new = target, new

    def visit(self, node: ast.AST) -> ast.AST:
        if node is self.target:
            return self.new
        return self.generic_visit(node)


def apply(tree: ast.AST, node: ast.AST, label: str, how: object) -> ast.AST:
    """The tree with one change made at `node` (in place where possible)."""
    if label.startswith("flip-"):
        assert isinstance(node, ast.Compare) and isinstance(how, int)
        node.ops[how] = COMPARE_FLIP[type(node.ops[how])]()
    elif isinstance(node, ast.Compare) and isinstance(how, tuple):
        operand_at, element = how
        operand = [node.left, *node.comparators][operand_at]
        target = operand if element is None else operand.elts[element]  # type: ignore[attr-defined]
        target.value = f"XX{target.value}XX"
    elif label in ("if->True", "if->False"):
        node.test = ast.Constant(value=how)  # type: ignore[attr-defined]
    elif label == "for-over-nothing":
        node.iter = ast.List(elts=[], ctx=ast.Load())  # type: ignore[attr-defined]
    elif label == "assign->None":
        node.value = ast.Constant(value=None)  # type: ignore[attr-defined]
    elif label == "drop-call":
        return _Replace(node, ast.Pass()).visit(tree)
    elif label == "aug->assign":
        assert isinstance(node, ast.AugAssign)
        return _Replace(node, ast.Assign(targets=[node.target], value=node.value, lineno=node.lineno)).visit(tree)
    elif isinstance(node, ast.Compare):
        assert isinstance(how, int)
        node.ops[how] = COMPARE_SWAP[type(node.ops[how])]()
    elif isinstance(node, ast.BoolOp):
        node.op = ast.Or() if isinstance(node.op, ast.And) else ast.And()
    elif isinstance(node, (ast.BinOp, ast.AugAssign)) and label.split("->")[0] == type(node.op).__name__:
        node.op = BINOP_SWAP[type(node.op)]()
    elif label in ("drop-not", "drop-neg"):
        assert isinstance(node, ast.UnaryOp)
        return _Replace(node, node.operand).visit(tree)
    elif label == "add-not":
        node.test = ast.UnaryOp(op=ast.Not(), operand=node.test)  # type: ignore[attr-defined]
    elif isinstance(node, ast.Constant) and isinstance(node.value, bool):
        node.value = not node.value
    elif isinstance(node, ast.Constant):
        node.value = how
    elif label == "return->None":
        node.value = ast.Constant(value=None)  # type: ignore[attr-defined]
    elif isinstance(node, ast.Slice):
        setattr(node, str(how), None)
    elif isinstance(node, (ast.Break, ast.Continue)):
        return _Replace(node, ast.Continue() if isinstance(node, ast.Break) else ast.Break()).visit(tree)
    elif label.startswith(("min->", "max->")):
        node.func = ast.Name(id=label.split("->")[1], ctx=ast.Load())  # type: ignore[attr-defined]
    elif label.startswith("drop-kwarg-"):
        assert isinstance(node, ast.Call) and isinstance(how, int)
        del node.keywords[how]
    return tree


def _owner(tree: ast.AST) -> dict[int, str]:
    """{node id: the name of the innermost function or class holding it}, `<module>` outside them."""
    owner: dict[int, str] = {id(n): "<module>" for n in ast.walk(tree)}
    for name, scope in scopes(tree):  # outer scopes first, so inner ones overwrite
        for n in ast.walk(scope):
            if n is not scope:
                owner[id(n)] = name
    return owner


def _project_changes(path: Path, text: str, defaults: dict[str, set[str]] | None,
                     keep: dict | None = None) -> list[tuple[int, int, int, str, str, str, str, int]]:
    """(line, col, ast.walk index, operator, label, function, line text, statement line) of every change the
    project's operators offer (those `keep` keeps, when given), in line and walk order."""
    tree = ast.parse(text)
    lines = text.splitlines()
    defaults = _defaults([tree]) if defaults is None else defaults
    skipped = _skipped(tree)
    owner = _owner(tree)
    stmt_of: dict[int, int] = {}
    for n in ast.walk(tree):  # breadth first: inner statements come later and win
        if isinstance(n, ast.stmt):
            for c in ast.walk(n):
                stmt_of[id(c)] = n.lineno
    for n in ast.walk(tree):  # an `elif` is an If alone in its parent's orelse, written `elif`
        if isinstance(n, ast.If) and len(n.orelse) == 1 and isinstance(n.orelse[0], ast.If) \
                and lines[n.orelse[0].lineno - 1].lstrip().startswith("elif"):
            n.orelse[0].is_elif = True  # type: ignore[attr-defined]
    found = []
    for idx, node in enumerate(ast.walk(tree)):
        if id(node) in skipped or not hasattr(node, "lineno") or owner[id(node)].endswith("__repr__"):
            continue
        for op, label, _how in changes(node, defaults):
            if keep is not None and not (op in keep and keep[op](label, node)):
                continue
            col = len(lines[node.lineno - 1].encode("utf-8")[:node.col_offset].decode("utf-8", errors="ignore"))
            found.append((node.lineno, col, idx, op, label, owner[id(node)], lines[node.lineno - 1].strip(),
                          stmt_of.get(id(node), node.lineno)))
    found.sort(key=lambda f: (f[0], f[2]))
    return found


def _numbered(ms: list[Mutant]) -> list[Mutant]:
    """The mutants (in their order) with `#N` for the Nth same change of the same text in a function."""
    seen: dict[tuple[str, str, str], int] = {}
    for m in ms:
        key = (m.function, m.source_line, m.label)
        seen[key] = seen.get(key, 0) + 1
        m.occurrence = seen[key]
    return ms


def mutants_of(path: Path, defaults: dict[str, set[str]] | None = None, source: str = "project") -> list[Mutant]:
    """Every mutant of one module, in line order: of the project's operators (`source="project"`), or of
    cosmic-ray's and the project's `SPECIFIC` ones (`source="cosmic-ray"`)."""
    text = path.read_text(encoding="utf-8")
    own = [Mutant(path, line, fn, text_line, label, op, idx, stmt_line, col=col)
           for line, col, idx, op, label, fn, text_line, stmt_line
           in _project_changes(path, text, defaults, None if source == "project" else SPECIFIC)]
    if source == "project":
        return _numbered(own)
    import cosmic

    theirs = cosmic.mutants_of(path, Mutant, _owner, _skipped)
    same = {(m.line, m.col, m.label) for m in theirs}  # a number made 0 by both: cosmic-ray's
    merged = theirs + [m for m in own if (m.line, m.col, m.label) not in same]
    merged.sort(key=lambda m: (m.line, m.col, m.cr is None))
    return _numbered(merged)


def mutated_source(m: Mutant, defaults: dict[str, set[str]] | None = None) -> str:
    """The module's source with the mutant's one change made."""
    if m.cr is not None:
        import cosmic

        return cosmic.mutated_source(m.path, *m.cr)
    tree = ast.parse(m.path.read_text(encoding="utf-8"))
    defaults = _defaults([tree]) if defaults is None else defaults
    node = list(ast.walk(tree))[m.node_index]
    how = next(h for op, label, h in changes(node, defaults) if label == m.label)
    return ast.unparse(ast.fix_missing_locations(apply(tree, node, m.label, how)))


def defaults_of(paths: list[Path]) -> dict[str, set[str]]:
    """The keyword defaults of every function of these modules (for the kwarg operator)."""
    return _defaults([ast.parse(p.read_text(encoding="utf-8")) for p in paths])


def fingerprint(rel_names: list[str]) -> str:
    """A short hash of the source of the named code (`source_of`): never of a whole file."""
    h = hashlib.sha256()
    for ref in rel_names:
        h.update(source_of(ref).encode("utf-8"))
    return h.hexdigest()[:16]


def source_of(ref: str, text: str | None = None) -> str:
    """The source of the code `ref` names, raising KeyError when it is gone or names a whole file.

    - `path::Qualname`: a function or class (methods as `Class.method`);
    - `path::<module>::NAME`: the module-level statements that bind NAME (an assignment, a `def`, a `class`,
      an import), `__main__` for the `if __name__ == "__main__":` block;
    - `path::<module>::NAME[KEY]`: of NAME's value (a dict, tuple or list written out), the entry whose key is
      the string KEY, or the element that is a call with `key="KEY"` (a `StatementDef`) or KEY as its first
      argument;
    - `path::<module>::@DECORATOR`: every module-level definition decorated with DECORATOR (`@rule(...)`);
    - `path::<module>::CALLEE()`: every module-level statement that is a call of CALLEE (`_per_count(...)`);
    - `path.lark::RULE`: a grammar rule or terminal, from its name to the next definition.

    So an entry fingerprints the code its reason rests on, and an unrelated statement added to the same
    module changes none. `text`: the file's text (another revision's, say) instead of the file's.
    """
    rel, _, name = ref.partition("::")
    path = REPO / rel
    if text is None:
        if not path.is_file():
            raise KeyError(ref)
        text = path.read_text(encoding="utf-8")
    if rel.endswith(".lark"):
        return _grammar_rule(text, name, ref)
    if name == "<module>":
        raise KeyError(f"{ref} (a whole module: name the statement, `{ref}::NAME`)")
    if name.startswith("<module>::"):
        return _module_part(text, _tree(text), name.removeprefix("<module>::"), ref)
    found = _scope_sources(text).get(name)
    if found is None:
        raise KeyError(ref)
    return found


@functools.lru_cache(maxsize=64)
def _tree(text: str) -> ast.Module:
    """A module's tree, parsed once per text (the allow-list names a few modules hundreds of times)."""
    return ast.parse(text)


@functools.lru_cache(maxsize=64)
def _scope_sources(text: str) -> dict[str, str]:
    """{qualified name: source} of every function and class of a module's text."""
    return {qual: ast.get_source_segment(text, node) or "" for qual, node in scopes(_tree(text))}


def _segment(text: str, node: ast.AST) -> str:
    """A node's source with its decorators (ast.get_source_segment starts at `def`)."""
    first = min([node.lineno, *(d.lineno for d in getattr(node, "decorator_list", []))])  # type: ignore[attr-defined]
    lines = text.splitlines()
    return "\n".join(lines[first - 1: node.end_lineno])  # type: ignore[attr-defined]


def _binds(stmt: ast.stmt) -> set[str]:
    """The names a module-level statement binds (`__main__` for the main guard)."""
    if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return {stmt.name}
    if isinstance(stmt, (ast.Import, ast.ImportFrom)):
        return {(a.asname or a.name).split(".")[0] for a in stmt.names}
    targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target] if isinstance(
        stmt, (ast.AnnAssign, ast.AugAssign)) else []
    if isinstance(stmt, ast.If) and isinstance(stmt.test, ast.Compare) and ast.unparse(stmt.test) in (
            "__name__ == '__main__'", "'__main__' == __name__"):
        return {"__main__"}
    return {n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name)}


def _keyed(value: ast.AST, key: str) -> list[ast.AST]:
    """The entries of a dict, tuple or list written out whose key is `key` (see `source_of`)."""
    if isinstance(value, ast.Dict):
        return [_Pair(k, v) for k, v in zip(value.keys, value.values)
                if isinstance(k, ast.Constant) and k.value == key]
    if isinstance(value, (ast.Tuple, ast.List)):
        out: list[ast.AST] = []
        for e in value.elts:
            if not isinstance(e, ast.Call):
                continue
            named = [k.value for k in e.keywords if k.arg == "key"]
            first = e.args[0] if e.args else None
            if any(isinstance(v, ast.Constant) and v.value == key for v in named) or (
                    isinstance(first, ast.Constant) and first.value == key):
                out.append(e)
        return out
    return []


class _Pair(ast.AST):
    """A dict entry (its key and value) as one node with a span."""

    def __init__(self, k: ast.expr, v: ast.expr):
        super().__init__()
        self.lineno, self.col_offset = k.lineno, k.col_offset
        self.end_lineno, self.end_col_offset = v.end_lineno, v.end_col_offset


def _module_part(text: str, tree: ast.Module, part: str, ref: str) -> str:
    """The source of `<module>::PART` (see `source_of`)."""
    found: list[ast.AST] = []
    if part.startswith("@"):
        wanted = part[1:]
        for stmt in tree.body:
            for d in getattr(stmt, "decorator_list", []):
                f = d.func if isinstance(d, ast.Call) else d
                if isinstance(f, ast.Name) and f.id == wanted or isinstance(f, ast.Attribute) and f.attr == wanted:
                    found.append(stmt)
    elif part.endswith("()"):
        found = [s for s in tree.body if isinstance(s, ast.Expr) and isinstance(s.value, ast.Call)
                 and _callee(s.value) == part[:-2]]
    else:
        name, _, key = part.partition("[")
        stmts = [s for s in tree.body if name in _binds(s)]
        if not key:
            found = list(stmts)
        else:
            key = key.removesuffix("]")
            for s in stmts:
                value = getattr(s, "value", None)
                found += _keyed(value, key) if value is not None else []
    if not found:
        raise KeyError(ref)
    return "\n".join(_segment(text, n) if isinstance(n, ast.stmt) else ast.get_source_segment(text, n) or ""
                     for n in found)


def _grammar_rule(text: str, name: str, ref: str) -> str:
    """A lark rule or terminal's definition: its first line (`name:`, `?name:`, `!name:`, `NAME.2:`) and the
    lines after it up to the next definition, comment block or blank line."""
    lines = text.splitlines()
    for i, line in enumerate(lines):
        head = line.lstrip("?!").split(":", 1)[0].split(".", 1)[0].strip()
        if ":" in line and not line[:1].isspace() and head == name:
            end = i + 1
            while end < len(lines) and lines[end][:1].isspace() and lines[end].strip():
                end += 1
            while end < len(lines) and lines[end].lstrip().startswith("|"):
                end += 1
            return "\n".join(lines[i:end])
    raise KeyError(ref)
