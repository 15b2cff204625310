"""Writing rulesets: a configuration as ruleset text, and the canonical form (`fmt`).

Both go through `statement_lines`, the one place that knows how each statement
is spelt, so the text `fmt` writes is the text the emitter writes.
"""
from __future__ import annotations

from typing import Any

from rulelang.ast import INFO, ORDER, STATEMENTS, PerCount, Ruleset, Statement, Term
from rulelang.compiler import OPENER_WORDS

__all__ = ["config_to_text", "config_statements", "format_ruleset", "format_text", "statement_lines"]

INDENT = "  "
HAND_SETS = {"opponents": "opponents' hands", "partner": "partner's hand", "own": "own hand",
             "everyone": "everyone's hands"}


# ---------------------------------------------------------------------------
# One statement -> its line(s)
# ---------------------------------------------------------------------------

def _counts_text(value: tuple) -> str:
    kind, *nums = value
    if kind == "range":
        return f"{nums[0]} to {nums[1]}"
    return " or ".join(str(n) for n in nums)


def _counts_of(value: tuple) -> list[int]:
    kind, *nums = value
    return list(range(nums[0], nums[1] + 1)) if kind == "range" else list(nums)


def _per_count_text(v: PerCount) -> str:
    if v.uniform is not None:
        return f"{v.uniform} tiles"
    pairs = sorted(v.by_count)
    n, size = pairs[0]
    parts = [f"{size} tiles with {n} players"] + [f"{s} with {m}" for m, s in pairs[1:]]
    return ", ".join(parts)


def _rounding_text(term: Term) -> str:
    return f"rounded to {term.rounding_number}" if term.rounding == "round5" else "not rounded"


def term_text(term: Term) -> str:
    """A settlement term as its line."""
    if term.kind == "differences":
        return f"credit each hand the differences to heavier opponents' hands, {_rounding_text(term)}"
    pooling = "pooled" if term.pooling == "pooled" else "separately"
    receiver = "the winner" if term.to == "winner" else "each owner"
    prep = "to" if term.sign == "credit" else "from"
    return f"{term.sign} {HAND_SETS[term.hands or 'opponents']} {pooling}, {_rounding_text(term)}, {prep} {receiver}"


def _events_text(value: tuple[str, bool]) -> str:
    grouping, last = value
    text = {"one": "as one event", "per-term": "one event per term", "per-hand": "one event per hand"}[grouping]
    return text + (" with the last placement" if last else "")


def statement_lines(key: str, v: Any) -> list[str]:
    """The canonical line(s) of one statement (settlement lines without indentation)."""
    if key == "ruleset":
        return [f'ruleset {v[0]} "{v[1]}"']
    if key == "source":
        return [f'source "{v}"']
    if key == "based_on":
        return [f'based on "{v[1]}"' if v[0] == "path" else f"based on {v[1]}"]
    if key == "players":
        counts, partner = v
        text = "players " + _counts_text(counts)
        if partner is None and 4 in _counts_of(counts):
            partner = ("none",)  # said aloud, so the reader sees it
        if partner:
            text += f", partnerships with {partner[1]}" if partner[0] == "with" else ", no partnerships"
        return [text]
    if key == "hand":
        return ["hand " + _per_count_text(v)]
    if key == "reserve":
        return ["no reserve" if v.uniform == 0 else "reserve " + _per_count_text(v)]
    if key == "drawing":
        return ["draw until playable" if v == "until-playable" else "no drawing"]
    if key == "opener_first":
        return [f"opener of the first round: {OPENER_WORDS[v]}"]
    if key == "opener_domino":
        return [f"opener after a domino: {OPENER_WORDS[v]}"]
    if key == "opener_block":
        return [f"opener after a block: {OPENER_WORDS[v]}"]
    if key == "lead":
        return ["opener leads the deciding tile" if v == "forced" else "opener leads any tile"]
    if key == "branching":
        return [{"every": "every double branches", "first": "only the first double branches",
                 "none": "no double branches"}[v]]
    if key == "branch_sides":
        return ["branches open at once" if v == "at-once" else "branches open after the line"]
    if key == "terminal_count":
        return ["a terminal double counts " + ("both halves" if v == "both-halves" else "one half")]
    if key == "scoring":
        return [f"placements score multiples of {v[1]}" if v[0] else "placements score nothing"]
    if key == "unit":
        return ["points are shown raw" if v == (1, 1) else f"{v[0]} raw points make {v[1]} shown point"]
    if key == "target":
        mode, amount, measure = v
        words = {"points": "points", "shown": "shown points", "raw": "raw points"}[measure]
        return [f"target {'exactly' if mode == 'exact' else 'at least'} {amount} {words}"]
    if key == "check":
        return ["check the target after " + ("every event" if v == "every-event" else "settlement")]
    if key == "overshoot":
        return [{"discard": "overshoot discards the event", "bounce": "overshoot bounces back",
                 "none": "no overshoot rule"}[v]]
    if key == "ties":
        return ["ties at the top: " + {"extra-rounds": "play extra rounds", "draw": "draw",
                                       "impossible": "impossible"}[v]]
    if key == "floor":
        return ["no score floor" if v is None else f"scores never fall below {v}"]
    if key in ("domino_terms", "block_terms"):
        return [term_text(t) for t in v] if v else ["nobody scores"]
    if key in ("domino_events", "block_events"):
        return [_events_text(v)]
    if key in ("block_winner", "domino_winner"):
        winner, tie_break = v
        if winner == "none":
            return ["winner: none"]
        return ["winner: the lightest hand, ties " + ("broken by fewest tiles" if tie_break == "fewest-tiles"
                                                      else "not broken")]
    raise KeyError(key)  # pragma: no cover


# ---------------------------------------------------------------------------
# A configuration -> statements -> text
# ---------------------------------------------------------------------------

def _per_count_value(d: dict[str, int]) -> PerCount:
    values = set(d.values())
    if len(values) == 1:
        return PerCount(uniform=values.pop())
    return PerCount(by_count=tuple(sorted((int(k), v) for k, v in d.items())))


def _counts_value(counts: list[int]) -> tuple:
    counts = sorted(counts)
    if len(counts) > 1 and counts == list(range(counts[0], counts[-1] + 1)):
        return ("range", counts[0], counts[-1])
    return ("list",) + tuple(counts)


def config_statements(config: dict[str, Any]) -> list[tuple[str, Any]]:
    """Every statement (key, value) that states this configuration, in canonical order."""
    c = config
    unit = c["scoring"]["unit"]
    raw = c["target"]["raw"]
    if unit == 5 and raw % 5 == 0:
        target = (c["target"]["mode"], raw // 5, "shown")
    elif unit == 1:
        target = (c["target"]["mode"], raw, "points")
    else:
        target = (c["target"]["mode"], raw, "raw")
    partner: tuple | None
    if c["players"]["partnerships"]:
        partner = ("with", 4)
    else:
        partner = ("none",) if 4 in c["players"]["counts"] else None
    dom, blk = c["settlement"]["domino"], c["settlement"]["block"]
    out: list[tuple[str, Any]] = [
        ("ruleset", (c["name"], c["title"])),
        ("source", c["source"]),
    ]
    if c.get("based_on"):
        based = c["based_on"]
        out.append(("based_on", ("name", based) if "/" not in based and not based.endswith(".rules")
                    else ("path", based)))
    out += [
        ("players", (_counts_value(c["players"]["counts"]), partner)),
        ("hand", _per_count_value(c["hand_size"])),
        ("reserve", _per_count_value(c["reserve"])),
        ("drawing", c["drawing"]),
        ("opener_first", c["opener"]["first_round"]),
        ("opener_domino", c["opener"]["after_domino"]),
        ("opener_block", c["opener"]["after_block"]),
        ("lead", c["opener"]["lead"]),
        ("branching", c["doubles"]["branching"]),
        ("branch_sides", c["doubles"]["branch_sides"]),
        ("terminal_count", c["doubles"]["terminal_count"]),
        ("scoring", (c["scoring"]["in_play"], c["scoring"]["multiple"] if c["scoring"]["in_play"] else None)),
        ("unit", (5, 1) if unit == 5 else (1, 1)),
        ("target", target),
        ("check", c["target"]["check"]),
        ("overshoot", c["target"]["overshoot"]),
        ("ties", c["target"]["ties"]),
        ("floor", c["score_floor"]),
        ("domino_terms", tuple(Term.from_dict(t) for t in dom["terms"])),
        ("domino_events", (dom["events"], dom["with_last_placement"])),
        ("block_winner", (blk["winner"], blk["tie_break"])),
        ("block_terms", tuple(Term.from_dict(t) for t in blk["terms"])),
        ("block_events", (blk["events"], False)),
    ]
    return out


def _layout(items: list[tuple[str, list[tuple[str, list[str], str | None]]]],
            headers: dict[str, tuple[list[str], str | None]] | None = None) -> str:
    """Lay out statements: blank lines between groups, sections indented.

    `items` is a list of (key, lines) where each line is (text, leading comments, trailing comment);
    `headers` gives the comments of each section header.
    """
    headers = headers or {}
    out: list[str] = []
    last_group: int | None = None
    open_section: str | None = None
    for key, lines in items:
        info = INFO.get(key)
        section = info.section if info else key.split("_")[0]
        group = info.group if info else ORDER.get(f"{section}_terms", 99)
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


def config_to_text(config: dict[str, Any]) -> str:
    """A ruleset text that compiles back to exactly this configuration."""
    items: list[tuple[str, list[tuple[str, list[str], str | None]]]] = [
        (key, [(line, [], None) for line in statement_lines(key, value)])
        for key, value in config_statements(config)]
    return _layout(items)


# ---------------------------------------------------------------------------
# fmt: a parsed text -> canonical text, comments kept with their lines
# ---------------------------------------------------------------------------

def _split_comment(line: str) -> tuple[str, str | None]:
    """(code, comment) of a line; a `#` inside a quoted text is not a comment."""
    quoted = False
    for i, ch in enumerate(line):
        if ch == '"':
            quoted = not quoted
        elif ch == "#" and not quoted:
            return line[:i], line[i:].rstrip()
    return line, None


def format_ruleset(ruleset: Ruleset) -> str:
    """The canonical text of a parsed ruleset, keeping every comment.

    A comment on its own line goes with the next line of rules; a comment at
    the end of a line stays at the end of that line; comments after the last
    rule stay at the end.
    """
    lines = ruleset.text.split("\n")
    leading: dict[int, list[str]] = {}
    trailing: dict[int, str] = {}
    pending: list[str] = []
    for number, line in enumerate(lines, start=1):
        code, comment = _split_comment(line)
        if code.strip():
            if pending:
                leading[number] = pending
                pending = []
            if comment:
                trailing[number] = comment
        elif comment:
            pending.append(comment)
    tail = pending

    def lines_of(number: int) -> tuple[list[str], str | None]:
        return leading.pop(number, []), trailing.pop(number, None)

    # a section header keeps its comments; a repeated header's go with the first
    headers: dict[str, tuple[list[str], str | None]] = {}
    for name, span in ruleset.sections:
        lead, trail = lines_of(span.line)
        if name in headers:
            old_lead, old_trail = headers[name]
            extra = lead + ([trail] if trail else [])
            headers[name] = (old_lead + extra, old_trail)
        else:
            headers[name] = (lead, trail)

    statements = sorted(ruleset.statements, key=lambda s: (ORDER.get(s.key, _misplaced_order(s)),))
    items: list[tuple[str, list[tuple[str, list[str], str | None]]]] = []
    for st in statements:
        texts = statement_lines(st.key, st.value)
        if st.key.endswith("_terms") and st.value:
            numbers = [t.span.line for t in st.value]
        else:
            numbers = [st.span.line] * len(texts)
        out_lines = []
        for text, number in zip(texts, numbers):
            lead, trail = lines_of(number)
            out_lines.append((text, lead, trail))
        items.append((st.key, out_lines))
    present = {st.section for st in statements if st.section}
    text = _layout(items, headers)
    # comments of a section that has no lines left go at the end
    leftover = [c for name, (lead, trail) in headers.items() if name not in present
                for c in lead + ([trail] if trail else [])]
    for number in sorted(leading):
        leftover.extend(leading[number])
    leftover.extend(trailing[n] for n in sorted(trailing))
    if leftover or tail:
        body = "\n".join(leftover + tail) + "\n"
        # a blank line separates them from the rules; a text of comments alone starts with them
        text = text + "\n" + body if text.strip() else body
    return text


def _misplaced_order(st: Statement) -> float:
    """Where a misplaced settlement line (a domino `winner:`) goes: first in its section."""
    return ORDER[f"{st.section}_terms"] - 0.5 if st.section else len(STATEMENTS)


def format_text(text: str, filename: str = "<string>") -> str:
    """The canonical form of a ruleset text (raises RulesetError on a syntax error)."""
    from rulelang.errors import raise_errors
    from rulelang.parser import parse

    ruleset, errors = parse(text, filename)
    raise_errors(errors)
    assert ruleset is not None
    raise_errors(duplicate_errors(ruleset))
    return format_ruleset(ruleset)


def duplicate_errors(ruleset: Ruleset) -> list[Any]:
    """Statements or sections given twice: `fmt` cannot know which to keep, so it refuses."""
    from rulelang.compiler import _Checker, check_statements

    ck = _Checker(ruleset)
    check_statements(ck)
    return [e for e in ck.errors if e.code == "duplicate-statement"]
