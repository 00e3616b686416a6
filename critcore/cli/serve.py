"""``crit serve``: the game master's screen in a browser, and an HTTP API, over a campaign.

The web part is optional (``pip install ".[web]"`` from a checkout); this module imports none of it
until the command runs, and says how to install it when it is missing.
"""

from __future__ import annotations

from typing import Any

import click

from critcore.cli.errors import FILE, Command, guarded, out, registry


@click.command(cls=Command)
@click.option("--campaign", type=FILE,
              help="Campaign file (default: $CRITCORE_CAMPAIGN, or critcore.db here or in a parent).")
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to listen on. Any other than loopback needs a token for the game master's routes.")
@click.option("--port", type=click.IntRange(0, 65535), default=8000, show_default=True, help="Port (0: any free one).")
@click.option("--token", envvar="CRITCORE_TOKEN",
              help="The game master's token (default: made at start when --host is not loopback; $CRITCORE_TOKEN).")
@click.option("--players-key", envvar="CRITCORE_PLAYERS_KEY",
              help="The secret part of the players' link (default: made at start).")
@click.pass_context
@guarded
def serve(ctx: click.Context, campaign: str | None, host: str, port: int, token: str | None,
          players_key: str | None) -> None:
    """Serve a campaign in a browser (the GM's page, a read-only players' link) and as a JSON API.

    Needs the web extra: pip install ".[web]" from a checkout of critcore. See docs/web.md.
    """
    from critcore.cli.errors import resume_gc
    from critcore._speed.diskcache import cache_writes

    resume_gc()  # a server runs for hours
    # and keeps what it parsed in memory: it writes no cache entries, which would otherwise be one
    # per uploaded unit (each read from a temporary file of its own) and grow without end
    cache_writes(False)
    try:
        import uvicorn

        from critcore.web.app import create_app, with_limits
    except ImportError as exc:
        from critcore.errors import CritcoreError

        raise CritcoreError(f"crit serve needs the web extra ({exc.name or exc} is missing): "
                            'pip install ".[web]" from a checkout of critcore (it is not on the package index yet)') from None
    from critcore.campaign.campaign import find_campaign
    from critcore.errors import CampaignError

    path = campaign or find_campaign()
    if path is None:
        raise CampaignError("no campaign here or in a parent folder: make one with `crit campaign new`, "
                            "or name it with --campaign FILE")
    app = create_app(path, host=host, token=token, players_key=players_key, registry=registry(ctx))
    policy = app.state.policy
    sock = _listen(host, port)
    shown = f"[{host}]" if ":" in host else host
    base = f"http://{shown}:{sock.getsockname()[1]}"
    out(f"serving {path} at {base}/" + (f"login?token={policy.token}" if policy.token else ""))
    out(f"players' link (read only): {base}/p/{policy.players_key}")
    if policy.token:
        out(f"API token: {policy.token}  (send Authorization: Bearer TOKEN)")
    out("Ctrl-C stops the server.")
    config = uvicorn.Config(with_limits(app), log_level="warning", lifespan="off", server_header=False,
                            limit_concurrency=200)
    try:
        uvicorn.Server(config).run(sockets=[sock])
    except KeyboardInterrupt:  # uvicorn re-raises the Ctrl-C it stopped on: a clean stop here
        out("stopped")
    finally:
        sock.close()
        app.state.service.close()


def _listen(host: str, port: int) -> Any:
    """A listening socket on host:port (bound here, so a port in use is one clear line)."""
    import socket

    from critcore.errors import InputError

    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
        sock.listen(2048)
    except (OSError, OverflowError) as exc:
        sock.close()
        raise InputError(f"--host {host} --port {port}: cannot listen there ({getattr(exc, 'strerror', None) or exc})") from None
    sock.set_inheritable(True)
    return sock
