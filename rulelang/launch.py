"""The `rulelang` console script and `python -m rulelang`: the command line (rulelang/cli.py), started so that
a Ctrl-C at any moment ends as rulelang/base/interrupt.py says, not with Python's traceback.

Importing the command line takes a while (click, then the command's modules); this module imports nothing
slow, so that a Ctrl-C during that import is caught here. `rulelang.cli:main` stays the click group for
anyone who calls it.
"""
from __future__ import annotations

import sys

from rulelang.base import interrupt


def main(prog_name: str | None = None) -> None:
    """Run the command line with the arguments of this process (`prog_name`: the name its help shows)."""
    previous = sys.unraisablehook
    sys.unraisablehook = lambda unraisable: interrupt.redeliver_lost(unraisable, previous)
    try:
        from rulelang.cli import main as command_line

        command_line(prog_name=prog_name)
    except KeyboardInterrupt:  # before the group runs (its own handler says the same after)
        interrupt.report()
        sys.exit(interrupt.EXIT_STATUS)
    except Exception as exc:  # a Ctrl-C inside an import can come out as another error (a class's __set_name__)
        if not interrupt.during_interrupt(exc):
            raise
        interrupt.report()
        sys.exit(interrupt.EXIT_STATUS)
    finally:
        interrupt.forget()
