"""Progress of long work on standard error: a bar at a terminal, plain lines elsewhere, as pytest does.

One choice for every command (`--progress auto|bar|lines|none`): `auto` draws a bar when standard error is a
terminal, else writes a line at most every RULELANG_PROGRESS_INTERVAL seconds (10 by default), the first only
after that long, so a quick run (and a test) prints nothing extra. RULELANG_NO_PROGRESS=1 turns `auto` off;
a `--progress` given on the command line wins over it, as `--color` wins over NO_COLOR.
"""
from __future__ import annotations

import contextlib
import os
import sys
import time
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, TypeVar

import click

if TYPE_CHECKING:
    from rich.progress import Progress, TaskID

MODES = ("auto", "bar", "lines", "none")
DEFAULT_INTERVAL = 10.0

F = TypeVar("F", bound=Callable[..., object])


def progress_option(command: F) -> F:
    """The `--progress` option, the same words in every command that takes it."""
    return click.option("--progress", "progress_mode", type=click.Choice(MODES), default="auto", show_default=True,
                        help="Progress on standard error: a bar at a terminal, else a line every 10 s (auto); "
                             "bar, lines or none.")(command)


def chosen_mode(choice: str = "auto") -> str:
    """`bar`, `lines` or `none`: what CHOICE means here (standard error a terminal or not, RULELANG_NO_PROGRESS)."""
    if choice != "auto":
        return choice
    if os.environ.get("RULELANG_NO_PROGRESS"):
        return "none"
    return "bar" if sys.stderr.isatty() else "lines"


def interval() -> float:
    """Seconds between two progress lines (RULELANG_PROGRESS_INTERVAL; 10 when unset or not a number >= 0)."""
    try:
        seconds = float(os.environ.get("RULELANG_PROGRESS_INTERVAL", DEFAULT_INTERVAL))
    except ValueError:
        return DEFAULT_INTERVAL
    return seconds if seconds >= 0 else DEFAULT_INTERVAL


class Reporter:
    """Counts work done on named stages (`start`, then `advance`); draws nothing itself (see `reporter`)."""

    def start(self, name: str, total: int) -> None:
        """A new stage of TOTAL units called NAME (a ladder's link, a study's matches)."""

    def advance(self, n: int = 1, note: str = "") -> None:
        """N more units done; NOTE is said beside the count (`2 failed`)."""


class _Lines(Reporter):
    """Plain lines (`balance: 120/1000 matches (12%), 0:10 elapsed, about 1:13 left`), one every interval."""

    def __init__(self, unit: str, every: float):
        self.unit, self.every = unit, every
        self.name, self.total, self.done = "", 0, 0
        self.began = self.last = time.monotonic()

    def start(self, name: str, total: int) -> None:
        self.name, self.total, self.done = name, total, 0
        self.began = time.monotonic()

    def advance(self, n: int = 1, note: str = "") -> None:
        self.done += n
        now = time.monotonic()
        if now - self.last < self.every:
            return
        self.last = now
        spent = now - self.began
        line = f"{self.name}: {self.done}/{self.total} {self.unit}"
        if self.total:
            line += f" ({100 * self.done // self.total}%)"
        line += f", {_clock(spent)} elapsed"
        if 0 < self.done < self.total:
            line += f", about {_clock(spent * (self.total - self.done) / self.done)} left"
        if note:
            line += f", {note}"
        click.echo(line, err=True)


class _Bar(Reporter):
    """A rich progress bar per stage (the last one shown), gone when the work ends."""

    def __init__(self, prog: Progress, label: str | None):
        self.prog, self.label = prog, label
        self.task: TaskID | None = None

    def start(self, name: str, total: int) -> None:
        self.task = self.prog.add_task(self.label or name, total=total, note="")

    def advance(self, n: int = 1, note: str = "") -> None:
        if self.task is not None:
            self.prog.update(self.task, advance=n, note=note)


def _clock(seconds: float) -> str:
    """0:07, 3:25, 1:02:03."""
    s = int(seconds)
    return f"{s // 3600}:{s // 60 % 60:02d}:{s % 60:02d}" if s >= 3600 else f"{s // 60}:{s % 60:02d}"


@contextlib.contextmanager
def reporter(how: str, unit: str, label: str | None = None, force_terminal: bool | None = None) -> Iterator[Reporter]:
    """A Reporter for HOW (`bar`, `lines`, `none`, as `chosen_mode` gives): UNIT names what is counted (matches, cases);
    LABEL, if given, is the bar's text for every stage."""
    if how == "lines":
        yield _Lines(unit, interval())
        return
    if how != "bar":
        yield Reporter()
        return
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                  TextColumn("{task.fields[note]}"), console=Console(stderr=True, force_terminal=force_terminal),
                  transient=True) as prog:
        yield _Bar(prog, label)
