"""The VS Code extension (editors/vscode/): what `vsce` checks, and which `.rules` files it claims.

udev, polkit and Snort keep rules in `.rules` files too, so the extension claims a file
only when its first statement is `ruleset`: by VS Code's `firstLine` for a file that
starts with it (VS Code tries `firstLine` only when no language claims the file's name),
and by detect.js for one that starts with comments. The JavaScript runs under node with
stand-ins for VS Code's API (tests/data/vscode/harness.js); skipped without node.
"""
from __future__ import annotations

import json
import re
import shutil
import subprocess
import tomllib
from pathlib import Path

import pytest

from rulelang.language.bundled import bundled_names, bundled_text

ROOT = Path(__file__).resolve().parent.parent
EXT = ROOT / "editors" / "vscode"
DATA = Path(__file__).parent / "data" / "vscode"
MANIFEST = json.loads((EXT / "package.json").read_text(encoding="utf-8"))
OTHERS = sorted(DATA.glob("*.rules"))  # udev, polkit and Snort files
NODE = shutil.which("node")
needs_node = pytest.mark.skipif(NODE is None, reason="needs node")


def _language() -> dict:
    (language,) = [lang for lang in MANIFEST["contributes"]["languages"] if lang["id"] == "rulelang"]
    return language


def test_the_language_claims_no_file_by_its_name():
    language = _language()
    assert ".rules" not in language.get("extensions", []) and not language.get("filenamePatterns")


def test_the_first_line_pattern_matches_a_ruleset_header_and_no_other_first_line():
    first_line = re.compile(_language()["firstLine"])  # the pattern means the same in Python and JavaScript
    assert first_line.search('ruleset club "Our club"') and first_line.search('  ruleset club "Our club"')
    for other in ["# All Fives as played by our club", "rulesets are fun", *(p.read_text().splitlines()[0] for p in OTHERS),
                  'SUBSYSTEM=="tty", SYMLINK+="ftdi"', "alert tcp any any -> any 22 (sid:1;)"]:
        assert not first_line.search(other), other


def test_what_vsce_warns_about_is_there():
    # a repository only with the project's real address (pyproject.toml's [project.urls]), never a placeholder;
    # without one, the documented package command tells vsce so instead of a warning
    urls = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"].get("urls", {})
    if "repository" in MANIFEST:
        assert MANIFEST["repository"]["url"].removesuffix(".git") in {u.removesuffix(".git") for u in urls.values()}
        assert MANIFEST["repository"]["directory"] == "editors/vscode"
    else:
        assert "vsce package --allow-missing-repository" in (EXT / "README.md").read_text(encoding="utf-8")
    assert "OWNER" not in (EXT / "package.json").read_text(encoding="utf-8")
    assert MANIFEST["license"] == "MIT" and (EXT / "LICENSE").read_text() == (ROOT / "LICENSE").read_text()
    ignored = (EXT / ".vscodeignore").read_text(encoding="utf-8").split()
    assert "**" in ignored and "!dist/extension.js" in ignored  # only the bundle and the contributions ship
    # the bundle (vsce warns about an extension of many unbundled files) is built by `vsce package`
    assert MANIFEST["scripts"]["vscode:prepublish"] == "npm run build"
    assert MANIFEST["main"] == "./dist/extension.js" and "--outfile=dist/extension.js" in MANIFEST["scripts"]["build"]


def test_the_lockfile_matches_the_manifest():
    lock = json.loads((EXT / "package-lock.json").read_text(encoding="utf-8"))
    root = lock["packages"][""]
    assert lock["name"] == MANIFEST["name"] and lock["version"] == MANIFEST["version"]
    assert root["dependencies"] == MANIFEST["dependencies"]
    assert root["devDependencies"] == MANIFEST["devDependencies"]
    for name in [*MANIFEST["dependencies"], *MANIFEST["devDependencies"]]:
        assert f"node_modules/{name}" in lock["packages"], name


def _run_extension(tmp_path: Path, files: list[Path]) -> dict:
    assert NODE is not None
    res = subprocess.run([NODE, str(DATA / "harness.js"), str(EXT / "extension.js"), *map(str, files)],
                         cwd=tmp_path, capture_output=True, text=True, timeout=60)
    assert res.returncode == 0, res.stderr
    return json.loads(res.stdout)


@needs_node
def test_the_extension_claims_every_bundled_ruleset_and_no_other_rules_file(tmp_path: Path):
    rulesets = []
    for name in bundled_names():
        path = tmp_path / f"{name}.rules"
        path.write_text(bundled_text(name), encoding="utf-8")  # they start with comments
        rulesets.append(path)
    header_first = tmp_path / "header-first.rules"
    header_first.write_text('ruleset club "Club"\nbased on allfives\n', encoding="utf-8")
    notes = tmp_path / "notes.txt"
    notes.write_text('ruleset club "Club"\n', encoding="utf-8")  # not a .rules file: VS Code names its language
    got = _run_extension(tmp_path, [*rulesets, header_first, notes, *OTHERS])
    assert sorted(got["claimed"]) == sorted(p.name for p in [*rulesets, header_first])
    assert got["servers"] == 1  # one language server, started once a ruleset is open


@needs_node
def test_without_a_ruleset_open_no_server_starts(tmp_path: Path):
    assert _run_extension(tmp_path, OTHERS) == {"claimed": [], "servers": 0}


@needs_node
def test_an_empty_or_comment_only_file_is_not_claimed(tmp_path: Path):
    empty = tmp_path / "empty.rules"
    empty.write_text("", encoding="utf-8")
    comments = tmp_path / "comments.rules"
    comments.write_text("# only a comment\n\n#ruleset x\n", encoding="utf-8")
    assert _run_extension(tmp_path, [empty, comments])["claimed"] == []
