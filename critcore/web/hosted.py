"""``crit serve`` over a PostgreSQL database: every campaign of it, each under ``/c/NAME/``, for
many groups (issue 26, docs/hosting.md).

- **Each campaign its own keys.** ``/c/NAME/...`` is the whole of ``crit serve`` (page and JSON
  API) for that campaign, and every game-master route needs *its* token (made by ``crit campaign
  new``, kept in the database as a digest); its players' link is ``/c/NAME/p/KEY``. A token or a
  key of one campaign is refused on every other: each request is checked against the digests of
  the campaign its path names, read from the database.
- **No state in the process.** Everything a request needs is read from the database in its own
  transaction, so any request may go to any worker, on any machine: ``crit serve --workers N``,
  or many servers behind a load balancer. A worker keeps only what it can rebuild (the apps it
  made, the pool's connections).
- **Health and readiness.** ``/healthz`` answers 200 while the process runs; ``/readyz`` 200
  when the database answers, 503 when it does not (take the worker out of the balancer).
"""

from __future__ import annotations

import os
import re
import threading
from typing import Any, Awaitable, Callable

from critcore.errors import CritcoreError
from critcore.web.security import HostedPolicy, is_loopback

Scope = dict[str, Any]
Receive = Callable[[], Awaitable[dict[str, Any]]]
Send = Callable[[dict[str, Any]], Awaitable[None]]

_PATH = re.compile(r"^/c/([a-z][a-z0-9_]{0,47})(/.*)?$")


async def _json(send: Send, status: int, body: dict[str, Any]) -> None:
    import json

    data = json.dumps(body).encode()
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(data)).encode())]})
    await send({"type": "http.response.body", "body": data})


class HostedApp:
    """The ASGI app serving every campaign of ``database`` (see the module's docstring)."""

    def __init__(self, database: str, *, registry: Any = None, who: str | None = None) -> None:
        from critcore.campaign.postgres import parse

        if registry is None:
            from critcore.stages.loader import Registry

            registry = Registry.installed()
        self.database = database
        self.shown = parse(database)[2]
        self.registry = registry
        self.who = who
        self._apps: dict[str, Any] = {}
        self._lock = threading.Lock()

    def app(self, name: str) -> Any:
        """The app of one campaign (made on its first request in this worker)."""
        with self._lock:
            found = self._apps.get(name)
        if found is not None:
            return found
        from critcore.campaign.postgres import PostgresStore
        from critcore.web.app import create_app

        location = f"{self.database}#{name}"
        keys = PostgresStore(location, pooled=True)  # refused here when there is no such campaign
        made = create_app(location, registry=self.registry, who=self.who, policy=HostedPolicy(keys.secret_digests))
        with self._lock:
            if len(self._apps) >= 256:  # a worker that met many campaigns: make them again as needed
                for old in self._apps.values():
                    old.state.service.close()
                self._apps.clear()
            return self._apps.setdefault(name, made)

    def ready(self) -> bool:
        from critcore.campaign.postgres import _pool

        try:
            with _pool(*self._address()).connection(timeout=2) as conn:
                conn.execute("SELECT 1")
            return True
        except Exception:  # noqa: BLE001 - any failure means: not ready
            return False

    def _address(self) -> tuple[str, str]:
        from critcore.campaign.postgres import parse

        address, _, shown = parse(self.database)
        return address, shown

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "lifespan":
            message = await receive()
            while message["type"] != "lifespan.shutdown":
                await send({"type": message["type"] + ".complete"})
                message = await receive()
            self.close()
            await send({"type": "lifespan.shutdown.complete"})
            return
        if scope["type"] != "http":
            return
        path = scope["path"]
        if path == "/healthz":
            await _json(send, 200, {"ok": True})
            return
        if path == "/readyz":
            from starlette.concurrency import run_in_threadpool

            ok = await run_in_threadpool(self.ready)
            await _json(send, 200 if ok else 503, {"ready": ok})
            return
        found = _PATH.match(path)
        if found is None:
            await _json(send, 404, {"error": f"{path[:80]}: no such page (a campaign is at /c/NAME/)",
                                    "status": 404})
            return
        from starlette.concurrency import run_in_threadpool

        try:
            app = await run_in_threadpool(self.app, found.group(1))
        except CritcoreError as exc:
            status = 404 if "no campaign there" in str(exc) else 503
            said = "no such campaign" if status == 404 else str(exc).splitlines()[0]
            await _json(send, status, {"error": f"/c/{found.group(1)}: {said}", "status": status})
            return
        prefix = f"/c/{found.group(1)}"
        if found.group(2) is None:  # /c/NAME: its page is /c/NAME/
            await send({"type": "http.response.start", "status": 308,
                        "headers": [(b"location", (prefix + "/").encode()), (b"content-length", b"0")]})
            await send({"type": "http.response.body", "body": b""})
            return
        # as Starlette's Mount does: the path stays whole, root_path says which part is the mount
        await app(dict(scope, root_path=scope.get("root_path", "") + prefix), receive, send)

    def close(self) -> None:
        with self._lock:
            for app in self._apps.values():
                app.state.service.close()
            self._apps.clear()


def from_environment() -> Any:
    """The app ``crit serve --workers N`` runs in each worker process (an ASGI factory, so that a
    documented ``uvicorn --factory critcore.web.hosted:from_environment`` runs the same):
    ``CRITCORE_CAMPAIGN`` names the database (every campaign in it) or one campaign file."""
    from critcore.web.app import create_app, with_limits

    where = os.environ.get("CRITCORE_CAMPAIGN", "")
    if not where:
        raise CritcoreError("CRITCORE_CAMPAIGN must name the database (postgresql://USER@HOST/DB) to serve")
    from critcore.campaign.campaign import is_database

    if is_database(where) and "#" not in where:
        return with_limits(HostedApp(where))
    host = os.environ.get("CRITCORE_HOST", "127.0.0.1")
    return with_limits(create_app(where, host=host, token=os.environ.get("CRITCORE_TOKEN") or None,
                                  players_key=os.environ.get("CRITCORE_PLAYERS_KEY") or None))


__all__ = ["HostedApp", "HostedPolicy", "from_environment", "is_loopback"]
