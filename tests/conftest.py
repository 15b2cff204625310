"""Refuse to test a stale compiled engine (and give SIGINT back to a run started in the background).

`pip install -e .` (without RULELANG_PURE_PYTHON=1) and `.ci/run`'s second pass
build the engine's compiled modules into the checkout, where Python imports
them instead of the source. A module compiled before its source last changed
would test old code while the source looks right: stop at once and say so.
"""
from __future__ import annotations

import os
import signal
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent

# A test run started in the background by a script (`pytest &`) inherits SIGINT ignored, and so would every
# process a test starts: the Ctrl-C tests could not interrupt them. Children of a Python handler get SIGINT's
# default back at exec.
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)

# Long work not at a terminal writes a progress line every 10 s (rulelang/commands/progress.py); on a busy machine
# a test's run can take that long, and the line would change the standard error the test reads. The tests of those
# lines set the interval themselves (tests/test_progress_lines.py).
os.environ.setdefault("RULELANG_PROGRESS_INTERVAL", "86400")


def compiled_in_tree() -> bool:
    """Whether the engine is compiled into this checkout (.ci/run's second pass, an editable install)."""
    return any((ROOT / "interpreter").glob("*.so"))


def stale_compiled_modules(folder: Path) -> list[str]:
    """The compiled modules in `folder` older than their source file."""
    stale = []
    for ext in sorted(folder.glob("*.so")):
        source = folder / (ext.name.split(".", 1)[0] + ".py")
        if source.is_file() and source.stat().st_mtime > ext.stat().st_mtime:
            stale.append(ext.name)
    return stale


def pytest_sessionstart(session: pytest.Session) -> None:
    stale = stale_compiled_modules(ROOT / "interpreter")
    if stale:
        pytest.exit(f"compiled modules older than their source in interpreter/ ({', '.join(stale)}): rebuild them "
                    "(python setup.py build_ext --inplace) or delete them (rm interpreter/*.so)", returncode=4)


@pytest.fixture(scope="module")
def session(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """One `rulelang lsp` server with a test client for a whole test module (tests/lsp_session.py); a module
    that needs another set-up defines its own `session`."""
    pytest.importorskip("pygls")
    from lsp_session import Session

    s = Session(tmp_path_factory.mktemp("lsp"))
    yield s
    s.close()


@pytest.fixture
def game(tmp_path: Path) -> Path:
    """A saved game stopped early (end of input after a few moves): what `replay` and `render` read."""
    from cli_run import run

    path = tmp_path / "game.json"
    res = run("play", "exact61", "--seed", "1", "--save", str(path), input="1\n" * 8)
    assert res.exit_code == 0 and path.exists(), res.output
    return path
