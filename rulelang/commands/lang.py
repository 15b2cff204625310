"""The language commands: list, check, compile, fmt, explain, diff.

Output is coloured (rich) on a terminal and plain text when piped. Bad input is
reported as messages with an exit status, never as a traceback: 0 success,
1 invalid rulesets or files, 2 wrong usage.
"""
from __future__ import annotations

import difflib
import json
import os
import sys
from typing import Any

import click

import rulelang
from rulelang.base.errors import RulesetError
from rulelang.base.readinput import processing, read_text
from rulelang.commands.complete import bundled_or_file
from rulelang.commands.jsonout import emit, file_record, versioned
from rulelang.commands.walk import rulesets_of
from rulelang.language.bundled import bundled_names
from rulelang.language.bundled_index import summaries
from rulelang.language.sources import STDIN_NAME
from rulelang.language.sources import config_and_inherited as _config_and_inherited
from rulelang.language.sources import read_stdin as _read_stdin
from rulelang.language.sources import source as _source

__all__ = ["list_cmd", "check_cmd", "compile_cmd", "fmt_cmd", "explain_cmd", "diff_cmd"]

# Imported in the functions that use them, as `rulelang list` needs none of them (`python -X importtime`,
# bench/bench_startup.py): the language (rulelang.language.analysis, formatter, explain: lark's parser and the statement
# table, 50-190 ms), rich (a terminal only), and foreign.py and outfiles.py (tomllib, tempfile: 8 ms of `list`).


# ---------------------------------------------------------------------------
# Output: rich on a terminal, plain when piped
# ---------------------------------------------------------------------------

def _console(err: bool = False) -> Any:
    """A rich console for a terminal (or for any stream under FORCE_COLOR), or None when the stream is not one."""
    stream = sys.stderr if err else sys.stdout
    forced = bool(os.environ.get("FORCE_COLOR")) and not os.environ.get("NO_COLOR")  # force-color.org
    if not (forced or (hasattr(stream, "isatty") and stream.isatty())):
        return None
    from rich.console import Console

    return Console(file=stream, highlight=False, soft_wrap=True)


def _say(text: str, style: str | None = None, err: bool = False) -> None:
    console = _console(err)
    if console is None:
        click.echo(text, err=err)
    else:
        console.print(text, style=style, markup=False)


def _report(error: RulesetError, err: bool = False) -> None:
    """Print every error of a RulesetError, separated by blank lines."""
    for i, e in enumerate(error.errors):
        if i:
            _say("", err=err)
        text = e.render()
        console = _console(err)
        if console is None:
            click.echo(text, err=err)
            continue
        head, _, rest = text.partition("\n")
        console.print(head, style="bold red", markup=False)
        if rest:
            console.print(rest, markup=False)


# ---------------------------------------------------------------------------
# Finding a ruleset: a file path or a bundled name
# ---------------------------------------------------------------------------

def _write_atomic(path: str, text: str) -> None:
    """Write a file so that a reader sees the old or the new content, never half of it."""
    from rulelang.base.outfiles import write_atomic

    write_atomic(path, text)


def _players(config: dict[str, Any]) -> str:
    counts = config["players"]["counts"]
    text = f"{counts[0]}-{counts[-1]}" if len(counts) > 1 and counts == list(range(counts[0], counts[-1] + 1)) \
        else ",".join(str(c) for c in counts)
    if config["players"]["partnerships"]:
        text += " (teams at 4)"
    return text


def _target(config: dict[str, Any]) -> str:
    t = config["target"]
    how = "exactly" if t["mode"] == "exact" else "at least"
    unit = config["scoring"]["unit"]  # any unit, not only 5

    def amount(raw: int) -> str:
        return f"{raw // unit} shown" if unit > 1 and raw % unit == 0 else str(raw)

    by_count = t.get("raw_by_count") or {}
    if len(set(by_count.values())) < 2:
        return f"{how} {amount(t['raw'])}"
    groups: dict[int, list[str]] = {}  # each target with the player counts that play to it
    for count, raw in sorted(by_count.items(), key=lambda kv: int(kv[0])):
        groups.setdefault(raw, []).append(count)
    return f"{how} " + ", ".join(f"{amount(raw)} with {' or '.join(counts)}" for raw, counts in groups.items())


# ---------------------------------------------------------------------------
# Commands
# ---------------------------------------------------------------------------

@click.command("list")
@click.option("--json", "as_json", is_flag=True, help="Print the list as JSON (`rulelang help tools`).")
def list_cmd(as_json: bool) -> None:
    """List the bundled rulesets: name, title, players, target."""
    records = summaries()
    if as_json:
        emit(versioned("list", {"rulesets": records}))
        return
    rows = []
    for r in records:
        if not r["valid"]:
            rows.append((r["name"], f"(invalid: {r['code']})", "", ""))
            continue
        config = {"players": {"counts": r["players"], "partnerships": r["partnerships"]},
                  "target": r["target"], "scoring": {"unit": r["unit"]}}
        rows.append((r["name"], r["title"], _players(config), _target(config)))
    console = _console()
    if console is not None:
        from rich.table import Table

        table = Table(box=None, header_style="bold")
        for column in ("name", "title", "players", "target"):
            table.add_column(column)
        for row in rows:
            table.add_row(*row)
        console.print(table)
        return
    widths = [max(len(r[i]) for r in rows + [("name", "title", "players", "target")]) for i in range(4)]
    click.echo("  ".join(h.ljust(w) for h, w in zip(("name", "title", "players", "target"), widths)).rstrip())
    for row in rows:
        click.echo("  ".join(c.ljust(w) for c, w in zip(row, widths)).rstrip())


SKIP_NON_RULESETS = click.option(
    "--skip-non-rulesets", is_flag=True,
    help="Skip a named .rules file that is plainly another format (udev, polkit, Snort rules), as a folder "
         "walk does (the pre-commit hooks pass it).")


def _walk(specs: tuple[str, ...], skip_named: bool) -> tuple[list[str], list[tuple[str, str]]]:
    """The files to work on (folders walked), after saying once on stderr of each one left out that it is not a
    ruleset."""
    from rulelang.base.foreign import not_a_ruleset

    paths, skipped = rulesets_of(list(specs), skip_named)
    for path, kind in skipped:
        _say(not_a_ruleset(path, kind), style="yellow", err=True)
    return paths, skipped


@click.command("check")
@click.argument("rulesets", nargs=-1, metavar="FILE|NAME|-...", shell_complete=bundled_or_file)
@click.option("--all", "check_all", is_flag=True, help="Check every bundled ruleset too.")
@click.option("--json", "as_json", is_flag=True, help="Print the results as JSON (`rulelang help tools`).")
@click.option("--stdin-filename", metavar="NAME", default=None,
              help="With -: the file name that messages give to standard input.")
@click.option("-q", "--quiet", is_flag=True, help="Print nothing for a valid file (only the errors found).")
@SKIP_NON_RULESETS
def check_cmd(rulesets: tuple[str, ...], check_all: bool, as_json: bool, stdin_filename: str | None,
              quiet: bool, skip_non_rulesets: bool) -> None:
    """Check ruleset files (or bundled names, or - for standard input); print every error found.

    A folder stands for every *.rules file below it (hidden folders and
    virtual environments skipped), in sorted order.

    A .rules file that is plainly another format (udev, polkit, Snort rules)
    is said once to be "not a rulelang ruleset": skipped in a folder (and,
    with --skip-non-rulesets, when named), an error when named.

    Exit status 0 when all are valid, 1 otherwise, 2 on wrong usage (70 when
    rulelang met a bug on one of them; every file is still reported).
    """
    specs, skipped = _walk(rulesets, skip_non_rulesets)
    specs += bundled_names() if check_all else []
    if not specs and skipped:
        return
    if not specs:
        raise click.UsageError("give at least one ruleset file or bundled name, or --all")
    if specs.count("-") > 1:
        raise click.UsageError("standard input (-) can be checked once")
    if as_json:
        sys.exit(_check_json(specs, stdin_filename))
    bad = crashed = 0
    for spec in specs:
        # one file's failure, even a bug of rulelang, never stops the others from being reported
        try:
            with processing(spec):
                bad += _check_one(spec, stdin_filename, quiet)
        except OSError:
            raise  # the system refused a read or a write (a closed pipe, a full disk): the command stops
        except Exception as exc:  # noqa: BLE001 - named and counted; the exit status says a bug was met
            if os.environ.get("RULELANG_DEBUG"):
                raise
            crashed += 1
            _say(f"{spec}: internal error: {type(exc).__name__}: {_clip(str(exc))}\n"
                 "(this is a bug in rulelang; set RULELANG_DEBUG=1 to see the traceback)", err=True)
    if crashed:
        sys.exit(70)
    if bad:
        sys.exit(1)


def _clip(text: str, limit: int = 300) -> str:
    return text if len(text) <= limit else text[:limit] + "..."


def _check_one(spec: str, stdin_name: str | None = None, quiet: bool = False) -> int:
    """Check one ruleset (or compiled configuration) and print what was found: 1 if it is invalid, else 0."""
    from rulelang.language.analysis import analyse  # not at the top: see the note there

    if spec != "-" and os.path.isdir(spec):
        _say(f"{spec}: no ruleset file (*.rules) in this folder", style="bold red")
        return 1
    if spec.endswith(".json"):
        # a compiled configuration, as `compile` and `explain` accept: check it against the schema
        try:
            rulelang.load_config_dict(spec)
        except RulesetError as exc:
            _report(exc)
            return 1
        if not quiet:
            _say(f"{spec}: ok (a compiled configuration)", style="green")
        return 0
    try:
        text, filename = _source(spec, stdin_name)
        analysis = analyse(text, filename)  # one analysis: its errors, else its warnings
        errors = analysis.errors
        warnings = [] if errors else analysis.warnings
    except RulesetError as exc:
        _report(exc)
        return 1
    for warning in warnings:  # the ruleset is valid: warnings never change the exit status
        _report(warning, err=True)
        click.echo("", err=True)
    # a bundled ruleset is named as the user named it: its file lies inside the package, not in their folder
    shown = f"{spec} (bundled)" if filename != spec and spec in bundled_names() else filename
    if errors:
        for _i, e in enumerate(errors):
            _report(e)
            click.echo("")
        if errors[0].code == "not-a-ruleset":
            return 1  # said once: not an error count of a ruleset
        noun = "error" if len(errors) == 1 else "errors"
        _say(f"{shown}: {len(errors)} {noun}", style="bold red")
        return 1
    if not quiet:
        _say(f"{shown}: ok", style="green")
    return 0


def _check_json(specs: list[str], stdin_name: str | None) -> int:
    """`check --json`: one record per file, every error with its position; the exit status."""
    from rulelang.language.analysis import analyse

    records = []
    for spec in specs:
        try:
            if spec.endswith(".json"):
                rulelang.load_config_dict(spec)
                records.append(file_record(spec, [], kind="configuration"))
                continue
            text, filename = _source(spec, stdin_name)
        except RulesetError as exc:
            kind = "configuration" if spec.endswith(".json") else "file"
            records.append(file_record(exc.filename, exc.errors, kind=kind))
            continue
        records.append(file_record(filename, list(analyse(text, filename).errors)))
    ok = all(r["ok"] for r in records)
    emit(versioned("check", {"ok": ok, "files": records}))
    return 0 if ok else 1


@click.command("compile")
@click.argument("ruleset", metavar="FILE|NAME", shell_complete=bundled_or_file)
@click.option("-o", "--output", type=click.Path(dir_okay=False, writable=True, allow_dash=True),
              help="Write the JSON here (- for standard output).")
def compile_cmd(ruleset: str, output: str | None) -> None:
    """Compile a ruleset to its configuration (JSON on stdout, or -o FILE)."""
    from rulelang.base.outfiles import same_file

    if output == "-":
        output = None  # the usual Unix spelling of standard output
    if output and os.path.exists(ruleset) and same_file(output, ruleset):
        raise click.BadParameter(f"{output} is the ruleset being compiled: writing there would replace it",
                                 param_hint="-o")
    try:
        if ruleset.endswith(".json"):
            config = rulelang.load_config_dict(ruleset)
        else:
            text, filename = _source(ruleset)
            config = rulelang.compile_text(text, filename)
    except RulesetError as exc:
        _report(exc, err=True)
        sys.exit(1)
    text = json.dumps(config, indent=2) + "\n"
    if output:
        try:
            _write_atomic(output, text)
        except OSError as exc:
            _say(f"{output}: cannot write: {exc.strerror or exc}", err=True)
            sys.exit(1)
    else:
        click.echo(text, nl=False)


@click.command("fmt")
@click.argument("files", nargs=-1, required=True, type=click.Path(allow_dash=True), metavar="FILE|DIR...|-")
@click.option("--check", "check_only", is_flag=True, help="Change nothing; exit 1 if a file would change.")
@click.option("--diff", "show_diff", is_flag=True,
              help="Change nothing; print a unified diff of what would change and exit 1 if there is one.")
@click.option("--stdin-filename", metavar="NAME", default=None,
              help="With -: the file name that messages give to standard input.")
@SKIP_NON_RULESETS
@click.option("--sort", "sort", is_flag=True,
              help="Also put the statements in the canonical order (by default the author's order is kept).")
def fmt_cmd(files: tuple[str, ...], check_only: bool, show_diff: bool, stdin_filename: str | None,
            skip_non_rulesets: bool, sort: bool) -> None:
    """Rewrite ruleset files in the standard spelling (comments kept).

    The statements keep the author's order and only their spelling, spacing
    and blank lines change; with --sort they are also put in the canonical
    order. The rules stated never change: the compiled configuration is the
    same. With --check, list the files that would change and exit 1.
    `fmt -` reads standard input and writes the formatted text to standard
    output (with --check, it only sets the exit status). With --diff, print
    the changes as a unified diff instead of making them. A folder stands for
    every *.rules file below it (hidden folders and virtual environments
    skipped), in sorted order; a .rules file that is plainly another format
    (udev, polkit, Snort rules) is said once to be "not a rulelang ruleset"
    and left unchanged.
    """
    if "-" in files:
        if len(files) > 1:
            raise click.UsageError("- (standard input) cannot be mixed with files")
        sys.exit(_fmt_stdin(check_only, show_diff, stdin_filename or STDIN_NAME, sort))
    failed = False
    changed = []
    paths, _skipped = _walk(files, skip_non_rulesets)
    for path in paths:
        if os.path.isdir(path):
            _say(f"{path}: no ruleset file (*.rules) in this folder", err=True)
            failed = True
            continue
        text = _fmt_source(path)
        if text is None:
            failed = True
            continue
        new = _formatted(text, path, sort)
        if new is None:
            failed = True
            continue
        if new == text:
            continue
        changed.append(path)
        if show_diff:
            click.echo(_unified_diff(text, new, path), nl=False)
        elif check_only:
            _say(f"would reformat {path}")
        else:
            try:
                _write_atomic(path, new)
            except OSError as exc:
                _say(f"{path}: cannot write: {exc.strerror or exc}", err=True)
                failed = True
                continue
            _say(f"reformatted {path}")
    if failed or ((check_only or show_diff) and changed):
        sys.exit(1)


def _fmt_source(path: str) -> str | None:
    """The text of a file `fmt` was given, or None after saying on stderr why it is not formatted."""
    from rulelang.base.foreign import not_a_ruleset_error

    try:
        text = read_text(path)
    except FileNotFoundError:
        hint = (f" (`{path}` is a bundled ruleset: fmt rewrites files; `rulelang show {path}` prints "
                "its canonical text)") if path in bundled_names() else ""
        _say(f"{path}: no such file{hint}", err=True)
        return None
    except (OSError, UnicodeDecodeError) as exc:
        _say(f"{path}: cannot read: {exc}", err=True)
        return None
    other = not_a_ruleset_error(text, path)
    if other is not None:  # named on the command line: said once, never rewritten
        _say(f"{path}: {other.message}", style="bold red", err=True)
        return None
    return text


def _unified_diff(old: str, new: str, path: str) -> str:
    """What `fmt` would change in `path`, as `diff -u` (and black and ruff) print it."""
    return "".join(difflib.unified_diff(old.splitlines(keepends=True), new.splitlines(keepends=True),
                                        fromfile=path, tofile=path))


def _formatted(text: str, path: str, sort: bool = False) -> str | None:
    """The formatted text, or None after reporting on stderr why there is none."""
    from rulelang.language.formatter import canonical

    new, errors = canonical(text, path, sort)
    if new is not None:
        return new
    for e in errors:
        _report(e, err=True)
        click.echo("", err=True)
    if errors:
        _say(f"{path}: not formatted (fix the errors first)", err=True)
    else:  # pragma: no cover - the formatter's own guard
        _say(f"{path}: not formatted: the canonical form would change the rules "
             "(a bug of rulelang; please report it)", err=True)
    return None


def _fmt_stdin(check_only: bool, show_diff: bool, name: str, sort: bool = False) -> int:
    """`fmt -`: the canonical text of standard input on standard output (or its diff); the exit status."""
    try:
        text = _read_stdin()
    except RulesetError as exc:
        _report(exc, err=True)
        return 1
    new = _formatted(text, name, sort)
    if new is None:
        return 1
    if show_diff:
        click.echo(_unified_diff(text, new, name), nl=False)
        return int(new != text)
    if check_only:
        if new != text:
            _say(f"would reformat {name}", err=True)
            return 1
        return 0
    click.echo(new, nl=False)
    return 0


@click.command("explain")
@click.argument("ruleset", metavar="FILE|NAME", shell_complete=bundled_or_file)
@click.option("--json", "as_json", is_flag=True, help="Print the explanation as JSON (`rulelang help tools`).")
def explain_cmd(ruleset: str, as_json: bool) -> None:
    """Explain a ruleset in plain English, from its compiled configuration.

    Rules inherited from the base (`based on`) are marked.
    """
    from rulelang.language.explain import explain_config, explain_text

    try:
        config, inherited = _config_and_inherited(ruleset)
    except RulesetError as exc:
        _report(exc, err=True)
        sys.exit(1)
    base = config.get("based_on")
    if as_json:
        emit(versioned("explain", {
            "name": config["name"], "title": config["title"], "source": config["source"], "based_on": base,
            "sections": [{"heading": heading,
                          "rules": [{"key": s.key, "text": s.text, "inherited": bool(s.inherited and base)}
                                    for s in sentences]}
                         for heading, sentences in explain_config(config, inherited)]}))
        return
    console = _console()
    if console is None:
        click.echo(explain_text(config, inherited), nl=False)
        return
    console.print(f"{config['title']} ({config['name']})", style="bold", markup=False)
    console.print(f"Source: {config['source']}", style="italic", markup=False)
    if base:
        console.print(f"Based on {base}: rules marked (from {base}) are inherited, the others are stated here.",
                      markup=False)
    for heading, sentences in explain_config(config, inherited):
        console.print()
        console.print(heading, style="bold underline", markup=False)
        for s in sentences:
            if s.inherited and base:
                console.print(f"- {s.text} (from {base})", style="dim", markup=False)
            else:
                console.print(f"- {s.text}", markup=False)


@click.command("diff")
@click.argument("a", metavar="A", shell_complete=bundled_or_file)
@click.argument("b", metavar="B", shell_complete=bundled_or_file)
@click.option("--json", "as_json", is_flag=True, help="Print the differences as JSON (`rulelang help tools`).")
def diff_cmd(a: str, b: str, as_json: bool) -> None:
    """Show the rules on which two rulesets differ, in words (each a FILE, NAME or .json).

    Exit status, as for diff(1): 0 when they state the same rules, 1 when they
    differ, 2 when one cannot be read or is invalid (or on wrong usage).
    """
    from rulelang.language.explain import diff_configs

    try:
        ca, _ = _config_and_inherited(a)
        cb, _ = _config_and_inherited(b)
    except RulesetError as exc:
        _report(exc, err=True)
        sys.exit(2)
    la, lb = ca["name"], cb["name"]
    if la == lb:
        la, lb = a, b
    differences = diff_configs(ca, cb)
    if as_json:
        emit(versioned("diff", {"a": la, "b": lb, "same": not differences,
                                "differences": [{"what": what, "a": x, "b": y} for what, x, y in differences]}))
        sys.exit(1 if differences else 0)
    if not differences:
        _say(f"{la} and {lb} state the same rules.")
        return
    noun = "rule" if len(differences) == 1 else "rules"
    _say(f"{la} and {lb} differ in {len(differences)} {noun}:", style="bold")
    width = max(len(la), len(lb))
    for what, x, y in differences:
        _say("")
        _say(what[0].upper() + what[1:], style="bold")
        _say(f"  {la.ljust(width)}  {x}", style="red")
        _say(f"  {lb.ljust(width)}  {y}", style="green")
    sys.exit(1)
