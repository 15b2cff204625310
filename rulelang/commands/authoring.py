"""Commands that make the installed package self-sufficient for authors: show, help, lsp.

`show` prints a bundled ruleset (the files are package data); `help` prints the
reference documents that ship in `rulelang/reference/` (kept identical to
`docs/` by a test); `lsp` starts the language server.
"""
from __future__ import annotations

import sys

import click

__all__ = ["show_cmd", "help_cmd", "lsp_cmd", "TOPICS"]

# topic -> (package, file, what it is)
TOPICS: dict[str, tuple[str, str, str]] = {
    "language": ("rulelang.reference", "language.md", "the ruleset language: every statement, error codes"),
    "config": ("rulelang.reference", "config.md", "the compiled configuration (JSON) and its schema"),
    "tools": ("rulelang.reference", "tools.md", "the commands: options, output shapes, exit codes"),
    "engine-api": ("rulelang.reference", "engine-api.md", "the interpreter's Python API"),
    "conformance": ("conformance", "README.md", "the conformance suite: cases, tags, reports"),
    "protocol": ("conformance", "PROTOCOL.md", "the engine protocol (JSON lines) for other engines"),
}


def topic_text(topic: str) -> str:
    """The text of a reference topic, read from the installed package."""
    from importlib import resources

    package, name, _what = TOPICS[topic]
    return resources.files(package).joinpath(name).read_text(encoding="utf-8")


@click.command("show")
@click.argument("name", metavar="NAME")
def show_cmd(name: str) -> None:
    """Print the text of a bundled ruleset (a starting point: `rulelang show pagat > club.rules`)."""
    from rulelang.bundled import bundled_names, bundled_text

    if name not in bundled_names():
        raise click.BadParameter(f"there is no bundled ruleset {name!r} (bundled: {', '.join(bundled_names())})",
                                 param_hint="NAME")
    click.echo(bundled_text(name), nl=False)


@click.command("help")
@click.argument("topic", required=False, metavar="[TOPIC]")
def help_cmd(topic: str | None) -> None:
    """Print a reference document (the language, the commands...); without TOPIC, list them."""
    if topic is None:
        click.echo("Reference topics (rulelang help TOPIC):")
        width = max(map(len, TOPICS))
        for name, (_package, _file, what) in TOPICS.items():
            click.echo(f"  {name.ljust(width)}  {what}")
        click.echo("Commands: rulelang --help, rulelang COMMAND --help")
        return
    if topic not in TOPICS:
        raise click.BadParameter(f"no topic {topic!r} (topics: {', '.join(TOPICS)})", param_hint="TOPIC")
    text = topic_text(topic)
    if sys.stdout.isatty():
        click.echo_via_pager(text)
    else:
        click.echo(text, nl=False)


@click.command("lsp")
@click.option("--stdio", is_flag=True, help="Talk over standard input and output (the default and only transport).")
def lsp_cmd(stdio: bool) -> None:
    """Run the language server for editors (over standard input and output).

    Diagnostics as you type (the errors of `rulelang check`), formatting
    (`rulelang fmt`), hover (the `explain` sentence), completion and go to the
    base ruleset. Needs the `lsp` extra: pip install 'rulelang[lsp]'.
    """
    try:
        from rulelang.lsp import serve
    except ImportError as exc:
        click.echo(f"rulelang lsp: the language server needs pygls ({exc.name or exc} is not installed): "
                   "pip install 'rulelang[lsp]'", err=True)
        sys.exit(1)
    serve()
