"""Files for the ecosystem: highlighting (Pygments, TextMate, VS Code), pre-commit hooks, shipped reference docs."""
from __future__ import annotations

import json
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
from pygments.token import Error, Keyword

from rulelang.highlight.generate import TEXTMATE_FILES
from rulelang.highlight.lexer import RulesetLexer
from rulelang.language.bundled import bundled_names, bundled_text
from rulelang.language.grammar import keywords

yaml = pytest.importorskip("yaml")  # in the test extra (pyyaml)

ROOT = Path(__file__).resolve().parents[1]
BROKEN = Path(__file__).parent / "data" / "lsp" / "broken.rules"
GRAMMAR_KEYWORDS = keywords()


def test_the_grammar_has_keywords():
    assert len(GRAMMAR_KEYWORDS) > 50 and "players" in GRAMMAR_KEYWORDS


def test_every_keyword_is_one_keyword_token_of_the_pygments_lexer():
    wrong = [word for word in GRAMMAR_KEYWORDS
             if [t for t in RulesetLexer().get_tokens(word) if t[1].strip()] != [(Keyword, word)]]
    assert wrong == [], f"not one Keyword token for Pygments: {wrong}"


def test_every_keyword_matches_the_textmate_keyword_rule():
    grammar = json.loads(TEXTMATE_FILES[0].read_text(encoding="utf-8"))
    keyword_rule = next(p for p in grammar["patterns"] if p["name"].startswith("keyword"))
    wrong = [word for word in GRAMMAR_KEYWORDS if not re.fullmatch(keyword_rule["match"], word)]
    assert wrong == [], f"not matched by the TextMate keyword rule: {wrong}"


@pytest.mark.parametrize("name", bundled_names())
def test_bundled_rulesets_tokenize_without_errors(name):
    tokens = list(RulesetLexer().get_tokens(bundled_text(name)))
    assert [v for t, v in tokens if t is Error] == []
    assert "".join(v for _t, v in tokens) == bundled_text(name)


def test_a_stray_character_is_an_error_token():
    assert (Error, "@") in list(RulesetLexer().get_tokens("hand 5 tiles @\n"))


def test_the_lexer_is_registered_for_pygments():
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert 'rulelang = "rulelang.highlight.lexer:RulesetLexer"' in pyproject
    out = subprocess.run([sys.executable, "-m", "pygments", "-l", "rulelang/highlight/lexer.py:RulesetLexer", "-x",
                          "-f", "raw", "rulesets/exact61.rules"], cwd=ROOT, capture_output=True, text=True, check=True)
    assert "Token.Keyword\t'players'" in out.stdout and "Token.Error" not in out.stdout


def test_vscode_extension_wires_the_grammar_and_the_server():
    manifest = json.loads((ROOT / "editors" / "vscode" / "package.json").read_text(encoding="utf-8"))
    grammar = manifest["contributes"]["grammars"][0]
    assert (ROOT / "editors" / "vscode" / grammar["path"]).is_file()
    assert "extensions" not in manifest["contributes"]["languages"][0]  # claimed by content: tests/test_vscode_extension.py
    assert manifest["contributes"]["configuration"]["properties"]["rulelang.server.command"]["default"] == \
        ["rulelang", "lsp"]
    build = manifest["scripts"]["build"].split()  # `vsce package` bundles the extension into its main file
    assert (ROOT / "editors" / "vscode" / build[1]).is_file() and f"--outfile={manifest['main'][2:]}" in build


# -- pre-commit -----------------------------------------------------------------------

HOOKS = yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))


def test_pre_commit_manifest_shape():
    assert isinstance(HOOKS, list)
    ids = [h["id"] for h in HOOKS]
    assert {"rulelang-check", "rulelang-fmt"} <= set(ids) and len(ids) == len(set(ids))
    for hook in HOOKS:
        assert {"id", "name", "entry", "language"} <= set(hook)  # pre-commit's required keys
        assert hook["language"] == "python" and hook["entry"].startswith("rulelang ")
        assert re.search(hook["files"], "club/house.rules") and not re.search(hook["files"], "house.rules.bak")


def _run_hook(hook_id: str, files: list[str]) -> subprocess.CompletedProcess:
    """Run a hook as pre-commit does: its entry, then the file names."""
    hook = next(h for h in HOOKS if h["id"] == hook_id)
    argv = shlex.split(hook["entry"])
    assert argv[0] == "rulelang"
    return subprocess.run([sys.executable, "-m", "rulelang", *argv[1:], *hook.get("args", []), *files],
                          cwd=ROOT, capture_output=True, text=True)


@pytest.mark.parametrize("hook_id", ["rulelang-check", "rulelang-fmt-check"])
def test_hooks_pass_on_the_bundled_rulesets_and_fail_on_a_broken_one(hook_id):
    files = sorted(str(p.relative_to(ROOT)) for p in (ROOT / "rulesets").glob("*.rules"))
    assert files
    assert _run_hook(hook_id, files).returncode == 0
    assert _run_hook(hook_id, [str(BROKEN.relative_to(ROOT))]).returncode == 1


def test_fmt_hook_rewrites_in_place(tmp_path):
    path = tmp_path / "club.rules"
    path.write_text((Path(__file__).parent / "data" / "lsp" / "unformatted.rules").read_text(encoding="utf-8"))
    before = path.read_text()
    assert _run_hook("rulelang-fmt", [str(path)]).returncode == 0
    assert path.read_text() != before  # pre-commit fails the commit because the file changed
    assert _run_hook("rulelang-fmt", [str(path)]).returncode == 0
    assert _run_hook("rulelang-fmt-check", [str(path)]).returncode == 0


# -- the reference documents shipped in the package ---------------------------------------

def test_the_shipped_reference_is_docs_itself():
    """Stored once: the package's `docs` is a link to docs/, which the wheel ships (tests/test_release_files.py)."""
    link = ROOT / "rulelang" / "docs"
    assert link.is_symlink() and link.resolve() == (ROOT / "docs").resolve()


@pytest.mark.parametrize("schema", ["rulelang/schema/config.schema.json", "conformance/schema/case.schema.json",
                                    "conformance/schema/expected-failures.schema.json"])
def test_schema_ids_are_stable_versioned_names(schema):
    # no placeholder domain: a URN that names the document and its major version, so a validator cache
    # or a $ref from a user's schema stays valid for as long as the format is compatible
    doc = json.loads((ROOT / schema).read_text(encoding="utf-8"))
    assert re.fullmatch(r"urn:rulelang:schema:[a-z-]+:\d+", doc["$id"]), doc["$id"]
