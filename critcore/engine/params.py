"""A procedure's parameters and a system's options: checked against what the system declares.

Every value from outside (a CLI option, a JSON field, a form) comes through :func:`coerce_param`:
the declared type, choices and range, one :class:`~critcore.errors.ParamError` line otherwise.
"""

from __future__ import annotations

from typing import Any, Mapping

from critcore.dice.notation import parse
from critcore.errors import DiceError, ParamError
from critcore.model import Data, Param, Procedure, SystemInfo, freeze, frozen_data

STAGES = ("determine", "locate", "effect", "apply")


UNDECLARED_LIMIT = 10**9
"""A number parameter that declares no range of its own stays within plus or minus this."""

_REAL_CHARS = frozenset("0123456789+-.eE")


def _parse_int(text: str) -> int:
    """A whole number written in ASCII digits with an optional sign (no ``_``, no ``²``, no
    float notation, at most 30 digits, so a huge one is never converted)."""
    t = text.strip()
    body = t[1:] if t[:1] in ("+", "-") else t
    if not (body.isascii() and body.isdigit()):
        raise ValueError
    if len(body) > 30:
        raise OverflowError
    return int(t)


def _parse_real(text: str) -> float:
    """A finite decimal number (``2``, ``0.5``, ``1e-3``); ``nan``, ``inf`` and ``1e999`` are refused."""
    t = text.strip()
    if not t or len(t) > 40 or not _REAL_CHARS.issuperset(t):
        raise ValueError
    value = float(t)
    if value != value or value in (float("inf"), float("-inf")):
        raise OverflowError
    return value


def param_range(param: Param) -> tuple[float, float]:
    """The lowest and highest value a number parameter accepts (its own; +-UNDECLARED_LIMIT for
    a side it does not declare)."""
    return (-UNDECLARED_LIMIT if param.min is None else param.min,
            UNDECLARED_LIMIT if param.max is None else param.max)


def describe_range(param: Param) -> str:
    """The accepted range in words, for ``--help`` and errors: ``0 to 12``, ``0.1 to 100``."""
    low, high = param_range(param)

    def show(x: float) -> str:
        return f"{x:,g}" if isinstance(x, float) and not x.is_integer() else f"{int(x):,}"

    return f"{show(low)} to {show(high)}"


def coerce_param(param: Param, value: Any) -> Any:
    """Check and convert one parameter value (from the CLI as text, or from Python).

    A whole number is read as one (never through a float), a real number must be finite, and
    either must lie in the parameter's declared range (:func:`param_range`).
    """
    if value is None:
        return None
    flag = param.flag
    kind = param.type
    try:
        if kind == "int":
            if isinstance(value, str):
                value = _parse_int(value)
            elif isinstance(value, float) and value.is_integer() and abs(value) <= 2**53:
                value = int(value)  # 3.0 from Python: exactly 3 (a larger float is no exact count)
            elif isinstance(value, bool) or not isinstance(value, int):
                raise ValueError
        elif kind == "float":
            if isinstance(value, str):
                value = _parse_real(value)
            elif isinstance(value, bool) or not isinstance(value, (int, float)):
                raise ValueError
            else:
                value = float(value)  # an int beyond a float's range raises OverflowError
                if value != value or value in (float("inf"), float("-inf")):
                    raise OverflowError
        elif kind == "bool":
            if isinstance(value, str):
                word = value.lower()
                if word not in ("true", "false", "yes", "no", "1", "0", "on", "off"):
                    raise ValueError
                value = word in ("true", "yes", "1", "on")
            elif not isinstance(value, bool):
                raise ValueError
        elif kind in ("str", "choice", "dice"):
            if not isinstance(value, str):
                raise ValueError
    except OverflowError:
        from critcore.report.textsafe import quoted

        raise ParamError(f"{flag}: {quoted(value)} is out of range (allowed: {describe_range(param)})") from None
    except (TypeError, ValueError):
        from critcore.report.textsafe import quoted

        what = {"int": "whole number", "float": "finite number"}.get(kind, kind)
        raise ParamError(f"{flag}: {quoted(value)} is not a valid {what}") from None
    if param.choices and value not in param.choices:
        from critcore.stages.loader import did_you_mean
        from critcore.report.textsafe import quoted

        raise ParamError(
            f"{flag}: {quoted(value)} is not one of {', '.join(param.choices)}{did_you_mean(str(value)[:100], param.choices)}"
        )
    if kind in ("int", "float"):
        low, high = param_range(param)
        if not low <= value <= high:
            from critcore.report.textsafe import quoted

            raise ParamError(f"{flag}: {quoted(value)} is out of range (allowed: {describe_range(param)})")
    if kind == "dice":
        try:
            parse(value.split()[0] if value.strip() else value)
        except DiceError as exc:
            raise ParamError(f"{flag}: {exc}") from None
    return value


def check_params(procedure: Procedure, given: Mapping[str, Any]) -> Data:
    """Every declared parameter checked, defaults filled in, unknown names refused (a
    :class:`~critcore.errors.ParamError` naming the parameter)."""
    return ParamPlan(procedure).check(given)


class ParamPlan:
    """What checking a procedure's parameters needs, made once: each parameter's place, the
    defaults, the required ones. An engine keeps one per procedure, so a request checks only the
    values it was given (``crit serve``'s GURPS ``attack`` declares 26 parameters and a request
    gives two or three), in the declared order, with the same errors as a walk over all of them."""

    __slots__ = ("procedure", "_index", "_defaults", "_required")

    def __init__(self, procedure: Procedure) -> None:
        self.procedure = procedure
        self._index = {p.name: i for i, p in enumerate(procedure.params)}
        self._defaults = {p.name: freeze(p.default) for p in procedure.params}  # as Data() keeps them
        self._required = [i for i, p in enumerate(procedure.params) if p.required]

    def check(self, given: Mapping[str, Any]) -> Data:
        """``given`` checked (see :func:`check_params`)."""
        procedure = self.procedure
        index = self._index
        todo = list(self._required)
        for name, value in given.items():
            i = index.get(name)
            if i is None:
                if value is not None:
                    from critcore.stages.loader import did_you_mean

                    known = set(index)
                    raise ParamError(
                        f"{procedure.name} takes no parameter {name!r}{did_you_mean(name, known)}"
                        f" (it takes: {', '.join(sorted(known)) or 'none'})"
                    )
            elif value is not None:
                todo.append(i)
        values = dict(self._defaults)
        if len(todo) > 1:
            todo = sorted(set(todo))  # the first error in the declared order, as the procedure lists them
        params = procedure.params
        for i in todo:
            p = params[i]
            value = coerce_param(p, given.get(p.name))
            if value is None:  # a required parameter given no value (coerce_param keeps a value given)
                if p.required:
                    raise ParamError(f"{procedure.name} needs {p.flag}" + (f" ({p.help})" if p.help else ""))
                continue
            values[p.name] = freeze(value)
        return frozen_data(values)  # Data(values), every value frozen already (no second walk)


def check_options(info: SystemInfo, given: Mapping[str, Any], where: str = "options",
                  sources: Mapping[str, str] | None = None) -> dict[str, Any]:
    """A system's options with defaults, updated by ``given`` (checked against the declaration).

    ``sources`` maps an option to where it was set ("critcore.toml, line 3") for the error.
    """
    from critcore.errors import ConfigError

    out = {o.name: o.default for o in info.options}
    for name, value in given.items():
        opt = info.option(name)
        at = (sources or {}).get(name, where)
        if opt is None:
            from critcore.stages.loader import did_you_mean

            known = [o.name for o in info.options]
            raise ConfigError(
                f"{at}: {info.name} has no option {name!r}{did_you_mean(name, known)}"
                f" (options: {', '.join(known) or 'none'})"
            )
        try:
            value = coerce_param(Param(name, opt.type, choices=opt.choices, min=opt.min, max=opt.max), value)
        except ParamError as exc:
            why = str(exc).split(": ", 1)[-1]
            raise ConfigError(f"{at}: option {name}: {why}") from None
        out[name] = value
    return out
