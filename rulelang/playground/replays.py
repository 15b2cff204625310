"""A game turn by turn: the layout after any turn of a transcript (the `rulelang render --transcript`
machinery), for the game being played or a transcript the user uploads."""
from __future__ import annotations

from typing import cast

from rulelang.playground.limits import ApiError
from rulelang.tools.configs import ToolError
from rulelang.tools.documents import Transcript
from rulelang.tools.svg import round_svg
from rulelang.tools.transcripts import check_transcript, round_at, rounds_of


def replay_view(data: object, turn: object) -> dict[str, object]:
    """{svg, turn, turns, caption}: the layout after TURN turns (None: the last) of a checked transcript."""
    if not isinstance(data, dict) or "config" not in data or not ("rounds" in data or "deal" in data):
        raise ApiError(400, "not a rulelang transcript (no config, rounds or deal)")
    transcript = cast(Transcript, data)  # checked by the engine's replay below
    if turn is not None and (isinstance(turn, bool) or not isinstance(turn, int)):
        raise ApiError(400, "`turn` must be a whole number")
    try:
        check_transcript(transcript)
        turns = sum(len(r.get("turns", [])) for r in rounds_of(transcript))
        rnd, st = round_at(transcript, turn)
    except ToolError as exc:
        raise ApiError(400, exc.format_message()) from None
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise ApiError(400, f"malformed transcript: {type(exc).__name__}") from None
    if st is None:
        caption = "before the first turn"
        title = "Before the first turn"
    else:
        rec = st.record
        caption = (f"turn {st.number} of {turns} (round {st.round_index + 1}): seat {rec.get('seat')} plays "
                   f"{rec.get('move')}; ends {rec.get('count')}, {rec.get('points', 0)} raw")
        title = f"Turn {st.number}, round {st.round_index + 1}"
    return {"svg": round_svg(rnd, title=title), "turn": 0 if st is None else st.number, "turns": turns,
            "caption": caption}
