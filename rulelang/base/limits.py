"""Bounds on every input, checked before any work: a hostile text fails fast with a clear message.

A ruleset is a few kilobytes; these limits are far above any real one.
Files are read only when they are regular files (never a device, FIFO or
socket, which could block or never end) and never past the size limit.
"""
from __future__ import annotations

from rulelang.base.errors import RulesetError, RulesetFileError

__all__ = ["MAX_BYTES", "MAX_LINE", "MAX_NUMBER", "MAX_BASE_DEPTH", "MAX_ERRORS", "read_ruleset_file", "read_text_file",
           "text_error", "cap_errors"]

MAX_BYTES = 64_000  # characters of a ruleset text (a real one is 1 to 3 kB)
MAX_LINE = 500  # characters of one line
MAX_NUMBER = 100_000  # any number written in a ruleset
MAX_DIGITS = len(str(MAX_NUMBER))
MAX_BASE_DEPTH = 32  # rulesets in one chain of `based on`
MAX_ERRORS = 50  # errors reported per file


def read_ruleset_file(path: str) -> str:
    """The text of a ruleset file: a regular file, at most MAX_BYTES, UTF-8 (raises RulesetFileError)."""
    text = read_text_file(path)
    error = text_error(text, path)
    if error is not None:
        raise error
    return text


def read_text_file(path: str) -> str:
    """A regular file of at most MAX_BYTES characters of UTF-8 (raises RulesetFileError).

    Read through `rulelang.base.readinput` (regular files only, never blocking, bounded), with the
    language's own error codes and words.
    """
    from rulelang.base.readinput import FolderError, InputError, TooLargeError, read_bytes

    try:
        data = read_bytes(path, MAX_BYTES * 4)  # UTF-8: at most 4 bytes a character
    except FileNotFoundError:
        raise RulesetFileError("file-not-found", f"no such file: {path}", filename=path) from None
    except (FolderError, IsADirectoryError):
        raise RulesetFileError("cannot-read", f"{path} is a folder, not a ruleset file", filename=path) from None
    except TooLargeError:
        raise _too_large(path) from None
    except InputError:
        raise RulesetFileError("cannot-read", f"{path} is not a regular file (a device, pipe or socket)",
                               filename=path, hint="a ruleset is read from a regular file only") from None
    except OSError as exc:
        raise RulesetFileError("cannot-read", f"cannot read {path}: {exc.strerror or exc}", filename=path) from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise RulesetFileError("cannot-read", f"cannot read {path}: not UTF-8 text", filename=path) from None
    if len(text) > MAX_BYTES:
        raise _too_large(path)
    return text


def _too_large(filename: str) -> RulesetFileError:
    return RulesetFileError("text-too-large", f"the text is longer than {MAX_BYTES:,} characters, the limit "
                            "for a ruleset", filename=filename, hint="a ruleset is a few kilobytes")


def text_error(text: str, filename: str) -> RulesetFileError | None:
    """The first limit a text breaks (size, then line length), or None."""
    if len(text) > MAX_BYTES:
        return _too_large(filename)
    start = 0
    number = 1
    while True:
        end = text.find("\n", start)
        stop = len(text) if end < 0 else end
        if stop - start > MAX_LINE:
            return RulesetFileError("line-too-long", f"line {number} is longer than {MAX_LINE:,} characters, "
                                    "the limit for a ruleset line", filename=filename, line=number, column=1,
                                    hint="a statement fits on one short line")
        if end < 0:
            return None
        start, number = end + 1, number + 1


def cap_errors(errors: list[RulesetError], filename: str) -> list[RulesetError]:
    """At most MAX_ERRORS errors, then one that says how many more there are."""
    if len(errors) <= MAX_ERRORS:
        return errors
    more = len(errors) - MAX_ERRORS
    return errors[:MAX_ERRORS] + [RulesetFileError(
        "too-many-errors", f"and {more:,} more error{'s' if more > 1 else ''}", filename=filename,
        hint=f"only the first {MAX_ERRORS} errors of a file are shown")]
