"""The one folder the playground may read and write: ruleset files saved by the user.

A path from a request is a name relative to the workspace; absolute paths,
`..`, hidden names and symbolic links that lead outside are refused before any
file is opened.
"""
from __future__ import annotations

import os
import stat
from pathlib import Path

from rulelang.base.outfiles import write_atomic
from rulelang.base.readinput import TooLargeError, read_text
from rulelang.playground.limits import MAX_PATH, MAX_TEXT, ApiError

SUFFIX = ".rules"
MAX_FILES = 500  # files listed at most
MAX_DEPTH = 3  # folders below the workspace that are listed
MAX_FOLDERS = 300  # folders visited at most
SKIPPED = {"node_modules", "__pycache__", "venv", "site-packages"}


def _regular(path: Path) -> bool:
    """Whether PATH is a regular file (following a symbolic link): the only kind the playground reads or writes."""
    try:
        return stat.S_ISREG(os.stat(path).st_mode)
    except OSError:
        return False


class Workspace:
    """A folder with ruleset files, and the checks that keep requests inside it."""

    def __init__(self, root: str | os.PathLike[str]) -> None:
        self.root = Path(root).resolve()

    def resolve(self, name: object) -> Path:
        """The file a request names, or ApiError 400 when the name could lead outside the workspace."""
        if not isinstance(name, str) or not name.strip():
            raise ApiError(400, "give a file name, e.g. club.rules")
        if len(name) > MAX_PATH or "\x00" in name:
            raise ApiError(400, f"the file name is too long or malformed (at most {MAX_PATH} characters)")
        parts = name.replace("\\", "/").split("/")
        if name.startswith(("/", "\\")) or os.path.isabs(name) or ":" in parts[0]:
            raise ApiError(400, "give a path inside the workspace, not an absolute path")
        if any(p in ("", ".", "..") or p.startswith(".") for p in parts):
            raise ApiError(400, "a workspace path has no `..`, `.`, empty or hidden parts")
        if not name.endswith(SUFFIX):
            raise ApiError(400, f"a ruleset file name ends in {SUFFIX}")
        path = (self.root / Path(*parts)).resolve()
        if not path.is_relative_to(self.root):
            raise ApiError(400, "that path leads outside the workspace (a symbolic link?)")
        return path

    def files(self) -> list[str]:
        """The ruleset files in the workspace (subfolders MAX_DEPTH deep, MAX_FOLDERS of them), as relative names.

        The bounds keep the listing quick when the workspace is a large folder (a home, a repository).
        """
        out = []
        folders = 0
        for dirpath, dirnames, filenames in os.walk(self.root):
            folders += 1
            depth = len(Path(dirpath).relative_to(self.root).parts)
            dirnames[:] = [] if depth >= MAX_DEPTH or folders >= MAX_FOLDERS else sorted(
                d for d in dirnames if not d.startswith(".") and d not in SKIPPED
                and Path(dirpath, d).resolve().is_relative_to(self.root))
            for f in sorted(filenames):
                p = Path(dirpath, f)
                if (f.endswith(SUFFIX) and not f.startswith(".") and p.resolve().is_relative_to(self.root)
                        and _regular(p)):
                    out.append(p.relative_to(self.root).as_posix())
                    if len(out) >= MAX_FILES:
                        return sorted(out)
        return sorted(out)

    def read(self, name: object) -> str:
        """The text of a workspace file (404 if absent, 413 if too large)."""
        path = self.resolve(name)
        if not path.exists():
            raise ApiError(404, f"no file {name} in the workspace")
        try:  # a regular file only, opened without blocking (a FIFO is refused, never waited on)
            text = read_text(path, MAX_TEXT * 4)
        except TooLargeError:
            raise ApiError(413, f"{name} is too large for the playground") from None
        except OSError as exc:
            raise ApiError(400, f"cannot read {name}: {getattr(exc, 'strerror', None) or exc}") from None
        if len(text) > MAX_TEXT:
            raise ApiError(413, f"{name} is too large for the playground")
        return text

    def write(self, name: object, text: str) -> str:
        """Save TEXT as a workspace file (its folder must exist); the relative name saved."""
        path = self.resolve(name)
        if not path.parent.is_dir():
            raise ApiError(400, "that folder does not exist in the workspace")
        if path.is_dir():
            raise ApiError(400, f"{name} is a folder")
        if path.exists() and not _regular(path):  # writing would wait on a FIFO's reader, or feed a device
            raise ApiError(400, f"{name} is not a regular file (a FIFO, device or socket)")
        try:
            write_atomic(str(path), text)
        except OSError as exc:
            raise ApiError(400, f"cannot write {name}: {exc.strerror or exc}") from None
        return path.relative_to(self.root).as_posix()

    def text_path(self, name: object) -> str:
        """Where an editor text is taken to live (for `based on "FILE"`), without reading it."""
        if name in (None, ""):
            return str(self.root / "untitled.rules")
        return str(self.resolve(name))
