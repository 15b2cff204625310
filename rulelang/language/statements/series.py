"""Statements of a match played as a series of games ("best of three"; docs/design/series.md).

A game is what the other statements call a match: rounds to the target from 0.
Both statements are optional: not written, their fields are omitted from the
configuration and a match is one game, as before.
"""
from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

from rulelang.language.statements.phrase import fill
from rulelang.language.statements.table import Doc, FieldDecl, Fields, Issue, choice, number

__all__ = ["STATEMENTS"]

GAMES = "the match is the best of {N:3,5} game[s]"


def _check_games(v: int) -> Iterator[Issue]:
    # "best of three": an odd number, so that two sides cannot share a majority of won games
    if v < 3 or v % 2 == 0:
        yield Issue("bad-number", "a series is the best of an odd number of games, at least 3",
                    f"write `{fill(GAMES, 3)}`")


def _explain_games(v: int | None, c: Fields) -> str:
    n = c.series_games
    if n is None:
        return "The match is one game: the first side to win it wins the match."
    return (f"The match is the best of {n} games: each game is played to the target from 0 (all the rules above "
            f"are a game's), and the first side to win {n // 2 + 1} games wins; a drawn game counts for no side, "
            f"and after {n} games without such a side the side that won the most games wins (shared: the match "
            "is drawn)." + (" Each game's first round is opened as the first round of the match is (`opener of the "
                            "first round`)." if c.game_opener == "first-round" else ""))


GAME_OPENERS = {
    "opener of a later game: as the first game": "first-round",
    "opener of a later game: the loser of the last draw": "draw-loser",
    "opener of a later game: the loser of the last game": "game-loser",
    "opener of a later game: the winner of the last game": "game-winner",
}

_MEANINGS = {
    "opener of a later game: as the first game": "each game's first round is opened by the rule of the first "
                                                  "round (under `lottery` the players draw again; the default)",
    "opener of a later game: the loser of the last draw": "the player who lost the draw for the opener of the "
                                                          "game before starts the next game; the game after it is "
                                                          "drawn for again (a league's \"Loser of the draw will "
                                                          "start second game, if there is a third game, draw out "
                                                          "again\"); needs `lottery` and 2 players",
    "opener of a later game: the loser of the last game": "the player who lost the game before starts the next "
                                                          "(after a drawn game, as the first game); 2 players",
    "opener of a later game: the winner of the last game": "the player who won the game before starts the next "
                                                           "(after a drawn game, as the first game); 2 players",
}


def _explain_game_opener(v: str, c: Fields) -> str:
    if c.series_games is None:
        return "There are no later games: the match is one game."
    first = "as the first round of the match is (`opener of the first round`)"
    return {
        "first-round": f"Each game's first round is opened {first}.",
        "draw-loser": ("The second game is started by the player who lost the draw for the first game's opener; a "
                       "third game is drawn for again, a fourth started by the loser of that draw, and so on."),
        "game-loser": f"Each later game is started by the player who lost the game before (after a drawn game, "
                      f"{first}).",
        "game-winner": f"Each later game is started by the player who won the game before (after a drawn game, "
                       f"{first}).",
    }[v]


STATEMENTS = (
    number(
        "series_games", "the number of games of the match", 4, "series_stmt", GAMES,
        explain=_explain_games, check=_check_games,
        docs=(Doc("`the match is the best of 3 games`", "a series of games (a pub league's \"best of three\"): "
                  "each game is what the statements above call a match, played to the target from 0; the first "
                  "side to win a majority of the games wins (a drawn game counts for no side; after N games "
                  "without a majority the most games won wins, shared: drawn); not written, a match is one game",
                  "`target.games` (omitted when not stated)"),),
        field=FieldDecl("target.games", "Positive | None", "the number of games of a series (best of N); not "
                        "written, a match is one game", default=None),
        features={"series": "target.games (`the match is the best of N games`): a match is a series of games, each "
                  "a protocol match from 0 whose first opener the driver gives; a case is one game, which ends as "
                  "a match does (PROTOCOL.md 3.8)"},
        required=False, meta={"default": None}),
    replace(
        choice("game_opener", "who opens a later game", 4, "game_opener_stmt", GAME_OPENERS,
               _explain_game_opener, _MEANINGS, ("series",),
               field=FieldDecl("target.game_opener", "GameOpener", "who opens each game of a series after the first",
                               default="first-round")),
        docs=tuple(Doc(f"`{p}`", _MEANINGS[p], f"`target.game_opener: {v}`" + (" (omitted)" if v == "first-round" else ""))
                   for p, v in GAME_OPENERS.items()),
        required=False, meta={"default": "first-round"}),
)
