"""How a round opened, in words: the deals thrown in, the rule that chose the opener, the fallback used when
nobody held the opening double, and the opening draws (`replay`, `play` and the playground say the same).

Everything is read from a round's recorded deal (`deal`, with its `opening_draws`) and the deals thrown in
before it (`thrown_in`), as a transcript keeps them, so a replay shows where every tile came from.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence

from rulelang.config.vocabulary import DOUBLE_OPENERS
from rulelang.interpreter import Config
from rulelang.tools.documents import Deal, ThrownDeal

__all__ = ["opening_lines", "thrown_in_lines", "wanted_double"]

Name = Callable[[int], str]

# the rule (its statement's words) and what it did, for each fallback when nobody holds the opening double
FALLBACK = {
    "heaviest-tile": "the heaviest tile leads",
    "draw": "each player in turn draws until a double turns up",
    "heaviest-hand": "the heaviest hand leads",
    "next-seat": "the lead passes to the next seat",
    "redeal": "the tiles are dealt again",
}


def _seat(s: int) -> str:
    return f"seat {s}"


def _tile(text: str) -> tuple[int, int]:
    a, b = text.strip("[]").split("|")
    return int(a), int(b)


def wanted_double(cfg: Config, opening: str, round_no: int) -> str | None:
    """The double a round opened by `opening` wants (`[6|6]`, the rotating double), or None for any double."""
    if opening == "double-six":
        return "[6|6]"
    if opening == "rotating-double":
        d = cfg.tiles - round_no % (cfg.tiles + 1)
        return f"[{d}|{d}]"
    return None


def _held(hands: Sequence[Sequence[str]], want: str | None) -> bool:
    return any((t == want) if want else _tile(t)[0] == _tile(t)[1] for h in hands for t in h)


def _deciding_double(hands: Sequence[Sequence[str]], opening: str) -> str:
    """The double of the hands that decided the opener: `the highest double, [d|d]` (`the lowest double, ...`
    under `...: the lowest double`)."""
    doubles = [_tile(t)[0] for h in hands for t in h if _tile(t)[0] == _tile(t)[1]]
    which, d = ("lowest", min(doubles)) if opening == "lowest-double" else ("highest", max(doubles))
    return f"the {which} double, [{d}|{d}]"


def _heaviest(hand: Sequence[str]) -> str:
    """The heaviest tile of a hand: most pips, then the larger high half (a double is ranked like any other tile)."""
    return max(hand, key=lambda t: (sum(_tile(t)), max(_tile(t))))


def _pips(hand: Sequence[str]) -> int:
    return sum(sum(_tile(t)) for t in hand)


def _what(cfg: Config, deal: Deal, round_index: int) -> tuple[str | None, str]:
    opening = deal.get("opening") or ""
    want = wanted_double(cfg, opening, deal.get("round", round_index)) if opening in DOUBLE_OPENERS else None
    return want, want or "a double"


def thrown_in_lines(cfg: Config, deal: Deal, round_index: int, thrown: Sequence[ThrownDeal] | None,
                    name: Name = _seat, reveal: Callable[[int], bool] = lambda seat: True) -> list[str]:
    """The deals thrown in before a round's own ("if nobody holds the opening double: the tiles are dealt
    again"), each with the hands `reveal` lets be shown."""
    _want, what = _what(cfg, deal, round_index)
    out: list[str] = []
    for k, old in enumerate(thrown or (), start=1):
        hands = old.get("hands", [])
        out.append(f"deal {k} thrown in: {_why_thrown_in(cfg, hands, what, name)}")
        out += [f"  {name(s)} was dealt {' '.join(h)}" for s, h in enumerate(hands) if reveal(s)]
    return out


def _why_thrown_in(cfg: Config, hands: Sequence[Sequence[str]], what: str, name: Name = _seat) -> str:
    """Why a deal was thrown in, as the engine tests it (interpreter/deal.py `thrown_in`): a hand holding N or
    more doubles first, else nobody holding the double that opens the round."""
    least = cfg.redeal_doubles
    if least is not None:
        for s, hand in enumerate(hands):
            doubles = sum(a == b for a, b in map(_tile, hand))
            if doubles >= least:
                return (f"{name(s)} holds {doubles} doubles (the tiles are dealt again when a hand holds {least} "
                        "or more doubles)")
    return f"nobody holds {what} (if nobody holds the opening double: {FALLBACK['redeal']})"


def opening_lines(cfg: Config, deal: Deal, round_index: int, name: Name = _seat,
                  reveal: Callable[[int], bool] = lambda seat: True) -> list[str]:
    """Who opens and by which rule; when nobody holds the opening double, the fallback used and the opening
    draws. `reveal(seat)`: whether that seat's hidden tiles may be shown (a replay shows every hand; a game
    in progress only the player's own)."""
    opening = deal.get("opening") or ""
    opener = deal["opener"]
    if opening not in DOUBLE_OPENERS:
        how = f" ({_OPENINGS.get(opening, opening)})"
        if opening == "heaviest-tile" and reveal(opener):  # "...: the heaviest tile": the tile that decided
            how = f": holds the heaviest tile, {_heaviest(deal.get('hands', [])[opener])}"
        # "opener leads any double, drawing until one turns up": the opener's draws before its lead
        return [f"{name(opener)} opens{how}"] + [
            f"  {name(s)} draws {t if _tile(t)[0] == _tile(t)[1] or reveal(s) else 'a tile'} (an opening draw: "
            "`opener leads any double, drawing until one turns up`)" for s, t in deal.get("opening_draws") or []]
    want, what = _what(cfg, deal, round_index)
    hands = deal.get("hands", [])
    if _held(hands, want):
        return [f"{name(opener)} opens: holds {want or _deciding_double(hands, opening)}"]
    how = cfg.no_double
    default = " (the default)" if how == "heaviest-tile" else ""
    out = [f"nobody holds {what}, so `if nobody holds the opening double: {FALLBACK[how]}` applies{default}"]
    draws = deal.get("opening_draws") or []
    for s, t in draws:
        shown = t if _tile(t)[0] == _tile(t)[1] or reveal(s) else "a tile"
        out.append(f"  {name(s)} draws {shown} (an opening draw)")
    if how == "draw" and draws and _tile(draws[-1][1])[0] == _tile(draws[-1][1])[1]:
        return out + [f"{name(opener)} opens: drew {draws[-1][1]}, which it leads"]
    if how == "heaviest-hand":
        pips = f" ({_pips(hands[opener])} pips)" if reveal(opener) else ""
        return out + [f"{name(opener)} opens: the heaviest hand{pips}, any tile"]
    if how == "next-seat":
        return out + [f"{name(opener)} opens: the next seat, any tile"]
    ran_out = "the boneyard ran out before a double turned up; " if how == "draw" else ""
    first = "the highest double held" if want and _held(hands, None) else "the heaviest tile"
    return out + [f"{name(opener)} opens: {ran_out}{first}"]


_OPENINGS = {
    "lottery": "lottery",
    "dominoer": "the dominoer",
    "after-dominoer": "the seat after the dominoer",
    "after-last-placer": "the seat after the last to place",
    "last-placer": "the last to place",
    "next-seat": "the next seat",
    "block-winner": "the block winner",
    "seat-0": "seat 0",
    "heaviest-tile": "the heaviest tile",
}
