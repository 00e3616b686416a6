"""Forms made from what a system declares: one per procedure, one field per parameter.

A new system plugin appears on the page with no web code: its procedures' ``Param``
declarations (type, choices, default, range, required, suggestions) become the fields, the
same way the CLI makes options of them. What a form sends is read back into the API's request
body (:func:`run_body`), so the page and the API run through the same checks
(``critcore.engine.runner.coerce_param``).
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from critcore.errors import InputError

PREFIX = "p."
MODES = ("random", "typed", "rolls")


def field(p: Any) -> dict[str, Any]:
    """One parameter as a form field."""
    out: dict[str, Any] = {"name": PREFIX + p.name, "label": p.name.replace("_", " "), "help": p.help,
                           "required": p.required, "default": "" if p.default in (None, False) else p.default,
                           "kind": p.type, "choices": list(p.choices), "suggest": list(getattr(p, "suggest", ()))}
    if p.type in ("int", "float"):
        from critcore.engine.params import describe_range

        out["range"] = describe_range(p)
        out["min"] = "" if p.min is None else p.min
        out["max"] = "" if p.max is None else p.max
        out["step"] = "1" if p.type == "int" else "any"
    return out


def procedure_forms(info: Any, verbs: Sequence[str] = ("resolve", "treat")) -> list[dict[str, Any]]:
    return [{"name": p.name, "verb": p.verb, "help": p.help, "target": p.target,
             "fields": [field(x) for x in p.params]} for p in info.procedures if p.verb in verbs]


def _params(form: Mapping[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key in form.keys():
        if key.startswith(PREFIX):
            value = form.get(key)
            if isinstance(value, str) and value.strip() != "":
                out[key[len(PREFIX):]] = value.strip()
    return out


class RollTypo(InputError):
    """The faces typed for one roll do not fit it: the page asks for that roll again."""

    def __init__(self, message: str, retry: tuple[str, str, dict[str, Any]]) -> None:
        super().__init__(message)
        self.retry = retry


def run_body(form: Mapping[str, Any], target: str | None, system: str | None = None) -> tuple[str, str, dict[str, Any]]:
    """(verb, dice mode, API body) from a procedure form sent by the page: on a campaign target,
    or with no target on ``system``."""
    verb = str(form.get("verb", ""))
    if verb not in ("resolve", "treat"):
        raise InputError("the form names no verb (resolve or treat)")
    mode = str(form.get("mode", "random"))
    if mode not in MODES:
        raise InputError(f"dice: {mode[:20]!r} is not one of {', '.join(MODES)}")
    body: dict[str, Any] = {"target": target, "procedure": str(form.get("procedure", "")), "params": _params(form),
                            "preview": form.get("preview") == "on"}
    if target is None:
        body["system"] = system
    if mode == "random" and str(form.get("seed", "")).strip():
        body["seed"] = str(form.get("seed")).strip()
    if mode == "typed":
        typed = str(form.get("dice", "")).strip()
        if not typed:
            raise InputError("dice: type the faces you rolled, in order (e.g. 6,6,5), or choose random dice")
        body["dice"] = typed
    if mode == "rolls":
        so_far = str(form.get("faces", "")).strip()
        new = str(form.get("face", "")).strip()
        if new:
            try:
                _check_roll(new, str(form.get("need_count", "")), str(form.get("need_sides", "")))
            except InputError as exc:
                raise RollTypo(str(exc), (verb, mode, {**body, "faces": so_far})) from None
        body["faces"] = ",".join(x for x in (so_far, new) if x)
        head = str(form.get("head", "")).strip()
        if head:
            if not (head.isascii() and head.isdigit()):
                raise InputError("the roll-by-roll form is damaged (head); start again")
            body["head"] = int(head)
    return verb, mode, body


def _check_roll(typed: str, count: str, sides: str) -> None:
    """The faces typed for one roll: as many as it has dice, each on the die."""
    from critcore.dice.rollers import parse_faces

    faces = parse_faces(typed)
    if count.isdigit() and sides.isdigit():
        n, s = int(count), int(sides)
        if len(faces) != n or not all(1 <= f <= s for f in faces):
            raise InputError(f"dice: type {n} face(s) from 1 to {s} for this roll (got {typed[:40]!r})")


def odds_body(query: Mapping[str, Any]) -> tuple[str, dict[str, Any], str | None]:
    """(system, API body, target) from the odds page's query string."""
    system = str(query.get("system", "")).strip()
    if not system:
        raise InputError("odds: choose a system (?system=NAME)")
    target = str(query.get("target", "")).strip() or None
    body: dict[str, Any] = {"system": system, "params": _params(query)}
    if query.get("procedure"):
        body["procedure"] = str(query.get("procedure"))
    if target:
        body["target"] = target
    return system, body, target
