"""What ``crit serve``'s page and JSON API do, with no web framework in it.

One :class:`Service` serves one campaign file. Each worker thread opens the campaign once
(:meth:`Service.campaign`): Python's ``sqlite3`` connections must not be shared by threads
running at once, and every change is one campaign transaction (``BEGIN IMMEDIATE``), so
concurrent requests, and a ``crit`` run in a terminal beside the server, lose nothing.

The JSON is the CLI's: :meth:`Service.run` answers what ``crit resolve ... --json`` prints,
:meth:`Service.odds` what ``crit odds ... --json`` prints, and so on. Errors are critcore's
typed errors with the CLI's one-line messages; the web layer gives them a 4xx status.

Dice come three ways, as on the CLI: random (``seed`` or none), typed in (``dice``: the faces
in the order rolled) and roll by roll (:meth:`Service.step`): the procedure is run with the
faces given so far and a roller that stops at the first roll it has no face for; the answer
names that roll (label, notation, how many dice of how many sides). Nothing is written until
every face is in; the change is then refused if the target changed meanwhile.
"""

from __future__ import annotations

import os
import threading
from typing import TYPE_CHECKING, Any, Literal, Mapping, Sequence, overload

from critcore._speed.outcomejson import as_is
from critcore.dice.rollers import FaceRoller, ScriptedRoller, make_roller, parse_faces
from critcore.errors import CampaignError, CritcoreError, DiceError, InputError
from critcore.model import outcome_object
from critcore.report.render import judged, rank, render

if TYPE_CHECKING:
    from critcore.campaign.campaign import Campaign
    from critcore.web.longwork import Deadline
    from critcore.engine.runner import Engine
    from critcore.chance.exact import Odds
    from critcore.chance.montecarlo import Simulation

MAX_SIMULATE_RUNS = 200_000
"""The most resolutions one ``simulate`` request may ask for (the CLI has no such bound)."""

MAX_FACES = 1000
"""The most dice faces one request may carry."""

RUN_FIELDS = ("system", "procedure", "target", "params", "seed", "dice", "view", "preview", "explain")
STEP_FIELDS = (*RUN_FIELDS, "faces", "head")
ODDS_FIELDS = ("system", "procedure", "target", "params", "depth", "runs", "seed")


class NeedRoll(Exception):
    """The roll-by-roll roller ran out of faces: this is the roll it needs next."""

    def __init__(self, label: str, notation: str, sides: int, count: int) -> None:
        super().__init__(label)
        self.label, self.notation, self.sides, self.count = label, notation, sides, count

    def to_dict(self) -> dict[str, Any]:
        return {"label": self.label, "notation": self.notation, "sides": self.sides, "count": self.count}


class _AskNext(FaceRoller):
    """Stands behind the faces given so far: the first roll it is asked for stops the run."""

    def faces(self, sides: int, count: int, label: str, notation: str) -> list[int]:
        raise NeedRoll(label, notation, sides, count)


def check_fields(body: Any, allowed: Sequence[str], what: str) -> dict[str, Any]:
    """A request body: a JSON object with only the fields this route knows."""
    if body.__class__ is not dict and not isinstance(body, Mapping):  # a JSON object is a dict: no ABC check
        raise InputError(f"{what}: the request body must be a JSON object")
    unknown = [k for k in body if k not in allowed]
    if unknown:
        from critcore.stages.loader import did_you_mean

        key = str(unknown[0])[:40]
        raise InputError(f"{what}: unknown field {key!r}{did_you_mean(key, allowed)} (fields: {', '.join(allowed)})")
    return dict(body)


def _text(body: Mapping[str, Any], key: str, what: str, required: bool = False) -> str | None:
    value = body.get(key)
    if value is None or value == "":
        if required:
            raise InputError(f"{what}: {key!r} is required")
        return None
    if not isinstance(value, str):
        raise InputError(f"{what}: {key!r} must be a string")
    return value


def _faces(value: Any, what: str) -> list[int] | None:
    """Faces from ``"6,6,5"`` or ``[6, 6, 5]``."""
    if value is None or value == "":
        return None
    if isinstance(value, str):
        faces = parse_faces(value)
    elif isinstance(value, list) and all(type(f) is int for f in value):
        faces = list(value)
    else:
        raise DiceError(f"{what}: dice faces must be a list of whole numbers or a string such as \"6,6,5\"")
    if len(faces) > MAX_FACES:
        raise DiceError(f"{what}: at most {MAX_FACES} dice faces in one request (got {len(faces)})")
    return faces


def param_json(p: Any) -> dict[str, Any]:
    """A declared procedure parameter as the API lists it (what the CLI makes an option of)."""
    out: dict[str, Any] = {"name": p.name, "flag": p.flag, "type": p.type, "help": p.help, "default": p.default,
                           "required": p.required, "choices": list(p.choices)}
    if p.type in ("int", "float"):
        from critcore.engine.params import describe_range

        out.update(min=p.min, max=p.max, range=describe_range(p))
    if getattr(p, "suggest", ()):
        out["suggest"] = list(p.suggest)
    return out


SETTINGS_WINDOW = 0.010
"""How long (seconds) a thread of ``crit serve`` trusts the campaign's settings it read last
(:attr:`critcore.campaign.campaign.Campaign.settings_window`). Asking SQLite whether another
process changed them takes three system calls, about a tenth of a stateless resolve's server
time under load (docs/performance-log.md); so a request plays by the settings as they stood at most
10 ms before it began: a house rule or an option changed in a terminal (``crit campaign enable``,
``crit campaign set``) applies to every request that begins 10 ms or more after it was saved.
``crit serve`` itself changes no settings."""


class Service:
    """A campaign served to the page and the API (see the module's docstring)."""

    def __init__(self, path: str, registry: Any = None, who: str | None = None) -> None:
        from critcore.campaign.campaign import Campaign

        if registry is None:
            from critcore.stages.loader import Registry

            registry = Registry.installed()
        self.path = path
        self.registry = registry
        self.who = who or os.environ.get("CRITCORE_USER") or "crit serve"
        self._local = threading.local()
        self._opened: list[Any] = []
        self._lock = threading.Lock()
        # Changes from this process's threads queue here rather than on SQLite's busy handler
        # (which sleeps and retries): the campaign transaction still guards against other processes.
        self._writing = threading.Lock()
        self._open(path).close()  # a missing or broken campaign: one line, now

    # --- the campaign, once per thread ------------------------------------------------------

    def campaign(self) -> Campaign:
        found: Campaign | None = getattr(self._local, "campaign", None)
        if found is None:
            from critcore.campaign.campaign import Campaign

            found = self._local.campaign = self._open(self.path)
            with self._lock:
                self._opened.append(found)
        return found

    def _open(self, path: str) -> Campaign:
        """The campaign for one thread; a database's connections come from the process's pool."""
        from critcore.campaign.campaign import Campaign, is_database, open_store

        store = open_store(path, pooled=True) if is_database(path) else None
        campaign = Campaign(path, registry=self.registry, who=self.who, store=store)
        campaign.settings_window = SETTINGS_WINDOW
        return campaign

    def close(self) -> None:
        with self._lock:
            for campaign in self._opened:
                campaign.close()
            self._opened.clear()

    def engine(self, system: str) -> Engine:
        """The engine for a system with the campaign's house rules and options."""
        if system not in self.registry.systems:
            from critcore.errors import UnknownNameError
            from critcore.stages.loader import unknown_message

            raise UnknownNameError(unknown_message("system", system, self.registry.systems))
        return self.campaign().engine(system)

    def version(self) -> int:
        """The newest log entry's id: it changes with every change to the campaign."""
        entries = self.campaign().log(limit=1, outcomes=False)  # asked every 2 s by each players' page
        return entries[-1].id if entries else 0

    # --- what is installed -----------------------------------------------------------------

    def systems(self) -> list[dict[str, Any]]:
        """``crit systems --json``, with the campaign's enabled house rules."""
        from critcore.api import listing

        return listing(self.registry, self.campaign().rules())

    def procedures(self, system: str) -> dict[str, Any]:
        """A system's procedures with their declared parameters (what the forms are made from)."""
        info = self.engine(system).info
        return {"system": info.name, "title": info.title, "target_noun": info.target_noun,
                "procedures": [{"name": p.name, "verb": p.verb, "help": p.help, "target": p.target,
                                "params": [param_json(x) for x in p.params]} for p in info.procedures],
                "options": [{"name": o.name, "type": o.type, "default": o.default, "help": o.help}
                            for o in info.options]}

    def tables(self, system: str) -> list[dict[str, Any]]:
        """``crit tables SYSTEM --json``: every table with the campaign's house rules applied."""
        engine = self.engine(system)
        return [engine.tables[n].to_json() for n in engine.tables.names()]

    def table(self, system: str, name: str) -> Any:
        engine = self.engine(system)
        names = list(engine.tables.names())
        if name not in names:
            from critcore.errors import UnknownNameError
            from critcore.stages.loader import unknown_message

            raise UnknownNameError(unknown_message(f"{system} table", name, names))
        return engine.tables[name]

    def examples(self) -> list[dict[str, str]]:
        """The example targets installed systems ship (``critcore_examples``), to add from the page."""
        out = []
        for system in sorted(self.registry.systems):
            try:
                found = self.engine(system).pm.hook.critcore_examples()
            except (CritcoreError, AttributeError):  # a broken system, or a critcore without the hook
                continue
            for ex in found or ():
                out.append({"system": system, "name": ex.name, "about": ex.about})
        return out

    def example_text(self, system: str, name: str) -> str:
        for ex in self.engine(system).pm.hook.critcore_examples() or ():
            if ex.name == name:
                return str(ex.text)
        raise CampaignError(f"{system} has no example named {name!r}")

    # --- targets ----------------------------------------------------------------------------

    def targets(self) -> list[dict[str, Any]]:
        return [t.to_dict() for t in self.campaign().targets()]

    def target(self, name: str) -> dict[str, Any]:
        camp = self.campaign()
        system = camp.system_of(name)
        return {"name": name, "system": system, "state": camp.state(name)}

    def add(self, body: Any) -> dict[str, Any]:
        """Add a target: ``{"system", "name", "state": {...}}`` or ``{"system", "name", "file": NAME,
        "text": TEXT}`` (a file any system reads: ``.mtf``, ``.json``, ``.toml``), or ``"example": NAME``
        (one the system ships)."""
        what = "add a target"
        body = check_fields(body, ("system", "name", "state", "file", "text", "example"), what)
        system = _text(body, "system", what, required=True)
        name = _text(body, "name", what, required=True)
        assert system is not None and name is not None
        self.engine(system)
        example = _text(body, "example", what)
        if example is not None:
            body["file"], body["text"] = example, self.example_text(system, example)
        if body.get("state") is not None:
            if not isinstance(body["state"], Mapping):
                raise InputError(f"{what}: 'state' must be a JSON object")
            with self._writing:
                info = self.campaign().add(system, name, body["state"])
            return info.to_dict()
        file = _text(body, "file", what, required=True)
        text = body.get("text")
        if not isinstance(text, str):
            raise InputError(f"{what}: 'text' (the file's content) is required with 'file'")
        assert file is not None
        base = os.path.basename(file.replace("\\", "/"))
        how = f"the {system} example {base}" if example is not None else f"{base} (sent to crit serve)"
        with self._writing:
            info = self.campaign().add_text(system, name, file, text, origin=how)
        return info.to_dict()

    def log(self, name: str | None = None, limit: int | None = None) -> list[dict[str, Any]]:
        return [e.to_dict() for e in self.campaign().log(name, limit)]

    def undo(self, name: str) -> dict[str, Any]:
        with self._writing:
            return self.campaign().undo(name).to_dict()

    def redo(self, name: str) -> dict[str, Any]:
        with self._writing:
            return self.campaign().redo(name).to_dict()

    def remove(self, name: str) -> dict[str, Any]:
        with self._writing:
            return self.campaign().remove(name).to_dict()

    def _rendered(self, entry: Any, views: Sequence[str], explain: bool) -> dict[str, list[str]]:
        """A logged resolution's report in each view, in the CLI's words (from the log's record)."""
        from critcore.model import Outcome
        from critcore.report.render import render

        if not entry.outcome:
            return {v: [entry.summary] for v in views}
        damaged = [f"(log entry #{entry.id} is damaged and cannot be shown: crit campaign check names it)"]
        if "damaged" in entry.outcome:
            return {v: damaged for v in views}
        try:
            outcome = Outcome.from_dict({**entry.outcome, "target": None})
        except Exception:  # noqa: BLE001 - JSON of the wrong shape (edited by hand): shown as damaged, never a 500
            return {v: damaged for v in views}
        try:
            pm = self.engine(entry.system).pm if entry.system in self.registry.systems else None
        except CritcoreError:  # the campaign's settings are damaged: the report in critcore's own words
            pm = None
        return {v: render(outcome, explain=explain and v == "gm", view=v, pm=pm).splitlines() for v in views}

    def _card_of(self, entry: Any) -> dict[str, Any] | None:
        """The result card of a logged resolution (see :func:`critcore.web.pictures.result_card`),
        with the procedure and parameters it ran with (the form shows them again)."""
        from critcore.model import Outcome
        from critcore.web.pictures import result_card

        if not entry.outcome or entry.system not in self.registry.systems:
            return None
        outcome = Outcome.from_dict({**entry.outcome, "target": None})
        card = result_card(outcome, self.engine(entry.system).pm)
        card["procedure"] = outcome.procedure
        return card

    def reports(self, entry_id: int) -> dict[str, Any]:
        """One log entry with its report for the game master (every roll explained) and for the players."""
        with self.campaign().store.transaction() as tx:
            try:
                entry = tx.entry(entry_id)
            except (KeyError, LookupError, TypeError):
                raise CampaignError(f"{self.path}: no log entry #{entry_id}") from None
        if entry is None:
            raise CampaignError(f"{self.path}: no log entry #{entry_id}")
        return {"entry": entry.to_dict(), "card": self._card_of(entry),
                **self._rendered(entry, ("gm", "player"), explain=True)}

    def player_feed(self, limit: int) -> dict[str, Any]:
        """What the players' link shows: the latest resolutions and treatments in the player view
        (no secret roll, no state), newest first, and the version to poll against."""
        entries = self.campaign().log(limit=limit)
        feed = []
        for e in reversed(entries):
            if e.kind not in ("resolve", "treat"):
                continue
            feed.append({"id": e.id, "at": e.at, "target": e.name, "system": e.system, "undone": e.undone,
                         "report": self._rendered(e, ("player",), explain=False)["player"]})
        return {"version": entries[-1].id if entries else 0, "feed": feed, "targets": self._public_targets()}

    def _public_targets(self) -> list[dict[str, Any]]:
        """Each target of an installed system with what the characters can see of it (the panels
        its system marks public; never a secret roll, a death clock or an undiagnosed critical)."""
        from critcore.web.pictures import public_picture

        camp = self.campaign()
        out = []
        for t in camp.targets():
            if t.installed:
                out.append({"name": t.name, "system": t.system,
                            "panels": public_picture(self.engine(t.system), camp.state(t.name))})
        return out

    # --- resolve and treat ------------------------------------------------------------------

    def _request(self, verb: str, body: Any, fields: Sequence[str]) -> dict[str, Any]:
        what = f"{verb} request"
        body = check_fields(body, fields, what)
        target = _text(body, "target", what)
        if target is not None and target.startswith("@"):
            target = target[1:]
        system = _text(body, "system", what)
        if target is not None:
            found = self.campaign().system_of(target)
            if system is not None and system != found:
                raise CampaignError(f"@{target} is a {found} target, not a {system} one")
            system = found
        if system is None:
            raise InputError(f"{what}: give 'system' (or a campaign 'target')")
        params = body.get("params") or {}
        if params.__class__ is not dict and not isinstance(params, Mapping):
            raise InputError(f"{what}: 'params' must be a JSON object")
        view = body.get("view") or "gm"
        if view not in ("gm", "player"):
            raise InputError(f"{what}: 'view' must be \"gm\" or \"player\"")
        seed = body.get("seed")
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, (int, str))):
            raise InputError(f"{what}: 'seed' must be a whole number or a string")
        engine = self.engine(system)
        name = _text(body, "procedure", what, required=True)
        assert name is not None
        proc = engine.info.procedure(name)
        if proc is None or (verb != "odds" and proc.verb != verb):
            from critcore.errors import UnknownNameError
            from critcore.stages.loader import unknown_message

            names = [p.name for p in engine.info.procedures if verb == "odds" or p.verb == verb]
            kind = f"{engine.info.name} {verb} procedure" if verb != "odds" else f"{engine.info.name} procedure"
            raise UnknownNameError(unknown_message(kind, str(name), names))  # the CLI's words
        return {"system": system, "target": target, "engine": engine, "proc": proc, "view": view, "seed": seed,
                "params": {k: (None if v == "" else v) for k, v in params.items()},
                "dice": _faces(body.get("dice"), what), "preview": bool(body.get("preview")),
                "explain": bool(body.get("explain")), "body": body}

    def run(self, verb: str, body: Any, both_views: bool = False, encoded: bool = False) -> dict[str, Any]:
        """``crit resolve|treat ... --json``: on a campaign target (applied and logged, unless
        ``preview``), or on no target. ``dice`` are faces typed in; else ``seed`` or random.
        ``encoded``: the answer goes straight to the JSON encoder (the API), so the outcome's
        frozen values are handed over as they are (:mod:`critcore._speed.outcomejson`)."""
        req = self._request(verb, body, RUN_FIELDS)
        if req["dice"] is not None and req["seed"] is not None:
            raise DiceError("use only one of seed and dice")
        roller = make_roller(seed=req["seed"], faces=req["dice"])
        req["both_views"] = both_views
        req["encoded"] = encoded
        return self._run(req, roller)

    def _run(self, req: dict[str, Any], roller: Any, head: int | None = None) -> dict[str, Any]:
        engine, proc = req["engine"], req["proc"]
        camp = self.campaign()
        if req["target"] is None:
            if req["preview"]:
                raise InputError("preview needs a target")
            outcome = engine.run(proc.name, req["params"], roller=roller)
            return self._answer(req, outcome, engine, None, roller)
        from contextlib import nullcontext

        with nullcontext() if req["preview"] else self._writing:
            with camp.session(req["target"], engine=engine, preview=req["preview"]) as session:
                if head is not None and session.row.head != head:
                    raise CampaignError(f"{self.path}: {req['target']} changed while the dice were being entered; "
                                        "nothing was written, resolve again")
                outcome = engine.run_session(proc.name, req["params"], roller, session)  # checked by the session
                session.commit(outcome)
        return self._answer(req, outcome, engine, session, roller)

    def _answer(self, req: dict[str, Any], outcome: Any, engine: Any, session: Any, roller: Any) -> dict[str, Any]:
        """The CLI's ``--json`` object, plus ``report``: the plain-words lines of the view asked for."""
        view = req["view"]
        ranked = rank(outcome, view, engine.pm)  # one ranking for the report's headline and the summary
        head = judged(outcome, ranked) if view == "gm" else None  # and one headline, headed once, for both
        report = render(outcome, explain=req["explain"], view=view, pm=engine.pm, ranked=ranked,
                        judged=head).splitlines()
        if view == "player":
            data: dict[str, Any] = {"system": outcome.system, "procedure": outcome.procedure, "view": "player",
                                    "report": report}
        else:  # the player's view carries only the player's report
            data = outcome_object(outcome, as_is) if req.get("encoded") else outcome.to_dict()
            data["report"] = report
            assert head is not None
            data.update(head[1].to_json())  # judge(): severity, summary, ranked changes
        if req.get("both_views"):  # the page shows the players' words beside the game master's
            data["player_report"] = render(outcome, view="player", pm=engine.pm).splitlines()
            from critcore.web.pictures import result_card

            data["card"] = result_card(outcome, engine.pm, ranked if view == "gm" else None)
        logged = getattr(session, "entry_id", None)
        if logged:
            data["saved"] = f"{session.row.name} in {self.path}"
            data["log"] = logged
        if req["preview"]:
            data["preview"] = True
        unused = getattr(roller, "unused", [])
        if unused:
            data["unused_faces"] = list(unused)
        return data

    def step(self, verb: str, body: Any, both_views: bool = False) -> dict[str, Any]:
        """Roll by roll: run with the faces so far; answer the next roll needed
        (``{"need": {...}, "faces": [...], "head": N}``) or, once every face is in, the outcome
        (applied and logged as :meth:`run` does). ``head`` (from the first answer) makes sure the
        target did not change between the first roll and the last."""
        req = self._request(verb, body, STEP_FIELDS)
        faces = _faces(req["body"].get("faces"), f"{verb} request") or []
        head = req["body"].get("head")
        if head is not None and (isinstance(head, bool) or not isinstance(head, int)):
            raise InputError(f"{verb} request: 'head' must be the whole number a previous step answered")
        if head is None and req["target"] is not None:
            head = self._head(req["target"])
        probe = dict(req, preview=True) if req["target"] is not None else req  # no target: nothing to write anyway
        try:
            self._run(probe, ScriptedRoller(faces, then=_AskNext()))
        except NeedRoll as need:
            return {"need": need.to_dict(), "faces": faces, "head": head, "system": req["system"],
                    "procedure": req["proc"].name, "target": req["target"]}
        req["both_views"] = both_views
        return self._run(req, ScriptedRoller(faces), head=head)

    def _head(self, name: str) -> int | None:
        with self.campaign().store.transaction() as tx:
            row = tx.target(name)
            if row is None:
                self.campaign().system_of(name)  # raises the usual error
            return row.head if row is not None else None

    # --- odds ---------------------------------------------------------------------------------

    @overload
    def odds(self, mode: Literal["odds"], body: Any, deadline: Deadline | None = None) -> tuple[Odds, dict[str, Any]]: ...
    @overload
    def odds(self, mode: Literal["simulate"], body: Any,
             deadline: Deadline | None = None) -> tuple[Simulation, dict[str, Any]]: ...
    @overload
    def odds(self, mode: str, body: Any, deadline: Deadline | None = None) -> tuple[Odds | Simulation, dict[str, Any]]: ...

    def odds(self, mode: str, body: Any, deadline: Deadline | None = None) -> tuple[Odds | Simulation, dict[str, Any]]:
        """``crit odds|simulate ... --json``: (the result object, its JSON). ``deadline`` stops
        the run when its time is up (checked at each progress report)."""
        req = self._request("odds", body, ODDS_FIELDS)
        from critcore.chance.exact import LEVELS

        depth = req["body"].get("depth", 4)
        if isinstance(depth, bool) or not isinstance(depth, int) or not 1 <= depth <= len(LEVELS):
            raise InputError(f"{mode} request: 'depth' must be a whole number from 1 to {len(LEVELS)}")
        state = self.campaign().state(req["target"]) if req["target"] is not None else None
        engine = req["engine"]
        result: Odds | Simulation
        try:
            if mode == "odds":
                from critcore.chance.exact import exact_odds

                result = exact_odds(engine, req["proc"].name, req["params"], target=state,
                                    progress=deadline.check if deadline is not None else None)
            else:
                runs = req["body"].get("runs", 10_000)
                if isinstance(runs, bool) or not isinstance(runs, int) or not 1 <= runs <= MAX_SIMULATE_RUNS:
                    raise InputError(f"simulate request: 'runs' must be a whole number from 1 to {MAX_SIMULATE_RUNS:,}")
                from critcore.dice.rollers import parse_seed
                from critcore.chance.montecarlo import simulate

                seed = req["seed"] if req["seed"] is not None else 0
                result = simulate(engine, req["proc"].name, req["params"], runs, parse_seed(seed), target=state,
                                  progress=deadline.check if deadline is not None else None)
        finally:
            if state is not None and engine.memos is not None:
                engine.memos.clear()  # the next request reads the target afresh: its memo would only linger
        return result, result.to_json(LEVELS[:depth])


def error_status(exc: BaseException) -> int:
    """The HTTP status of a critcore error: 404 for an unknown name, 409 for a campaign that
    changed or holds nothing to undo, 503 while the campaign is busy, else 400."""
    from critcore.errors import BusyError, UnknownNameError

    if isinstance(exc, UnknownNameError):
        return 404
    if isinstance(exc, BusyError):
        return 503
    if isinstance(exc, CampaignError):
        text = str(exc)
        if "no target named" in text:
            return 404
        if "nothing to" in text or "changed while" in text or "exists already" in text:
            return 409
    if isinstance(exc, InputError):
        return 400
    return 422  # a broken plugin or another refusal: the request cannot be served as it is
