"""The README lists every bundled ruleset and shows one family variant exactly as bundled."""
from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import rulelang

README = (Path(__file__).parent.parent / "README.md").read_text(encoding="utf-8")
FAMILY = ["fives-and-threes", "all-threes", "muggins", "sniff", "allfives-pagat", "threes-and-fives"]


def test_the_bundled_variants_table_lists_every_bundled_ruleset():
    table = README.split("## Bundled variants", 1)[1].split("\n## ", 1)[0]
    listed = re.findall(r"^\| `([a-z0-9-]+)` \|", table, re.M)
    assert sorted(listed) == sorted(rulelang.bundled_names())
    assert set(FAMILY) <= set(listed)


def _statements(text: str) -> list[str]:
    """The lines of a ruleset without comments, blank lines and its source line (the README may shorten it)."""
    return [line for line in text.splitlines()
            if line.strip() and not line.lstrip().startswith("#") and not line.startswith("source ")]


def test_the_readme_shows_a_family_variant_as_bundled():
    blocks = re.findall(r"^```\n(ruleset .*?)^```", README, re.M | re.S)
    shown = {b.split()[1]: b for b in blocks}
    family = [name for name in FAMILY if name in shown]
    assert family, "the README shows none of the family variants of family.md section 2"
    for name in family:
        assert _statements(shown[name]) == _statements(rulelang.bundled_text(name)), name


def _club_example() -> str:
    blocks = re.findall(r"^```\n(# Our club.*?)^```", README, re.M | re.S)
    assert len(blocks) == 1, "the README shows the club's ruleset once"
    return blocks[0]


def test_the_readme_club_example_checks_and_its_error_is_what_check_prints(tmp_path):
    """The club's ruleset is valid, and the error shown for a typo in it is `rulelang check`'s own output."""
    club = tmp_path / "club.rules"
    club.write_text(_club_example(), encoding="utf-8")
    assert rulelang.check_text(club.read_text(encoding="utf-8"), str(club)) == []
    shown = re.search(r"^```\n\$ rulelang check club\.rules\n(.*?)^```", README, re.M | re.S)
    assert shown, "the README shows an error of `rulelang check club.rules`"
    club.write_text(_club_example().replace("at least", "at lest"), encoding="utf-8")
    res = subprocess.run([sys.executable, "-m", "rulelang", "check", "club.rules"], cwd=tmp_path,
                         capture_output=True, text=True, timeout=60, env={**os.environ, "NO_COLOR": "1"})
    assert res.returncode == 1
    assert (res.stdout + res.stderr).strip() == shown.group(1).strip()
