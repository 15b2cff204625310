"""The `rulelang` command: one click group whose subcommands live in `rulelang/commands/`.

Subcommands are imported lazily so that `rulelang check` does not pay for the
engine, the conformance runner or the renderer.
"""
from __future__ import annotations

import importlib
import os
import sys

import click

from rulelang._version import __version__

# command name -> "module:attribute" under rulelang.commands
COMMANDS: dict[str, str] = {
    "list": "lang:list_cmd",
    "check": "lang:check_cmd",
    "compile": "lang:compile_cmd",
    "fmt": "lang:fmt_cmd",
    "explain": "lang:explain_cmd",
    "diff": "lang:diff_cmd",
    "conform": "conform:conform_cmd",
    "engine-adapter": "conform:engine_adapter_cmd",
    "play": "play:play_cmd",
    "replay": "play:replay_cmd",
    "simulate": "simulate:simulate_cmd",
    "balance": "balance:balance_cmd",
    "render": "render:render_cmd",
}


def pipe_safe(console):
    """Make a rich Console end like the other commands when its reader leaves (`| head`): exit 141, quietly.

    (rich's own handling exits 1, which reads as "a case failed" in `conform`.)
    """
    def on_broken_pipe() -> None:
        console.quiet = True
        raise BrokenPipeError

    console.on_broken_pipe = on_broken_pipe
    return console


def _quiet_stdout() -> None:
    """Point stdout at /dev/null so that the flush at exit cannot fail again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass


class LazyGroup(click.Group):
    """A group that imports a subcommand's module only when it is used."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(COMMANDS)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        target = COMMANDS.get(cmd_name)
        if target is None:
            return None
        module_name, attr = target.split(":")
        module = importlib.import_module(f"rulelang.commands.{module_name}")
        return getattr(module, attr)

    def invoke(self, ctx: click.Context):
        """Turn an unexpected exception into a one-line message and exit 70, never a traceback.

        Every expected bad input has its own message in its command; this is the
        last guard. RULELANG_DEBUG=1 shows the traceback for a bug report.
        """
        try:
            return super().invoke(ctx)
        except (click.exceptions.ClickException, click.exceptions.Abort, click.exceptions.Exit):
            raise
        except BrokenPipeError:
            # `rulelang ... | head`: the reader left; stop quietly as Unix tools do.
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
            ctx.exit(141)
        except OSError as exc:
            # the system refused a read or a write (a full disk, stdout on /dev/full, an I/O error):
            # not a bug of rulelang, and the command did not complete
            if os.environ.get("RULELANG_DEBUG"):
                raise
            where = f" ({exc.filename})" if exc.filename else ""
            _quiet_stdout()
            click.echo(f"rulelang: {exc.strerror or exc}{where}; the command did not complete", err=True)
            ctx.exit(1)
        except Exception as exc:  # noqa: BLE001 - the last guard by design
            if os.environ.get("RULELANG_DEBUG"):
                raise
            click.echo(
                f"rulelang: internal error: {type(exc).__name__}: {exc}\n"
                "(this is a bug in rulelang; set RULELANG_DEBUG=1 to see the traceback)",
                err=True,
            )
            ctx.exit(70)


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="rulelang")
def main() -> None:
    """rulelang: write, check, play and test All Fives / Five-Up domino variants."""


if __name__ == "__main__":  # pragma: no cover
    main()
