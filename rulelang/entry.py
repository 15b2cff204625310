"""The `rulelang` console script and `python -m rulelang`: the common cases of check, fmt and explain
without click, else the CLI.

`rulelang check one.rules` must start fast (issue 12), and click's import
alone costs more than checking a file. When standard output and standard
error are not terminals, these command lines are answered here, without
importing click or the command modules:

- `check FILE|NAME...` when every file is valid: `FILE: ok`, one line each
  (also at a terminal: the green line rich prints there, or a plain one where
  rich would not colour, NO_COLOR or TERM=dumb);
- `fmt [--check] FILE...` when every file is already in the canonical form:
  nothing to say, nothing written (also at a terminal);
- `explain FILE|NAME`: the explanation, as the command prints it when piped
  (at a terminal rich lays it out: the command does that).

They print what the command prints, byte for byte, and exit 0. Anything else
(another option, standard input, a compiled .json, a file with an error, a
file to rewrite) runs the click command (rulelang/cli.py), which does it all
again and reports everything as it always has: every message, exit status
and the last-resort guard are its own. RULELANG_NO_FAST_CHECK=1 turns this
off (the tests compare both ways).
"""
from __future__ import annotations

import os
import sys
from collections.abc import Callable

__all__ = ["main", "fast_check", "fast_fmt", "fast_explain", "fast_path"]


def _piped() -> bool:
    """Whether standard output and standard error are both usable and not terminals."""
    try:
        return not (sys.stdout is None or sys.stderr is None or sys.stdout.isatty() or sys.stderr.isatty())
    except (AttributeError, ValueError, OSError):
        return False


def _usable() -> bool:
    """Whether standard output and standard error exist (a daemon may have neither)."""
    return sys.stdout is not None and sys.stderr is not None


def _ok_line(line: str) -> str | None:
    """`line` as `check` prints it on this standard output: plain when piped, green at a terminal as rich
    prints style "green" (SGR 32), plain where rich does not colour; None: leave it to the command."""
    try:
        terminal = sys.stdout.isatty()
    except (AttributeError, ValueError, OSError):
        return None
    if not terminal:
        return line + "\n"
    if os.environ.get("NO_COLOR", "") != "" or os.environ.get("TERM", "").strip().lower() in ("dumb", "unknown"):
        return line + "\n"
    return f"\x1b[32m{line}\x1b[0m\n"


def _plain(text: str) -> bool:
    """Text that click.echo writes as it is (it strips ANSI codes when piped: leave such text to it)."""
    return text.isascii() and text.replace("\n", "").isprintable()


def _write(out: str) -> int | None:
    try:
        sys.stdout.write(out)
        sys.stdout.flush()
    except OSError:
        return None  # a closed pipe, a full disk: the command reports it (exit 141, or 1 with a message)
    return 0


def _specs(args: list[str]) -> list[str] | None:
    """The files or names of a command line without options (None when it has one, or `-`, or a .json)."""
    if any(not a or a.startswith("-") or a.endswith(".json") for a in args):
        return None
    return args


def fast_check(args: list[str]) -> int | None:
    """The exit status of `rulelang ARGS` when it is a `check` of valid files, done here; None: not done."""
    if len(args) < 2 or args[0] != "check":
        return None
    specs = _specs(args[1:])
    if specs is None or not _usable():
        return None
    import rulelang
    from rulelang.sources import source

    lines = []
    for spec in specs:
        text, filename = source(spec)
        if rulelang.check_text(text, filename):
            return None  # the command reports the errors
        line = f"{filename}: ok"
        shown = _ok_line(line) if _plain(line) else None
        if shown is None:
            return None
        lines.append(shown)
    return _write("".join(lines))


def fast_fmt(args: list[str]) -> int | None:
    """`fmt [--check] FILE...` when every file is already canonical (nothing to say or write); None: not done."""
    if len(args) < 2 or args[0] != "fmt":
        return None
    files = _specs([a for a in args[1:] if a != "--check"])
    if not files or not _usable():
        return None
    from rulelang.langapi import canonical
    from rulelang.readinput import read_text

    for path in files:
        text = read_text(path)
        new, _errors = canonical(text, path)
        if new != text:
            return None  # to rewrite, or an error: the command does it and says it
    return 0


def fast_explain(args: list[str]) -> int | None:
    """`explain FILE|NAME` of a valid ruleset: its explanation, as the command prints it when piped."""
    if len(args) != 2 or args[0] != "explain":
        return None
    specs = _specs(args[1:])
    if specs is None or not _piped():
        return None
    from rulelang.langapi import explain_text
    from rulelang.sources import config_and_inherited

    config, inherited = config_and_inherited(specs[0])  # a RulesetError: the command reports it
    out = explain_text(config, inherited)
    return _write(out) if _plain(out) else None


FAST: dict[str, Callable[[list[str]], int | None]] = {"check": fast_check, "fmt": fast_fmt, "explain": fast_explain}


def fast_path(args: list[str]) -> int | None:
    """The exit status of `rulelang ARGS` when it is answered here; None: the click command runs."""
    answer = FAST.get(args[0]) if args else None
    if answer is None:
        return None
    try:
        return answer(args)
    except KeyboardInterrupt:
        sys.stderr.write("\nrulelang: interrupted\n")
        return 130
    except Exception:  # noqa: BLE001 - a file that cannot be read, an error, a bug: the command says it its own way
        return None


def main(prog_name: str | None = None) -> None:
    """Run the command line (exits)."""
    try:
        if not os.environ.get("RULELANG_NO_FAST_CHECK"):
            import gc

            gc.disable()  # a short process: the collector would only walk the new modules' objects again and again
            status = fast_path(sys.argv[1:])
            gc.enable()
            if status is not None:
                _exit(status)
        from rulelang.cli import main as cli
    except KeyboardInterrupt:
        # Ctrl-C before the command line is ready (while modules load): stop as the command would
        sys.stderr.write("\nrulelang: interrupted\n")
        sys.exit(130)
    if prog_name is None:
        cli()
    else:
        cli(prog_name=prog_name)


def _exit(status: int) -> None:
    """Exit with STATUS once the output is flushed, without tearing down every module (a tenth of a check).

    Nothing of the check needs a clean-up at exit; a process measured by
    coverage keeps the ordinary exit, so that its data is saved.
    """
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except (OSError, ValueError, AttributeError):
        sys.exit(status)
    if "coverage" in sys.modules:
        sys.exit(status)
    os._exit(status)


if __name__ == "__main__":  # pragma: no cover
    main(prog_name="rulelang")
