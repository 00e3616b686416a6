"""The web edge of ``crit serve``: what every route shares before and after the campaign's work.

The JSON answer (:class:`JSONAnswer`), the app that answers a stateless resolve before Starlette
(:class:`App`, with the ASGI pieces its direct routes read and send by), the refusals at the edge
(:class:`WebError`: the host, the token, cross-site requests, the content type), the ``api``
decorator every JSON route goes through, the request body read and checked against its schema,
and where a campaign's app is mounted (:func:`root_of`). The routes themselves are
:mod:`critcore.web.app`'s.
"""

from __future__ import annotations

import functools
from typing import Any, Awaitable, Callable, Mapping

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.types import Receive, Scope, Send

from critcore._speed.jsonbytes import NOT_READ, json_dumps, json_loads
from critcore.errors import CritcoreError, InputError
from critcore.files.reading import check_data, load_json, max_digits
from critcore.report.textsafe import error_line
from critcore.web.schemas import check_body
from critcore.web.security import Policy
from critcore.web.service import error_status

Endpoint = Callable[[Request], Awaitable[Response]]


class JSONAnswer(JSONResponse):
    """Starlette's ``JSONResponse`` with the same JSON, encoded by orjson when it is installed
    (:mod:`critcore._speed.jsonbytes`: about 20 us less for a resolve's 4 KB answer)."""

    def render(self, content: Any) -> bytes:
        return json_dumps(content)


Direct = Callable[[Scope, Receive, Send], Awaitable[None]]


class App(Starlette):
    """Starlette, with the routes named in ``direct`` (``POST /api/resolve`` and ``/api/treat``)
    answered before Starlette's two middlewares, its router and its request and response objects
    (issue 25: a stateless resolve is the request a bot sends most). A direct route makes the same
    checks and gives the same answers and errors as the same route through Starlette (``api``);
    any other method on its path, and every other path, goes through Starlette."""

    direct: dict[str, Direct] = {}

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["method"] == "POST" and self.direct:
            found = self.direct.get(below_root(scope))
            if found is not None:
                await found(scope, receive, send)
                return
        await super().__call__(scope, receive, send)


def below_root(scope: Scope) -> str:
    """The request's path below the app's ``root_path``, as Starlette's router matches it."""
    path: str = scope["path"]
    root: str = scope.get("root_path", "")
    if not root or not path.startswith(root):
        return path
    if path == root:
        return ""
    return path[len(root):] if path[len(root)] == "/" else path


def header_map(scope: Scope) -> dict[str, str]:
    """The request's headers by lower-case name, the first of a repeated one (as Starlette's
    ``Headers.get`` answers)."""
    found: dict[str, str] = {}
    for name, value in scope["headers"]:
        key = name.decode("latin-1")
        if key not in found:
            found[key] = value.decode("latin-1")
    return found


async def whole_body(receive: Receive) -> bytes | None:
    """The request's body (None: the client went away before sending it all)."""
    chunks: list[bytes] = []
    while True:
        message = await receive()
        if message["type"] != "http.request":
            return None
        chunks.append(message.get("body", b""))
        if not message.get("more_body", False):
            return b"".join(chunks)


async def send_json(send: Send, status: int, data: Any) -> None:
    body = json_dumps(data)
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-length", str(len(body)).encode("latin-1")),
                            (b"content-type", b"application/json")]})
    await send({"type": "http.response.body", "body": body})


class WebError(Exception):
    """A refusal at the web edge (no token, cross-site, wrong content type): status and one line."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


# --- the edge: errors, tokens, cross-site checks -------------------------------------------------


def status_and_line(exc: BaseException, policy: Policy) -> tuple[int, str]:
    if isinstance(exc, WebError):
        return exc.status, str(exc)
    return error_status(exc), policy.public(error_line(str(exc)))


def check_host(request: Request, policy: Policy) -> None:
    host_ok(request.headers, policy)


def host_ok(headers: Mapping[str, str], policy: Policy) -> None:
    if not policy.host_allowed(headers.get("host", "")):
        raise WebError(403, "this server answers only requests addressed to 127.0.0.1 or localhost "
                            "(start it with --host and a token to serve other names)")


def check_gm(request: Request, policy: Policy) -> None:
    gm_ok(request.headers, request.cookies, policy)


def gm_ok(headers: Mapping[str, str], cookies: Mapping[str, str], policy: Policy) -> None:
    if not policy.gm_allowed(headers, cookies):
        raise WebError(401, "this server needs its token: open the link crit serve printed, or send "
                            "Authorization: Bearer TOKEN")


def api_edge(headers: Mapping[str, str], cookies: Mapping[str, str], method: str, policy: Policy,
              write: bool) -> None:
    """What every JSON route checks before it reads the body (see :func:`api`)."""
    host_ok(headers, policy)
    gm_ok(headers, cookies, policy)
    if write:
        if policy.cross_site(headers):
            raise WebError(403, "cross-site requests are refused")
        kind = headers.get("content-type", "").split(";")[0].strip().lower()
        if method in ("POST", "PUT", "PATCH") and kind != "application/json":
            raise WebError(415, "send the request body as JSON (Content-Type: application/json)")


def api(policy: Policy, write: bool = False) -> Callable[[Callable[[Request], Awaitable[Any]]], Endpoint]:
    """A JSON route: host and token checked; a change takes only a same-site application/json body;
    critcore's errors become ``{"error": LINE, "status": CODE}`` with a 4xx status."""

    def wrap(fn: Callable[[Request], Awaitable[Any]]) -> Endpoint:
        @functools.wraps(fn)
        async def endpoint(request: Request) -> Response:
            try:
                api_edge(request.headers, request.cookies, request.method, policy, write)
                data = await fn(request)
            except (CritcoreError, WebError) as exc:
                status, line = status_and_line(exc, policy)
                return JSONAnswer({"error": line, "status": status}, status_code=status)
            if isinstance(data, Response):
                return data
            return JSONAnswer(data)

        return endpoint

    return wrap


async def json_body(request: Request, what: str) -> Any:
    """The request's JSON body, checked against the route's declared schema
    (:mod:`critcore.web.schemas`) before anything runs."""
    return parse_body(await request.body(), what)


def parse_body(raw: bytes, what: str, limits: tuple[int, int] | None = None, reader: Any = None) -> Any:
    if not raw.strip():
        return check_body(what, {})
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise InputError("the request body is not UTF-8 text") from None
    # orjson reads no integer of 19 digits or more (json_loads); below a digit limit that low the
    # standard reader's own words for a long number are wanted (and for a byte-order mark)
    if not text.startswith("\ufeff") and (limits[1] if limits is not None else max_digits()) >= 18:
        data = json_loads(raw)
        if data is not NOT_READ:  # the value load_json reads, checked as it checks it
            check_data(data, "request body", limits=limits)
            return check_body(what, data)
    return check_body(what, load_json(text, "request body", limits=limits, reader=reader))


def root_of(request: Request) -> str:
    """Where this app is mounted: ``""`` when it serves one campaign at ``/``, ``/c/NAME`` for a
    campaign of a hosted database (:mod:`critcore.web.hosted`). Every link, form, redirect and
    cookie of the page starts with it, so the same templates serve both."""
    return str(request.scope.get("root_path", "")).rstrip("/")


def route_path(request: Request) -> str:
    """The request's path below :func:`root_of` (``/api/...``, ``/t/NAME``)."""
    path, root = request.url.path, root_of(request)
    return path[len(root):] if root and path.startswith(root + "/") else path


def int_query(request: Request, key: str, low: int, high: int) -> int | None:
    value = request.query_params.get(key)
    if value is None or value == "":
        return None
    if not (value.isascii() and value.isdigit()) or not low <= int(value) <= high:
        raise InputError(f"{key}: expected a whole number from {low} to {high}, got {value[:20]!r}")
    return int(value)
