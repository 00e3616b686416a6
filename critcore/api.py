"""The Python API: what a bot, a virtual tabletop or a script calls.

    import critcore
    outcome = critcore.resolve("gurps", "attack", skill=14, seed=7)
    print(critcore.report.render(outcome))

Nothing here reads config files or writes anything: pass ``rules`` and ``options`` explicitly.
For many resolutions keep an :class:`~critcore.engine.runner.Engine` and call ``engine.run`` on it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Iterable, Iterator, Mapping, Sequence

from critcore.engine.runner import Engine
from critcore.model import Outcome, SystemInfo
from critcore.stages.loader import Registry, rule_info, rule_system_matches

if TYPE_CHECKING:  # imported for their types only: odds and simulate import them when called
    from critcore.chance.exact import Odds
    from critcore.chance.montecarlo import Simulation


def _run(verb: str, system: str, procedure: str, *, seed: int | str | None, dice: str | Sequence[int] | None,
         target: Mapping[str, Any] | None, rules: Iterable[str], options: Mapping[str, Any] | None,
         registry: Registry | None, params: Mapping[str, Any]) -> Outcome:
    engine = Engine(system, rules=rules, options=options, registry=registry)
    engine.procedure(procedure, verb)
    return engine.run(procedure, params, seed=seed, dice=dice, target=target)


def resolve(system: str, procedure: str, *, seed: int | str | None = None, dice: str | Sequence[int] | None = None,
            target: Mapping[str, Any] | None = None, rules: Iterable[str] = (),
            options: Mapping[str, Any] | None = None, registry: Registry | None = None,
            **params: Any) -> Outcome:
    """Run a ``resolve`` procedure of an installed system; ``params`` are the procedure's parameters.

    ``seed`` makes random dice reproducible; ``dice`` scripts faces (``"6,6,5"``).
    """
    return _run("resolve", system, procedure, seed=seed, dice=dice, target=target, rules=rules,
                options=options, registry=registry, params=params)


def treat(system: str, procedure: str, *, seed: int | str | None = None, dice: str | Sequence[int] | None = None,
          target: Mapping[str, Any] | None = None, rules: Iterable[str] = (),
          options: Mapping[str, Any] | None = None, registry: Registry | None = None,
          **params: Any) -> Outcome:
    """Run a ``treat`` procedure (healing, recovery, time passing) on ``target``."""
    return _run("treat", system, procedure, seed=seed, dice=dice, target=target, rules=rules,
                options=options, registry=registry, params=params)


@dataclass(frozen=True)
class SystemEntry:
    """An installed system as ``crit systems`` lists it."""

    name: str
    package: str
    version: str
    info: SystemInfo | None = None
    error: str = ""


class Installed:
    """What ``crit systems`` shows: every installed system (a broken one with its error), every
    installed house-rule plugin, and the house-rule files enabled. Iterating gives the systems."""

    def __init__(self, systems: list[SystemEntry], rules: list[dict[str, Any]], rule_files: list[str]) -> None:
        self.systems = systems
        self.rules = rules  # as :func:`rules` lists them
        self.rule_files = rule_files

    def __iter__(self) -> Iterator[SystemEntry]:
        return iter(self.systems)

    def __len__(self) -> int:
        return len(self.systems)

    def to_json(self) -> list[dict[str, Any]]:
        """``crit systems --json``: each system with its procedures and the house rules for it."""
        out = []
        for e in self.systems:
            item: dict[str, Any] = {"name": e.name, "title": e.info.title if e.info else "", "version": e.version,
                                    "package": e.package,
                                    "procedures": [{"name": p.name, "verb": p.verb, "help": p.help}
                                                   for p in e.info.procedures] if e.info else [],
                                    "rules": [r for r in self.rules if rule_system_matches(r["system"], e.name)]}
            if e.error:
                item["error"] = e.error
            out.append(item)
        return out


def systems(registry: Registry | None = None, enabled: Iterable[str] = ()) -> Installed:
    """Every installed system, loaded one by one (a broken one carries its error instead of
    info), the house-rule plugins (``enabled`` marks the ones enabled) and the enabled rule files."""
    registry = registry if registry is not None else Registry.installed()
    enabled = list(dict.fromkeys(enabled))
    return Installed([_system_entry(registry, name) for name in sorted(registry.systems)], rules(registry, enabled),
                     sorted(r for r in enabled if r not in registry.rules))


def _system_entry(registry: Registry, name: str) -> SystemEntry:
    from critcore.engine.runner import describe_system
    from critcore.errors import CritcoreError

    spec = registry.systems[name]
    try:
        info = describe_system(name, registry)
        return SystemEntry(name, spec.dist or info.package, spec.version or info.version, info)
    except CritcoreError as exc:
        return SystemEntry(name, spec.dist, spec.version, None, str(exc))
    except (Exception, SystemExit) as exc:  # the plugin's own code raised: list it, marked broken
        from critcore.stages.loader import exception_line, plugin_at_fault

        why = plugin_at_fault(exc, registry) or f"{spec.label()} failed: {exception_line(exc)}"
        return SystemEntry(name, spec.dist, spec.version, None, why)


def rules(registry: Registry | None = None, enabled: Iterable[str] = ()) -> list[dict[str, Any]]:
    """Every installed house-rule plugin as ``crit systems`` lists it: name, package, version,
    whether ``enabled`` names it, the system it is for, its summary (or the error of a broken one)."""
    from critcore.errors import CritcoreError

    registry = registry if registry is not None else Registry.installed()
    on = set(enabled)
    out = []
    for name, spec in sorted(registry.rules.items()):
        info, error = None, ""
        try:
            info = rule_info(spec.load(), spec)
        except CritcoreError as exc:
            error = str(exc)
        out.append({"name": name, "package": spec.dist, "version": spec.version, "enabled": name in on,
                    "system": info.system if info is not None else "",
                    "summary": info.summary if info is not None else "",
                    **({"error": error} if error else {})})
    return out


def listing(registry: Registry | None = None, enabled: Iterable[str] = ()) -> list[dict[str, Any]]:
    """``crit systems --json``: each installed system with its procedures and the house rules for it."""
    return systems(registry, enabled).to_json()


def odds(system: str, procedure: str, *, target: Mapping[str, Any] | None = None, rules: Iterable[str] = (),
         options: Mapping[str, Any] | None = None, registry: Registry | None = None, **params: Any) -> Odds:
    """Exact probability of every distinct outcome (a :class:`critcore.chance.exact.Odds`)."""
    from critcore.chance.exact import exact_odds

    engine = Engine(system, rules=rules, options=options, registry=registry)
    return exact_odds(engine, procedure, params, target=target)


def simulate(system: str, procedure: str, *, n: int = 100_000, seed: int | str | None = 0,
             target: Mapping[str, Any] | None = None, rules: Iterable[str] = (),
             options: Mapping[str, Any] | None = None, registry: Registry | None = None,
             **params: Any) -> Simulation:
    """Monte Carlo: ``n`` seeded resolutions counted (a :class:`critcore.chance.montecarlo.Simulation`)."""
    from critcore.chance.montecarlo import simulate as run

    engine = Engine(system, rules=rules, options=options, registry=registry)
    return run(engine, procedure, params, n, seed, target=target)
