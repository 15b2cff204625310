"""`explain` says one rule for one case, and a statement that cannot apply is warned about."""
from __future__ import annotations

from pathlib import Path

import pytest

import rulelang
from rulelang.base.errors import RulesetWarning
from rulelang.language.explain import explain_text

ROOT = Path(__file__).resolve().parent.parent
HOUSE = ROOT / "tests" / "data" / "rulesets" / "house"
RULESETS = [str(p) for p in sorted(HOUSE.glob("*.rules"))] + list(rulelang.bundled_names())
assert len(RULESETS) > 20
HEAD = 'ruleset t "T"\nsource "a test"\nbased on allfives\n'
ROTATING = ("opener of the first round: the rotating double\nopener after a domino: the rotating double\n"
            "opener after a block: the rotating double\n")
LOTTERY = "opener of the first round: lottery\nopener after a domino: lottery\nopener after a block: lottery\n"
FALLBACKS = ["the heaviest tile leads", "each player in turn draws until a double turns up", "the heaviest hand leads",
             "the lead passes to the next seat", "the tiles are dealt again"]
# extra texts that combine the opening statements the issue found said twice
COMBINED = {f"{opener}-{k}-{lead}": HEAD + text + f"if nobody holds the opening double: {fallback}\n"
            + f"opener leads {lead_words}\n"
            for opener, text in (("highest", ""), ("six", "opener of the first round: the double six\n"),
                                 ("rotating", ROTATING))
            for k, fallback in enumerate(FALLBACKS)
            for lead, lead_words in (("any", "any tile"), ("forced", "the deciding tile"))}
# the heaviest tile opens (Majestic Hotel Harrogate), alone and beside the highest double, under either lead
HEAVIEST = ("opener of the first round: the heaviest tile\nopener after a domino: the heaviest tile\n"
            "opener after a block: the heaviest tile\n")
COMBINED |= {f"heaviest-{lead}": HEAD + HEAVIEST + f"opener leads {words}\n"
             for lead, words in (("any", "any tile"), ("forced", "the deciding tile"))}
COMBINED |= {f"heaviest-first-{lead}": HEAD + "opener of the first round: the heaviest tile\n" + f"opener leads {words}\n"
             for lead, words in (("any", "any tile"), ("forced", "the deciding tile"))}


def _explained(ruleset: str) -> str:
    if ruleset in COMBINED:
        return explain_text(rulelang.compile_text(COMBINED[ruleset], "t.rules"))
    compiled = rulelang.compile_file(ruleset) if ruleset.endswith(".rules") else rulelang.compile_bundled(ruleset)
    return explain_text(compiled)


def _contradictions(text: str) -> list[str]:
    """The known pairs of sentences that say two rules for one case."""
    found = []
    if "must lead that tile" in text and "- The opener may lead any tile." in text:
        found.append("a tile that must be led, and the opener may lead any tile")
    if "a double ranked like any other tile" in text and "the highest double held comes before" in text.split(
            "If nobody holds the double")[0]:
        found.append("a double before every other tile, and before none")
    if "who must lead it" in text and "- The opener may lead any tile." in text:
        found.append("a set double must be led, and the opener may lead any tile")
    if "`if nobody holds the opening double`" in text:
        found.append("a statement's name instead of the rule in force")
    stated = [s for s in ("heaviest hand", "draws one tile", "passes to the seat after", "dealt again")
              if "If nobody holds the double that opens" in text and s in text.split("If nobody holds the double")[1]]
    if stated and "if nobody holds a double, the holder of the heaviest tile" in text:
        found.append(f"the default fallback (the heaviest tile) and the rule stated ({stated[0]})")
    if "(or that heaviest tile)" in text and ("the holder of the heaviest hand leads" in text
                                              or "the lead passes to the next seat" in text):
        found.append("a heaviest tile led where no heaviest tile leads")
    return found


@pytest.mark.parametrize("ruleset", RULESETS + sorted(COMBINED), ids=lambda r: Path(r).stem)
def test_no_explain_sentence_contradicts_another(ruleset):
    assert _contradictions(_explained(ruleset)) == []


def test_the_rule_in_force_is_said_once_where_the_issue_found_two():
    said = _explained("highest-2-any")  # the heaviest hand leads
    assert said.count("the heaviest tile") == 0 and "if nobody holds a double, the holder of the heaviest hand" in said
    said = _explained("six-0-forced")
    assert "[6|6], who must lead it (if nobody holds it, the holder of the heaviest tile leads" in said
    said = _explained("rotating-1-any")
    assert "the players draw in turn from seat 0 until a double turns up" in said
    assert "A round opened by the round's double must lead it; otherwise the opener may lead any tile" in said


def _warnings(text: str, filename: str = "t.rules") -> list[RulesetWarning]:
    from rulelang.language.compiler import analyse

    return [w for w in analyse(text, filename).warnings if isinstance(w, RulesetWarning)]


def test_a_fallback_where_no_round_is_opened_by_a_double_is_warned_about():
    [w] = _warnings(HEAD + LOTTERY + "opener leads any tile\nif nobody holds the opening double: the heaviest hand leads\n")
    assert w.code == "cannot-apply" and w.line == 8 and "never applies" in w.message
    assert "opener of the first round: the highest double" in (w.hint or "")


def test_any_tile_under_set_doubles_is_warned_about():
    [w] = _warnings(HEAD + ROTATING + "opener leads any tile\n")
    assert w.code == "cannot-apply" and w.line == 7
    assert "applies only when nobody holds it" in w.message and "opener leads the deciding tile" in (w.hint or "")
    [w] = _warnings(HEAD + ROTATING + "opener leads any tile\nif nobody holds the opening double: the tiles are dealt again\n")
    assert "applies never" in w.message


def test_the_spinner_filled_first_without_a_spinner_is_warned_about():
    [w] = _warnings(HEAD + "no double branches\nbranches open after the line, the spinner filled first\n")
    assert w.code == "cannot-apply" and w.line == 5 and "never applies" in w.message
    assert "only the first double branches" in (w.hint or "")
    assert _warnings(HEAD + "branches open after the line, the spinner filled first\n") == []


def test_what_applies_is_not_warned_about():
    assert _warnings(HEAD + "if nobody holds the opening double: the heaviest hand leads\n") == []
    assert _warnings(HEAD + ROTATING) == []  # `opener leads ...` inherited: the base's to state
    for path in sorted(HOUSE.glob("*.rules")):
        assert _warnings(path.read_text(encoding="utf-8"), str(path)) == [], path.name


def test_every_no_double_fallback_has_its_words_under_every_double_opener():
    """A fallback added to the vocabulary is said wherever a double opens (the highest, a set double)."""
    from rulelang.config.vocabulary import NoDouble, literal_values
    from rulelang.language.statements.play import FALLBACK_WORDS

    assert set(FALLBACK_WORDS) == set(literal_values(NoDouble))
