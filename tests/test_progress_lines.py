"""Long work reports progress on standard error when it is not a terminal: plain lines, at most one an interval."""
from __future__ import annotations

import re

import pytest
from click.testing import CliRunner

from rulelang.cli import main
from rulelang.commands import progress

EVERY = {"RULELANG_PROGRESS_INTERVAL": "0", "RULELANG_NO_PROGRESS": None, "NO_COLOR": "1"}


def _line(name: str, unit: str) -> re.Pattern[str]:
    return re.compile(rf"{re.escape(name)}: (\d+)/(\d+) {unit} \(\d+%\), \d+:\d\d elapsed"
                      rf"(, about \d+:\d\d left)?(, \d+ failed)?")


def _run(*args: str, **env: str | None) -> tuple[int, str, str]:
    res = CliRunner().invoke(main, list(args), env={**EVERY, **env})
    return res.exit_code, res.stdout, res.stderr


def test_simulate_writes_a_line_per_interval_when_not_at_a_terminal():
    code, out, err = _run("simulate", "pagat", "-n", "4")
    assert code == 0
    lines = err.splitlines()
    assert len(lines) == 4, err
    for k, line in enumerate(lines, 1):
        m = _line("pagat", "matches").fullmatch(line)
        assert m and (int(m[1]), int(m[2])) == (k, 4), line
    assert lines[-1].startswith("pagat: 4/4 matches (100%), ") and "left" not in lines[-1]
    assert "win rate" in out and "win rate" not in err  # the table where it was


def test_a_quick_run_prints_nothing_extra_with_the_default_interval():
    _, out, err = _run("simulate", "pagat", "-n", "3", "-o", "-", RULELANG_PROGRESS_INTERVAL=None)
    assert "matches (" not in err and len(out.splitlines()) == 3


@pytest.mark.parametrize(("args", "env", "shown"), [
    (["--progress", "none"], {}, False),
    ([], {"RULELANG_NO_PROGRESS": "1"}, False),
    (["--progress", "lines"], {"RULELANG_NO_PROGRESS": "1"}, True),  # the command line wins, as --color does
    (["--progress", "auto"], {}, True),
])
def test_the_progress_option_and_the_variable(args, env, shown):
    code, _, err = _run("simulate", "pagat", "-n", "2", *args, **env)
    assert code == 0
    assert ("pagat: 2/2 matches" in err) is shown, err


def test_a_wrong_progress_mode_is_a_usage_error():
    code, _, err = _run("simulate", "pagat", "-n", "2", "--progress", "dots")
    assert code == 2 and "'dots' is not one of 'auto', 'bar', 'lines', 'none'" in err


def test_balance_reports_its_matches():
    code, _, err = _run("balance", "pagat", "-n", "2", "--skill-matches", "2", "--strong", "greedy", "--json")
    assert code == 0, err
    lines = err.splitlines()
    assert lines and all(_line("balance", "matches").fullmatch(line) for line in lines), err
    assert re.match(r"balance: (\d+)/\1 matches \(100%\)", lines[-1])


def test_the_ladder_reports_each_link():
    code, _, err = _run("balance", "pagat", "--ladder", "--rungs", "random,greedy", "--link-matches", "2", "--json")
    assert code == 0, err
    lines = err.splitlines()
    assert lines and all(_line("greedy vs random", "matches").fullmatch(line) for line in lines), err


def test_conform_reports_its_cases():
    code, _, err = _run("conform", "--variant", "pagat")
    assert code == 0
    lines = [line for line in err.splitlines() if line.startswith("conformance:")]
    assert lines and all(_line("conformance", "cases").fullmatch(line) for line in lines), err


def test_interval_and_clock(monkeypatch):
    monkeypatch.delenv("RULELANG_PROGRESS_INTERVAL", raising=False)
    assert progress.interval() == 10.0  # the first line only after 10 s: a quick run prints nothing extra
    for text, want in (("2.5", 2.5), ("-1", 10.0), ("soon", 10.0)):
        monkeypatch.setenv("RULELANG_PROGRESS_INTERVAL", text)
        assert progress.interval() == want
    assert [progress._clock(s) for s in (7, 205, 3723)] == ["0:07", "3:25", "1:02:03"]
