"""Writing output files safely: checked before the work starts, replaced atomically.

Every command that writes a file (`compile -o`, `fmt`, `conform --report/--junit`,
`play --save`, `simulate --out/--plots`, `render -o`) uses these helpers, so that
a bad output path is reported before a long run, and a failing write never
truncates or half-writes an existing file. Only a regular file is replaced: a
device (`/dev/null`, `/dev/stdout`) or a FIFO is written to where it is, never
replaced by a regular file.
"""
from __future__ import annotations

import os
import stat
import tempfile

__all__ = ["output_problem", "same_file", "write_atomic"]


def same_file(a: str, b: str) -> bool:
    """Whether two paths name the same existing file (or the same path)."""
    try:
        return os.path.samefile(a, b)
    except OSError:
        return os.path.abspath(a) == os.path.abspath(b)


def output_problem(path: str) -> str | None:
    """Why `path` cannot be written as a file (a message), or None when it looks writable.

    Checked: the path is not empty, is not a folder, and its folder exists and is one.
    """
    if not path:
        return "an empty file name"
    if os.path.isdir(path):
        return f"{path} is a folder, not a file"
    if _special(path):
        # a device or a FIFO is written where it is: its own permission counts, not its folder's
        return None if os.access(path, os.W_OK) else f"cannot write to {path}"
    return _folder_problem(path)


def _folder_problem(path: str) -> str | None:
    """Why no file can be made in `path`'s folder, or None."""
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.exists(folder):
        return f"no such folder: {os.path.dirname(path) or folder}"
    if not os.path.isdir(folder):
        return f"{os.path.dirname(path) or folder} is not a folder"
    if not os.access(folder, os.W_OK | os.X_OK):
        return f"cannot write in the folder {os.path.dirname(path) or folder}"
    return None


def write_atomic(path: str, text: str, newline: str | None = "", follow: bool = True) -> None:
    """Write `text` to `path` so that a reader sees the old or the new content, never half of it.

    The text goes to a temporary file in the same folder, which then replaces
    `path` (keeping its permission bits). Raises OSError with a readable message
    (naming `path`, never the temporary file). With `follow=False` (a file the
    command makes, named by it), `path` itself is replaced whatever it is: a
    symbolic link, not its target; a FIFO or a device, never opened.
    """
    replaced_as_it_is = not follow and (os.path.islink(path) or _special(path))
    problem = _folder_problem(path) if replaced_as_it_is else output_problem(path)
    if problem is not None:
        raise OSError(problem)
    if follow:
        path = os.path.realpath(path)  # a symbolic link stays one: its target is replaced
        if _special(path):
            _write_in_place(path, text, newline)
            return
    folder = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(prefix=".rulelang-", suffix=".tmp", dir=folder)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline=newline) as fh:
            fh.write(text)
        try:
            mode = os.lstat(path).st_mode  # a regular file here (a link or FIFO: replaced, its mode not kept)
            os.chmod(tmp, mode & 0o7777 if stat.S_ISREG(mode) else 0o666 & ~_umask())
        except OSError:
            os.chmod(tmp, 0o666 & ~_umask())
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def _special(path: str) -> bool:
    """Whether `path` exists and is neither a regular file nor a folder (a device, a FIFO, a socket)."""
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return False
    return not (stat.S_ISREG(mode) or stat.S_ISDIR(mode))


def _write_in_place(path: str, text: str, newline: str | None) -> None:
    """Write to a device or a FIFO as `cmd > path` would: opened, never created, truncated or replaced."""
    fd = os.open(path, os.O_WRONLY | getattr(os, "O_NOCTTY", 0))
    try:
        if stat.S_ISREG(os.fstat(fd).st_mode):  # replaced by a regular file meanwhile: do not truncate it
            raise OSError(f"{path} changed into a regular file while being opened")
    except BaseException:
        os.close(fd)
        raise
    with os.fdopen(fd, "w", encoding="utf-8", newline=newline) as fh:
        fh.write(text)


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask
