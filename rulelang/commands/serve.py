"""`rulelang serve`: the playground in the browser, on this machine only unless told otherwise."""
from __future__ import annotations

import os
import threading
import webbrowser

import click

from rulelang.tools.configs import ToolError

MISSING = ("the playground needs the optional extra `serve` (Starlette and uvicorn): "
           "pip install 'rulelang[serve]'  (from a checkout: pip install '.[serve]')")


def _cannot_listen(host: str, port: int) -> str | None:
    """Why the server could not listen there (a port in use, an unknown address), or None."""
    import errno
    import socket

    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
        with socket.socket(infos[0][0], socket.SOCK_STREAM) as s:
            s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            s.bind(infos[0][4])
    except OSError as exc:
        reason = exc.strerror or str(exc)
        return reason + ("; choose another with --port" if exc.errno == errno.EADDRINUSE else "")
    return None


@click.command("serve")
@click.option("--port", type=click.IntRange(1, 65535), default=8765, show_default=True, help="The port to listen on.")
@click.option("--host", default="127.0.0.1", show_default=True,
              help="The address to listen on (another than 127.0.0.1 opens the playground to the network).")
@click.option("--workspace", type=click.Path(file_okay=False), default=".", show_default=True, metavar="DIR",
              help="The only folder the playground reads and writes ruleset files in.")
@click.option("--open", "open_browser", is_flag=True, help="Open the playground in the web browser.")
def serve_cmd(port: int, host: str, workspace: str, open_browser: bool) -> None:
    """Start the playground: write a ruleset and see it checked and explained as you type, play it
    against bots, browse the conformance diagrams, print a rules sheet. Stop with Ctrl-C."""
    try:
        import uvicorn

        from rulelang.playground import create_app
        create_app  # noqa: B018 - imported to fail early when Starlette is missing
    except ImportError:
        raise ToolError(MISSING) from None
    if not os.path.isdir(workspace):
        raise ToolError(f"--workspace {workspace}: no such folder")
    problem = _cannot_listen(host, port)
    if problem:
        raise ToolError(f"cannot listen on {host}:{port}: {problem}")
    hosts = [] if host in ("127.0.0.1", "localhost") else ["*"]
    if hosts:
        click.echo(f"warning: listening on {host}: anyone who can reach this machine can use the playground", err=True)
    app = create_app(workspace, hosts)
    shown = "127.0.0.1" if host in ("0.0.0.0", "::") else f"[{host}]" if ":" in host else host
    url = f"http://{shown}:{port}/"
    click.echo(f"rulelang playground on {url} (workspace: {os.path.abspath(workspace)}); Ctrl-C stops it")
    if open_browser:
        threading.Timer(1.0, webbrowser.open, args=(url,)).start()
    from rulelang.playground.connections import uvicorn_settings

    uvicorn.run(app, host=host, port=port, log_level="warning", **uvicorn_settings())  # bounded connections
