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
@click.option("--workers", type=click.IntRange(1, 64), default=1, show_default=True,
              help="Worker processes (no state in them: any request may go to any; see docs/hosting.md).")
@click.pass_context
@guarded
def serve(ctx: click.Context, campaign: str | None, host: str, port: int, token: str | None,
          players_key: str | None, workers: int) -> None:
    """Serve a campaign in a browser (the GM's page, a read-only players' link) and as a JSON API.

    --campaign postgresql://USER@HOST/DB serves every campaign of that database, each at
    /c/NAME/ with its own token and players' key (docs/hosting.md).

    Needs the web extra: pip install ".[web]" from a checkout of critcore. See docs/web.md.
    """
    from critcore.cli.errors import resume_gc
    from critcore._speed.diskcache import cache_writes

    resume_gc()  # a server runs for hours
    import sys

    # Long work (odds, simulate) runs in a worker thread, which holds the GIL until the interpreter
    # asks it to let go: every 1 ms instead of 5 ms, so requests beside it wait less (a stateless
    # resolve beside a 200,000-run simulate: p50 0.8 ms instead of 4-6 ms; bench/bench_web.py)
    sys.setswitchinterval(0.001)
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
    from critcore.campaign.campaign import is_database

    if (is_database(path) and "#" not in path) or workers > 1:
        _serve_hosted(path, host, port, token, players_key, workers)
        return
    app = create_app(path, host=host, token=token, players_key=players_key, registry=registry(ctx))
    policy = app.state.policy
    sock = _listen(host, port)
    shown = f"[{host}]" if ":" in host else host
    base = f"http://{shown}:{sock.getsockname()[1]}"
    if policy.keys_kept:
        _say_kept(path, base)
    else:
        out(f"serving {path} at {base}/" + (f"login?token={policy.token}" if policy.token else ""))
        out(f"players' link (read only): {base}/p/{policy.players_key}")
        if policy.token:
            out(f"API token: {policy.token}  (send Authorization: Bearer TOKEN)")
    out("Ctrl-C stops the server.")
    _settle(app.state.service)
    # no access log (log_level warning would drop its lines anyway, after formatting each); the HTTP
    # parser and the event loop are uvicorn's choice: httptools and uvloop when they are installed
    config = uvicorn.Config(with_limits(app), log_level="warning", access_log=False, lifespan="off",
                            server_header=False, limit_concurrency=200)
    try:
        uvicorn.Server(config).run(sockets=[sock])
    except KeyboardInterrupt:  # uvicorn re-raises the Ctrl-C it stopped on: a clean stop here
        out("stopped")
    finally:
        sock.close()
        app.state.service.close()


def _serve_hosted(path: str, host: str, port: int, token: str | None, players_key: str | None,
                  workers: int) -> None:
    """Every campaign of a database (or one campaign in several worker processes): each worker
    makes the app from the environment (``critcore.web.hosted.from_environment``), holding no
    state of its own; the socket is bound here, so a port in use is one line."""
    import os

    import uvicorn

    from critcore.campaign.campaign import is_database
    from critcore.errors import InputError
    from critcore.web.security import is_loopback, new_secret

    hosted = is_database(path) and "#" not in path
    if hosted:
        from critcore.campaign.postgres import campaigns, parse

        shown = parse(path)[2]
        found = campaigns(path)  # the database answers, or one line now
    elif _keeps_keys(path):  # one campaign in several processes, with the keys it keeps
        if token is not None or players_key is not None:
            raise InputError(f"{'--token' if token is not None else '--players-key'}: {path} keeps its own keys "
                             "(crit campaign keys): leave out --token and --players-key (and $CRITCORE_TOKEN, "
                             "$CRITCORE_PLAYERS_KEY)")
        os.environ.update({"CRITCORE_HOST": host, "CRITCORE_TOKEN": "", "CRITCORE_PLAYERS_KEY": ""})
    else:  # one campaign in several processes: its keys made once, here, for all of them
        if token is None and not is_loopback(host):
            token = new_secret()
        players_key = players_key or new_secret()
        os.environ.update({"CRITCORE_HOST": host, "CRITCORE_TOKEN": token or "", "CRITCORE_PLAYERS_KEY": players_key})
    os.environ["CRITCORE_CAMPAIGN"] = path
    sock = _listen(host, port)
    where = f"http://{f'[{host}]' if ':' in host else host}:{sock.getsockname()[1]}"
    if hosted:
        out(f"serving {len(found)} campaign(s) of {shown} at {where}/c/NAME/ with {workers} worker(s)")
        out(f"health: {where}/healthz  readiness: {where}/readyz")
    elif not players_key:
        _say_kept(path, where, f" with {workers} worker(s)")
    else:
        out(f"serving {path} at {where}/" + (f"login?token={token}" if token else "") + f" with {workers} worker(s)")
        out(f"players' link (read only): {where}/p/{players_key}")
    out("Ctrl-C stops the server.")
    config = uvicorn.Config("critcore.web.hosted:from_environment", factory=True, workers=workers,
                            fd=sock.fileno(), log_level="warning", access_log=False, lifespan="auto", server_header=False,
                            limit_concurrency=200 * workers)
    try:
        if workers > 1:
            from uvicorn.supervisors import Multiprocess

            import inspect

            if "target" in inspect.signature(Multiprocess).parameters:  # uvicorn before 0.50
                Multiprocess(config, target=uvicorn.Server(config).run, sockets=[sock]).run()  # type: ignore[call-arg]  # older signature
            else:
                Multiprocess(config, sockets=[sock]).run()
        else:
            uvicorn.Server(config).run(sockets=[sock])
    except KeyboardInterrupt:
        out("stopped")
    finally:
        sock.close()


def _keeps_keys(path: str) -> bool:
    """Does the campaign keep a token and players' key of its own (``crit campaign keys``)?"""
    from critcore.campaign.campaign import open_store

    store = open_store(path)
    try:
        return bool(store.secret_digests())
    finally:
        store.close()


def _say_kept(path: str, base: str, workers: str = "") -> None:
    out(f"serving {path} at {base}/{workers}: it keeps its own keys, so sign in at {base}/login?token=TOKEN "
        "with the game master's token crit campaign keys printed")
    out(f"players' link (read only): {base}/p/KEY, with the players' key it printed")


def _settle(service: Any) -> None:
    """Build each system's engine now (the first request of each would otherwise wait for its
    tables), then move everything made so far out of the garbage collector's sight (``gc.freeze``):
    its full collections, which every few thousand requests would walk the tables of every system,
    then walk only what requests made."""
    import gc

    from critcore.errors import CritcoreError

    for system in sorted(service.registry.systems):
        try:
            service.engine(system)
        except CritcoreError:  # a broken system: its requests say so, one at a time
            pass
    gc.collect()
    gc.freeze()


def _listen(host: str, port: int) -> Any:
    """A listening socket on host:port (bound here, so a port in use is one clear line).

    Made with ``proto=IPPROTO_TCP``: asyncio turns Nagle's algorithm off (``TCP_NODELAY``) only
    on connections whose socket says so, and a connection takes its ``proto`` from the listening
    socket. With ``proto`` 0 every answer whose headers and body went out in two writes waited
    for the client's delayed ACK: about 40 ms a request (issue 25).
    """
    import socket

    from critcore.errors import InputError

    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)  # and on the socket itself (Linux passes it on)
    try:
        sock.bind((host, port))
        sock.listen(2048)
    except (OSError, OverflowError) as exc:
        sock.close()
        raise InputError(f"--host {host} --port {port}: cannot listen there ({getattr(exc, 'strerror', None) or exc})") from None
    sock.set_inheritable(True)
    return sock
