"""Property tests: configs -> text -> configs, random edits never crash, fmt is stable."""
from __future__ import annotations

import os
import tempfile

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import rulelang
from rulelang.language.bundled import bundled_names, bundled_text
from rulelang.language.compiler import validate_config
from rulelang.language.formatter import config_to_text, format_text
from rulelang.language.parser import keywords, parse

SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])

OPENERS_FIRST = ["lottery", "highest-double"]
OPENERS_DOMINO = ["dominoer", "lottery", "highest-double", "next-seat"]
OPENERS_BLOCK = ["lottery", "highest-double", "next-seat", "block-winner"]


@st.composite
def terms(draw, unit: int, partnerships: bool, block_without_winner: bool) -> list[dict]:
    out = []
    for _ in range(draw(st.integers(0, 3))):
        rounding = "round5" if unit == 5 else draw(st.sampled_from(["round5", "none"]))
        if draw(st.integers(0, 4)) == 0:
            out.append({"kind": "differences", "rounding": rounding, "to": "owner", "sign": "credit"})
            continue
        if block_without_winner:
            hands, to = "everyone", "owner"
        else:
            hands = draw(st.sampled_from(["opponents", "own", "everyone"] + (["partner"] if partnerships else [])))
            to = draw(st.sampled_from(["winner", "owner"]))
        pooling = "each" if to == "owner" else draw(st.sampled_from(["pooled", "each"]))
        out.append({"kind": "hands", "hands": hands, "pooling": pooling, "rounding": rounding, "to": to,
                    "sign": draw(st.sampled_from(["credit", "debit"]))})
    return out


@st.composite
def configs(draw) -> dict:
    counts = sorted(draw(st.sets(st.sampled_from([2, 3, 4]), min_size=1)))
    partnerships = [4] if 4 in counts and draw(st.booleans()) else []
    hand, reserve = {}, {}
    for n in counts:
        h = draw(st.integers(1, 28 // n))
        hand[str(n)] = h
        reserve[str(n)] = draw(st.integers(0, 28 - n * h))
    unit = draw(st.sampled_from([1, 5]))
    in_play = draw(st.booleans())
    multiple = (5 * draw(st.integers(1, 4)) if unit == 5 else draw(st.integers(1, 12))) if in_play else 5
    mode = draw(st.sampled_from(["exact", "at-least"]))
    check = draw(st.sampled_from(["every-event", "after-settlement"]))
    block_winner = draw(st.sampled_from(["lightest-hand", "none"]))
    tie_break = draw(st.sampled_from(["fewest-tiles", "none"])) if block_winner != "none" else "none"
    first = draw(st.sampled_from(OPENERS_FIRST))
    after_domino = draw(st.sampled_from(OPENERS_DOMINO))
    after_block = draw(st.sampled_from(OPENERS_BLOCK if block_winner != "none" else OPENERS_BLOCK[:3]))
    forced_ok = "highest-double" in (first, after_domino, after_block)
    domino_events = draw(st.sampled_from(["one", "per-term", "per-hand"]))
    domino_terms = draw(terms(unit, bool(partnerships), False))
    block_terms = draw(terms(unit, bool(partnerships), block_winner == "none"))
    credits = [t for t in domino_terms + block_terms if t["sign"] == "credit"]
    if not in_play and not credits:
        in_play, multiple = True, 5 * unit
    config = {
        "format": "rulelang-config/1",
        "name": draw(st.from_regex(r"[a-z][a-z0-9-]{0,12}", fullmatch=True)),
        "title": draw(st.text(st.characters(blacklist_characters='"\n\r', blacklist_categories=("Cs",)),
                              min_size=1, max_size=30).filter(lambda s: s.strip())),
        "source": draw(st.text(st.characters(blacklist_characters='"\n\r', blacklist_categories=("Cs",)),
                               min_size=1, max_size=30).filter(lambda s: s.strip())),
        "based_on": None,
        "players": {"counts": counts, "partnerships": partnerships},
        "hand_size": hand,
        "reserve": reserve,
        "drawing": draw(st.sampled_from(["until-playable", "none"])),
        "opener": {"first_round": first, "after_domino": after_domino, "after_block": after_block,
                   "lead": draw(st.sampled_from(["any", "forced"])) if forced_ok else "any"},
        "doubles": {"branching": draw(st.sampled_from(["every", "first", "none"])),
                    "branch_sides": draw(st.sampled_from(["after-line", "at-once"])),
                    "terminal_count": draw(st.sampled_from(["both-halves", "one-half"]))},
        "scoring": {"in_play": in_play, "multiple": multiple, "unit": unit},
        "target": {"raw": unit * draw(st.integers(1, 400)), "mode": mode, "check": check,
                   "overshoot": draw(st.sampled_from(["discard", "bounce"])) if mode == "exact" else "none",
                   "ties": "impossible" if check == "every-event" else draw(st.sampled_from(["extra-rounds", "draw"]))},
        "score_floor": draw(st.one_of(st.none(), st.integers(-40, 40).map(lambda k: k * unit))),
        "settlement": {
            "domino": {"terms": domino_terms, "events": domino_events,
                       "with_last_placement": domino_events == "one" and draw(st.booleans())},
            "block": {"winner": block_winner, "tie_break": tie_break, "terms": block_terms,
                      "events": draw(st.sampled_from(["one", "per-term", "per-hand"]))},
        },
    }
    assert validate_config(config) == [], validate_config(config)
    return config


@SETTINGS
@given(configs())
def test_config_to_text_compiles_back(config):
    text = config_to_text(config)
    assert rulelang.compile_text(text) == config


@SETTINGS
@given(configs())
def test_emitted_text_is_canonical(config):
    text = config_to_text(config)
    assert format_text(text) == text


TOKENS = keywords() + ["0", "1", "5", "61", "-3", ",", ":", "\n", "  ", '"x"', "'", "#", "on domino:\n",
                       "based on allfives\n", "[1|4]", "\t", "é"]


@st.composite
def edited(draw) -> str:
    text = bundled_text(draw(st.sampled_from(bundled_names())))
    for _ in range(draw(st.integers(1, 4))):
        if not text:
            break
        i = draw(st.integers(0, len(text)))
        op = draw(st.sampled_from(["delete", "insert", "replace", "token", "line"]))
        if op == "delete":
            text = text[:i] + text[i + draw(st.integers(1, 12)):]
        elif op == "insert":
            text = text[:i] + draw(st.text(min_size=1, max_size=3)) + text[i:]
        elif op == "replace":
            text = text[:i] + draw(st.text(min_size=1, max_size=2)) + text[i + 1:]
        elif op == "token":
            text = text[:i] + " " + draw(st.sampled_from(TOKENS)) + " " + text[i:]
        else:
            lines = text.split("\n")
            j = draw(st.integers(0, len(lines) - 1))
            del lines[j]
            text = "\n".join(lines)
    return text


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(edited())
def test_random_edits_give_a_ruleset_or_clean_errors(text):
    errors = rulelang.check_text(text, "edited.rules")
    for e in errors:
        assert isinstance(e, rulelang.RulesetError)
        # an error points into the edited text, or at the base's line that wrote an inherited rule (and says so)
        assert str(e).startswith("edited.rules") or "(inherited from `" in e.message, str(e)
        words = f"{e.message} {e.hint}"  # the source line echoes the text, which may contain anything
        assert "__ANON" not in words and "_NL" not in words and "$END" not in words
    if not errors:
        assert validate_config(rulelang.compile_text(text, "edited.rules")) == []
    ruleset, syntax = parse(text)
    if ruleset is not None and not syntax and not any(e.code == "duplicate-statement" for e in errors):
        formatted = format_text(text)
        assert format_text(formatted) == formatted
        again, _ = parse(formatted)
        assert sorted(repr((s.key, s.value)) for s in again.statements) == \
            sorted(repr((s.key, s.value)) for s in ruleset.statements)
        if not errors:
            assert rulelang.compile_text(formatted) == rulelang.compile_text(text, "edited.rules")


def _blocks(text: str) -> list[str]:
    """Top-level statements and whole sections of a canonical text, as movable blocks."""
    blocks: list[str] = []
    for line in text.split("\n"):
        if not line.strip():
            continue
        if line.startswith("  ") and blocks:
            blocks[-1] += "\n" + line
        else:
            blocks.append(line)
    return blocks


@st.composite
def shuffled(draw) -> tuple[dict, str]:
    config = draw(configs())
    blocks = draw(st.permutations(_blocks(config_to_text(config))))
    out = []
    for block in blocks:
        lines = []
        for line in block.split("\n"):
            if '"' not in line:  # respace outside quoted texts
                words = line.split()
                line = " " * draw(st.integers(0, 3)) + "".join(
                    w + " " * draw(st.integers(1, 3)) for w in words)
            lines.append(line)
            if draw(st.integers(0, 5)) == 0:
                lines.append("")
        out.append("\n".join(lines))
    return config, "\n".join(out) + "\n"


@SETTINGS
@given(shuffled())
def test_fmt_restores_canonical_order_and_spacing(case):
    config, text = case
    assert rulelang.compile_text(text) == config
    assert format_text(text, sort=True) == config_to_text(config)


@SETTINGS
@given(shuffled())
def test_fmt_keeps_the_order_and_restores_spacing(case):
    config, text = case
    kept = format_text(text)
    assert format_text(kept) == kept
    assert rulelang.compile_text(kept) == config
    assert format_text(kept, sort=True) == config_to_text(config)
    def words(t: str) -> list[str]:  # each line of rules (quoted texts left out) as its words
        return [" ".join(w for w in line.split(" ") if w) for line in t.split("\n") if line.strip() and '"' not in line]
    assert words(kept) == words(text)  # every line where the author put it


@SETTINGS
@given(configs(), st.lists(st.text(st.characters(blacklist_characters="\n\r", blacklist_categories=("Cs",)),
                                   max_size=20), min_size=1, max_size=6), st.randoms())
def test_fmt_keeps_every_comment(config, comments, rnd):
    lines = config_to_text(config).split("\n")
    for n, comment in enumerate(comments):
        i = rnd.randrange(len(lines))
        if rnd.random() < 0.5 and lines[i].strip() and "#" not in lines[i]:
            lines[i] += f"  #k{n}: {comment}"
        else:
            lines.insert(i, f"#k{n}: {comment}")
    text = "\n".join(lines)
    formatted = format_text(text)
    assert format_text(formatted) == formatted
    assert rulelang.compile_text(formatted) == config
    for n, comment in enumerate(comments):
        assert formatted.count(f"#k{n}:") == 1
        assert f"#k{n}: {comment}".rstrip() + "\n" in formatted


VARIANTS = [(", no partnerships\n", "\n"), ("  as one event", "  one event"),
            ("points are shown raw", "1 raw points make 1 shown point"), ("no reserve", "reserve 0 tiles")]


@st.composite
def valid_texts(draw) -> tuple[dict, str]:
    """A valid text the generator makes, in any of the spellings that state the same rules."""
    config = draw(configs())
    text = config_to_text(config)
    for old, new in VARIANTS:
        if draw(st.booleans()):
            text = text.replace(old, new)
    return config, text


@SETTINGS
@given(valid_texts())
def test_fmt_command_accepts_every_valid_text(case):
    from click.testing import CliRunner

    from rulelang.cli import main

    config, text = case
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "r.rules")
        with open(path, "w", encoding="utf-8") as fh:
            fh.write(text)
        result = CliRunner().invoke(main, ["fmt", path])
        assert result.exit_code == 0, result.output
        assert rulelang.compile_file(path) == config
