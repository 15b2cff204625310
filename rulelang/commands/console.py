"""rich consoles for the commands that draw tables."""
from __future__ import annotations

from rich import box
from rich.console import Console

__all__ = ["pipe_safe", "table_console", "table_box"]

PIPE_WIDTH = 10_000  # not a terminal: a log or a CI page, where a line is never wrapped nor a cell cut


def pipe_safe(console: Console) -> Console:
    """Make a rich Console end like the other commands when its reader leaves (`| head`): exit 141, quietly.

    (rich's own handling exits 1, which reads as "a case failed" in `conform`.)
    """
    def on_broken_pipe() -> None:
        console.quiet = True
        raise BrokenPipeError

    console.on_broken_pipe = on_broken_pipe  # type: ignore[method-assign]
    return console


def table_console(stderr: bool = False, soft_wrap: bool = False) -> Console:
    """A console for tables: 120 to 160 columns at a terminal; when not a terminal, so wide that no table cell
    is truncated and no line wrapped (a variant name in a CI log stays whole)."""
    probe = Console(stderr=stderr)
    width = max(120, min(160, probe.width)) if probe.is_terminal else PIPE_WIDTH
    return pipe_safe(Console(width=width, highlight=False, stderr=stderr, soft_wrap=soft_wrap))


def table_box(console: Console) -> box.Box:
    """Rich lines at a terminal, plain ASCII (`+---+`) elsewhere, as the README promises for pipes."""
    return box.HEAVY_HEAD if console.is_terminal else box.ASCII
