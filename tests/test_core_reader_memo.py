"""The reader memo (docs/hooks.md, ``critcore_read_target``): the engine hands a system's reader a
plain dict it keeps for its life, the same object for every file read through that engine and
another for another engine, so a reader keeps what it learns there instead of in module globals
(issue 13). A reader that takes no memo keeps working unchanged."""

from __future__ import annotations

import warnings
from pathlib import Path
from typing import Any

from critcore import hookimpl
from critcore.campaign.campaign import Campaign
from critcore.engine.runner import Engine
from critcore.model import Procedure, SystemInfo
from critcore.stages.loader import Registry
from critcore.targets.sessions import file_session


class ReaderSystem:
    """A system reading ``NAME.hp`` files (``hp: N``); its reader records the memo it is handed
    and counts the files read through it there."""

    def __init__(self) -> None:
        self.seen: list[dict[str, Any]] = []

    @hookimpl
    def critcore_system(self) -> SystemInfo:
        schema = {"format": 1, "root": "thing", "types": {"thing": {
            "type": "table", "fields": {"hp": {"type": "int", "required": True}}}}}
        return SystemInfo("reader", "Reader test", (Procedure("poke", "Poke the target.", target="optional"),),
                          target_schema=schema)

    @hookimpl
    def critcore_read_target(self, path: str, text: str, memo: dict[str, Any]) -> dict[str, Any] | None:
        if not path.endswith(".hp"):
            return None
        self.seen.append(memo)
        memo["reads"] = memo.get("reads", 0) + 1
        return {"hp": int(text.partition(":")[2])}


def _registry(system: Any) -> Registry:
    return Registry.installed(extra_systems={"reader": system}, discover=False)


def _file(folder: Path, name: str, hp: int) -> str:
    path = folder / name
    path.write_text(f"hp: {hp}\n", encoding="utf-8")
    return str(path)


def test_a_reader_gets_its_engines_memo_the_same_for_every_read_and_another_for_another_engine(
        tmp_path: Path) -> None:
    """Two files read through one engine (as ``--target FILE`` reads them) meet one dict, the
    engine's ``reader_memo``, holding what the first read left; a second engine's reader starts
    from an empty dict of its own."""
    system = ReaderSystem()
    registry = _registry(system)
    engine = Engine("reader", registry=registry)
    with file_session(_file(tmp_path, "a.hp", 3), engine) as first:
        assert first.state["hp"] == 3
    with file_session(_file(tmp_path, "b.hp", 5), engine) as second:
        assert second.state["hp"] == 5
    assert system.seen[0] is system.seen[1] is engine.reader_memo
    assert engine.reader_memo == {"reads": 2}

    other = Engine("reader", registry=registry)
    assert other.read_target(_file(tmp_path, "c.hp", 7), "hp: 7") == {"hp": 7}
    assert system.seen[2] is other.reader_memo is not engine.reader_memo
    assert other.reader_memo == {"reads": 1} and engine.reader_memo == {"reads": 2}


def test_a_campaign_reads_every_file_it_adds_through_its_engines_memo(tmp_path: Path) -> None:
    """``crit campaign add`` (``Campaign.add``) reads through the campaign's engine for the
    system, which it keeps: the second file added meets what the first left."""
    system = ReaderSystem()
    camp = Campaign.new(str(tmp_path / "camp.db"), registry=_registry(system), who="gm")
    try:
        camp.add("reader", "one", _file(tmp_path, "one.hp", 4))
        camp.add("reader", "two", _file(tmp_path, "two.hp", 6))
        assert camp.state("two") == {"hp": 6}
        assert len(system.seen) == 2 and system.seen[0] is system.seen[1]
        assert system.seen[0] == {"reads": 2}
    finally:
        camp.close()


class OldReader:
    """A third-party system written before the memo: its reader takes ``(path, text)`` only."""

    @hookimpl
    def critcore_system(self) -> SystemInfo:
        return SystemInfo("reader", "Old reader", (Procedure("poke", "Poke the target.", target="optional"),))

    @hookimpl
    def critcore_read_target(self, path: str, text: str) -> dict[str, Any] | None:
        return {"hp": int(text.partition(":")[2])} if path.endswith(".hp") else None


def test_a_reader_that_takes_no_memo_keeps_working_without_a_warning(tmp_path: Path) -> None:
    """pluggy hands an implementation only the arguments it names: a reader of ``(path, text)``
    reads as before, and neither pluggy nor critcore warns about the argument it leaves out."""
    engine = Engine("reader", registry=_registry(OldReader()))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with file_session(_file(tmp_path, "old.hp", 9), engine) as session:
            assert session.state["hp"] == 9
        assert engine.read_target("x.json", "{}") is None  # not its format: critcore reads it


def test_the_engine_hands_the_hook_its_memo_by_name() -> None:
    """``Engine.read_target`` calls the hook with ``path``, ``text`` and ``memo`` by name (pluggy
    warns when a call leaves out an argument the specification declares)."""
    system = ReaderSystem()
    engine = Engine("reader", registry=_registry(system))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert engine.read_target("a.hp", "hp: 2") == {"hp": 2}
    assert len(system.seen) == 1 and system.seen[0] is engine.reader_memo
