"""Plain English from a compiled configuration (`rulelang explain`, `rulelang diff`).

Everything here reads the configuration, never the ruleset text, so a reader
can check what the engine will do against a rule book.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rulelang.ast import INFO, STATEMENTS, Term
from rulelang.formatter import config_statements

__all__ = ["Sentence", "explain_config", "explain_text", "diff_configs", "describe"]

HEADINGS = {
    1: "Players and the deal",
    2: "Opening a round",
    3: "Doubles",
    4: "Scoring and winning",
    5: "When a player dominoes",
    6: "When the round blocks",
}


@dataclass(frozen=True)
class Sentence:
    key: str
    text: str
    inherited: bool = False


def _n(count: int, word: str) -> str:
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


def _join(words: list[str]) -> str:
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def _points(raw: int, unit: int) -> str:
    if unit == 5:
        return f"{raw // 5} shown points ({raw} raw)"
    return f"{raw} points"


HANDS = {
    "opponents": "the opponents' remaining pips",
    "partner": "the partner's remaining pips",
    "own": "the winner's own remaining pips",
    "everyone": "every player's remaining pips",
}


def term_sentence(t: Term) -> str:
    if t.kind == "differences":
        rounding = "rounded once to the nearest 5" if t.rounding == "round5" else "not rounded"
        return ("Each hand is credited to its owner with the sum of its differences to every heavier "
                f"opponent's hand, {rounding}; equal, lighter and partner hands give nothing.")
    if t.pooling == "pooled":
        how = "added together and rounded once to the nearest 5" if t.rounding == "round5" \
            else "added together, not rounded"
    else:
        how = "each hand rounded separately to the nearest 5" if t.rounding == "round5" \
            else "each hand counted as it is, not rounded"
    whom = "the winner's side" if t.to == "winner" else "each hand's owner"
    verb = "are credited to" if t.sign == "credit" else "are deducted from"
    what = HANDS[t.hands or "opponents"]
    return f"{what[0].upper()}{what[1:]}, {how}, {verb} {whom}."


def describe(key: str, v: Any, config: dict[str, Any]) -> str:
    """One statement of a configuration in plain English."""
    unit = config["scoring"]["unit"]
    if key == "ruleset":
        return f"{v[1]} (`{v[0]}`)."
    if key == "source":
        return f"Source: {v}."
    if key == "based_on":
        return f"Based on {v[1]}."
    if key == "players":
        counts = config["players"]["counts"]
        text = f"{_join([str(c) for c in counts])} players" if len(counts) > 1 else _n(counts[0], "player")
        text = f"For {text}."
        if config["players"]["partnerships"]:
            text += (" With 4 players, partners sit opposite each other (seats 0 and 2, 1 and 3) and share"
                     " one score; otherwise everyone plays alone.")
        else:
            text += " Everyone plays alone."
        return text
    if key == "hand":
        d = config["hand_size"]
        if len(set(d.values())) == 1:
            return f"Each player is dealt {_n(next(iter(d.values())), 'tile')}."
        parts = [f"{d[k]} with {k} players" for k in sorted(d)]
        return f"Each player is dealt {parts[0].replace(' with', ' tiles with', 1)}, " + ", ".join(parts[1:]) + "."
    if key == "reserve":
        d = config["reserve"]
        if not any(d.values()):
            return "Every undealt tile may be drawn: there is no reserve."
        parts = [f"{d[k]} with {k} players" for k in sorted(d)]
        return "The last tiles of the boneyard are never drawn: " + ", ".join(parts) + "."
    if key == "drawing":
        if v == "until-playable":
            return ("A player who cannot place draws from the boneyard one tile at a time until a drawn tile "
                    "fits, and must place that tile at once; a player passes only when the boneyard is empty.")
        return "Nobody draws: a player who cannot place passes."
    if key in ("opener_first", "opener_domino", "opener_block"):
        when = {"opener_first": "The first round", "opener_domino": "After a domino, the next round",
                "opener_block": "After a block, the next round"}[key]
        who = {
            "lottery": "a seat drawn by lottery",
            "highest-double": "the holder of the highest double (if nobody holds a double, the holder of "
                              "the heaviest tile: most pips, then the larger high half)",
            "dominoer": "the player who dominoed",
            "next-seat": "the seat after the previous round's opener",
            "block-winner": "the winner of the block (a seat drawn by lottery when the block has no winner)",
        }[v]
        return f"{when} is opened by {who}."
    if key == "lead":
        if v == "forced":
            return ("A round opened by the highest double must lead that double (or that heaviest tile); "
                    "other rounds lead any tile.")
        return "The opener may lead any tile."
    if key == "branching":
        return {"every": "Every double is a spinner and can branch, the opening double and doubles on "
                         "branches included.",
                "first": "Only the first double placed in a round (the lead included) is a spinner; later "
                         "doubles are placed crosswise but do not branch.",
                "none": "No double branches: the layout is a single line."}[v]
    if key == "branch_sides":
        if config["doubles"]["branching"] == "none":
            return "(Branches would open " + ("at once" if v == "at-once" else "after the line") + \
                   ", but no double branches.)"
        if v == "at-once":
            return "A spinner's side branches are open as soon as it is placed."
        return "A spinner's side branches open only once both its in-line sides are occupied."
    if key == "terminal_count":
        if v == "both-halves":
            return ("A double at the end of a line counts both halves ([4|4] counts 8); once both its "
                    "in-line sides are occupied it counts nothing itself.")
        return ("A double at the end of a line counts one half ([4|4] counts 4); once both its in-line "
                "sides are occupied it counts nothing itself.")
    if key == "scoring":
        if config["scoring"]["in_play"]:
            m = config["scoring"]["multiple"]
            return (f"After every placement (the lead and the last tile included) the counted ends are added "
                    f"up; a positive multiple of {m} scores that many {'raw ' if unit == 5 else ''}points.")
        return "Placements never score: points come only from settling rounds."
    if key == "unit":
        if unit == 5:
            return "Points are counted raw and shown divided by 5: 5 raw points make 1 shown point."
        return "Points are shown as counted."
    if key == "target":
        t = config["target"]
        how = "exactly" if t["mode"] == "exact" else "at least"
        return f"A side wins by reaching {how} {_points(t['raw'], unit)}."
    if key == "check":
        if v == "every-event":
            return ("The target is checked after every scoring event, in the middle of a round too; "
                    "reaching it ends the match at once.")
        return "The target is checked only once a round has been settled."
    if key == "overshoot":
        if v == "discard":
            return "An event that would take a side past the target is discarded whole; the score stays."
        if v == "bounce":
            return ("An event that would take a side past the target bounces: the excess is counted back "
                    "down from the target.")
        return "Going past the target is allowed."
    if key == "ties":
        if v == "impossible":
            return "Ties at the top cannot arise: the first side to reach the target wins."
        if v == "extra-rounds":
            return ("If the highest score is shared once the target is reached, complete rounds are played "
                    "until, after a settlement, one side alone has the highest score.")
        return "If the highest score is shared once the target is reached, the match is drawn between them."
    if key == "floor":
        if v is None:
            settlements = config["settlement"]
            debits = any(t["sign"] == "debit" for part in ("domino", "block") for t in settlements[part]["terms"])
            if not debits:
                return "Scores have no floor (though no rule here takes points away)."
            return "Scores have no floor: they can fall below zero."
        return f"Scores never fall below {_points(v, unit) if v else '0'}."
    if key in ("domino_terms", "block_terms"):
        if not v:
            return "Nothing is scored for the hands left."
        return " ".join(term_sentence(t) for t in v)
    if key in ("domino_events", "block_events"):
        grouping, last = v
        if grouping == "one":
            text = "The amounts form one scoring event for each side that receives them"
            if last:
                text += (", together with the score of the last placement: the placement and the settlement "
                         "are accepted or discarded together")
            return text + "."
        if grouping == "per-term":
            return "Each line of the settlement is its own scoring event for each side."
        return ("Each hand's amount is its own scoring event, lightest hand first (equal hands in clockwise "
                "order from the round's opener).")
    if key == "block_winner":
        winner, tie_break = v
        if winner == "none":
            return "A block has no winner."
        text = "The lightest hand (fewest pips) wins the block"
        if config["players"]["partnerships"]:
            text += "; partners tied for lightest win together"
        tie = "if opponents tie" if config["players"]["partnerships"] else "on a tie"
        if tie_break == "fewest-tiles":
            text += f"; {tie}, the hand with fewer tiles wins; if still tied, the round has no winner."
        else:
            text += f"; {tie}, the round has no winner."
        return text
    raise KeyError(key)  # pragma: no cover


def explain_config(config: dict[str, Any], inherited: set[str] | None = None) -> list[tuple[str, list[Sentence]]]:
    """Sections of sentences (heading, sentences) describing a configuration."""
    inherited = inherited or set()
    groups: dict[int, list[Sentence]] = {}
    for key, value in config_statements(config):
        info = INFO[key]
        if info.group == 0:
            continue
        groups.setdefault(info.group, []).append(Sentence(key, describe(key, value, config), key in inherited))
    return [(HEADINGS[g], groups[g]) for g in sorted(groups)]


def explain_text(config: dict[str, Any], inherited: set[str] | None = None) -> str:
    """The whole explanation as plain text; inherited rules are marked `(from BASE)`."""
    base = config.get("based_on")
    out = [f"{config['title']} ({config['name']})", f"Source: {config['source']}"]
    if base:
        out.append(f"Based on {base}: rules marked (from {base}) are inherited, the others are stated here.")
    for heading, sentences in explain_config(config, inherited):
        out.append("")
        out.append(heading)
        for s in sentences:
            mark = f" (from {base})" if s.inherited and base else ""
            out.append(f"- {s.text}{mark}")
    return "\n".join(out) + "\n"


def diff_configs(a: dict[str, Any], b: dict[str, Any]) -> list[tuple[str, str, str]]:
    """The rules on which two configurations differ: (what, how A says it, how B says it)."""
    out = []
    va = dict(config_statements(a))
    vb = dict(config_statements(b))
    for info in STATEMENTS:
        if info.key in ("ruleset", "source", "based_on"):
            continue
        x, y = va.get(info.key), vb.get(info.key)
        if info.key == "target":
            x, y = (a["target"]["mode"], a["target"]["raw"]), (b["target"]["mode"], b["target"]["raw"])
        if info.key == "scoring":
            x, y = (a["scoring"]["in_play"], a["scoring"]["multiple"]), (b["scoring"]["in_play"],
                                                                         b["scoring"]["multiple"])
        if x != y:
            out.append((info.words, describe(info.key, va[info.key], a), describe(info.key, vb[info.key], b)))
    return out
