"""The engine's exceptions; each carries a stable `code` (the conformance suite compares codes)."""
from __future__ import annotations

from collections.abc import Iterable


class EngineError(Exception):
    """Base class of the engine's errors."""

    code = "engine-error"


class ConfigError(EngineError):
    """A configuration that fails the schema or the engine's own consistency checks."""

    code = "bad-config"

    def __init__(self, message: str, path: str = ""):
        self.message = message
        self.path = path
        super().__init__(f"{path}: {message}" if path else message)


class IllegalMove(EngineError):
    """A move the rules forbid; the state is unchanged. `legal` lists the moves allowed."""

    CODES = (
        "round-over", "not-in-hand", "must-lead", "forced-lead", "not-on-layout",
        "no-such-side", "side-occupied", "branch-closed", "no-match", "must-play-drawn",
        "must-place",
        # the muggins rule (family.md 2.3, interpreter/claims.py)
        "claims-off", "negative-claim", "no-calls", "late-call", "not-caller", "nothing-to-take",
        "orientation-not-allowed", "dead-end",  # the sniff
        "boneyard-empty",  # a draw move with nothing left to draw
        "spinner-first",  # a side held back while the spinner is filled first
    )

    def __init__(self, code: str, message: str, legal: Iterable[object] = ()):
        assert code in self.CODES, code
        self.code = code
        self.message = message
        self.legal = list(legal)
        text = message
        if self.legal:
            shown = ", ".join(str(m) for m in self.legal[:12])
            more = f" (and {len(self.legal) - 12} more)" if len(self.legal) > 12 else ""
            text = f"{message}; legal: {shown}{more}"
        super().__init__(text)


class TranscriptMismatch(EngineError):
    """A transcript that contradicts the rules: the first step and path that differ."""

    code = "transcript-mismatch"

    def __init__(self, step: int, path: str, expected: object, got: object):
        self.step = step
        self.path = path
        self.expected = expected
        self.got = got
        super().__init__(f"step {step}: {path}: transcript has {expected!r}, the rules give {got!r}")
