"""`.rules` files of other programs (udev, polkit, Snort): said once to be "not a rulelang ruleset", and skipped by
folder walks, the pre-commit hooks and the language server; a file named on the command line is still checked."""
from __future__ import annotations

import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from rulelang.base.foreign import foreign_format
from rulelang.cli import main

ROOT = Path(__file__).resolve().parent.parent
FOREIGN = sorted((Path(__file__).parent / "data" / "foreign").glob("*.rules"))
CLUB = Path(__file__).parent / "data" / "playground" / "club.rules"
HOOKS = yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))
assert FOREIGN


@pytest.mark.parametrize("path", FOREIGN, ids=lambda p: p.name)
def test_each_other_format_is_recognised_from_its_first_meaningful_line(path):
    assert foreign_format(path.read_text(encoding="utf-8")) is not None


@pytest.mark.parametrize("name", ["allfives", "muggins-claims", "sniff", "double-nine-six"])
def test_no_bundled_ruleset_is_taken_for_another_format(name):
    from rulelang import bundled_text

    assert foreign_format(bundled_text(name)) is None


@pytest.mark.parametrize("text", [
    "",
    "# only a comment\n",
    "rulset club \"Club\"\n",  # a misspelt ruleset is checked as a ruleset
    "based on allfives\n",
    "ACTION is a word\n",  # not udev's KEY=="value"
    "alert me\n",  # not Snort's action protocol ... ->
    "[5|5]\n",
])
def test_the_decision_is_conservative(text):
    assert foreign_format(text) is None


def _folder(tmp_path: Path) -> Path:
    for path in FOREIGN:
        shutil.copy(path, tmp_path / path.name)
    shutil.copy(CLUB, tmp_path / "club.rules")
    assert CliRunner().invoke(main, ["fmt", str(tmp_path / "club.rules")]).exit_code == 0  # canonical from here on
    return tmp_path


def test_a_folder_walk_skips_them_and_says_so_once_each(tmp_path):
    res = CliRunner().invoke(main, ["check", str(_folder(tmp_path))])
    assert res.exit_code == 0, res.output
    for path in FOREIGN:
        line = f"{tmp_path / path.name}: not a rulelang ruleset (it reads as "
        assert res.stderr.count(line) == 1 and "; skipped" in res.stderr
    assert "club.rules: ok" in res.stdout and "unexpected" not in res.output


def test_fmt_of_a_folder_leaves_them_alone(tmp_path):
    folder = _folder(tmp_path)
    before = {p.name: p.read_text() for p in folder.iterdir()}
    res = CliRunner().invoke(main, ["fmt", "--check", str(folder)])
    assert res.exit_code == 0, res.output
    assert res.stderr.count("not a rulelang ruleset") == len(FOREIGN)
    res = CliRunner().invoke(main, ["fmt", str(folder)])
    assert res.exit_code == 0 and {p.name: p.read_text() for p in folder.iterdir()} == before


def test_a_file_named_on_the_command_line_is_checked_with_that_one_message():
    udev = next(p for p in FOREIGN if p.name == "99-udev.rules")
    res = CliRunner().invoke(main, ["check", str(udev)])
    assert res.exit_code == 1
    assert res.stdout.splitlines()[0] == f"{udev}: not a rulelang ruleset (it reads as a udev rules file)"
    assert "unexpected" not in res.output and "error" not in res.stdout.splitlines()[-1]
    data = __import__("json").loads(CliRunner().invoke(main, ["check", "--json", str(udev)]).stdout)
    assert [e["code"] for e in data["files"][0]["errors"]] == ["not-a-ruleset"]
    res = CliRunner().invoke(main, ["fmt", str(udev)])
    assert res.exit_code == 1 and res.stderr.count("not a rulelang ruleset") == 1


@pytest.mark.parametrize(("command", "status"), [(["explain"], 1), (["diff", "allfives"], 2)])
def test_explain_and_diff_of_one_say_it_once_as_check_does(command, status):
    udev = next(p for p in FOREIGN if p.name == "99-udev.rules")
    res = CliRunner().invoke(main, [*command, str(udev)])
    assert res.exit_code == status
    assert res.stderr.splitlines()[0] == f"{udev}: not a rulelang ruleset (it reads as a udev rules file)"
    assert "unexpected" not in res.output


@pytest.mark.parametrize("hook_id", ["rulelang-check", "rulelang-fmt", "rulelang-fmt-check"])
def test_the_hooks_skip_them(hook_id, tmp_path):
    folder = _folder(tmp_path)
    hook = next(h for h in HOOKS if h["id"] == hook_id)
    argv = shlex.split(hook["entry"])
    files = sorted(str(p) for p in folder.iterdir())
    res = subprocess.run([sys.executable, "-m", "rulelang", *argv[1:], *files], cwd=ROOT, capture_output=True,
                         text=True)
    assert res.returncode == 0, res.stdout + res.stderr
    assert res.stderr.count("not a rulelang ruleset") == len(FOREIGN) and "unexpected" not in res.stdout


def test_the_language_server_says_it_once_as_information(monkeypatch):
    pytest.importorskip("pygls")
    from lsprotocol import types as lsp
    from pygls.workspace import TextDocument

    from rulelang.lsp import server
    from rulelang.lsp.server import diagnostics_of

    monkeypatch.setattr(server, "_open_texts", lambda ls: {})  # no client session: no other open files

    for path in FOREIGN:
        found = diagnostics_of(TextDocument(path.as_uri(), path.read_text(encoding="utf-8")))
        assert [(d.code, d.severity) for d in found] == [("not-a-ruleset", lsp.DiagnosticSeverity.Information)]
        assert found[0].message.startswith("not a rulelang ruleset")


def test_the_language_servers_views_leave_them_alone():
    pytest.importorskip("pygls")
    from types import SimpleNamespace

    from lsprotocol import types as lsp
    from pygls.workspace import TextDocument

    from rulelang.lsp import views as lsp_views

    for path in [*FOREIGN, CLUB]:
        document = TextDocument(path.as_uri(), path.read_text(encoding="utf-8"))
        workspace = SimpleNamespace(text_documents={path.as_uri(): document}, get_text_document=lambda uri, d=document: d)
        tokens = lsp_views.semantic_tokens(SimpleNamespace(workspace=workspace),
                                           lsp.SemanticTokensParams(lsp.TextDocumentIdentifier(path.as_uri())))
        assert (tokens is None) == (path != CLUB), path.name  # a ruleset is coloured, the others are not
