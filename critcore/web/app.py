"""The routes of ``crit serve`` (Starlette): the game master's page, the players' link and the JSON API.

Handlers read the request (asynchronously), then do the campaign's work in a worker thread
(:func:`starlette.concurrency.run_in_threadpool`): :class:`~critcore.web.service.Service` opens
the campaign once per thread and every change is one campaign transaction. The routes are
listed in docs/web.md.
"""

from __future__ import annotations

import functools
import json
import os
from pathlib import Path
from typing import Any, Awaitable, Callable, ParamSpec, TypeVar

from starlette.concurrency import run_in_threadpool
from starlette.datastructures import FormData, UploadFile
from starlette.requests import Request, cookie_parser
from starlette.responses import RedirectResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.templating import Jinja2Templates
from starlette.types import Receive, Scope, Send

from critcore.errors import CritcoreError, InputError
from critcore.files.reading import json_reader, max_depth, max_digits
from critcore.report.textsafe import error_line
from critcore.web.edge import (App, Direct, Endpoint, JSONAnswer, WebError, api, api_edge, check_gm, check_host,
                               header_map, int_query, json_body, parse_body, root_of, route_path, send_json,
                               status_and_line, whole_body)
from critcore.web.longwork import Deadline, LongWork
from critcore.web.security import CSRF_COOKIE, MAX_BODY, TOKEN_COOKIE, BodyLimit, Policy, new_secret, same
from critcore.web.service import Service

HERE = Path(__file__).resolve().parent
_P = ParamSpec("_P")
_T = TypeVar("_T")
LOG_SHOWN = 40


# --- the app -------------------------------------------------------------------------------------------


def keeps_keys(service: Service) -> bool:
    """Does the campaign keep a game master's token and players' key of its own?"""
    return bool(service.campaign().store.secret_digests())


def _campaign_policy(service: Service, host: str, token: str | None, players_key: str | None) -> Policy:
    if not keeps_keys(service):
        return Policy(host, token, players_key)
    if token is not None or players_key is not None:
        given = "--token" if token is not None else "--players-key"
        raise InputError(f"{given}: {service.campaign().path} keeps its own keys (crit campaign keys): leave out "
                         "--token and --players-key (and $CRITCORE_TOKEN, $CRITCORE_PLAYERS_KEY)")
    from critcore.web.security import HostedPolicy

    return HostedPolicy(lambda: service.campaign().store.secret_digests())  # this thread's connection


def create_app(campaign: str, *, host: str = "127.0.0.1", token: str | None = None,
               players_key: str | None = None, registry: Any = None, who: str | None = None,
               policy: Policy | None = None) -> App:
    """The ASGI app serving ``campaign`` (a campaign file); ``app.state.policy`` holds its token
    and the players' key (``policy``: a hosted campaign's, checked against its stored keys).

    A campaign that keeps keys of its own (``crit campaign keys``) is served with them, checked
    against its digests at each request, and refuses ``token`` and ``players_key``."""
    if policy is None and token is not None and len(token) < 16:
        Policy(host, token)  # the line saying why, before the campaign is opened
    service = Service(campaign, registry=registry, who=who)
    if policy is None:
        try:
            policy = _campaign_policy(service, host, token, players_key)
        except BaseException:
            service.close()
            raise
    policy.keep_private(campaign)
    long_work = LongWork()  # odds and simulate: bounded, timed, refused when full
    import jinja2

    env = jinja2.Environment(loader=jinja2.FileSystemLoader(str(HERE / "templates")), autoescape=True)
    templates = Jinja2Templates(env=env)
    templates.env.globals["json"] = json

    def call(fn: Callable[_P, _T], *args: _P.args, **kwargs: _P.kwargs) -> Awaitable[_T]:
        return run_in_threadpool(fn, *args, **kwargs)

    # --- pages -------------------------------------------------------------------------------------

    def csrf_of(request: Request) -> str:
        return request.cookies.get(CSRF_COOKIE) or request.state.__dict__.setdefault("new_csrf", new_secret())

    # a file by its name; a campaign of a database by its name after '#' (never the address)
    shown_name = campaign.rsplit("#", 1)[-1] if "://" in campaign else os.path.basename(campaign)

    def page(request: Request, name: str, context: dict[str, Any], status: int = 200) -> Response:
        context = {"policy": policy, "csrf": csrf_of(request), "campaign": shown_name, "root": root_of(request),
                   **context}
        response = templates.TemplateResponse(request, name, context, status_code=status)
        fresh = request.state.__dict__.get("new_csrf")
        if fresh and not request.cookies.get(CSRF_COOKIE):
            response.set_cookie(CSRF_COOKIE, fresh, httponly=True, samesite="strict", path=root_of(request) + "/")
        response.headers["Content-Security-Policy"] = ("default-src 'self'; img-src 'self' data:; "
                                                       "style-src 'self' 'unsafe-inline'; script-src 'self'; frame-ancestors 'none'; form-action 'self'")
        response.headers["X-Content-Type-Options"] = "nosniff"
        response.headers["Referrer-Policy"] = "same-origin"  # "no-referrer" would make forms send Origin: null
        return response

    def gm_page(write: bool = False) -> Callable[[Callable[..., Awaitable[Response]]], Endpoint]:
        def wrap(fn: Callable[..., Awaitable[Response]]) -> Endpoint:
            @functools.wraps(fn)
            async def endpoint(request: Request) -> Response:
                form: FormData | None = None
                try:
                    check_host(request, policy)
                    check_gm(request, policy)
                    if write:
                        if policy.cross_site(request.headers):
                            raise WebError(403, "cross-site form posts are refused")
                        form = await request.form(max_part_size=MAX_BODY)
                        if not (same(str(form.get("csrf", "")), request.cookies.get(CSRF_COOKIE))):
                            raise WebError(403, "the form is stale or came from another site: reload the page "
                                                "and send it again")
                    return await (fn(request, form) if write else fn(request))
                except (CritcoreError, WebError) as exc:
                    status, line = status_and_line(exc, policy)
                    return page(request, "error.html", {"status": status, "message": line,
                                                        "back": root_of(request) + "/"}, status)

            return endpoint

        return wrap

    def _target_cards() -> list[dict[str, Any]]:
        from critcore.web.pictures import picture

        cards = []
        camp = service.campaign()
        for t in camp.targets():
            card: dict[str, Any] = {"name": t.name, "system": t.system, "installed": t.installed,
                                    "changes": t.changes, "updated": t.updated, "panels": []}
            if t.installed:
                try:
                    card["panels"] = picture(service.engine(t.system), camp.state(t.name))
                except CritcoreError as exc:  # a damaged target is shown as damaged; the rest of the page works
                    card["damaged"] = policy.public(error_line(str(exc)))
                    card["panels"] = [{"type": "alert", "tone": "bad", "text": f"damaged: {card['damaged']}"}]
            cards.append(card)
        return cards

    def _undoable(name: str | None = None) -> set[int]:
        """The entries an undo button takes back: each target's latest change still in force
        (undo always takes back a target's latest change, so only that one gets a button); found
        through the campaign's index, whatever the log's length."""
        found = service.campaign().in_force(name)
        return {e.id for e in found.values() if e.kind in ("resolve", "treat")}

    @gm_page()
    async def index(request: Request) -> Response:
        def work() -> dict[str, Any]:
            shown = service.campaign().log(limit=LOG_SHOWN, outcomes=False)  # the table links to each report
            return {"cards": _target_cards(), "log": list(reversed(shown)),
                    "undoable": _undoable(),
                    "systems": sorted(service.registry.systems), "examples": service.examples()}

        data = await call(work)
        return page(request, "index.html", data)

    @gm_page()
    async def target_page(request: Request) -> Response:
        name = request.path_params["name"]
        shown = int_query(request, "shown", 1, 2**62)

        def work() -> dict[str, Any]:
            from critcore.web.forms import procedure_forms
            from critcore.web.pictures import picture

            camp = service.campaign()
            system = camp.system_of(name)
            engine = service.engine(system)
            data: dict[str, Any] = {"name": name, "system": system,
                                    "panels": picture(engine, camp.state(name)),
                                    "forms": procedure_forms(engine.info),
                                    "log": list(reversed(camp.log(name, limit=LOG_SHOWN, outcomes=False)))}
            data["undoable"] = _undoable(name)
            if shown is not None:
                data["result"] = service.reports(shown)
            return data

        return page(request, "target.html", await call(work))

    @gm_page(write=True)
    async def run_form(request: Request, form: FormData) -> Response:
        from critcore.web.forms import run_body

        name = request.path_params["name"]
        root = root_of(request)

        def work() -> Response:
            from critcore.web.forms import RollTypo

            try:
                verb, mode, body = run_body(form, name)
            except RollTypo as typo:  # ask for the same roll again, saying what was wrong
                verb, mode, body = typo.retry
                answer = service.step(verb, body)
                return page(request, "roll.html", {"name": name, "verb": verb, "answer": answer, "body": body,
                                                   "problem": str(typo), "action": f"{root}/t/{name}/run"}, 400)
            if mode == "rolls":
                answer = service.step(verb, body)
                if "need" in answer:
                    return page(request, "roll.html", {"name": name, "verb": verb, "answer": answer,
                                                       "body": body, "action": f"{root}/t/{name}/run"})
            else:
                answer = service.run(verb, body)
            if answer.get("preview") or not answer.get("log"):
                return page(request, "preview.html", {"name": name, "answer": answer})
            return RedirectResponse(f"{root}/t/{name}?shown={answer['log']}#result", status_code=303)

        return await call(work)

    @gm_page()
    async def system_page(request: Request) -> Response:
        system = request.path_params["system"]

        def work() -> dict[str, Any]:
            from critcore.web.forms import procedure_forms

            info = service.engine(system).info
            forms = [f for f in procedure_forms(info) if f["target"] != "required"]
            return {"system": system, "title": info.title, "forms": forms}

        return page(request, "system.html", await call(work))

    @gm_page(write=True)
    async def system_run(request: Request, form: FormData) -> Response:
        from critcore.web.forms import RollTypo, run_body

        system = request.path_params["system"]
        action = f"{root_of(request)}/s/{system}/run"

        def work() -> Response:
            try:
                verb, mode, body = run_body(form, None, system)
            except RollTypo as typo:
                verb, mode, body = typo.retry
                return page(request, "roll.html", {"name": system, "verb": verb, "body": body, "action": action,
                                                   "answer": service.step(verb, body), "problem": str(typo)}, 400)
            if mode == "rolls":
                answer = service.step(verb, body, both_views=True)
                if "need" in answer:
                    return page(request, "roll.html", {"name": system, "verb": verb, "answer": answer,
                                                       "body": body, "action": action})
            else:
                answer = service.run(verb, body, both_views=True)
            return page(request, "result.html", {"system": system, "answer": answer})

        return await call(work)

    @gm_page(write=True)
    async def undo_form(request: Request, form: FormData) -> Response:
        name = request.path_params["name"]
        which = request.path_params["which"]
        if which not in ("undo", "redo"):
            raise WebError(404, f"/t/{name}/{which[:20]}: not found")
        await call(service.undo if which == "undo" else service.redo, name)
        back = form.get("back") or f"/t/{name}"  # below the root: only the two pages with an undo button
        return RedirectResponse(root_of(request) + (back if back in ("/", f"/t/{name}") else "/"), status_code=303)

    @gm_page(write=True)
    async def add_form(request: Request, form: FormData) -> Response:
        upload = form.get("file")
        body: dict[str, Any] = {"system": form.get("system") or None, "name": form.get("name") or None}
        example = form.get("example") or ""
        if example:
            system, _, file = str(example).partition("/")
            body.update(system=system, example=file)
        elif isinstance(upload, UploadFile) and upload.filename:
            raw = await upload.read()
            try:
                body.update(file=upload.filename, text=raw.decode("utf-8"))
            except UnicodeDecodeError:
                body.update(file=upload.filename, text=raw.decode("cp1252", errors="replace"))
        else:
            raise InputError("add a target: choose a file or one of the examples")
        info = await call(service.add, body)
        return RedirectResponse(f"{root_of(request)}/t/{info['name']}", status_code=303)

    @gm_page()
    async def odds_page(request: Request) -> Response:
        from critcore.web.forms import odds_body

        if not request.query_params.get("system"):
            return page(request, "odds.html", {"system": "", "choose": sorted(service.registry.systems), "forms": []})

        def work(deadline: Deadline) -> dict[str, Any]:
            from critcore.web.forms import procedure_forms
            from critcore.web.pictures import chart_rows, odds_svg

            system, body, target = odds_body(request.query_params)
            engine = service.engine(system)
            data: dict[str, Any] = {"system": system, "forms": procedure_forms(engine.info, verbs=("resolve", "treat")),
                                    "targets": [t.name for t in service.campaign().targets() if t.system == system],
                                    "chosen": body, "target": target}
            if body.get("procedure"):
                try:
                    result, _ = service.odds("odds", body, deadline=deadline)
                except InputError as exc:  # a value the procedure needs: asked for on the form, not an error page
                    data["problem"] = str(exc)
                    return data
                events, groups = chart_rows(result)
                title = f"{system} {result.procedure}: exact odds" + (f" on {target}" if target else "")
                from markupsafe import Markup

                data.update(svg=Markup(odds_svg(title, events, groups)), events=events, groups=groups,
                            exact=result.exact)
            return data

        return page(request, "odds.html", await long_work.run("odds", work))

    @gm_page()
    async def tables_page(request: Request) -> Response:
        system = request.path_params["system"]
        tables = await call(service.tables, system)
        return page(request, "tables.html", {"system": system, "tables": tables})

    async def table_download(request: Request) -> Response:
        system, table, fmt = (request.path_params[k] for k in ("system", "table", "fmt"))
        return await call(_table_response, system, table, fmt)

    def _table_response(system: str, name: str, fmt: str) -> Response:
        from critcore.report.export import csv_text, foundry_table, roll20_table

        table = service.table(system, name)
        if fmt == "foundry":
            body = json.dumps(foundry_table(table, system), ensure_ascii=False, indent=2)
            kind, file = "application/json", f"fvtt-RollTable-{system}-{name}.json"
        elif fmt == "roll20":
            body = json.dumps(roll20_table(table, system), ensure_ascii=False, indent=2)
            kind, file = "application/json", f"roll20-{system}-{name}.json"
        elif fmt == "csv":
            body, kind, file = csv_text([table]), "text/csv; charset=utf-8", f"{system}-{name}.csv"
        elif fmt == "json":
            body, kind, file = json.dumps(table.to_json(), ensure_ascii=False), "application/json", f"{system}-{name}.json"
        else:
            raise InputError(f"format {fmt[:20]!r}: use foundry, roll20, csv or json")
        return Response(body, media_type=kind, headers={"Content-Disposition": f'attachment; filename="{file}"'})

    # --- the players' link ------------------------------------------------------------------------------

    def _players_check(request: Request) -> None:
        check_host(request, policy)
        if not policy.players_ok(request.path_params.get("key")):
            raise WebError(404, "no such page (ask the game master for the players' link)")

    async def players(request: Request) -> Response:
        try:
            _players_check(request)
        except WebError as exc:
            return page(request, "error.html", {"status": exc.status, "message": str(exc), "back": ""}, exc.status)
        try:
            data = await call(service.player_feed, LOG_SHOWN)
        except CritcoreError as exc:  # the campaign cannot be read (damaged, busy): one line, no 500
            status, line = status_and_line(exc, policy)
            return page(request, "error.html", {"status": status, "message": line, "back": ""}, status)
        response = page(request, "players.html", {"feed": data["feed"], "version": data["version"],
                                                   "targets": data["targets"],
                                                  "key": request.path_params["key"]})
        return response

    async def players_version(request: Request) -> Response:
        try:
            _players_check(request)
        except WebError as exc:
            return JSONAnswer({"error": str(exc), "status": exc.status}, status_code=exc.status)
        try:
            return JSONAnswer({"version": await call(service.version)})
        except CritcoreError as exc:
            status, line = status_and_line(exc, policy)
            return JSONAnswer({"error": line, "status": status}, status_code=status)

    # --- the JSON API ----------------------------------------------------------------------------------

    @api(policy)
    async def api_systems(request: Request) -> Any:
        return await call(service.systems)

    @api(policy)
    async def api_system(request: Request) -> Any:
        return await call(service.procedures, request.path_params["system"])

    @api(policy)
    async def api_tables(request: Request) -> Any:
        return await call(service.tables, request.path_params["system"])

    @api(policy)
    async def api_table(request: Request) -> Any:
        fmt = request.query_params.get("format", "json")
        return await call(_table_response, request.path_params["system"], request.path_params["table"], fmt)

    @api(policy)
    async def api_targets(request: Request) -> Any:
        return await call(service.targets)

    @api(policy, write=True)
    async def api_add(request: Request) -> Any:
        body = await json_body(request, "add a target")
        return JSONAnswer(await call(service.add, body), status_code=201)

    @api(policy)
    async def api_target(request: Request) -> Any:
        return await call(service.target, request.path_params["name"])

    @api(policy, write=True)
    async def api_remove(request: Request) -> Any:
        await json_body(request, "remove request")
        return await call(service.remove, request.path_params["name"])

    @api(policy, write=True)
    async def api_undo(request: Request) -> Any:
        which = request.path_params["which"]
        if which not in ("undo", "redo"):
            raise WebError(404, f"{request.url.path}: not found (POST .../undo or .../redo)")
        await json_body(request, f"{which} request")
        return await call(service.undo if which == "undo" else service.redo, request.path_params["name"])

    @api(policy)
    async def api_log(request: Request) -> Any:
        limit = int_query(request, "limit", 1, 100_000)
        return await call(service.log, request.query_params.get("target") or None, limit)

    def run_route(verb: str, step: bool) -> Endpoint:
        @api(policy, write=True)
        async def endpoint(request: Request) -> Any:
            body = await json_body(request, f"{verb} {'step' if step else 'request'}")
            if isinstance(body, dict) and not body.get("target"):
                # no campaign target: no write, no lock to wait for, a few hundred microseconds of
                # work: done here, which is cheaper than the hand-over to a worker thread and back
                # (the GIL lets only one run at a time either way; see docs/performance-log.md)
                return service.step(verb, body) if step else service.run(verb, body, encoded=True)
            if step:
                return await call(service.step, verb, body)
            return await call(service.run, verb, body, encoded=True)

        return endpoint

    def run_direct(verb: str) -> Direct:
        """``run_route(verb, False)`` without Starlette around it (see :class:`~critcore.web.edge.App`)."""
        what = f"{verb} request"
        run = service.run
        limits = (max_depth(), max_digits())  # CRITCORE_MAX_DEPTH and _DIGITS, read at the server's start
        reader = json_reader(limits[1])  # and the decoder for them, made once

        async def direct(scope: Scope, receive: Receive, send: Send) -> None:
            headers = header_map(scope)
            try:
                cookies = cookie_parser(headers["cookie"]) if "cookie" in headers else {}
                api_edge(headers, cookies, "POST", policy, True)
                raw = await whole_body(receive)
                if raw is None:  # the client went away: nobody to answer
                    return
                body = parse_body(raw, what, limits, reader)
                if isinstance(body, dict) and not body.get("target"):
                    data = run(verb, body, encoded=True)  # done here, as run_route does (no write, no lock)
                else:
                    data = await call(run, verb, body, encoded=True)
            except (CritcoreError, WebError) as exc:
                status, line = status_and_line(exc, policy)
                await send_json(send, status, {"error": line, "status": status})
                return
            await send_json(send, 200, data)

        return direct

    def odds_route(mode: str) -> Endpoint:
        @api(policy, write=True)  # a POST with a JSON body, like the others; it changes nothing
        async def endpoint(request: Request) -> Any:
            body = await json_body(request, f"{mode} request")
            return (await long_work.run(mode, lambda deadline: service.odds(mode, body, deadline=deadline)))[1]

        return endpoint

    async def not_found(request: Request, exc: Exception) -> Response:
        status = getattr(exc, "status_code", 404)
        detail = getattr(exc, "detail", "") or "not found"
        message = f"{request.url.path}: {detail.lower() if isinstance(detail, str) else 'not found'}"
        if route_path(request).startswith("/api/"):
            return JSONAnswer({"error": message, "status": status}, status_code=status)
        return page(request, "error.html", {"status": status, "message": message, "back": root_of(request) + "/"},
                    status)

    async def login(request: Request) -> Response:
        given = request.query_params.get("token", "")
        if policy.token is not None and not policy.token_ok(given):
            return page(request, "error.html", {"status": 401, "message": "wrong token", "back": ""}, 401)
        root = root_of(request)
        response = RedirectResponse(root + "/", status_code=303)
        if policy.token is not None:  # only for this campaign's pages: another's at /c/OTHER/ has its own
            response.set_cookie(TOKEN_COOKIE, given, httponly=True, samesite="strict", path=root + "/")
        return response

    async def health(request: Request) -> Response:
        return JSONAnswer({"ok": True})

    routes = [
        # the API first, a resolve before all (a router tries each route in turn; no path of a page
        # begins with /api/, so the order changes no answer)
        Route("/api/resolve", run_route("resolve", False), methods=["POST"]),
        Route("/api/treat", run_route("treat", False), methods=["POST"]),
        Route("/api/resolve/step", run_route("resolve", True), methods=["POST"]),
        Route("/api/treat/step", run_route("treat", True), methods=["POST"]),
        Route("/api/systems", api_systems),
        Route("/api/systems/{system}", api_system),
        Route("/api/systems/{system}/tables", api_tables),
        Route("/api/systems/{system}/tables/{table}", api_table),
        Route("/api/targets", api_targets, methods=["GET"]),
        Route("/api/targets", api_add, methods=["POST"]),
        Route("/api/targets/{name}", api_target, methods=["GET"]),
        Route("/api/targets/{name}", api_remove, methods=["DELETE"]),
        Route("/api/targets/{name}/{which:str}", api_undo, methods=["POST"]),
        Route("/api/log", api_log),
        Route("/api/odds", odds_route("odds"), methods=["POST"]),
        Route("/api/simulate", odds_route("simulate"), methods=["POST"]),
        Route("/", index),
        Route("/login", login),
        Route("/health", health),
        Route("/add", add_form, methods=["POST"]),
        Route("/t/{name}", target_page),
        Route("/t/{name}/run", run_form, methods=["POST"]),
        Route("/t/{name}/{which:str}", undo_form, methods=["POST"]),
        Route("/s/{system}", system_page),
        Route("/s/{system}/run", system_run, methods=["POST"]),
        Route("/odds", odds_page),
        Route("/tables/{system}", tables_page),
        Route("/tables/{system}/{table}.{fmt}", api(policy)(table_download)),
        Route("/p/{key}", players),
        Route("/p/{key}/version", players_version),
        Mount("/static", StaticFiles(directory=str(HERE / "static")), name="static"),
    ]
    app = App(routes=routes, exception_handlers={404: not_found, 405: not_found})
    app.direct = {"/api/resolve": run_direct("resolve"), "/api/treat": run_direct("treat")}
    app.state.policy = policy
    app.state.service = service
    app.state.long_work = long_work
    return app


def with_limits(app: Any, limit: int = MAX_BODY) -> Any:
    """The app behind the request-size limit (what ``crit serve`` runs)."""
    return BodyLimit(app, limit)

