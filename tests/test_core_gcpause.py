"""The cyclic garbage collector paused while exact odds work (critcore/_speed/gcpause.py, issue 25):
the odds are those worked out with the collector running, and the collector is left as it was
found, whatever the nesting, the threads or the errors."""

from __future__ import annotations

import gc
import threading
from contextlib import contextmanager
from typing import Callable, Iterator

import pytest

from critcore._speed import gcpause
from critcore.chance import exact
from critcore.chance.exact import exact_odds
from critcore.engine.runner import Engine


@contextmanager
def _restored() -> Iterator[None]:
    before = gc.isenabled()
    try:
        yield
    finally:
        (gc.enable if before else gc.disable)()


def _in_a_thread(worker: Callable[[], None]) -> bool:
    """Run ``worker`` in a thread of its own with the collector on; whether it is on after."""
    with _restored():
        gc.enable()
        thread = threading.Thread(target=worker)
        thread.start()
        thread.join(10)
        return gc.isenabled()


def _shown(odds: exact.Odds) -> list[tuple[str, str]]:
    return [(repr(b.to_json()), str(b.probability)) for b in odds.branches]


@pytest.mark.parametrize("params", [{"ac": 15}, {"ac": 12, "damage": "1d8"}])
def test_odds_are_the_same_with_the_collector_running(registry, monkeypatch, params):
    """The pause changes no outcome, no probability and no order: exact odds with the collector
    paused, and with the pause replaced by nothing (a collection forced before each)."""
    @contextmanager
    def running() -> Iterator[None]:
        yield

    with _restored():
        gc.enable()
        paused = exact_odds(Engine("fake", registry=registry), "attack", params)
        assert gc.isenabled()
        monkeypatch.setattr(exact, "paused", running)
        gc.collect()
        plain = exact_odds(Engine("fake", registry=registry), "attack", params)
    assert _shown(paused) == _shown(plain)


def test_a_simulation_counts_the_same_with_the_collector_running(registry, monkeypatch):
    """The pause changes no count of a seeded simulation: 5,000 runs with the collector paused
    (off while it runs, on after), and with the pause replaced by nothing."""
    from critcore.chance import montecarlo
    from critcore.chance.montecarlo import simulate

    seen: list[bool] = []

    @contextmanager
    def running() -> Iterator[None]:
        yield

    def watched(done: int) -> None:
        seen.append(gc.isenabled())

    with _restored():
        gc.enable()
        paused = simulate(Engine("fake", registry=registry), "attack", {"ac": 12, "damage": "1d8"}, 5000, 7,
                          progress=watched)
        assert gc.isenabled() and len(seen) > 1 and not any(seen[:-1])  # off at each report inside the runs
        monkeypatch.setattr(montecarlo, "paused", running)
        plain = simulate(Engine("fake", registry=registry), "attack", {"ac": 12, "damage": "1d8"}, 5000, 7)
    assert sorted(map(repr, paused.branches)) == sorted(map(repr, plain.branches))


def test_the_collector_is_off_inside_and_as_found_after():
    """On before: off inside (nested too), on after, also after an error. Off before: off after."""
    with _restored():
        gc.enable()
        with gcpause.paused():
            assert not gc.isenabled()
            with gcpause.paused():
                assert not gc.isenabled()
            assert not gc.isenabled()
        assert gc.isenabled()
        with pytest.raises(ZeroDivisionError):
            with gcpause.paused():
                1 / 0
        assert gc.isenabled()
        gc.disable()
        with gcpause.paused():
            assert not gc.isenabled()
        assert not gc.isenabled()


def test_a_worker_thread_never_pauses_the_collector():
    """crit serve answers odds in worker threads, whose questions may overlap without end: there
    the collector is left as it is, so it can never stay off for the whole process."""
    seen: list[bool] = []

    def worker() -> None:
        with gcpause.paused():
            seen.append(gc.isenabled())

    assert _in_a_thread(worker) and seen == [True]


def test_what_a_question_made_goes_to_the_oldest_generation_and_nothing_stays_frozen():
    """When the collector comes back on, what was made inside is in the oldest generation (not
    walked by a young collection first) and nothing is left frozen; objects frozen before the
    block stay frozen, and then nothing is moved."""
    with _restored():
        gc.enable()
        with gcpause.paused():
            made = [[] for _ in range(3)]
        assert gc.get_freeze_count() == 0 and gc.isenabled()
        oldest = {id(o) for o in gc.get_objects(generation=2)}
        assert all(id(o) in oldest for o in made)
        try:
            kept = [[] for _ in range(3)]
            gc.freeze()
            frozen = gc.get_freeze_count()
            with gcpause.paused():
                young = [[] for _ in range(3)]
            assert gc.get_freeze_count() == frozen
            assert not any(id(o) in {id(x) for x in gc.get_objects(generation=2)} for o in young)
        finally:
            gc.unfreeze()
        assert kept and gc.get_freeze_count() == 0


def test_a_bounded_block_begun_while_another_holds_the_pause_does_not_extend_it():
    """Two bounded blocks overlapping in two threads (two hosted campaigns' long work): the
    collector is on again as soon as the first ends, while the second still runs; the second's
    end changes nothing. So it is never off for longer than one bounded block."""
    first_in, second_in, first_out = threading.Event(), threading.Event(), threading.Event()
    seen: dict[str, bool] = {}

    def first() -> None:
        with gcpause.paused(bounded=True):
            first_in.set()
            second_in.wait(10)
        first_out.set()

    def second() -> None:
        first_in.wait(10)
        with gcpause.paused(bounded=True):
            seen["inside, the first still in"] = gc.isenabled()
            second_in.set()
            first_out.wait(10)
            seen["inside, the first gone"] = gc.isenabled()
        seen["after both"] = gc.isenabled()

    with _restored():
        gc.enable()
        threads = [threading.Thread(target=first), threading.Thread(target=second)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(10)
        assert seen == {"inside, the first still in": False, "inside, the first gone": True, "after both": True}
        assert gc.isenabled() and gcpause._INSIDE[0] == 0


def test_a_bounded_block_pauses_in_any_thread_and_leaves_the_collector_as_found():
    """``bounded=True``: the caller runs one such block at a time within a time limit (crit
    serve's long work), so a worker thread may pause the collector too; on again after, also after
    an error, and a plain block nested inside it changes nothing."""
    seen: list[bool] = []

    def worker() -> None:
        with gcpause.paused(bounded=True):
            seen.append(gc.isenabled())
            with gcpause.paused():  # exact odds inside the long request: nothing more
                seen.append(gc.isenabled())
            seen.append(gc.isenabled())
        seen.append(gc.isenabled())
        with pytest.raises(ZeroDivisionError):
            with gcpause.paused(bounded=True):
                1 / 0
        seen.append(gc.isenabled())

    assert _in_a_thread(worker) and seen == [False, False, False, True, True]
