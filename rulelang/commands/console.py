"""rich consoles for the commands that draw tables."""
from __future__ import annotations

from rich.console import Console

__all__ = ["pipe_safe"]


def pipe_safe(console: Console) -> Console:
    """Make a rich Console end like the other commands when its reader leaves (`| head`): exit 141, quietly.

    (rich's own handling exits 1, which reads as "a case failed" in `conform`.)
    """
    def on_broken_pipe() -> None:
        console.quiet = True
        raise BrokenPipeError

    console.on_broken_pipe = on_broken_pipe  # type: ignore[method-assign]
    return console
