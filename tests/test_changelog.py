"""The CHANGELOG is a user's record of releases, and the version the package reports is its newest."""
from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import rulelang

ROOT = Path(__file__).resolve().parent.parent
CHANGELOG = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
RELEASE = re.compile(r"^## (\d+\.\d+\.\d+) - (\d{4}-\d{2}-\d{2})$", re.M)
KINDS = {"Added", "Changed", "Deprecated", "Removed", "Fixed", "Security"}


def _sections() -> list[str]:
    return re.findall(r"^## (.*)$", CHANGELOG, re.M)


def test_unreleased_work_goes_on_top_then_the_releases_newest_first() -> None:
    sections = _sections()
    assert sections[0] == "Unreleased"
    versions = [tuple(map(int, v.split("."))) for v, _ in RELEASE.findall(CHANGELOG)]
    assert len(versions) == len(sections) - 1, "a release heading is `## X.Y.Z - YYYY-MM-DD`"
    assert versions == sorted(versions, reverse=True)


def test_the_package_reports_the_newest_release() -> None:
    newest = RELEASE.search(CHANGELOG)
    assert newest is not None
    assert rulelang.__version__ == newest.group(1)
    res = subprocess.run([sys.executable, "-m", "rulelang", "--version"], capture_output=True, text=True,
                         timeout=60, cwd=ROOT)
    assert res.returncode == 0, res.stderr
    assert f"version {newest.group(1)} " in res.stdout


def test_entries_are_grouped_by_kind_of_change() -> None:
    kinds = set(re.findall(r"^### (.*)$", CHANGELOG, re.M))
    assert kinds <= KINDS, kinds - KINDS


def test_entries_say_what_changed_not_which_work_item() -> None:
    tags = re.findall(r"\b(?:issues?|tier|item) \d+\b|\btier [ABC]\b|#\d+\b", CHANGELOG, re.I)
    assert not tags, tags
