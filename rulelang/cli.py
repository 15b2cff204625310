"""The `rulelang` command: one click group whose subcommands live in `rulelang/commands/`.

Subcommands are imported lazily so that `rulelang check` does not pay for the
engine, the conformance runner or the renderer. The console script,
rulelang/entry.py, answers the common `check`, `fmt` and `explain` command
lines without importing this module (and click) at all, and runs this group
for everything else.
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
    "cases": "cases:cases_cmd",
    "engine-adapter": "conform:engine_adapter_cmd",
    "play": "play:play_cmd",
    "replay": "play:replay_cmd",
    "simulate": "simulate:simulate_cmd",
    "balance": "balance:balance_cmd",
    "render": "render:render_cmd",
    "show": "authoring:show_cmd",
    "new": "authoring:new_cmd",
    "help": "authoring:help_cmd",
    "lsp": "authoring:lsp_cmd",
    "serve": "serve:serve_cmd",
}


# command name -> its one-line help, so that `rulelang --help` imports no command module
# (a test keeps these equal to each command's own short help)
SUMMARIES: dict[str, str] = {
    'balance': 'Measure what RULESET does to the game, with an interval on every figure.',
    'check': 'Check ruleset files (or bundled names, or - for standard input); print every error found.',
    'cases': 'Conformance cases for your own rulesets.',
    'compile': 'Compile a ruleset to its configuration (JSON on stdout, or -o FILE).',
    'conform': 'Run the conformance suite against the built-in engine or an external one.',
    'diff': 'Show the rules on which two rulesets differ, in words (each a FILE, NAME or .json).',
    'engine-adapter': 'Serve the built-in engine over the conformance protocol (JSON lines on stdin/stdout).',
    'explain': 'Explain a ruleset in plain English, from its compiled configuration.',
    'fmt': 'Rewrite ruleset files in the canonical form (comments kept).',
    'help': 'Print a reference document (the language, the commands...); without TOPIC, list them.',
    'list': 'List the bundled rulesets: name, title, players, target.',
    'lsp': 'Run the language server for editors (over standard input and output).',
    'new': 'Write a commented starting ruleset NAME.rules (complete, or --based-on a bundled one).',
    'play': 'Play VARIANT in the terminal against bots.',
    'render': ('Draw a layout as SVG: tiles with pips, doubles crosswise, branching doubles outlined in orange, '
               'counted ends as filled numbers, legal attach points as hollow points, and a legend.'),
    'replay': 'Check a saved game against the rules and print it turn by turn.',
    'serve': ('Start the playground: write a ruleset and see it checked and explained as you type, play it against '
              'bots, browse the conformance diagrams, print a rules sheet.'),
    'show': 'Print the text of a bundled ruleset (a starting point: `rulelang show pagat > club.rules`).',
    'simulate': 'Play MATCHES bot matches of VARIANT and report statistics.',
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

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """The commands section of --help from SUMMARIES, without importing every command."""
        names = self.list_commands(ctx)
        limit = formatter.width - 6 - max(map(len, names))
        rows = [(name, click.Command(name, help=SUMMARIES.get(name, "")).get_short_help_str(limit)) for name in names]
        with formatter.section("Commands"):
            formatter.write_dl(rows)

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
        from rulelang.readinput import forget

        forget()
        try:
            return super().invoke(ctx)
        except (click.exceptions.ClickException, click.exceptions.Abort, click.exceptions.Exit):
            raise
        except KeyboardInterrupt:
            # Ctrl-C: stop as shells expect of an interrupted command (128 + SIGINT)
            click.echo("\nrulelang: interrupted", err=True)
            ctx.exit(130)
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
            from rulelang.readinput import input_of

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


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--version", is_flag=True, expose_value=False, is_eager=True, callback=_show_version,
              help="Show the version and which engine is installed, and exit.")
def main() -> None:
    """rulelang: write, check, play and test All Fives / Five-Up domino variants."""


if __name__ == "__main__":  # pragma: no cover
    main()
