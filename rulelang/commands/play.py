"""`rulelang play` (a game in the terminal) and `rulelang replay` (a saved game, turn by turn)."""
from __future__ import annotations

import click

from rulelang.commands.complete import bundled_or_file
from rulelang.tools.configs import ToolError, load_engine_config, player_count


@click.command("play")
@click.argument("variant", metavar="VARIANT|FILE", shell_complete=bundled_or_file)
@click.option("--players", "-p", type=int, default=None, help="Number of players (default 2).")
@click.option("--seat", "seats", default=None, metavar="SPEC",
              help="Who sits where, e.g. 0=human,1=greedy,2=random (default: seat 0 human, others greedy).")
@click.option("--seed", type=int, default=None, help="Seed of the deal (default: random).")
@click.option("--tally", is_flag=True, help="Also show the scores as the paper tally.")
@click.option("--save", type=click.Path(dir_okay=False), default=None, metavar="FILE",
              help="Save the game's transcript to FILE when it ends (or is stopped).")
@click.option("--show-points/--hide-points", default=None,
              help="Show what each legal move would score (default: shown, except where points must be "
                   "claimed, as under the muggins rule, when the preview would claim them for you).")
def play_cmd(variant: str, players: int | None, seats: str | None, seed: int | None, tally: bool,
             save: str | None, show_points: bool | None) -> None:
    """Play VARIANT in the terminal against bots.

    On your turn, enter the number of a legal move (#12 for two digits), a
    tile as two digits ("15" is [1|5]) or the move itself ("[1|5] on [1|1]
    branch-a"), or draw where the rules offer it; ? lists the commands. q, Ctrl-D or Ctrl-C stop the game and
    offer to save it. Exit status: 0, 1 if the transcript cannot be saved,
    2 on wrong usage, 130 after Ctrl-C.
    """
    import os
    import random

    from rulelang.base.outfiles import output_problem, same_file
    from rulelang.tools.session import Game, parse_seats

    if save is not None and (problem := output_problem(save)):
        raise ToolError(f"--save {save}: cannot write there: {problem}")
    if save is not None and os.path.exists(variant) and same_file(save, variant):
        raise ToolError(f"--save {save}: that is the variant's file; saving there would replace it")
    data, cfg = load_engine_config(variant)
    players = player_count(cfg, players)
    kinds = parse_seats(seats, players)
    if "human" in kinds and _stdin_closed():
        raise ToolError("standard input is closed, so your moves cannot be read; "
                        "give it a terminal or a file, or seat only bots (--seat 0=greedy)")
    if seed is None:
        seed = random.SystemRandom().randrange(2**31)
    game = Game(cfg, players, kinds, seed, tally=tally, save=save, variant=variant, show_points=show_points)
    raise SystemExit(game.run())


def _stdin_closed() -> bool:
    """Whether the process was started with no standard input at all (`<&-`), not merely an empty one."""
    import os
    import sys

    if sys.stdin is None:  # Python's own sign that descriptor 0 was closed at start
        return True
    try:
        fd = sys.stdin.fileno()
    except (OSError, ValueError):  # a stream with no descriptor (a test's): it can still be read
        return False
    try:
        os.fstat(fd)
    except OSError:
        return True
    return False


@click.command("replay")
@click.argument("transcript", type=click.Path(dir_okay=False))
@click.option("--boards", is_flag=True, help="Show the layout after every turn (not only at each round's end).")
@click.option("--tally", is_flag=True, help="Also show the scores as the paper tally.")
@click.option("--check-only", is_flag=True, help="Only check the transcript against the rules.")
def replay_cmd(transcript: str, boards: bool, tally: bool, check_only: bool) -> None:
    """Check a saved game against the rules and print it turn by turn.

    A transcript that contradicts the rules is reported with the step where it
    goes wrong, and the exit status is 1.
    """
    from rulelang.tools.session import print_replay
    from rulelang.tools.transcripts import check_transcript, load_transcript

    t = load_transcript(transcript)
    check_transcript(t)
    if check_only:
        click.echo(f"{transcript}: consistent with the rules")
        return
    print_replay(t, boards=boards, tally=tally)
