"""The `rulelang` command run in-process by the tests, with the guards every command test shares."""
from __future__ import annotations

from click.testing import CliRunner, Result

from rulelang.cli import main


def run(*args: str, input: str | None = None) -> Result:
    """Run `rulelang ARGS`; fail the test on an internal error (exit 70), a traceback, or an exception that is not
    a deliberate exit."""
    res = CliRunner().invoke(main, list(args), input=input)
    assert res.exit_code != 70, res.output  # the last guard: "internal error"
    assert "Traceback" not in res.output
    if res.exception is not None:
        assert isinstance(res.exception, SystemExit), repr(res.exception)
    return res
