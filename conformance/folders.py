"""Case folders other than the shipped suite: `rulelang conform --cases DIR` (repeatable).

A club keeps its own cases for its house variant in a folder laid out like
`conformance/cases` (`DIR/<variant>/<topic>.json`), or flat (`DIR/<topic>.json`,
the folder's name then being the variant). Several folders run together; their
ids must be unique across all of them. Expected failures are looked up next to
each folder (`DIR/expected-failures/<engine>.json`, then beside it,
`DIR/../expected-failures/<engine>.json`, as the shipped suite keeps them) and
in the working directory (`./expected-failures/<engine>.json`); without
`--cases`, in the working directory and the suite's own folder. The lists
found are merged.
"""
from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from .cases import EXPECTED_FAILURES_DIR, LintReport, case_files, lint, load_expected_failures

NOT_CASES = ("expected-failures", "schema")  # folders beside the cases that hold no cases


def files_of(folder: Path) -> list[Path]:
    """The case files of one folder: `<variant>/<topic>.json`, or `<topic>.json` directly inside it."""
    nested = [p for p in case_files(folder) if p.parent.name not in NOT_CASES]
    return nested if nested else sorted(p for p in folder.glob("*.json") if p.is_file())


def lint_folders(folders: Iterable[Path], ends_at: float | None = None) -> LintReport:
    """Lint every folder (until `ends_at`, a time.monotonic() deadline); ids must be unique across all of them."""
    out = LintReport()
    where: dict[str, Path] = {}
    for folder in folders:
        files = files_of(folder)
        rep = lint(folder, files, ends_at)
        if not files:
            rep.errors[:] = [f"no case files under {folder} (expected {folder}/VARIANT/TOPIC.json or {folder}/TOPIC.json)"]
        out.errors.extend(f"{folder}: {e}" for e in rep.errors)
        out.unfinished = out.unfinished or rep.unfinished
        for c in rep.cases:
            if c.id in where:
                out.errors.append(f"{folder}: {c.id}: duplicate id (also in {where[c.id]})")
            where[c.id] = c.file
            out.cases.append(c)
    return out


def expected_failure_dirs(folders: Iterable[Path], cwd: Path | None = None) -> list[Path]:
    """Where expected-failures files are looked up, in order: next to each case folder, the working directory.

    Without folders (the shipped suite), the suite's own folder comes last.
    """
    folders = [Path(f) for f in folders]
    dirs = [d for f in folders for d in (f / "expected-failures", f.resolve().parent / "expected-failures")]
    dirs.append((cwd or Path.cwd()) / "expected-failures")
    if not folders:
        dirs.append(EXPECTED_FAILURES_DIR)
    unique: list[Path] = []
    for d in dirs:
        if d.resolve() not in [u.resolve() for u in unique]:
            unique.append(d)
    return unique


def load_expected_failures_in(engine: str, dirs: Iterable[Path]) -> dict[str, str]:
    """{case id: reason} merged from `<dir>/<engine>.json` of every dir (the first reason given for an id wins)."""
    out: dict[str, str] = {}
    for d in dirs:
        for cid, reason in load_expected_failures(engine, d).items():
            out.setdefault(cid, reason)
    return out
