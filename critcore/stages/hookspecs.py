"""The hook specifications: the stages of a critical and how a system describes itself.

Every hook carries the project prefix ``critcore_``. The engine calls the stage hooks in this
order for a ``resolve`` procedure::

    critcore_determine -> critcore_locate -> critcore_effect -> critcore_apply

and ``critcore_treat`` alone for a ``treat`` procedure. Each stage sees what the earlier ones
returned. All stage hooks are ``firstresult``: the first implementation that returns something
other than ``None`` wins, so a house rule marked ``tryfirst=True`` replaces the system's answer,
and a ``wrapper=True`` implementation can adjust it (``result = yield``; return a new one).

A spec may gain arguments in a later version but never loses or renames one; an
implementation may take any subset of the arguments, by name.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Mapping, NamedTuple, Sequence

import pluggy

if TYPE_CHECKING:
    from critcore.stages.context import Context
    from critcore.dice.notation import DiceExpr
    from critcore.model import Applied, Data, Determination, Effect, Location, Outcome, Procedure, RuleInfo, SystemInfo
    from critcore.tables.tableset import TableSet

hookspec = pluggy.HookspecMarker("critcore")


class RollLookup(NamedTuple):
    """What :func:`critcore_determine_lookup` answers: the determine stage is exactly
    ``answers[ctx.dice.roll(dice, label).total]`` (an answer for every total the dice can show).
    :func:`critcore_effect_lookup` answers one too: ``answers[t]`` the effects after total ``t``,
    or ``None`` where the stage goes on rolling."""

    dice: DiceExpr | str
    label: str
    answers: Sequence[Any]


@hookspec(firstresult=True)
def critcore_system() -> SystemInfo | None:
    """Describe the game system: its name, title, procedures and their parameters, the package
    holding its tables, its options and the effect codes its engine acts on.

    Called once when a system is loaded (for ``crit systems``, ``crit tables``, ``crit resolve``
    and the Python API), before any stage. Return a :class:`~critcore.model.SystemInfo`.
    Only the system plugin answers; a house rule may adjust the answer with a
    ``wrapper=True`` implementation (for example to add an option). First answer wins.
    """


@hookspec
def critcore_rule() -> RuleInfo | None:
    """Describe a house-rule plugin: a :class:`~critcore.model.RuleInfo` with its name, the
    system it is for, a summary, the stages or tables it changes and the events it adds.

    Called when a rule plugin is enabled, before it is registered for a command (a rule for
    another system is then left out), and by ``crit systems`` and the odds (for its events).
    Only rule plugins implement it; every registered rule's answer is collected (a list).
    Return ``None`` for a rule that works with any system and says nothing about itself.
    """


@hookspec(firstresult=True)
def critcore_prepare(procedure: Procedure, params: Data, options: Data, tables: TableSet,
                     memo: dict[str, Any]) -> Any:
    """Work out once what a procedure needs for these parameters, before any roll.

    Called by the :class:`~critcore.engine.runner.Engine` the first time it runs ``procedure`` with
    ``params`` (checked, defaults filled in) under its options and tables, and never again for
    the same pair while the engine lives: exact odds and simulations call the stages thousands
    of times with one context. Return anything (``None`` for nothing): it is handed to every
    stage as ``ctx.prepared``. Raise :class:`~critcore.errors.ParamError` for parameters that
    cannot work together, so the error comes before any die is rolled. Only what the
    parameters, options and tables decide belongs here (never the target, never a roll).
    ``memo`` (face 1.3) is a dict the engine keeps for its whole life, the same at every call
    whatever the parameters: for what the tables and options alone decide and many parameter
    sets share (GURPS keeps its critical tables' look-ups by row there), never answers.
    First answer wins.
    """


@hookspec(firstresult=True)
def critcore_determine(ctx: Context) -> Determination | None:
    """Decide whether there is a critical and how bad it is.

    Called first for every ``resolve`` procedure. Roll with ``ctx.dice``, read tables from
    ``ctx.tables``, parameters from ``ctx.params`` and options from ``ctx.options``.
    Return a :class:`~critcore.model.Determination` (``final=True`` stops the procedure there),
    or ``None`` when this procedure has no determine stage. First answer wins.

    A determine stage that is only a look-up on one roll may say so in
    :func:`critcore_determine_lookup`, so that simulations draw the roll themselves.
    """


@hookspec(firstresult=True)
def critcore_determine_lookup(ctx: Context) -> RollLookup | None:
    """Say that the determine stage, for this context, is exactly a look-up on one roll's total.

    Called by ``crit simulate`` (:mod:`critcore.chance.montecarlo`) once per simulation and by
    exact odds (:mod:`critcore.chance.exact`) once per question, before any roll, and only when
    the plugin answering it also holds the only ``critcore_determine`` (no house rule replaces
    or wraps the stage). Exact odds run determine once and use the look-up only when that run
    matches it. Return a :class:`RollLookup` ``(dice, label,
    answers)`` when ``critcore_determine(ctx)`` is ``answers[ctx.dice.roll(dice, label).total]``
    and does nothing else (no note, no other roll); the simulation then draws the roll itself
    and picks the answer. Return ``None`` when it is not. First answer wins.
    """


@hookspec(firstresult=True)
def critcore_locate(ctx: Context, determination: Determination | None) -> Location | None:
    """Decide where the critical landed.

    Called after ``critcore_determine`` (unless it returned a final determination) with its
    answer, which may be ``None``. Return a :class:`~critcore.model.Location`, or ``None`` when
    there is nothing to locate. First answer wins.
    """


@hookspec(firstresult=True)
def critcore_effect(
    ctx: Context, determination: Determination | None, location: Location | None
) -> Sequence[Effect] | None:
    """Decide exactly what happened: the table rows that apply.

    Called after ``critcore_locate`` with the answers so far. Return a sequence of
    :class:`~critcore.model.Effect` (usually built with ``table.lookup(roll).effect(...)``), or
    ``None`` when there is no effect stage for this procedure. First answer wins.
    """


@hookspec(firstresult=True)
def critcore_effect_lookup(
    ctx: Context, determination: Determination | None, location: Location | None
) -> RollLookup | None:
    """Say that the effect stage, for these answers so far, is decided by its first roll's total.

    Called by exact odds (:mod:`critcore.chance.exact`) once per effect-stage call of a question
    (each distinct determination and location), before any roll, and only when the plugin
    answering it also holds the only ``critcore_effect`` (no house rule replaces or wraps the
    stage). Return a :class:`RollLookup` ``(dice, label, answers)`` when
    ``critcore_effect(ctx, determination, location)`` starts with ``ctx.dice.roll(dice, label)``
    and, for each total ``t`` whose ``answers[t]`` is not ``None``, rolls nothing more and
    answers the effects ``answers[t]`` (a tuple of :class:`~critcore.model.Effect`); an
    ``answers[t]`` of ``None`` says the stage goes on rolling (or is not known from the total
    alone) there, and exact odds run it for that total as usual; an ``answers[t]`` that is itself
    a :class:`RollLookup` says the stage's next roll is that one, with its answers by its total
    in the same way. Exact odds still run the stage
    once, on the lowest total, and use the look-up only when that run matches it; under
    :func:`critcore.chance.enumeration.checking_keys` every total is run and compared. Return
    ``None`` when it is not such a look-up. First answer wins.
    """


@hookspec(firstresult=True)
def critcore_apply(
    ctx: Context,
    determination: Determination | None,
    location: Location | None,
    effects: Sequence[Effect],
) -> Applied | None:
    """Work out what the effects do to the target and return its new state.

    Called last for a ``resolve`` procedure, with every earlier answer. The target's current
    state is ``ctx.target`` (frozen data, or ``None`` when no target was given: then say what
    would happen without one). Never write files. Return an :class:`~critcore.model.Applied`
    whose ``target`` is the new state; ``None`` means this procedure changes no target.
    First answer wins.
    """


@hookspec(firstresult=True)
def critcore_treat(ctx: Context) -> Applied | None:
    """Heal, treat, repair or let time pass: a ``treat`` procedure.

    Called alone for procedures whose ``verb`` is ``treat``. The target is ``ctx.target``.
    Return an :class:`~critcore.model.Applied` with the new state; ``None`` means the system
    does not know this procedure (the engine then reports an error). First answer wins.
    """


@hookspec(firstresult=True)
def critcore_read_target(path: str, text: str, memo: dict[str, Any]) -> Mapping[str, Any] | None:
    """Read a target file in a format of the system's own (a BattleTech ``.mtf`` unit, say).

    Called by ``--target FILE`` (and ``crit campaign add``) before critcore tries TOML and JSON
    itself, through an engine (:meth:`critcore.engine.runner.Engine.read_target`). ``memo`` is that
    engine's reader memo: a plain dict the engine keeps for its life (one per command; the API,
    a bot or ``crit serve`` keep theirs), the same object for every file read through it and a
    new one for another engine. A reader keeps there, under a key of its own (its package name),
    what one file taught it for the next (a parsed catalog, answers to look-ups), bounded, instead
    of in module globals. An implementation that needs no memo leaves the argument out.
    Return the target's state as plain JSON data, or ``None`` when the file is not in a format
    this plugin reads. Raise :class:`~critcore.errors.StateError` (with the file and line) for a
    broken file. First answer wins.
    """


@hookspec(firstresult=True)
def critcore_write_target(path: str, state: Mapping[str, Any]) -> str | None:
    """Write a target's state in a format of the system's own (a GCS ``.gcs`` character, say).

    Called by ``--save`` / ``--save-to`` and ``crit campaign export`` when the file's suffix is
    one the system lists in ``SystemInfo.writes``; otherwise critcore writes JSON or TOML itself.
    ``state`` is the checked state the stages returned (plain data). Return the file's whole
    text, or ``None`` when ``path`` is not a format this plugin writes (critcore then refuses
    the save with one line). Raise :class:`~critcore.errors.StateError` for a state that cannot
    go into that format. Never write the file: critcore writes it atomically. First answer wins.
    """


@hookspec(firstresult=True)
def critcore_show(ctx: Context) -> Sequence[str] | None:
    """Describe the target's current state in plain words, one line per item.

    Called by ``crit show SYSTEM --target FILE`` and after every resolution when the human
    output is asked to show the target. Return lines of text, or ``None`` to let critcore print
    the state as data. First answer wins.
    """


@hookspec(firstresult=True)
def critcore_report(outcome: Outcome, view: str) -> Sequence[str] | None:
    """Write an outcome in plain words for one audience.

    ``view`` is ``"gm"`` (everything) or ``"player"`` (only what the character notices).
    Called by the human output and by :func:`critcore.report.render.render`. Return lines of text, or
    ``None`` to use critcore's generic report (every roll, every table row, every stage).
    First answer wins.
    """


@hookspec(firstresult=True)
def critcore_changes(outcome: Outcome, view: str) -> Sequence[tuple[str, str]] | None:
    """What an outcome did, most serious first, as ``(severity, text)`` pairs.

    Called by every report of an outcome (:mod:`critcore.report.severity`): the CLI's headline
    and its colour, ``--json`` and the API, the web page's result card.

    ``severity`` is one of :data:`critcore.model.SEVERITIES` (``none`` ... ``deadly``);
    ``text`` is one short line a reader at the table understands (``"IS Ammo SRM-4 explodes: 8
    damage to internal structure"``). The first pair is the headline when it is at least
    ``serious``; the highest severity is the outcome's (the report's colour, the web page's card,
    ``severity``, ``summary`` and ``changes`` in ``--json``). For ``view="player"`` say only what
    the character notices. Return ``None`` to let critcore rank the apply stage's changes as
    ``minor``. First answer wins.
    """


@hookspec(firstresult=True)
def critcore_upgrade_state(state: Mapping[str, Any], version: str) -> Mapping[str, Any] | None:
    """Bring a target state written by an older version of this plugin up to date.

    Called when a campaign reads a target whose stored state was written by another version of
    the system plugin (``version``, the plugin version that wrote it; ``""`` if unknown), before
    the state is checked against the target schema and before any stage runs. Return the state
    as this version expects it (plain JSON data), or ``None`` when nothing needs to change.
    The upgraded state is written back with the target's next change. First answer wins.
    """


@hookspec(firstresult=True)
def critcore_examples() -> Sequence[Any] | None:
    """Example targets the plugin ships: a character, a unit, a house-rule file.

    Called by ``crit examples``, which writes them into the current folder. Return a sequence of
    :class:`critcore.stages.examples.Example` (``name``: a plain file name; ``text``: the file's
    content; ``about``: one line saying what it is), or ``None`` for none.
    :func:`critcore.stages.examples.package_examples` reads them from package data. First answer wins.
    """


@hookspec(firstresult=True)
def critcore_web_view(ctx: Context) -> Sequence[Mapping[str, Any]] | None:
    """A picture of the target for ``crit serve``'s page, as panels of plain data.

    Called by the web page (``critcore.web``) for each target of the campaign, with
    ``ctx.target`` its current state. Return a list of panels (``{"type": "meter" | "boxes" |
    "slots" | "facts" | "list" | "alert" | "grid", ...}``, see docs/web.md): critcore draws them
    and escapes every text, so a plugin writes no HTML. Return ``None`` to fall back to the
    ``critcore_show`` lines, or the state as data. First answer wins.
    """
