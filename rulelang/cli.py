"""The `rulelang` command: one click group whose subcommands live in `rulelang/commands/`.

Subcommands are loaded lazily (click's `LazyGroup` pattern): a command's module
is imported only when that command runs, or when `--help` lists them, so that
`rulelang check` does not pay for the engine, the conformance runner or the
renderer.
"""
from __future__ import annotations

import difflib
import importlib
import os
import sys
from typing import Any, NoReturn

import click

from rulelang._version import __version__
from rulelang.base import interrupt
from rulelang.base.readinput import forget, input_of

__all__ = ["main", "LazyGroup", "COMMANDS"]

# command name -> "module.attribute" of its click command
COMMANDS: dict[str, str] = {
    "list": "rulelang.commands.lang.list_cmd",
    "check": "rulelang.commands.lang.check_cmd",
    "compile": "rulelang.commands.lang.compile_cmd",
    "fmt": "rulelang.commands.lang.fmt_cmd",
    "explain": "rulelang.commands.lang.explain_cmd",
    "diff": "rulelang.commands.lang.diff_cmd",
    "conform": "rulelang.commands.conform.conform_cmd",
    "cases": "rulelang.commands.cases.cases_cmd",
    "engine-adapter": "rulelang.commands.conform.engine_adapter_cmd",
    "identify": "rulelang.commands.identify.identify_cmd",
    "play": "rulelang.commands.play.play_cmd",
    "replay": "rulelang.commands.play.replay_cmd",
    "simulate": "rulelang.commands.simulate.simulate_cmd",
    "balance": "rulelang.commands.balance.balance_cmd",
    "render": "rulelang.commands.render.render_cmd",
    "show": "rulelang.commands.authoring.show_cmd",
    "new": "rulelang.commands.authoring.new_cmd",
    "help": "rulelang.commands.authoring.help_cmd",
    "lsp": "rulelang.commands.authoring.lsp_cmd",
    "serve": "rulelang.commands.serve.serve_cmd",
}


class LazyGroup(click.Group):
    """A group whose subcommands are imported on demand from `lazy_subcommands` (name -> "module.attribute")."""

    def __init__(self, *args: Any, lazy_subcommands: dict[str, str] | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.lazy_subcommands = lazy_subcommands or {}

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted([*super().list_commands(ctx), *self.lazy_subcommands])

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in self.lazy_subcommands:
            return super().get_command(ctx, cmd_name)
        module_name, attribute = self.lazy_subcommands[cmd_name].rsplit(".", 1)
        command = getattr(importlib.import_module(module_name), attribute)
        if not isinstance(command, click.Command):
            raise TypeError(f"{self.lazy_subcommands[cmd_name]} is not a click command")
        return with_color_option(command)

    def resolve_command(self, ctx: click.Context, args: list[str]) -> tuple[str | None, click.Command | None,
                                                                            list[str]]:
        """click's, with a did-you-mean among the lazy commands for a mistyped name (usage error, exit 2)."""
        try:
            return super().resolve_command(ctx, args)
        except click.UsageError as exc:
            name = args[0] if args else ""
            close = difflib.get_close_matches(name, self.list_commands(ctx), n=1) if name else []
            if close and name not in self.list_commands(ctx) and "Did you mean" not in exc.message:
                raise click.UsageError(f"{exc.message} Did you mean '{close[0]}'?", ctx=exc.ctx) from None
            raise

    def make_context(self, info_name: str | None, args: list[str], parent: click.Context | None = None,
                     **extra: object) -> click.Context:
        """Read the group's options; a Ctrl-C meanwhile (`--version` loads the engine) ends as one in a command
        does, not with click's "Aborted!" and status 1."""
        try:
            return super().make_context(info_name, args, parent=parent, **extra)
        except KeyboardInterrupt:
            interrupt.report()
            raise click.exceptions.Exit(interrupt.EXIT_STATUS) from None

    def invoke(self, ctx: click.Context) -> object:
        """Run the subcommand; an unexpected exception becomes a one-line message and an exit status, never a
        traceback (every expected bad input has its own message in its command: this is the last guard)."""
        try:
            forget()
            return super().invoke(ctx)
        except (click.exceptions.Abort, click.exceptions.Exit):
            raise
        except click.exceptions.ClickException as exc:
            if interrupt.during_interrupt(exc):
                _interrupted(ctx)
            raise
        except KeyboardInterrupt:  # Ctrl-C: stop as shells expect of an interrupted command (rulelang/base/interrupt.py)
            _interrupted(ctx)
        except BrokenPipeError:  # `rulelang ... | head`: the reader left; stop quietly as Unix tools do
            _quiet_stdout()
            ctx.exit(141)
        except Exception as exc:  # noqa: BLE001 - the last guard by design
            if interrupt.during_interrupt(exc):
                _interrupted(ctx)
            if isinstance(exc, OSError):
                _system_refused(ctx, exc)
            _internal_error(ctx, exc)


def with_color_option(command: click.Command) -> click.Command:
    """Give a command (and a group's subcommands) `--color` as well, so that it is taken after the command as
    before it (`rulelang check --color never F`, as ruff takes it)."""
    if not any(p.name == "color" for p in command.params):
        command.params.append(click.Option(["--color"], type=click.Choice(["auto", "always", "never"]),
                                           expose_value=False, callback=_set_color, is_eager=True,
                                           help="Colour: auto (at a terminal), always or never."))
    if isinstance(command, click.Group):
        for sub in command.commands.values():
            with_color_option(sub)
    return command


def _interrupted(ctx: click.Context) -> NoReturn:
    """Ctrl-C, or an error it caused: the line of rulelang/base/interrupt.py and exit 130."""
    interrupt.report()
    ctx.exit(interrupt.EXIT_STATUS)


def _quiet_stdout() -> None:
    """Point stdout at /dev/null so that the flush at exit cannot fail again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass


def _system_refused(ctx: click.Context, exc: OSError) -> NoReturn:
    """The system refused a read or a write (a full disk, stdout on /dev/full, an I/O error): not a bug of
    rulelang, and the command did not complete. Exit 1."""
    if os.environ.get("RULELANG_DEBUG"):
        raise exc
    where = f" ({exc.filename})" if exc.filename else ""
    _quiet_stdout()
    click.echo(f"rulelang: {exc.strerror or exc}{where}; the command did not complete", err=True)
    ctx.exit(1)


def _internal_error(ctx: click.Context, exc: Exception) -> NoReturn:
    """A bug: one line saying so, and exit 70. RULELANG_DEBUG=1 shows the traceback for a bug report."""
    if os.environ.get("RULELANG_DEBUG"):
        raise exc
    name = input_of(exc)
    where = f" while processing {name}" if name else ""
    text = str(exc)
    text = text if len(text) <= 300 else text[:300] + "..."
    click.echo(
        f"rulelang: internal error{where}: {type(exc).__name__}: {text}\n"
        "(this is a bug in rulelang; set RULELANG_DEBUG=1 to see the traceback)",
        err=True,
    )
    ctx.exit(70)


def _show_version(ctx: click.Context, _param: click.Parameter, value: bool) -> None:
    """`--version`: the version, and which engine is installed (compiled or pure Python, setup.py)."""
    if not value or ctx.resilient_parsing:
        return
    from rulelang.interpreter.build import engine_build

    click.echo(f"rulelang, version {__version__} (engine: {engine_build()})")
    ctx.exit()


def _set_color(ctx: click.Context, _param: click.Parameter, value: str | None) -> None:
    """`--color`: always and never set FORCE_COLOR or NO_COLOR, which every console of rulelang (rich) honours;
    auto leaves the environment's choice, else colour at a terminal only."""
    if ctx.resilient_parsing or value in (None, "auto"):
        return
    os.environ.pop("NO_COLOR" if value == "always" else "FORCE_COLOR", None)
    os.environ["FORCE_COLOR" if value == "always" else "NO_COLOR"] = "1"


@click.group(cls=LazyGroup, lazy_subcommands=COMMANDS, context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--version", is_flag=True, expose_value=False, is_eager=True, callback=_show_version,
              help="Show the version and which engine is installed, and exit.")
@click.option("--color", type=click.Choice(["auto", "always", "never"]), default="auto", show_default=True,
              expose_value=False, callback=_set_color,
              help="Colour: at a terminal only (auto; FORCE_COLOR and NO_COLOR are honoured), always, or never.")
def main() -> None:
    """rulelang: write, check, play and test All Fives / Five-Up domino variants."""


if __name__ == "__main__":  # pragma: no cover
    main()
