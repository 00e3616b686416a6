"""What every stage is handed: :class:`Context` (the procedure, its parameters, the options,
tables, dice and target of one run).

It lives apart from the engine that makes it, so the hook specifications can name it without
importing the engine.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from critcore.dice.dice import Dice
from critcore.model import Data, Note, Procedure, SystemInfo, record, record_field
from critcore.tables.tableset import TableSet

if TYPE_CHECKING:  # imported by an engine only for a system that declares target_memo
    from critcore.stages.targetmemo import Memo, TargetMemo


@record
class Context:
    """What every stage is handed: the procedure, its parameters, options, tables, dice, target.

    ``dice`` records every roll; ``note(...)`` adds a line to the outcome's notes (house rules
    use ``by=`` to say they changed something). Stages must pass information to later stages
    only through their return values, never by storing it on the context: the exact-odds
    engine runs each stage separately.
    """

    system: SystemInfo
    procedure: Procedure
    params: Data
    options: Data
    tables: TableSet
    dice: Dice
    target: Data | None = None
    rules: tuple[str, ...] = ()
    notes: list[Note] = record_field(default_factory=list, compare=False)
    stage: list[str] = record_field(default_factory=lambda: [""], compare=False)
    prepared: Any = None  # what critcore_prepare built for this procedure and parameters
    memo: Memo | None = record_field(default=None, compare=False)  # the per-target memo (critcore.stages.targetmemo)
    memos: TargetMemo | None = record_field(default=None, compare=False, repr=False)  # the engine's, for hand_on

    def note(self, text: str, by: str = "") -> None:
        """Record something worth telling (``by`` names the house rule responsible)."""
        self.notes.append(Note(text, by, self.stage[0]))

    def hand_on(self, state: Any, memo: Memo) -> None:
        """Pass ``memo`` on to ``state``, the target this run hands back: the next run on it finds
        it as ``ctx.memo`` (only for a system that declares ``target_memo``; see targetmemo.py)."""
        if self.memos is not None:
            self.memos.hand_on(state, memo)

    def param(self, name: str, default: Any = None) -> Any:
        return self.params.get(name, default)

    def option(self, name: str, default: Any = None) -> Any:
        return self.options.get(name, default)
