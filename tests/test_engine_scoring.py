"""The engine's scoring in play: what a placement earns (a least score, a knock bonus) and in which event."""
from __future__ import annotations

import rulelang
from rulelang.interpreter import Round

F3 = 'ruleset h "H"\nsource "a test"\nbased on fives-and-threes\n'


KNOCK = "the next player to place scores 1 point per knock\n"


def _knock_round(body: str, scores=None) -> Round:
    cfg = rulelang.compile_text(F3 + body, "h.rules")
    return Round(cfg, 3, [[(1, 3), (3, 4), (4, 6)], [(0, 0)], [(5, 5)]], [], 0, scores=scores)


def test_each_knock_since_the_last_placement_scores_for_the_next_placer():
    rnd = _knock_round(KNOCK)
    rnd.play("[1|3]")
    turn = rnd.play("[3|4] on [1|3] high")  # 5: 1 point, and 2 knocks: 2
    assert turn.points == 1 and [(e.kind, e.raw) for e in turn.events] == [("placement", 3)]
    plain = _knock_round("")
    plain.play("[1|3]")
    assert [(e.kind, e.raw) for e in plain.play("[3|4] on [1|3] high").events] == [("placement", 1)]


def test_the_knock_bonus_and_the_placement_are_one_event_under_an_exact_target():
    rnd = _knock_round(KNOCK, scores=[59, 0, 0])  # 59 + 1 + 2 = 62 passes 61: discarded whole
    rnd.play("[1|3]")
    turn = rnd.play("[3|4] on [1|3] high")
    assert [(e.raw, e.accepted, e.score_after) for e in turn.events] == [(3, False, 59)]


PUBLISHED_HEAD = 'ruleset h "H"\nsource "a test"\nbased on allfives\n'


def published_cfg(text: str) -> dict:
    return rulelang.compile_text(text, "h.rules")


NO_FIVES = PUBLISHED_HEAD + "a placement scores only from 10 points up\n"


def test_every_count_below_the_least_scores_nothing_in_the_engine_and_the_playground_sheet():
    from rulelang.interpreter.config import Config
    from rulelang.interpreter.rules import rules_of

    plain, nofives = rules_of(Config.from_dict(published_cfg(PUBLISHED_HEAD))), rules_of(Config.from_dict(published_cfg(NO_FIVES)))
    assert plain.points[5] == 5 and nofives.points[5] == 0
    assert all(n == (p if p >= 10 else 0) for p, n in zip(plain.points, nofives.points))


def test_a_count_that_is_a_multiple_of_5_or_3_scores_its_own_value_once_at_face_value_once():
    from rulelang.interpreter.config import Config
    from rulelang.interpreter.rules import rules_of

    base = PUBLISHED_HEAD.replace("allfives", "threes-and-fives")
    once = rules_of(Config.from_dict(published_cfg(base + "placements score multiples of 5 or 3 at face value, once\n")))
    twice = rules_of(Config.from_dict(published_cfg(base)))
    # "if the open ends total 15, that's 15 points. Six adds up to 6 points" (Gareth Edwards' blog)
    assert [once.points[s] for s in (15, 6, 10, 7, 30, 0)] == [15, 6, 10, 0, 30, 0]
    assert [twice.points[s] for s in (15, 6, 30)] == [30, 6, 60]
    assert all(o == (s if s % 5 == 0 or s % 3 == 0 else 0) for s, o in enumerate(once.points))
