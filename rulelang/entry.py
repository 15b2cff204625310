"""The `rulelang` console script and `python -m rulelang`: `check` of valid files without click, else the CLI.

`rulelang check one.rules` must start fast (issue 12), and click's import
alone costs more than checking a file. When the command line is
`check FILE|NAME...` (no option, no standard input, no compiled .json),
standard output is not a terminal (where rich colours the output), and every
file is valid, this prints what the `check` command prints for them
(`FILE: ok`, one line each) and exits 0, without importing click or the
command modules. Anything else, and any file with an error, runs the click
command (rulelang/cli.py), which checks again and reports everything as it
always has: every message, exit status and the last-resort guard are its own.
"""
from __future__ import annotations

import os
import sys

__all__ = ["main", "fast_check"]


def fast_check(args: list[str]) -> int | None:
    """The exit status of `rulelang ARGS` when it is a `check` of valid files, done here; None: not done."""
    if len(args) < 2 or args[0] != "check":
        return None
    specs = args[1:]
    if any(not spec or spec.startswith("-") or spec.endswith(".json") for spec in specs):
        return None  # an option, standard input, a compiled configuration: the command's own handling
    try:
        if sys.stdout is None or sys.stdout.isatty():
            return None
    except (AttributeError, ValueError, OSError):
        return None
    lines = []
    try:
        import rulelang
        from rulelang.sources import source

        for spec in specs:
            text, filename = source(spec)
            if rulelang.check_text(text, filename):
                return None  # the command reports the errors
            lines.append(f"{filename}: ok\n")
    except KeyboardInterrupt:
        sys.stderr.write("\nrulelang: interrupted\n")
        return 130
    except Exception:  # noqa: BLE001 - a file that cannot be read, or a bug: the command says it its own way
        return None
    out = "".join(lines)
    if not (out.isascii() and out.replace("\n", "").isprintable()):
        return None  # click.echo may rewrite such text (ANSI codes are stripped when piped): let it
    try:
        sys.stdout.write(out)
        sys.stdout.flush()
    except OSError:
        return None  # a closed pipe, a full disk: the command reports it (exit 141, or 1 with a message)
    return 0


def main(prog_name: str | None = None) -> None:
    """Run the command line (exits)."""
    if not os.environ.get("RULELANG_NO_FAST_CHECK"):
        import gc

        gc.disable()  # a short process: the collector would only walk the new modules' objects again and again
        status = fast_check(sys.argv[1:])
        gc.enable()
        if status is not None:
            _exit(status)
    from rulelang.cli import main as cli

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
