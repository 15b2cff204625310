"""What a balance study found, one plain sentence per finding, for the top of `balance --html`.

A rules author reads these before any table: whether a seat or the first
opener has an edge, how much skill and luck weigh, how long a match lasts and,
with `--vs`, what the second ruleset changes. A figure is called an edge only
when its 95% interval excludes the even share, and a change only when the paired
test is significant after Holm's correction, as the tables below say it.
"""
from __future__ import annotations

from rulelang.tools.documents import BalanceReport, Figure
from rulelang.tools.ladder_text import pct


def _interval(f: Figure) -> str:
    lo, hi = f["ci95"]
    return f"95% interval {pct(lo)} to {pct(hi)}"


def _seats(figs: dict[str, Figure], even: float) -> str:
    seats = [(name.removeprefix("win rate "), f) for name, f in figs.items() if name.startswith("win rate ")]
    ahead = [(who, f) for who, f in seats if f["ci95"][0] > even]
    behind = [(who, f) for who, f in seats if f["ci95"][1] < even]
    if not ahead and not behind:
        each = ", ".join(f"{who} {pct(f['value'])}" for who, f in seats)
        return (f"No seat has a measurable edge: every seat's interval includes the even share of {pct(even)} "
                f"(wins: {each}).")
    who, f = (ahead or behind)[0]
    return (f"{who.capitalize()} wins {'more' if ahead else 'less'} often than its even share: "
            f"{pct(f['value'])} of matches ({_interval(f)}), against {pct(even)}.")


def _opener(figs: dict[str, Figure], even: float) -> str:
    f = figs["first opener's side wins the match"]
    if f["ci95"][0] > even:
        return (f"Opening the first round is an advantage: that side wins {pct(f['value'])} of matches "
                f"({_interval(f)}), against an even {pct(even)}.")
    if f["ci95"][1] < even:
        return (f"Opening the first round is a handicap: that side wins only {pct(f['value'])} of matches "
                f"({_interval(f)}), against an even {pct(even)}.")
    return (f"Opening the first round gives no measurable edge: that side wins {pct(f['value'])} of matches "
            f"({_interval(f)}).")


def _skill_and_luck(figs: dict[str, Figure], strong: str) -> str:
    skill = figs["strong beats greedy"]
    luck = figs["random beats greedy"]
    said = (f"the strong player ({strong}) beats the greedy bot in {pct(skill['value'])} of matches, and a player "
            f"who moves at random beats it in {pct(luck['value'])} (what luck alone wins)")
    if skill["ci95"][0] > 0.5:
        return f"Skill counts: {said}."
    if skill["ci95"][1] < 0.5:
        return f"Skill does not show here: {said}."
    return f"Skill is not measurable at this sample size: {said}."


def _length(figs: dict[str, Figure]) -> str:
    rounds = figs["rounds per match"]
    blocked = figs["blocked rounds"]
    return (f"A match lasts {rounds['value']:.1f} rounds on average (95% interval {rounds['ci95'][0]:.1f} to "
            f"{rounds['ci95'][1]:.1f}), and {pct(blocked['value'])} of rounds end blocked.")


def _unfinished(figs: dict[str, Figure]) -> str | None:
    f = figs["drawn or unfinished matches"]
    return None if not f["value"] else f"{pct(f['value'])} of matches end drawn or unfinished."


def _changes(rep: BalanceReport, a: str, b: str) -> list[str]:
    rows = rep["comparison"]["rows"]
    found = []
    for r in rows:
        if not r["significant"]:
            continue
        kind = rep["variants"][a][r["metric"]]["kind"]
        before, after = (pct(r["a"]), pct(r["b"])) if kind in ("rate", "ratio") else (f"{r['a']:.2f}", f"{r['b']:.2f}")
        found.append(f"{b} changes “{r['metric']}”: {before} with {a}, {after} with {b} "
                     f"(a significant difference, p {_p(r['p'])}).")
    if not found:
        found.append(f"No figure differs significantly between {a} and {b} at this sample size "
                     f"({rep['study']['matches']} matches each, paired on the same deals).")
    return found


def _p(p: float) -> str:
    from rulelang.tools.stats import format_p

    shown = format_p(p)
    return shown if shown.startswith("<") else f"= {shown}"


def findings(rep: BalanceReport, names: dict[str, str], sides: int) -> list[str]:
    """The sentences, in the order a rules author asks: seats, the opener, skill and luck, length, then changes."""
    keys = sorted(names)
    first = names[keys[0]]
    figs = rep["variants"][first]
    even = 1 / sides
    prefix = f"With {first}: " if len(keys) > 1 else ""
    out = [_seats(figs, even), _opener(figs, even), _skill_and_luck(figs, rep["study"]["strong"]), _length(figs)]
    out.append(_unfinished(figs) or "")
    out = [prefix + s[0].lower() + s[1:] if prefix else s for s in out if s]
    if len(keys) > 1:
        out += _changes(rep, first, names[keys[1]])
    return out
