"""Commands that make the installed package self-sufficient for authors: show, new, help, lsp.

`show` prints a bundled ruleset (the files are package data); `new` writes a
commented starting file; `help` prints the reference documents: the
repository's docs/*.md, stored once and shipped as the package's `docs` folder
(a link to docs/, read as `rulelang.docs`); `lsp` starts the language server.
"""
from __future__ import annotations

import os
import re
import sys
from importlib import resources

import click

import rulelang
from rulelang.commands.complete import UnknownVariant, bundled_only
from rulelang.language.bundled import bundled_names, bundled_text

__all__ = ["show_cmd", "new_cmd", "help_cmd", "lsp_cmd", "TOPICS"]

# topic -> (package, file, what it is)
TOPICS: dict[str, tuple[str, str, str]] = {
    "language": ("rulelang.docs", "language.md", "the ruleset language: every statement, error codes"),
    "config": ("rulelang.docs", "config.md", "the compiled configuration (JSON) and its schema"),
    "tools": ("rulelang.docs", "tools.md", "the commands: options, output shapes, exit codes"),
    "engine-api": ("rulelang.docs", "engine-api.md", "the interpreter's Python API"),
    "conformance": ("rulelang.conformance", "README.md", "the conformance suite: cases, tags, reports"),
    "protocol": ("rulelang.conformance", "PROTOCOL.md", "the engine protocol (JSON lines) for other engines"),
    "engine-authors": ("rulelang.docs", "engine-authors.md", "write a conforming engine: a tutorial"),
}


def topic_text(topic: str) -> str:
    """The text of a reference topic, read from the installed package."""
    package, name, _what = TOPICS[topic]
    return resources.files(package).joinpath(name).read_text(encoding="utf-8")


@click.command("show")
@click.argument("name", metavar="NAME", shell_complete=bundled_only)
def show_cmd(name: str) -> None:
    """Print the text of a bundled ruleset (a starting point: `rulelang show pagat > club.rules`).

    NAME may also be an example engine shipped with rulelang, example-python
    or example-js: its source, a starting point for an engine of your own
    (`rulelang show example-python > mine.py`).
    """
    from rulelang.conformance.example_engines import EXAMPLES  # 15 ms, for `show` alone

    if name in EXAMPLES:
        click.echo(EXAMPLES[name].path.read_text(encoding="utf-8"), nl=False)
        return
    if name not in bundled_names():
        raise UnknownVariant(name, bundled_names(), more=f"; example engines: {', '.join(EXAMPLES)}")
    click.echo(bundled_text(name), nl=False)


HEADER_KEYS = ("ruleset ", "source ", "based on ")


def starting_text(name: str, title: str, base: str | None) -> str:
    """A new ruleset: based on BASE with BASE's rules as comments to change, or a full copy of All Fives' rules."""
    body = [line for line in rulelang.config_to_text(rulelang.compile_bundled(base or "allfives")).split("\n")
            if not line.startswith(HEADER_KEYS)]
    while body and not body[0].strip():
        body.pop(0)
    header = [f'ruleset {name} "{title}"', 'source "where these rules come from (a book, a web page, our club)"']
    if base:
        intro = [f"# {title}: the rules of {base}, with the changes our club plays.",
                 f"# Every rule of {base} applies unless a line below states it differently:",
                 "# uncomment a line and change it. `rulelang explain FILE` says the result in words;",
                 "# `rulelang help language` lists every statement."]
        lines = intro + header + [f"based on {base}", ""] + [f"# {line}" if line.strip() else "" for line in body]
    else:
        intro = [f"# {title}: a complete ruleset, starting from All Fives' rules; change what our club",
                 "# plays differently. `rulelang explain FILE` says the result in words;",
                 "# `rulelang help language` lists every statement."]
        lines = intro + header + [""] + body
    text = "\n".join(lines).rstrip("\n") + "\n"
    from rulelang.language.formatter import canonical  # the language (lark, the statement table), for `new` alone

    formatted, _errors = canonical(text, f"{name}.rules")  # as `fmt` would write it, so hooks leave it alone
    return formatted or text


@click.command("new")
@click.argument("name", metavar="NAME")
@click.option("--based-on", "base", metavar="BUNDLED", default=None, shell_complete=bundled_only,
              help="Inherit a bundled ruleset's rules (listed as comments to change).")
@click.option("--title", default=None, help="The ruleset's title (default: NAME).")
@click.option("-o", "--output", type=click.Path(dir_okay=False, allow_dash=True), default=None, metavar="FILE",
              help="Where to write it (default NAME.rules; - for standard output). An existing file is kept.")
def new_cmd(name: str, base: str | None, title: str | None, output: str | None) -> None:
    """Write a commented starting ruleset NAME.rules (complete, or --based-on a bundled one)."""
    if not re.fullmatch(r"[a-z][a-z0-9-]*", name):
        raise click.BadParameter(f"{name!r}: a ruleset name is lower-case letters, digits and -, "
                                 "starting with a letter (e.g. club-fives)", param_hint="NAME")
    if base is not None and base not in bundled_names():
        raise UnknownVariant(base, bundled_names(), "--based-on: ")
    title = title or name
    if '"' in title or "\n" in title:
        raise click.BadParameter("a title cannot contain a double quote or a line break", param_hint="--title")
    text = starting_text(name, title, base)
    output = output or f"{name}.rules"
    if output == "-":
        click.echo(text, nl=False)
        return
    if os.path.exists(output):
        click.echo(f"rulelang new: {output} exists; it is kept (choose another name or -o FILE)", err=True)
        sys.exit(1)
    from rulelang.base.outfiles import write_atomic  # tempfile and shutil: for `new` alone

    try:
        write_atomic(output, text)
    except OSError as exc:
        click.echo(f"rulelang new: cannot write {output}: {exc.strerror or exc}", err=True)
        sys.exit(1)
    click.echo(f"wrote {output}: check it with `rulelang check {output}`")


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
        from rulelang.lsp.server import serve
    except ImportError as exc:
        click.echo(f"rulelang lsp: the language server needs pygls ({exc.name or exc} is not installed): "
                   "pip install 'rulelang[lsp]'", err=True)
        sys.exit(1)
    serve()
