"""How many rule mistakes the conformance suite catches: mutation testing of the engine's rule code.

    python bench/mutation.py                      # every mutant (long: ~3 s each on one core)
    python bench/mutation.py --sample 150 --seed 1 --jobs 2
    python bench/mutation.py --limit 20 --list    # which mutants, without running them
    python bench/mutation.py --json out.json      # the figures and the survivors, for a record

The engine's rule code is every module under `interpreter/` (found by walking
the folder, so a new layout needs no change here) except the ones that are
not rules (`--skip`, default: configuration loading, errors, players,
transcripts, dealing from a generator). In every function, one line at a time
gets one small change (a comparison, an arithmetic or boolean operator, a
`not`, a number or a truth value), the first the line offers. Each mutant is
judged by the conformance suite alone, run in a fresh process on the built-in
engine in-process: killed when a case fails or errors, survived when every
case passes. Equivalent mutants (no engine behaviour can tell them apart, or
the protocol cannot observe them) are listed with their reason in
`bench/mutation-equivalent.json` and left out of the score:

    score = killed / (mutants - equivalent)
"""
from __future__ import annotations

import argparse
import ast
import importlib.machinery
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
PACKAGE = "interpreter"
NOT_RULES = ("__init__", "build", "config", "errors", "players", "transcript", "deal")
EQUIVALENT = Path(__file__).resolve().parent / "mutation-equivalent.json"

_COMPARE_SWAP = {ast.Eq: ast.NotEq, ast.NotEq: ast.Eq, ast.Lt: ast.LtE, ast.LtE: ast.Lt, ast.Gt: ast.GtE,
                 ast.GtE: ast.Gt, ast.In: ast.NotIn, ast.NotIn: ast.In, ast.Is: ast.IsNot, ast.IsNot: ast.Is}
_BINOP_SWAP = {ast.Add: ast.Sub, ast.Sub: ast.Add, ast.Mult: ast.FloorDiv, ast.FloorDiv: ast.Mult,
               ast.Mod: ast.FloorDiv, ast.Div: ast.Mult, ast.BitAnd: ast.BitOr, ast.BitOr: ast.BitAnd,
               ast.LShift: ast.RShift, ast.RShift: ast.LShift}


@dataclass
class Mutant:
    """One change to one line: where, what, and a stable id (independent of line numbers)."""

    path: Path
    line: int
    function: str
    source_line: str
    label: str
    node_index: int  # the node's position in ast.walk order of the file
    occurrence: int = 1  # the same text and change met again in the same function: 2, 3, ...

    @property
    def id(self) -> str:
        rel = self.path.relative_to(REPO).as_posix()
        base = f"{rel}::{self.function}::{self.source_line}::{self.label}"
        return base if self.occurrence == 1 else f"{base}#{self.occurrence}"


# ----------------------------------------------------------------------------- finding mutants


def rule_files(skip: tuple[str, ...] = NOT_RULES) -> list[Path]:
    """Every Python module of the engine package that holds rules (walks subfolders too)."""
    return sorted(p for p in (REPO / PACKAGE).rglob("*.py") if p.stem not in skip)


def _label(node: ast.AST) -> str | None:
    """The change this node offers, or None."""
    if isinstance(node, ast.Compare) and type(node.ops[0]) in _COMPARE_SWAP:
        return f"{type(node.ops[0]).__name__}->{_COMPARE_SWAP[type(node.ops[0])].__name__}"
    if isinstance(node, ast.BoolOp):
        return "And->Or" if isinstance(node.op, ast.And) else "Or->And"
    if isinstance(node, (ast.BinOp, ast.AugAssign)) and type(node.op) in _BINOP_SWAP:
        return f"{type(node.op).__name__}->{_BINOP_SWAP[type(node.op)].__name__}"
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        return "drop-not"
    if isinstance(node, ast.Constant) and isinstance(node.value, bool):
        return f"{node.value}->{not node.value}"
    if isinstance(node, ast.Constant) and type(node.value) is int:
        return f"{node.value}->{node.value + 1}"
    return None


_PRIORITY = (ast.Compare, ast.BoolOp, ast.BinOp, ast.AugAssign, ast.UnaryOp, ast.Constant)


def _functions(tree: ast.AST):
    """(qualified name, function node) for every function, methods as Class.method."""
    def walk(node, prefix):
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                yield f"{prefix}{child.name}", child
                yield from walk(child, f"{prefix}{child.name}.")
            elif isinstance(child, ast.ClassDef):
                yield from walk(child, f"{prefix}{child.name}.")
    yield from walk(tree, "")


def _annotation_nodes(tree: ast.AST) -> set[int]:
    """Ids of every node inside a type annotation (`str | None` is no rule)."""
    roots: list[ast.AST] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.arg) and node.annotation is not None:
            roots.append(node.annotation)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.returns is not None:
            roots.append(node.returns)
        elif isinstance(node, ast.AnnAssign):
            roots.append(node.annotation)
    return {id(n) for r in roots for n in ast.walk(r)}


def mutants_of(path: Path) -> list[Mutant]:
    """One mutant per line of every function: the line's first change in priority order."""
    text = path.read_text(encoding="utf-8")
    tree = ast.parse(text)
    lines = text.splitlines()
    index = {id(n): i for i, n in enumerate(ast.walk(tree))}
    docstrings = {id(f.body[0].value) for _, f in _functions(tree)
                  if f.body and isinstance(f.body[0], ast.Expr) and isinstance(f.body[0].value, ast.Constant)}
    skipped = docstrings | _annotation_nodes(tree)
    best: dict[int, tuple[int, int, str, str]] = {}  # line -> (priority, node index, label, function)
    for name, func in _functions(tree):
        if name.endswith("__repr__"):
            continue
        for node in ast.walk(func):
            if id(node) in skipped or not hasattr(node, "lineno"):
                continue
            label = _label(node)
            if label is None:
                continue
            prio = next(i for i, k in enumerate(_PRIORITY) if isinstance(node, k))
            cand = (prio, index[id(node)], label, name)
            if node.lineno not in best or cand < best[node.lineno]:
                best[node.lineno] = cand
    out: list[Mutant] = []
    seen: dict[tuple[str, str, str], int] = {}
    for line, (_, idx, label, fn) in sorted(best.items()):
        key = (fn, lines[line - 1].strip(), label)
        seen[key] = seen.get(key, 0) + 1
        out.append(Mutant(path, line, fn, key[1], label, idx, seen[key]))
    return out


def mutated_source(m: Mutant) -> str:
    """The module's source with the mutant's one change applied."""
    tree = ast.parse(m.path.read_text(encoding="utf-8"))
    node = list(ast.walk(tree))[m.node_index]
    if isinstance(node, ast.Compare):
        node.ops[0] = _COMPARE_SWAP[type(node.ops[0])]()
    elif isinstance(node, ast.BoolOp):
        node.op = ast.Or() if isinstance(node.op, ast.And) else ast.And()
    elif isinstance(node, (ast.BinOp, ast.AugAssign)):
        node.op = _BINOP_SWAP[type(node.op)]()
    elif isinstance(node, ast.UnaryOp):
        node.op = ast.UAdd()  # `not x` -> `+x` would change types; replace below
    elif isinstance(node, ast.Constant) and isinstance(node.value, bool):
        node.value = not node.value
    elif isinstance(node, ast.Constant):
        node.value = node.value + 1
    if isinstance(node, ast.UnaryOp):
        tree = _DropNot(node).visit(tree)
    return ast.unparse(ast.fix_missing_locations(tree))


class _DropNot(ast.NodeTransformer):
    def __init__(self, target: ast.UnaryOp):
        self.target = target

    def visit_UnaryOp(self, node: ast.UnaryOp) -> ast.AST:
        if node is self.target:
            return self.generic_visit(node).operand  # type: ignore[attr-defined,no-any-return]
        return self.generic_visit(node)


# ----------------------------------------------------------------------------- judging one mutant


class _MutantLoader(importlib.machinery.SourceFileLoader):
    """Loads one module from the mutated text instead of its file (no bytecode cache)."""

    def __init__(self, fullname: str, path: str, text: str):
        super().__init__(fullname, path)
        self.text = text

    def get_code(self, fullname):  # type: ignore[override]
        return compile(self.text, self.path, "exec")


class _MutantFinder:
    def __init__(self, fullname: str, path: str, text: str):
        self.fullname, self.path, self.text = fullname, path, text

    def find_spec(self, fullname, path=None, target=None):
        if fullname != self.fullname:
            return None
        import importlib.util

        is_pkg = self.path.endswith("__init__.py")
        return importlib.util.spec_from_file_location(
            fullname, self.path, loader=_MutantLoader(fullname, self.path, self.text),
            submodule_search_locations=[os.path.dirname(self.path)] if is_pkg else None)


def suite_file(directory: Path) -> Path:
    """The suite as the worker needs it (each case's data and its run request), compiled once per run."""
    sys.path.insert(0, str(REPO))
    from rulelang.conformance import cases, runner

    path = directory / "suite.json"
    path.write_text(json.dumps([{"id": c.id, "data": c.data, "request": runner.request_for(c)}
                                for c in cases.lint().cases]), encoding="utf-8")
    return path


def worker(module_path: str, source_file: str, order_file: str, suite_path: str) -> int:
    """In a fresh process: load the mutant, run the cases in order, stop at the first that does not pass."""
    path = Path(module_path)
    rel = path.relative_to(REPO).with_suffix("")
    # the engine is imported as rulelang.interpreter (rulelang/interpreter links to the top-level folder)
    fullname = "rulelang." + ".".join(rel.parts[:-1] if rel.name == "__init__" else rel.parts)
    sys.meta_path.insert(0, _MutantFinder(fullname, str(path), Path(source_file).read_text(encoding="utf-8")))
    sys.path.insert(0, str(REPO))
    try:
        from rulelang.conformance import builtin
        from rulelang.conformance.compare import compare
        from rulelang.conformance.protocol import InProcessEngine

        suite = {c["id"]: c for c in json.loads(Path(suite_path).read_text(encoding="utf-8"))}
        order = json.loads(Path(order_file).read_text(encoding="utf-8"))
        ids = [i for i in order if i in suite] + sorted(i for i in suite if i not in order)
        engine = InProcessEngine(builtin.run_case, {}, {})
        for seq, cid in enumerate(ids):
            answer = engine.run(seq, suite[cid]["request"], 5.0)
            if "result" not in answer or compare(suite[cid]["data"], answer["result"]) is not None:
                print(json.dumps({"killed_by": cid}))
                return 1
    except BaseException as exc:  # noqa: BLE001 - a mutant may break anything, even the import: a kill
        print(json.dumps({"killed_by": f"({type(exc).__name__})"}))
        return 1
    print(json.dumps({"killed_by": None}))
    return 0


def judge(m: Mutant, order: list[str], timeout: float, suite: Path) -> tuple[str, str | None]:
    """('killed', case id) or ('survived', None) for one mutant, in a fresh process."""
    with tempfile.TemporaryDirectory() as tmp:
        src = Path(tmp) / "mutant.py"
        src.write_text(mutated_source(m), encoding="utf-8")
        order_file = Path(tmp) / "order.json"
        order_file.write_text(json.dumps(order), encoding="utf-8")
        try:
            res = subprocess.run([sys.executable, __file__, "--worker", str(m.path), str(src), str(order_file),
                                  str(suite)],
                                 capture_output=True, text=True, timeout=timeout, cwd=REPO)
        except subprocess.TimeoutExpired:
            return "killed", "(timeout)"
        last = (res.stdout.strip().splitlines() or ["{}"])[-1]
        try:
            killer = json.loads(last).get("killed_by", "(crash)")
        except ValueError:
            killer = "(crash)"
        if res.returncode == 0 and killer is None:
            return "survived", None
        return "killed", killer or "(crash)"


# ----------------------------------------------------------------------------- the run


def load_equivalent(path: Path = EQUIVALENT) -> dict[str, str]:
    """{mutant id: reason} of the mutants no conformance case can tell from the engine."""
    if not path.exists():
        return {}
    doc = json.loads(path.read_text(encoding="utf-8"))
    return {e["id"]: e["reason"] for e in doc["equivalent"]}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sample", type=int, help="judge a random sample of this many mutants")
    ap.add_argument("--seed", type=int, default=1, help="seed of the sample (default 1)")
    ap.add_argument("--match", action="append", default=[], metavar="TEXT",
                    help="only mutants whose id contains TEXT (repeatable: any of them)")
    ap.add_argument("--limit", type=int, help="judge only the first N mutants (after sampling)")
    ap.add_argument("--jobs", type=int, default=1, help="mutants judged at once (default 1)")
    ap.add_argument("--timeout", type=float, default=180.0, help="seconds per mutant before it counts as killed")
    ap.add_argument("--skip", default=",".join(NOT_RULES), help="module stems that are not rule code")
    ap.add_argument("--equivalent", type=Path, default=EQUIVALENT, help="the allow-list of equivalent mutants")
    ap.add_argument("--list", action="store_true", help="list the mutants and stop")
    ap.add_argument("--json", type=Path, help="write the figures and the survivors here")
    ap.add_argument("--worker", nargs=4, help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.worker:
        return worker(*args.worker)
    compiled = sorted(p.name for p in (REPO / PACKAGE).glob("*.so"))
    if compiled and not args.list:
        # a compiled module (setup.py, mypyc) is imported instead of its source: every mutant would survive
        print(f"mutation: compiled modules in {PACKAGE}/ shadow the source ({', '.join(compiled)}): delete them "
              "(or install with RULELANG_PURE_PYTHON=1) and run again", file=sys.stderr)
        return 2
    mutants = [m for f in rule_files(tuple(s for s in args.skip.split(",") if s)) for m in mutants_of(f)]
    total = len(mutants)
    every_id = {m.id for m in mutants}
    if args.match:
        mutants = [m for m in mutants if any(t in m.id for t in args.match)]
    if args.sample is not None and args.sample < len(mutants):
        mutants = sorted(random.Random(args.seed).sample(mutants, args.sample), key=lambda m: (str(m.path), m.line))
    if args.limit is not None:
        mutants = mutants[: args.limit]
    if args.list:
        for m in mutants:
            print(f"{m.path.relative_to(REPO)}:{m.line}: {m.label}  {m.source_line}")
        print(f"{len(mutants)} of {total} mutants")
        return 0
    equivalent = load_equivalent(args.equivalent)
    # entries whose line changed (or went): they name no mutant any more and must be judged again
    stale = sorted(i for i in equivalent if i not in every_id)
    kills: dict[str, int] = {}
    outcome: dict[str, tuple[str, str | None]] = {}
    t0 = time.monotonic()

    def one(m: Mutant) -> None:
        if m.id in equivalent:
            outcome[m.id] = ("equivalent", None)
            return
        order = sorted(kills, key=lambda c: -kills[c])
        verdict = judge(m, order, args.timeout, suite)
        outcome[m.id] = verdict
        if verdict[1] and not verdict[1].startswith("("):
            kills[verdict[1]] = kills.get(verdict[1], 0) + 1
        print(f"[{len(outcome)}/{len(mutants)}] {verdict[0]:<10} {m.path.relative_to(REPO)}:{m.line} {m.label}"
              f"  {m.source_line[:70]}", flush=True)

    with tempfile.TemporaryDirectory() as tmp, ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        suite = suite_file(Path(tmp))
        list(pool.map(one, mutants))
    killed = sum(1 for v in outcome.values() if v[0] == "killed")
    equiv = sum(1 for v in outcome.values() if v[0] == "equivalent")
    survivors = [m for m in mutants if outcome[m.id][0] == "survived"]
    judged = len(mutants) - equiv
    score = killed / judged if judged else 1.0
    print()
    for m in survivors:
        print(f"SURVIVED {m.path.relative_to(REPO)}:{m.line} [{m.function}] {m.label}: {m.source_line}")
    print(f"\nmutants: {len(mutants)} judged of {total} ({'sample of ' + str(args.sample) + ', seed ' + str(args.seed) if args.sample else 'all'})"
          f"; killed {killed}, survived {len(survivors)}, equivalent {equiv}; {time.monotonic() - t0:.0f} s")
    print(f"score: {score:.1%} ({killed}/{judged})")
    if stale:
        print(f"stale: {len(stale)} entries of {args.equivalent.name} name no mutant of the judged modules "
              "(their line changed or went): judge the new lines and remove the entries")
    if args.json:
        args.json.write_text(json.dumps({
            "total": total, "judged": len(mutants), "killed": killed, "equivalent": equiv, "score": score,
            "sample": args.sample, "seed": args.seed, "stale": stale,
            "survivors": [{"id": m.id, "where": f"{m.path.relative_to(REPO)}:{m.line}"} for m in survivors],
        }, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
