"""The wheel PyPI would get: its tags, its Project-URLs, and a long description whose links all resolve there."""
from __future__ import annotations

import email
import os
import re
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A pure Python wheel built from this checkout (the compiled one differs only in its modules and tags)."""
    out = tmp_path_factory.mktemp("wheel")
    # (pip's build isolation: the build needs setuptools>=77, which a new virtual environment does not have)
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(out),
                    str(ROOT)], check=True, timeout=300, env={**os.environ, "RULELANG_PURE_PYTHON": "1"},
                   capture_output=True)
    (found,) = out.glob("rulelang-*.whl")
    return found


def _metadata(wheel: Path) -> tuple[email.message.Message, str]:
    with zipfile.ZipFile(wheel) as zf:
        (meta,) = [n for n in zf.namelist() if n.endswith(".dist-info/METADATA")]
        (tags,) = [n for n in zf.namelist() if n.endswith(".dist-info/WHEEL")]
        return email.message_from_bytes(zf.read(meta)), zf.read(tags).decode()


def test_the_pure_wheel_is_tagged_for_any_platform(wheel):
    _, tags = _metadata(wheel)
    assert wheel.name.endswith("-py3-none-any.whl")
    assert re.findall(r"^Tag: (.+)$", tags, re.M) == ["py3-none-any"]


def test_project_urls_and_a_long_description_with_absolute_links(wheel):
    meta, _ = _metadata(wheel)
    repo = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["urls"]["Repository"]
    urls = dict(u.split(", ", 1) for u in meta.get_all("Project-URL"))
    assert set(urls) >= {"Repository", "Documentation", "Changelog", "Issues"} and urls["Repository"] == repo
    assert meta["Description-Content-Type"] == "text/markdown"
    body = meta.get_payload()
    targets = re.findall(r"\]\(([^)\s]+)\)", body)
    assert len(targets) >= 20  # the README's links are there
    relative = [t for t in targets if not t.startswith(("https://", "http://", "mailto:", "#"))]
    assert relative == []
    assert f"({repo}/raw/main/docs/img/playground.png)" in body  # an image is served raw, not as a page
    assert f"({repo}/blob/main/docs/tools.md)" in body
