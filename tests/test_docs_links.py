"""The front-door documents stay short and their links lead somewhere.

Every relative link in the README, the CHANGELOG, bench/README.md and docs/*.md
names a file of the repository, and a `#fragment` into a Markdown file names
one of its headings (as GitHub makes anchors from headings).
"""
from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCUMENTS = [ROOT / "README.md", ROOT / "CHANGELOG.md", ROOT / "bench" / "README.md",
             *sorted((ROOT / "docs").glob("*.md"))]
README_MAX_LINES = 300

FENCE = re.compile(r"^\s*```.*?^\s*```", re.M | re.S)
INLINE_CODE = re.compile(r"`[^`\n]*`")
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")
HEADING = re.compile(r"^#{1,6}\s+(.*?)\s*#*\s*$", re.M)


def _prose(text: str) -> str:
    """The text without code blocks and code spans, where brackets are not links."""
    return INLINE_CODE.sub("", FENCE.sub("", text))


def _links(path: Path) -> list[str]:
    return LINK.findall(_prose(path.read_text(encoding="utf-8")))


def _anchors(path: Path) -> set[str]:
    """The anchors GitHub gives the headings of a Markdown file (lower case, punctuation dropped,
    spaces as hyphens, a repeated heading numbered)."""
    seen: dict[str, int] = {}
    anchors = set()
    for title in HEADING.findall(FENCE.sub("", path.read_text(encoding="utf-8"))):
        title = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", title)
        slug = re.sub(r"[^\w\- ]", "", title.lower()).replace(" ", "-")
        count = seen.get(slug, 0)
        seen[slug] = count + 1
        anchors.add(slug if count == 0 else f"{slug}-{count}")
    return anchors


def _relative(link: str) -> bool:
    return not re.match(r"^[a-z][a-z0-9+.-]*:", link, re.I)


@pytest.mark.parametrize("doc", DOCUMENTS, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_relative_link_names_an_existing_file_and_heading(doc: Path) -> None:
    broken = []
    for link in filter(_relative, _links(doc)):
        target, _, fragment = link.partition("#")
        path = (doc.parent / target).resolve() if target else doc
        if not path.exists():
            broken.append(f"{link}: no such file")
        elif fragment and path.suffix == ".md" and fragment not in _anchors(path):
            broken.append(f"{link}: no heading #{fragment} in {path.relative_to(ROOT)}")
    assert not broken, f"{doc.relative_to(ROOT)}: " + "; ".join(broken)


def test_the_links_are_found() -> None:
    """The link pattern reads the README's links (an empty list would pass the test above)."""
    links = _links(ROOT / "README.md")
    assert "docs/language.md" in links and "bench/README.md" in links
    assert "docs/img/playground.png" in links


def test_the_readme_is_a_front_door_not_a_notebook() -> None:
    lines = (ROOT / "README.md").read_text(encoding="utf-8").count("\n")
    assert lines <= README_MAX_LINES, (
        f"README.md has {lines} lines (at most {README_MAX_LINES}): move details to docs/ "
        "and measured figures to bench/README.md")


def test_the_readme_points_to_every_reference_document() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for doc in [*sorted((ROOT / "docs").glob("*.md")), ROOT / "conformance" / "PROTOCOL.md",
                ROOT / "bench" / "README.md"]:
        assert f"]({doc.relative_to(ROOT).as_posix()})" in readme, doc.relative_to(ROOT)
