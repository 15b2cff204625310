"""Writing rulesets: a configuration as ruleset text, and the canonical form (`fmt`).

Both go through `statement_lines`, the one place that knows how each statement
is spelt, so the text `fmt` writes is the text the emitter writes.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from rulelang.base.errors import RulesetError
from rulelang.language.ast import Ruleset, Statement, written_lines
from rulelang.language.statements import INFO, ORDER, TABLE
from rulelang.language.statements.record import Fields, read_record
from rulelang.language.statements.settlement import term_text

if TYPE_CHECKING:
    from rulelang.base.jsontypes import ConfigJSON

__all__ = ["config_to_text", "config_statements", "record_statements", "format_ruleset", "format_text",
           "statement_lines", "term_text", "canonical", "canonical_lines", "split_comment", "INDENT"]

INDENT = "  "


def statement_lines(key: str, value: object) -> list[str]:
    """The canonical line(s) of one statement (settlement lines without indentation)."""
    return INFO[key].fmt(value)


def config_statements(config: ConfigJSON) -> list[tuple[str, object]]:
    """Every statement (key, value) that states this configuration (its JSON), in canonical order."""
    return record_statements(read_record(config))


def record_statements(config: Fields) -> list[tuple[str, object]]:
    """Every statement (key, value) that states this configuration's record, in canonical order."""
    out = []
    for entry in TABLE:
        value = entry.from_config(config)
        if value is None and not entry.required:  # based on, and statements whose default is omitted
            continue
        if "default" in entry.meta and value == entry.meta["default"]:
            continue  # an optional statement at its default is not written
        out.append((entry.key, value))
    return out


_Item = tuple[str | None, int, list[tuple[str, list[str], str | None]]]


def _layout(items: list[_Item], headers: dict[str, tuple[list[str], str | None]] | None = None) -> str:
    """Lay out statements: blank lines between groups, sections indented.

    `items` is a list of (section, group, lines) where each line is (text, leading comments, trailing comment);
    `headers` gives the comments of each section header.
    """
    headers = headers or {}
    out: list[str] = []
    last_group: int | None = None
    open_section: str | None = None
    for section, group, lines in items:
        if section and section != open_section:
            if out:
                out.append("")
            lead, trail = headers.get(section, ([], None))
            out.extend(lead)
            out.append(f"on {section}:" + (f"  {trail}" if trail else ""))
            open_section = section
            last_group = group
        elif not section and group != last_group:
            if out:
                out.append("")
            last_group = group
        indent = INDENT if section else ""
        for text, leading, trailing in lines:
            out.extend(indent + c for c in leading)
            out.append(indent + text + (f"  {trailing}" if trailing else ""))
    return "\n".join(out) + "\n"


def config_to_text(config: ConfigJSON) -> str:
    """A ruleset text that compiles back to exactly this configuration."""
    items: list[_Item] = [(INFO[key].section, INFO[key].group, [(line, [], None) for line in statement_lines(key, value)])
                          for key, value in config_statements(config)]
    return _layout(items)


def statements_to_text(said: dict[str, list[str]]) -> str:
    """A ruleset text stating each statement `key` by its lines `said[key]`, laid out in canonical order."""
    return _layout([(INFO[k].section, INFO[k].group, [(line, [], None) for line in said[k]])
                    for k in sorted(said, key=lambda k: ORDER[k])])


# ---------------------------------------------------------------------------
# fmt: a parsed text -> canonical text, comments kept with their lines
# ---------------------------------------------------------------------------

def split_comment(line: str) -> tuple[str, str | None]:
    """(code, comment) of a line; a `#` inside a quoted text is not a comment."""
    quoted = False
    for i, ch in enumerate(line):
        if ch == '"':
            quoted = not quoted
        elif ch == "#" and not quoted:
            return line[:i], line[i:].rstrip()
    return line, None


class _Comments:
    """The comments of a text, by the line of rules they go with: leading (own lines before it), trailing (at its
    end), and the tail (after the last rule). Each is taken once, by the line of the canonical text it goes with."""

    def __init__(self, text: str) -> None:
        self.leading: dict[int, list[str]] = {}
        self.trailing: dict[int, str] = {}
        pending: list[str] = []
        for number, line in enumerate(text.split("\n"), start=1):
            code, comment = split_comment(line)
            if code.strip():
                if pending:
                    self.leading[number] = pending
                    pending = []
                if comment:
                    self.trailing[number] = comment
            elif comment:
                pending.append(comment)
        self.tail = pending

    def take(self, number: int) -> tuple[list[str], str | None]:
        return self.leading.pop(number, []), self.trailing.pop(number, None)

    def untaken(self) -> list[str]:
        """The comments of lines that are no longer in the text, in order."""
        left = [c for number in sorted(self.leading) for c in self.leading[number]]
        return left + [self.trailing[n] for n in sorted(self.trailing)]


def _headers(ruleset: Ruleset, comments: _Comments) -> dict[str, tuple[list[str], str | None]]:
    """A section header keeps its comments; a repeated header's go with the first."""
    headers: dict[str, tuple[list[str], str | None]] = {}
    for name, span in ruleset.sections:
        lead, trail = comments.take(span.line)
        if name in headers:
            old_lead, old_trail = headers[name]
            extra = lead + ([trail] if trail else [])
            headers[name] = (old_lead + extra, old_trail)
        else:
            headers[name] = (lead, trail)
    return headers


def _items(statements: list[Statement], comments: _Comments) -> list[_Item]:
    """Each statement's canonical lines, with the comments of the line (or term line) each comes from."""
    return [(st.section, INFO[st.key].group, [(text, *comments.take(number)) for text, number in _lines_of(st)])
            for st in statements]


def _lines_of(st: Statement) -> list[tuple[str, int]]:
    """A statement's canonical lines, each with the number of the source line it comes from."""
    texts = statement_lines(st.key, st.value)
    if INFO[st.key].meta.get("merge") and st.value:
        numbers = [t.span.line for t in st.value]
    else:
        numbers = [st.span.line] * len(texts)
    return list(zip(texts, numbers))


def _first_line(st: Statement) -> int:
    """The first source line of a statement (a merged settlement statement's first term)."""
    return min(number for _, number in _lines_of(st))


def _blank_lines(text: str) -> list[int]:
    """The numbers of the blank lines of a text."""
    return [n for n, line in enumerate(text.split("\n"), start=1) if not line.strip()]


def _in_order(ruleset: Ruleset, comments: _Comments, headers: dict[str, tuple[list[str], str | None]]) -> str:
    """The statements in the author's order, each line spelt as `fmt` spells it, with its comments.

    A blank line stays where the author left one or more between two lines of rules; a section starts and
    ends with one; nothing else moves."""
    blanks = _blank_lines(ruleset.text)
    out: list[str] = []
    open_section: str | None = None
    previous = 0  # the source line of the last line written
    for st in sorted(ruleset.statements, key=_first_line):
        for text, number in _lines_of(st):
            lead, trail = comments.take(number)
            blank = any(previous < b < number for b in blanks)
            if st.section and st.section != open_section:
                if out:
                    out.append("")
                head_lead, head_trail = headers.get(st.section, ([], None))
                out.extend(head_lead)
                out.append(f"on {st.section}:" + (f"  {head_trail}" if head_trail else ""))
                open_section, blank = st.section, False
            elif not st.section and open_section:
                open_section, blank = None, True
            if blank and out:
                out.append("")
            indent = INDENT if st.section else ""
            out.extend(indent + c for c in lead)
            out.append(indent + text + (f"  {trail}" if trail else ""))
            previous = max(previous, number)
    return "\n".join(out) + "\n" if out else "\n"


def format_ruleset(ruleset: Ruleset, sort: bool = False) -> str:
    """The formatted text of a parsed ruleset, keeping every comment.

    By default the statements keep the author's order (a text quoted line by line stays in its order): only
    spelling, spacing and blank lines change. With `sort`, the canonical order (`fmt --sort`). A comment on
    its own line goes with the next line of rules; a comment at the end of a line stays at the end of that
    line; comments after the last rule stay at the end.
    """
    comments = _Comments(ruleset.text)
    headers = _headers(ruleset, comments)
    if sort:
        text = _layout(_items(sorted(ruleset.statements, key=_order), comments), headers)
    else:
        text = _in_order(ruleset, comments, headers)
    # comments of a section that has no lines left go at the end
    present = {st.section for st in ruleset.statements if st.section}
    leftover = [c for name, (lead, trail) in headers.items() if name not in present
                for c in lead + ([trail] if trail else [])]
    leftover += comments.untaken()
    if leftover or comments.tail:
        body = "\n".join(leftover + comments.tail) + "\n"
        # a blank line separates them from the rules; a text of comments alone starts with them
        text = text + "\n" + body if text.strip() else body
    return text


def _order(st: Statement) -> float:
    """Canonical order; a misplaced settlement line (a domino `winner:`) goes first in its section."""
    if not st.misplaced:
        return ORDER[st.key]
    return min(ORDER[e.key] for e in TABLE if e.section == st.section) - 0.5


def format_text(text: str, filename: str = "<string>", sort: bool = False) -> str:
    """The formatted text of a ruleset (the author's order; with `sort`, the canonical order); raises
    RulesetError on a syntax error."""
    from rulelang.base.errors import raise_errors
    from rulelang.language.parser import parse

    ruleset, errors = parse(text, filename)
    raise_errors(errors)
    assert ruleset is not None
    raise_errors(duplicate_errors(ruleset))
    return format_ruleset(ruleset, sort)


def canonical(text: str, filename: str = "<string>", sort: bool = False) -> tuple[str | None, list[RulesetError]]:
    """(the formatted text, []) or (None, the errors that stop `fmt`), as `rulelang fmt` decides: the
    author's order of statements, or with `sort` the canonical order (`fmt --sort`).

    The canonical text is parsed again and must state the same rules; if it
    does not (a bug), the answer is (None, []).
    """
    from rulelang.language.parser import parse  # as in format_text: explaining a configuration loads no parser

    ruleset, errors = parse(text, filename)
    if ruleset is not None and not errors:
        errors = duplicate_errors(ruleset)
    if errors or ruleset is None:
        return None, list(errors)
    new = format_ruleset(ruleset, sort)
    again, _ = parse(new, filename)
    if again is None or _stated(again.statements) != _stated(ruleset.statements):  # pragma: no cover
        return None, []
    return new, []


def canonical_lines(ruleset: Ruleset | None) -> dict[int, str]:
    """1-based line -> its canonical text (indented in a section, its comment kept), for every line of RULESET
    (what parses of a text) that states a rule or opens a section: what `fmt` writes for it, in place (range
    formatting)."""
    lines = ruleset.text.split("\n") if ruleset is not None else []
    out: dict[int, str] = {}

    def put(number: int, text: str) -> None:
        if 0 < number <= len(lines):
            _code, comment = split_comment(lines[number - 1])
            out[number] = text + (f"  {comment}" if comment else "")

    for st in ruleset.statements if ruleset is not None else ():
        texts = statement_lines(st.key, st.value)
        numbers = written_lines(st)
        if len(numbers) != len(texts):  # one statement on one line, however many lines `fmt` would give it
            numbers, texts = [st.span.line], ["; ".join(texts)] if len(texts) > 1 else texts
            if len(texts) != 1:
                continue
        for number, text in zip(numbers, texts):
            put(number, (INDENT if st.section else "") + text)
    for name, span in (ruleset.sections if ruleset is not None else ()):
        put(span.line, f"on {name}:")
    return out


def _stated(statements: tuple[Statement, ...]) -> list[Statement]:
    """The statements in one order whatever order the text gives them: what two texts compare on."""
    return sorted(statements, key=lambda s: (ORDER.get(s.key, 99), repr(s.value)))


def duplicate_errors(ruleset: Ruleset) -> list[RulesetError]:
    """Statements or sections given twice: `fmt` cannot know which to keep, so it refuses."""
    from rulelang.language.compiler import _Checker, check_statements

    ck = _Checker(ruleset)
    check_statements(ck)
    return [e for e in ck.errors if e.code == "duplicate-statement"]
