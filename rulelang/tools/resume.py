"""--resume: read back the results file of an interrupted run, and refuse a file of anything else.

`balance` and `simulate` write each finished match to their -o file as a JSON
line and, with --resume, go on with it: the file is then rewritten with the
matches it keeps. So a file that is not that command's results, or that holds
another study, is refused before anything is written (a ToolError: one
message, exit 1, the file left as it was), never taken for an empty run.
"""
from __future__ import annotations

from rulelang.base.readinput import InputError, parse_json, read_text
from rulelang.tools.configs import ToolError

LIMIT = 1 << 30  # a results file read back at most this large


def json_lines(path: str, what: str) -> list[object]:
    """The JSON value of every line of PATH ([] when there is no such file).

    Only a last line cut short by the interruption is dropped: it starts as a
    match does (`{`) and has no line end. Any other line that is not JSON means
    PATH is not WHAT ("a balance results file")."""
    try:
        text = read_text(path, LIMIT)
    except FileNotFoundError:
        return []
    except InputError as exc:  # not UTF-8, too large, a FIFO...
        raise ToolError(f"--resume: {path} is not {what} ({exc.message})") from None
    except OSError as exc:
        raise ToolError(f"--resume: cannot read {path}: {exc.strerror or exc}") from None
    lines = text.split("\n")
    last = lines.pop()  # "" when the file ends with a line end, as a finished write does
    values: list[object] = []
    for line in lines:
        try:
            values.append(parse_json(line))
        except ValueError:
            raise not_resumable(path, what) from None
    if last and not last.startswith("{"):
        raise not_resumable(path, what)
    return values


def not_resumable(path: str, what: str) -> ToolError:
    return ToolError(f"--resume: {path} is not {what}; it is left as it is")


def another_study(path: str, differ: str) -> ToolError:
    return ToolError(f"--resume: {path} holds another study ({differ} differ); it is left as it is")
