"""A RULESET argument: its shell completion (the bundled names, and the shell's own file names), and the error
of a name that names no bundled ruleset."""
from __future__ import annotations

from collections.abc import Iterable

from click import ClickException, Context, Parameter
from click.shell_completion import CompletionItem

__all__ = ["bundled_or_file", "bundled_only", "UnknownVariant"]


class UnknownVariant(ClickException):
    """A name that names no bundled ruleset: exit 1, as the table of exit codes says (docs/tools.md), whether the
    argument also takes a file or only a bundled name."""

    def __init__(self, name: str, known: Iterable[str], where: str = "", more: str = "") -> None:
        super().__init__(f"{where}there is no bundled ruleset {name!r} (bundled: {', '.join(known)}{more})")


def bundled_only(_ctx: Context, _param: Parameter, incomplete: str) -> list[CompletionItem]:
    """The bundled ruleset names starting with what was typed (`allf<TAB>` -> allfives, allfives-block...)."""
    from rulelang.language.bundled import bundled_names

    return [CompletionItem(name) for name in bundled_names() if name.startswith(incomplete)]


def bundled_or_file(ctx: Context, param: Parameter, incomplete: str) -> list[CompletionItem]:
    """The bundled names, then the shell's completion of file names (a ruleset may be either)."""
    return [*bundled_only(ctx, param, incomplete), CompletionItem(incomplete, type="file")]
