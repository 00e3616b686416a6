"""critcore's exact odds against icepool (https://github.com/HighDiceRoller/icepool) for the same
distributions, side by side: a GURPS attack, a Shadowrun wound, a BattleTech critical location.

icepool is an optional extra of the benchmark only (``pip install -r bench/requirements.txt``),
never a dependency of critcore; without it this part says so and is skipped. Each icepool model
is written from the same table data the plugins read, and the benchmark checks that both give
the same distribution, fraction for fraction, before it compares their times.
"""

from __future__ import annotations

import os
from fractions import Fraction
from functools import lru_cache
from typing import Any, Callable

SAMPLES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "shared", "mtf-samples")


def _die_fractions(die: Any) -> dict[Any, Fraction]:
    den = die.denominator()
    return {outcome: Fraction(q, den) for outcome, q in die.items() if q}


def _merge(pairs: Any) -> dict[Any, Fraction]:
    out: dict[Any, Fraction] = {}
    for key, p in pairs:
        out[key] = out.get(key, Fraction(0)) + p
    return {k: v for k, v in out.items() if v}


# --- GURPS attack: 3d6 against skill, then the Critical Hit or Critical Miss table ------------

def _gurps_kind(skill: int) -> Callable[[int], str]:
    threshold = {3: True, 4: True, 5: skill >= 15, 6: skill >= 16}

    def kind(total: int) -> str:
        if threshold.get(total):
            return "critical-hit"
        if total == 18 or (total == 17 and skill < 16):
            return "critical-miss"
        return "hit" if total <= min(skill, 16) else "miss"  # 17 always misses

    return kind


def _gurps_icepool(skill: int, hit_table: Any, miss_table: Any) -> dict[Any, Fraction]:
    """icepool's model of an attack at ``skill``: 3d6 against skill, then the table's row."""
    import icepool

    kind = _gurps_kind(skill)
    d3 = 3 @ icepool.d6
    hit_rows = d3.map(lambda t: ("critical-hit", hit_table.lookup(t).id))
    miss_rows = d3.map(lambda t: ("critical-miss", miss_table.lookup(t).id))
    die = d3.map(lambda t: hit_rows if kind(t) == "critical-hit" else miss_rows if kind(t) == "critical-miss"
                 else (kind(t), ""))
    return _die_fractions(die)


def _gurps_same(ours: Any, theirs: dict[Any, Fraction]) -> bool:
    return _merge(((b.determination.kind, b.effects[-1].id if b.effects else ""), b.probability)
                  for b in ours.branches) == theirs


def gurps_case(skill: int = 15) -> tuple[Callable[[], Any], Callable[[], Any], Callable[[Any, Any], bool]]:
    from critcore.engine.runner import Engine
    from critcore.chance.exact import exact_odds

    engine = Engine("gurps")
    hit_table, miss_table = engine.tables["critical-hit"], engine.tables["critical-miss"]

    def icepool_odds() -> dict[Any, Fraction]:
        return _gurps_icepool(skill, hit_table, miss_table)

    def critcore_odds() -> Any:
        return exact_odds(engine, "attack", {"skill": skill})

    return critcore_odds, icepool_odds, _gurps_same


def gurps_new_questions_case() -> tuple[Callable[[], Any], Callable[[], Any], Callable[[Any, Any], bool]]:
    """A question never asked before each time: skill 9 to 18 in turn, and a ``--hp`` (which an
    attack without ``--damage`` does not read) never given before, so the engine prepares a new
    plan for each and the GURPS plugin makes its table look-ups anew: nothing of one question is
    kept for the next. icepool models each skill afresh. ``same`` is checked for skill 9 to 18
    (the first ten questions)."""
    import itertools

    from critcore.engine.runner import Engine
    from critcore.chance.exact import exact_odds

    engine = Engine("gurps")
    hit_table, miss_table = engine.tables["critical-hit"], engine.tables["critical-miss"]
    ours_n, theirs_n = itertools.count(), itertools.count()

    def critcore_odds() -> Any:
        n = next(ours_n)
        return exact_odds(engine, "attack", {"skill": 9 + n % 10, "hp": 1 + n % 10_000})

    def icepool_odds() -> dict[Any, Fraction]:
        return _gurps_icepool(9 + next(theirs_n) % 10, hit_table, miss_table)

    def same(ours: Any, theirs: Any) -> bool:
        return all(_gurps_same(critcore_odds(), icepool_odds()) for _ in range(10))

    return critcore_odds, icepool_odds, same


# --- Shadowrun wound: Body check successes, body area, the critical, its time before death ----

def _roll_die(icepool: Any, notation: str) -> Any:
    """The few time notations the Shadowrun lists use: 1d6, 2d6, 1d6x10."""
    count, rest = notation.split("d", 1)
    sides, _, times = rest.partition("x")
    die = int(count) @ icepool.Die(range(1, int(sides) + 1))
    return die.map(lambda v: v * int(times)) if times else die


def shadowrun_case(body: int = 4, severity: str = "serious") -> tuple[Callable[[], Any], Callable[[], Any],
                                                                      Callable[[Any, Any], bool]]:
    import icepool

    from critcore.engine.runner import Engine
    from critcore.chance.exact import exact_odds

    engine = Engine("shadowrun2")
    tables = engine.tables
    tn = int(tables["body-check"].lookup(["light", "moderate", "serious", "deadly"].index(severity) + 1).data["tn_recommended"])
    lethality, areas = tables["lethality"], tables["hit-location"]

    def icepool_odds() -> dict[Any, Fraction]:
        success = icepool.d6.map(lambda f: 1 if f >= tn else 0)  # TN 6 or less: a 6 is enough, no explosion
        successes = body @ success

        def critical(kind: str, area_row: Any) -> Any:
            table = tables["critical-" + str(area_row.data["list"])]

            def row(r: int) -> Any:
                found = table.lookup(r)
                if kind != "mortal":
                    return (kind, area_row.id, found.id, None)
                unit = int(found.data["time_unit_seconds"])
                return _roll_die(icepool, str(found.data["time_dice"])).map(
                    lambda t: (kind, area_row.id, found.id, t * unit))

            return icepool.d6.map(row)

        def by_successes(s: int) -> Any:
            found = lethality.lookup(s)
            if not found.data["critical"]:
                return (found.id, "", "", None)
            return (2 @ icepool.d6).map(lambda t: critical(found.id, areas.lookup(t)))

        return _die_fractions(successes.map(by_successes))

    def critcore_odds() -> Any:
        return exact_odds(engine, "wound", {"body": body, "severity": severity})

    def same(ours: Any, theirs: dict[Any, Fraction]) -> bool:
        def key(b: Any) -> Any:
            if b.location is None or not b.effects:
                return (b.determination.kind, "", "", None)
            return (b.determination.kind, b.location.id, b.effects[0].id, b.applied.data.get("death_in"))

        return _merge((key(b), b.probability) for b in ours.branches) == theirs

    return critcore_odds, icepool_odds, same


# --- BattleTech: which components of a location the criticals strike ---------------------------

def battletech_case(location: str = "CT") -> tuple[Callable[[], Any], Callable[[], Any], Callable[[Any, Any], bool]] | None:
    path = os.path.join(SAMPLES, "Atlas AS7-D.mtf")
    if not os.path.exists(path):
        return None
    import icepool

    from critcore.engine.runner import Engine
    from critcore.chance.exact import exact_odds
    from critcore_battletech.units import unit_from_mtf

    with open(path, encoding="utf-8") as fh:
        unit = unit_from_mtf(fh.read(), path)
    engine = Engine("battletech")
    determining = engine.tables["determining-critical-hits"]
    slots = unit["locations"][location]["slots"]
    hittable = [i + 1 for i, s in enumerate(slots) if s["kind"] not in ("empty", "roll-again")]

    def icepool_odds() -> dict[Any, Fraction]:
        @lru_cache(maxsize=None)
        def pick(taken: frozenset[int], n: int) -> Any:
            """n more criticals: a half chosen evenly among those with a slot left, then one of
            its slots not struck yet, evenly (the slot die rolled again in the same half)."""
            if n == 0:
                return icepool.Die([tuple(sorted(taken))])
            halves = [[s for s in hittable if (s - 1) // 6 == h and s not in taken] for h in (0, 1)]
            halves = [h for h in halves if h]
            return icepool.Die([icepool.Die([pick(taken | {s}, n - 1) for s in half]) for half in halves])

        def by_total(t: int) -> Any:
            return pick(frozenset(), int(determining.lookup(t).data["criticals"]))

        names = {i + 1: str(s["name"]) for i, s in enumerate(slots)}
        struck = (2 @ icepool.d6).map(by_total).map(lambda taken: tuple(sorted(names[s] for s in taken)))
        return _die_fractions(struck)

    def critcore_odds() -> Any:
        return exact_odds(engine, "critical", {"location": location}, target=unit)

    def same(ours: Any, theirs: dict[Any, Fraction]) -> bool:
        # critcore counts slots nothing can tell apart as one class: compare what was struck
        return _merge((tuple(sorted(e.data["component"] for e in b.effects if "slot" in e.data)), b.probability)
                      for b in ours.branches) == theirs

    return critcore_odds, icepool_odds, same


def side_by_side(ours: Callable[[], Any], theirs: Callable[[], Any], rounds: int,
                 best_of: Callable[[Callable[[], Any], int], float]) -> tuple[float, float]:
    """Seconds a call of each, the fastest of ``rounds`` rounds that time both in turn, each
    round a batch of calls lasting about 20 ms. One call of a GURPS attack takes 0.3 ms, and the
    fastest single call of each, timed one after the other, moved the ratio by 0.1 from run to
    run (0.88 to 1.11 for the same code in one afternoon); batches taken in turn move it by
    about 0.03."""
    def batch(fn: Callable[[], Any], n: int) -> Callable[[], None]:
        def run() -> None:
            for _ in range(n):
                fn()
        return run

    n_ours = max(1, int(0.02 / max(best_of(ours, 3), 1e-6)))
    n_theirs = max(1, int(0.02 / max(best_of(theirs, 3), 1e-6)))
    mine = other = float("inf")
    for _ in range(rounds):
        mine = min(mine, best_of(batch(ours, n_ours), 1) / n_ours)
        other = min(other, best_of(batch(theirs, n_theirs), 1) / n_theirs)
    return mine, other


def report(systems: list[str], best_of: Callable[[Callable[[], Any], int], float], quick: bool = False) -> None:
    print()
    try:
        import icepool
    except ImportError:
        print("critcore against icepool: skipped (pip install -r bench/requirements.txt to measure)")
        return
    repeat = 3 if quick else 7
    print(f"exact odds, critcore against icepool {icepool.__version__} (the same distribution; the best of "
          f"{repeat} interleaved rounds, each a batch of about 20 ms)")
    cases: list[tuple[str, Any]] = []
    if "gurps" in systems:
        cases.append(("GURPS attack (skill 15)", gurps_case()))
        cases.append(("GURPS attack, a new question each time", gurps_new_questions_case()))
    if "shadowrun2" in systems:
        cases.append(("Shadowrun wound (Body 4, serious)", shadowrun_case()))
    if "battletech" in systems:
        bt = battletech_case()
        if bt is None:
            print("  BattleTech critical location: skipped (../shared/mtf-samples not found)")
        else:
            cases.append(("BattleTech critical, Atlas centre torso", bt))
    for name, (ours, theirs, same) in cases:
        agree = same(ours(), theirs())
        mine, other = side_by_side(ours, theirs, repeat, best_of)
        print(f"  {name:<42} critcore {mine * 1000:8.2f} ms   icepool {other * 1000:8.2f} ms   "
              f"ratio {mine / other:5.2f}   {'same fractions' if agree else 'DIFFERENT DISTRIBUTIONS'}")
