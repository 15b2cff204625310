"""The playground's HTTP endpoints: each one reads a bounded request, calls one helper, answers JSON.

Language work runs in the thread pool (the compiler and engine are plain Python).
"""
from __future__ import annotations

import json
from collections.abc import Callable

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response

from rulelang.playground import adapter, diagrams
from rulelang.playground.games import Game, GameStore, bot_names
from rulelang.playground.limits import MAX_PLAYERS, MAX_TRANSCRIPT, ApiError, int_field, read_json, text_field
from rulelang.playground.replays import replay_view
from rulelang.playground.sheet import sheet_html
from rulelang.playground.workspace import Workspace


def _workspace(request: Request) -> Workspace:
    workspace: Workspace = request.app.state.workspace
    return workspace


def _games(request: Request) -> GameStore:
    games: GameStore = request.app.state.games
    return games


def _analyse(request: Request, data: dict[str, object]) -> adapter.Analysis:
    """The analysis of the request's text, named by its optional workspace `path` (for `based on "FILE"`)."""
    text = text_field(data)
    ws = _workspace(request)
    return adapter.analyse_text(text, ws.text_path(data.get("path")), str(ws.root))


async def words(request: Request) -> JSONResponse:
    """Keywords for highlighting and statement starts for completion."""
    return JSONResponse(await run_in_threadpool(adapter.language_words))


async def variants(request: Request) -> JSONResponse:
    return JSONResponse({"variants": await run_in_threadpool(adapter.variants), "bots": bot_names()})


async def variant(request: Request) -> JSONResponse:
    name = request.path_params["name"]
    text = adapter.variant_text(name)
    if text is None:
        raise ApiError(404, f"there is no bundled ruleset `{name[:60]}`")
    return JSONResponse({"name": name, "text": text})


async def analyse(request: Request) -> JSONResponse:
    """Diagnostics (as `rulelang check`), and for a valid text its explanation, diff from the base, inherited rules."""
    data = await read_json(request)
    result = await run_in_threadpool(_analyse, request, data)
    return JSONResponse(result.to_json())


async def fmt(request: Request) -> JSONResponse:
    data = await read_json(request)
    text = text_field(data)
    path = _workspace(request).text_path(data.get("path"))
    formatted, diagnostics = await run_in_threadpool(adapter.format_ruleset_text, text, path)
    if formatted is None:
        return JSONResponse({"error": "fix the errors first: fmt cannot format a text with syntax errors",
                             "diagnostics": diagnostics}, status_code=422)
    return JSONResponse({"text": formatted, "changed": formatted != text})


async def files(request: Request) -> JSONResponse:
    ws = _workspace(request)
    return JSONResponse({"root": ws.root.name, "files": await run_in_threadpool(ws.files)})


async def file_read(request: Request) -> JSONResponse:
    name = request.query_params.get("path")
    text = await run_in_threadpool(_workspace(request).read, name)
    return JSONResponse({"path": name, "text": text})


async def file_write(request: Request) -> JSONResponse:
    data = await read_json(request)
    text = text_field(data)
    saved = await run_in_threadpool(_workspace(request).write, data.get("path"), text)
    return JSONResponse({"path": saved, "saved": True})


def _new_game(request: Request, data: dict[str, object]) -> Game:
    if "variant" in data:
        name = data["variant"]
        text = adapter.variant_text(name) if isinstance(name, str) else None
        if text is None:
            raise ApiError(404, f"there is no bundled ruleset `{str(name)[:60]}`")
        data = {**data, "text": text, "path": None}
    result = _analyse(request, data)
    if result.config is None:
        first = result.diagnostics[0]
        raise ApiError(422, f"the ruleset has errors; first: line {first['line']}: {first['message']}")
    counts = result.config["players"]["counts"]
    players = int_field(data, "players", counts[0], 2, MAX_PLAYERS)
    bots = data.get("bots", ["greedy"] * (players - 1))
    if not isinstance(bots, list) or not all(isinstance(b, str) for b in bots):
        raise ApiError(400, "`bots` must be a list of bot names")
    seed = int_field(data, "seed", 1, 0, 2**31 - 1)
    return Game(result.config, players, bots, seed)


async def game_new(request: Request) -> JSONResponse:
    data = await read_json(request)
    game = await run_in_threadpool(_new_game, request, data)
    key = _games(request).add(game)
    return JSONResponse(game.state(key), status_code=201)


async def _game_state_after(request: Request, act: Callable[[Game, dict[str, object]], None] | None) -> JSONResponse:
    """Do ACT (with the request's JSON body) on the game under its lock, then answer the game's state."""
    data = await read_json(request) if act is not None else {}
    key = request.path_params["game"]
    game = _games(request).get(key)

    def run() -> dict[str, object]:
        with game.lock:
            if act is not None:
                act(game, data)
            return game.state(key)

    return JSONResponse(await run_in_threadpool(run))


async def game_get(request: Request) -> JSONResponse:
    return await _game_state_after(request, None)


async def game_move(request: Request) -> JSONResponse:
    return await _game_state_after(request, lambda game, data: game.play(data.get("move"), data.get("claim")))


async def game_call(request: Request) -> JSONResponse:
    """The muggins rule: call on the last placement (`call`: true) or let it go (false)."""
    return await _game_state_after(request, lambda game, data: game.call(data.get("call")))


async def game_transcript(request: Request) -> Response:
    key = request.path_params["game"]
    game = _games(request).get(key)

    def transcript() -> str:
        with game.lock:
            return json.dumps(game.transcript(), indent=1) + "\n"

    text = await run_in_threadpool(transcript)
    name = f"{game.cfg.name}-seed{game.seed}.json"
    return Response(text, media_type="application/json",
                    headers={"Content-Disposition": f'attachment; filename="{name}"'})


def _turn(request: Request) -> int | None:
    raw = request.query_params.get("turn")
    if raw in (None, ""):
        return None
    try:
        return int(raw)
    except ValueError:
        raise ApiError(400, "`turn` must be a whole number") from None


async def game_replay(request: Request) -> JSONResponse:
    """The current game's layout after any of its turns."""
    key = request.path_params["game"]
    game = _games(request).get(key)
    turn = _turn(request)

    def view() -> dict[str, object]:
        with game.lock:
            transcript = game.transcript()
        return replay_view(transcript, turn)

    return JSONResponse(await run_in_threadpool(view))


async def replay(request: Request) -> JSONResponse:
    """An uploaded transcript (`rulelang play --save`, or a game's download), checked, after any turn."""
    data = await read_json(request, MAX_TRANSCRIPT)
    return JSONResponse(await run_in_threadpool(replay_view, data.get("transcript"), data.get("turn")))


async def game_delete(request: Request) -> JSONResponse:
    _games(request).remove(request.path_params["game"])
    return JSONResponse({"deleted": True})


async def cases(request: Request) -> JSONResponse:
    return JSONResponse({"cases": list(await run_in_threadpool(diagrams.case_index))})


async def case_svg(request: Request) -> Response:
    raw = request.query_params.get("step")
    step = None
    if raw not in (None, ""):
        try:
            step = int(raw)
        except ValueError:
            raise ApiError(400, "`step` must be a whole number") from None
    svg = await run_in_threadpool(diagrams.case_svg, request.path_params["case"], step)
    return Response(svg, media_type="image/svg+xml")


async def sheet(request: Request) -> HTMLResponse:
    """The printable sheet of a bundled variant (GET ?variant=NAME) or of the editor's text (POST)."""
    if request.method == "GET":
        name = request.query_params.get("variant", "")
        text = adapter.variant_text(name)
        if text is None:
            raise ApiError(404, f"there is no bundled ruleset `{name[:60]}`")
        data: dict[str, object] = {"text": text}
    else:
        data = await read_json(request)
    result = await run_in_threadpool(_analyse, request, data)
    if result.config is None:
        raise ApiError(422, "the ruleset has errors: fix them before printing its sheet")
    return HTMLResponse(await run_in_threadpool(sheet_html, result))
