"""Shell completion of a RULESET argument: the bundled names, and the shell's own file names."""
from __future__ import annotations

from click import Context, Parameter
from click.shell_completion import CompletionItem

__all__ = ["bundled_or_file", "bundled_only"]


def bundled_only(_ctx: Context, _param: Parameter, incomplete: str) -> list[CompletionItem]:
    """The bundled ruleset names starting with what was typed (`allf<TAB>` -> allfives, allfives-block...)."""
    from rulelang.bundled import bundled_names

    return [CompletionItem(name) for name in bundled_names() if name.startswith(incomplete)]


def bundled_or_file(ctx: Context, param: Parameter, incomplete: str) -> list[CompletionItem]:
    """The bundled names, then the shell's completion of file names (a ruleset may be either)."""
    return [*bundled_only(ctx, param, incomplete), CompletionItem(incomplete, type="file")]
