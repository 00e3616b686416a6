"""Who may do what on ``crit serve``.

- **Where it listens.** 127.0.0.1 by default. On any other address a *token* is required (made
  and printed at start, or given with ``--token``): with a token, every game-master route (the
  page and the API, reading or changing) needs it, as ``Authorization: Bearer TOKEN`` or the
  cookie the start-up link (``/login?token=...``) sets. The players' link needs none and can
  change nothing.
- **Host names.** Without a token the server answers only requests addressed to a loopback
  name (``127.0.0.1``, ``localhost``, ``[::1]``), so a web page cannot reach it through a
  DNS name it controls (DNS rebinding).
- **Cross-site requests.** Every form carries a per-browser secret that must match its cookie
  (double submit), and a request that a browser marks as cross-site (``Sec-Fetch-Site`` or an
  ``Origin`` of another host) is refused. The JSON API takes only ``application/json`` bodies,
  which a foreign page cannot send without the browser asking first (the server never allows
  it).
- **Size.** A request body over :data:`MAX_BODY` bytes is refused (413) before it is read whole.
"""

from __future__ import annotations

import hmac
import ipaddress
import os
import secrets
from typing import Any, Awaitable, Callable, Mapping

from critcore.files.reading import max_bytes as max_file_bytes

TOKEN_COOKIE = "critcore_token"
CSRF_COOKIE = "critcore_csrf"
LOOPBACK_NAMES = ("127.0.0.1", "localhost", "::1", "[::1]")


def max_body() -> int:
    """The largest request body taken: the largest file critcore reads, plus room for a form."""
    return max_file_bytes() + 64 * 1024


MAX_BODY = max_body()


def is_loopback(host: str) -> bool:
    if host in ("localhost",):
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def new_secret() -> str:
    return secrets.token_urlsafe(24)


def same(given: str | None, expected: str | None) -> bool:
    return bool(given) and bool(expected) and hmac.compare_digest(str(given).encode(), str(expected).encode())


class Policy:
    """The server's rules: its token (None: no token needed, loopback only) and the players' key."""

    keys_kept = False
    """True when the keys are the campaign's own, kept in it as digests (``crit campaign keys``):
    then this server does not know the players' key and its page cannot show the link."""

    def __init__(self, host: str, token: str | None = None, players_key: str | None = None) -> None:
        from critcore.errors import InputError

        self.host = host
        self.loopback = is_loopback(host)
        if token is not None and len(token) < 16:
            raise InputError("--token: use at least 16 characters (or leave it out and one is made)")
        if not self.loopback and token is None:
            token = new_secret()
        self.token = token
        self.players_key = players_key or new_secret()

    def keep_private(self, campaign: str) -> None:
        """Say where the campaign lives, which :meth:`public` keeps out of every answer."""
        import os

        full = os.path.abspath(campaign)
        self._private = [(full, os.path.basename(full)), (campaign, os.path.basename(full)),
                         (os.path.dirname(full) + os.sep, "")]

    def public(self, line: str) -> str:
        """An error line as the server may show it: no absolute path (the campaign's folder, a
        temporary folder, a house-rule file's), only file names."""
        import re

        for private, shown in getattr(self, "_private", ()):
            if private and os.sep in private:
                line = line.replace(private, shown)
        return re.sub(r"(?<![\w.~])/(?:[^/\s'\":]+/)+", "", line)

    def host_allowed(self, host_header: str) -> bool:
        """Without a token, only loopback names (see the module's docstring)."""
        if self.token is not None:
            return True
        name = host_header.rsplit(":", 1)[0] if not host_header.endswith("]") else host_header
        if host_header.startswith("["):
            name = host_header.split("]")[0] + "]"
        return name in LOOPBACK_NAMES or is_loopback(name)

    def token_ok(self, given: str | None) -> bool:
        """Is this the game master's token? (A hosted campaign checks its stored digest.)"""
        return same(given, self.token)

    def players_ok(self, given: str | None) -> bool:
        """Is this the players' key?"""
        return same(given, self.players_key)

    def gm_allowed(self, headers: Mapping[str, str], cookies: Mapping[str, str]) -> bool:
        if self.token is None:
            return True
        auth = headers.get("authorization", "")
        if auth.lower().startswith("bearer ") and self.token_ok(auth[7:].strip()):
            return True
        return self.token_ok(cookies.get(TOKEN_COOKIE))

    @staticmethod
    def cross_site(headers: Mapping[str, str]) -> bool:
        """Does the browser say this request comes from another site?"""
        site = headers.get("sec-fetch-site")
        if site is not None and site not in ("same-origin", "none"):
            return True
        origin = headers.get("origin")
        if origin and origin != "null":
            from urllib.parse import urlsplit

            return urlsplit(origin).netloc != headers.get("host", "")
        return origin == "null"


class HostedPolicy(Policy):
    """The rules of a campaign that keeps its own keys (every campaign of a database; a campaign
    file after ``crit campaign keys``): a token is always needed, and the token and the players'
    key are checked against the digests the campaign keeps, read at each check. So ``crit
    campaign keys``, which makes new ones, takes effect at once in every worker on every
    machine: the old token and the old players' link are refused from the next request on.

    ``digests`` reads them (a store's ``secret_digests``; on a campaign file, the calling
    thread's own connection)."""

    keys_kept = True

    def __init__(self, digests: Callable[[], Mapping[str, str]]) -> None:
        super().__init__("0.0.0.0", token="x" * 16, players_key="(the players' key)")
        self._digests = digests

    def token_ok(self, given: str | None) -> bool:
        from critcore.campaign.store import digest

        return bool(given) and same(digest(str(given)), self._digests().get("gm_token_sha256"))

    def players_ok(self, given: str | None) -> bool:
        from critcore.campaign.store import digest

        return bool(given) and same(digest(str(given)), self._digests().get("players_key_sha256"))


class BodyLimit:
    """ASGI middleware: a request body larger than ``limit`` bytes is answered 413, whether it
    says its length or streams it (``Transfer-Encoding: chunked``).

    The body is read here, up to the limit, before the app sees the request, and handed to it
    whole: a body found too large half way through the app (after it began answering) could only
    end in a 500 and a reset connection.
    """

    def __init__(self, app: Callable[..., Awaitable[None]], limit: int) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: dict[str, Any], receive: Callable[[], Awaitable[dict[str, Any]]],
                       send: Callable[[dict[str, Any]], Awaitable[None]]) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        for name, value in scope.get("headers", []):
            if name == b"content-length":
                try:
                    too_big = int(value) > self.limit
                except ValueError:
                    too_big = True
                if too_big:
                    await _too_large(send, self.limit)
                    return
        chunks: list[bytes] = []
        seen = 0
        while True:
            message = await receive()
            if message["type"] != "http.request":  # the client went away: nothing to answer
                return
            body = message.get("body", b"")
            seen += len(body)
            if seen > self.limit:
                if message.get("more_body", False):  # (after the last part, receive waits for the client to leave)
                    await _drain(receive, 4 * self.limit)
                await _too_large(send, self.limit)
                return
            chunks.append(body)
            if not message.get("more_body", False):
                break
        whole = b"".join(chunks)
        sent = False

        async def replay() -> dict[str, Any]:
            nonlocal sent
            if not sent:
                sent = True
                return {"type": "http.request", "body": whole, "more_body": False}
            return await receive()  # after the body: wait for the client to go away, as the server says

        await self.app(scope, replay, send)


async def _drain(receive: Callable[[], Awaitable[dict[str, Any]]], most: int) -> None:
    """Read and drop the rest of a refused body (up to ``most`` bytes), so the client reads the
    413 rather than a reset connection."""
    dropped = 0
    while dropped <= most:
        message = await receive()
        if message["type"] != "http.request" or not message.get("more_body", False):
            return
        dropped += len(message.get("body", b""))


class _TooLarge(Exception):
    pass


async def _too_large(send: Callable[[dict[str, Any]], Awaitable[None]], limit: int) -> None:
    import json

    body = json.dumps({"error": f"the request is too large (at most {limit:,} bytes)", "status": 413}).encode()
    await send({"type": "http.response.start", "status": 413,
                "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]})
    await send({"type": "http.response.body", "body": body})
