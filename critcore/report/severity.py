"""How serious an outcome is: its ranked changes, its severity and the line that names the worst.

A system ranks what its outcome did with the ``critcore_changes`` hook (``(severity, text)``
pairs, most serious first); without an answer the apply stage's changes count as ``minor``.
:func:`assess` turns that into an :class:`Assessment`: the CLI's colours, the web page's card and
the JSON's ``severity``, ``summary`` and ``changes`` all read it, so one ranking drives them all.
"""

from __future__ import annotations

from typing import Any, Sequence

from critcore._speed.cleantext import tidy
from critcore._speed.stagecall import hook_function
from critcore.model import SEVERITIES, Outcome, record


@record  # records, not NamedTuples: a NamedTuple compiles its __new__ at every start-up (about 1 M instructions each)
class Change:
    """One thing an outcome did, with how serious it is."""

    severity: str
    text: str


@record
class Assessment:
    """An outcome's severity, the one line a reader sees first, and what it changed, worst first."""

    severity: str
    headline: str
    changes: tuple[Change, ...]

    @property
    def rank(self) -> int:
        return rank(self.severity)

    def headed(self, headline: str) -> Assessment:
        """The same ranking with ``headline`` (a report's own first line) as the headline: it
        stays unless a change of at least ``serious`` outranks it, which then leads. The ranking
        does not depend on the headline, so one ranking serves the report's headline and the
        JSON's ``summary`` (:func:`assess` once, then ``headed`` for each)."""
        head = _clean(headline)
        top = _leading(self.changes)
        if top and top.lower() not in head.lower():
            head = top
        return Assessment(self.severity, head, self.changes)

    def to_json(self) -> dict[str, Any]:
        """``severity``, ``summary`` and ``changes`` as ``--json`` and the API carry them."""
        return {"severity": self.severity, "summary": self.headline,
                "changes": [{"severity": c.severity, "text": c.text} for c in self.changes]}


_PLACE = {s: i for i, s in enumerate(SEVERITIES)}


def rank(severity: str) -> int:
    """The place of a severity in :data:`SEVERITIES` (0 for ``none``); an unknown word ranks as
    ``minor`` (a plugin's typo must not hide a change or fail a report)."""
    try:
        return _PLACE.get(severity, 1)
    except TypeError:  # not a word at all (unhashable)
        return 1


_SERIOUS = SEVERITIES.index("serious")


def _leading(changes: Sequence[Change]) -> str:
    """The text of the worst change when it is at least ``serious`` (a headline gives way to
    it), else nothing."""
    return changes[0].text if changes and rank(changes[0].severity) >= _SERIOUS else ""


def _clean(text: str) -> str:
    text = " ".join(str(text).split()).rstrip(".;")
    return text[:1].upper() + text[1:]


def _fallback(outcome: Outcome) -> list[Change]:
    applied = outcome.applied
    return [Change("minor", c) for c in applied.changes] if applied is not None else []


def _ranked(answer: Sequence[Any]) -> list[Change]:
    """The changes of ``answer``'s pairs, worst first, a system's own order kept among changes of
    the same severity (one list for each severity, read from the worst)."""
    by_place: list[list[Change]] = [[] for _ in SEVERITIES]
    place = _PLACE
    minor = place["minor"]
    for item in answer:
        try:
            severity, text = item
        except (TypeError, ValueError):
            continue  # not a pair: left out rather than failing the report
        at = place.get(severity) if isinstance(severity, str) else None
        if at is None:
            severity, at = "minor", minor
        if text.__class__ is not str:
            text = str(text)
        if text and not text.isspace():  # a text of no words is left out
            by_place[at].append(Change(severity, tidy(text)))  # _clean(text)
    return [c for changes in reversed(by_place) for c in changes]


_OUTCOME_VIEW = ("outcome", "view")  # the report hooks' arguments, in order


def assess(outcome: Outcome, view: str = "gm", pm: Any = None, headline: str = "") -> Assessment:
    """The outcome's :class:`Assessment`. ``headline`` is the report's own first line
    (:func:`critcore.report.render.judge` passes the core's): it stays the headline unless a
    change of at least ``serious`` outranks it, which then leads (:meth:`Assessment.headed`)."""
    answer: Sequence[Any] | None = None
    if pm is not None:
        try:
            answer = hook_function(pm, "critcore_changes", _OUTCOME_VIEW)(outcome, view)
        except Exception:  # a report must not fail because a plugin misbehaves here
            answer = None
    if answer is not None:
        changes = _ranked(answer)
    elif view == "gm":
        changes = _fallback(outcome)
    else:  # a system that ranks nothing for a player: nothing a player's report does not say
        return Assessment("minor", _clean(headline), ())
    if changes:
        severity = changes[0].severity
    else:
        det = outcome.determination
        severity = "minor" if det is not None and det.critical else "none"
    ranked = Assessment(severity, _leading(changes), tuple(changes))  # headed(""), as every report asks first
    return ranked.headed(headline) if headline else ranked
