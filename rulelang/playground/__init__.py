"""`rulelang serve`: a local web playground to write a ruleset, see it checked and explained, play it
against bots, browse the conformance diagrams and print a rules sheet.

Starlette and uvicorn are dependencies of rulelang (the extra `serve` is kept for old install lines).
"""
from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from starlette.applications import Starlette

__all__ = ["create_app"]


def create_app(workspace: str = ".", hosts: list[str] | None = None) -> Starlette:
    """The Starlette application (imported here lazily so that a missing extra is reported by the command)."""
    from rulelang.playground.app import create_app as make

    return make(workspace, hosts)
