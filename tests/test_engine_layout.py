"""The engine's layout: which doubles branch, decided at the lead or for every double."""
from __future__ import annotations

import rulelang
from rulelang.interpreter.tiles import TILES, code_tile

HEAD = 'ruleset h "H"\nsource "a test"\nbased on allfives\n'


def cfg(text: str) -> dict:
    return rulelang.compile_text(text, "h.rules")


def test_in_seeded_matches_only_a_double_led_ever_branches():
    from rulelang.interpreter import Round

    lead_only = cfg(HEAD + "only a leading double branches\nopener leads any tile\n")
    after_lead = cfg(HEAD + "every double but the lead branches\n")
    import random

    seen = {True: 0, False: 0}
    for seed in range(30):
        for config, led_branches in ((lead_only, True), (after_lead, False)):
            rnd = Round.deal(config, 2, random.Random(seed), record=True)
            while not rnd.over:
                rnd.play(rnd.legal_moves()[0])
            lead = rnd.turns[0].to_dict()["move"]
            branched = {t.to_dict()["move"].split(" on ")[1].split(" ")[0] for t in rnd.turns
                        if " branch-" in t.to_dict()["move"]}
            seen[led_branches] += bool(branched)
            if led_branches:
                assert branched <= {lead}
            else:
                assert lead not in branched
    assert seen[True] and seen[False]  # branches were played under both


def _spinner_sides(rnd) -> tuple[tuple[int, int] | None, set[str]]:
    """The round's first spinner and the sides of it that have a tile (read from the connections, not from the
    engine's own bookkeeping)."""
    lay = rnd.layout
    spinners = [TILES[code_tile(c)] for c in lay.placed if lay.spin >> code_tile(c) & 1]
    if not spinners:
        return None, set()
    tile = spinners[0]
    used = {s for a, s, b, _ in lay.connections() if a == tile} | {t for _, _, b, t in lay.connections() if b == tile}
    return tile, used


def test_in_seeded_matches_every_play_goes_on_the_set_double_until_its_four_sides_are_played_on():
    """`branches open after the line, the spinner filled first` (Merry-Go-Round): while the round's first
    spinner has a side without a tile, every placement offered goes on it; once filled, the other ends are free
    again. Under `branches open after the line` plays go elsewhere meanwhile (the test has teeth)."""
    import random

    from rulelang.interpreter import Round

    filled = cfg(HEAD + "branches open after the line, the spinner filled first\n")
    plain = cfg(HEAD + "branches open after the line\n")
    elsewhere = {True: 0, False: 0}
    after = 0
    for seed in range(40):
        for config, first in ((filled, True), (plain, False)):
            rnd = Round.deal(config, 2, random.Random(seed), record=True)
            while not rnd.over:
                moves = rnd.legal_moves()
                tile, used = _spinner_sides(rnd) if rnd.layout.placed else (None, set())
                if tile is not None and len(used) < 4:
                    elsewhere[first] += sum(m.target != tile for m in moves)
                elif tile is not None and first:
                    after += sum(m.target != tile for m in moves)
                rnd.play(moves[seed % len(moves)])
    assert elsewhere[True] == 0
    assert elsewhere[False] > 0 and after > 0
