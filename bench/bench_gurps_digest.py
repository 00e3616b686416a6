"""A digest of GURPS exact odds, to show a speed change changed no outcome, probability or order.

    PYTHONHASHSEED=0 python bench/bench_gurps_digest.py [-v]

Works out the odds of 168 GURPS questions on one engine (attacks at every skill, with seven kinds
of damage, ranged, cheap, fine, unarmed, thrust, aimed, on Sir Bertram and on nobody; the critical
tables, defenses, spells) and prints one SHA-256 over each outcome's JSON and fraction, in the
order given, and the remainder (``-v``: a line per question). Run it before and after a change.
Not a test: a benchmark's check, about a second.
"""
import hashlib, json, sys, itertools
from importlib import resources
from critcore.chance.exact import exact_odds
from critcore.engine.runner import Engine
from critcore.errors import ParamError

BERTRAM = json.loads(resources.files("critcore_gurps.examples").joinpath("bertram.json").read_text(encoding="utf-8"))
Q = []
for skill in range(3, 20):
    Q.append(("attack", {"skill": skill}, None))
for dmg in ["2d cut", "1d+2 imp", "3d pi", "2d cr", "1d-1 pi-", "1d+1 pi+", "2d burn"]:
    for skill in (9, 15, 17):
        Q.append(("attack", {"skill": skill, "damage": dmg, "hp": 10}, None))
        Q.append(("attack", {"skill": skill, "damage": dmg}, BERTRAM))
for extra in [{"ranged": True}, {"cheap": True}, {"fine": True}, {"unarmed": True}, {"attack_kind": "thrust"},
              {"location": "skull"}, {"location": "eye", "damage": "1d imp"}, {"location": "random"}, {"two_weapons": True},
              {"cheap": True, "attack_kind": "thrust"}, {"ranged": True, "cheap": True}, {"unarmed": True, "location": "random"}]:
    for skill in (6, 12, 16, 18):
        Q.append(("attack", dict({"skill": skill}, **extra), None))
        Q.append(("attack", dict({"skill": skill}, **extra), BERTRAM))
Q += [("critical-hit", {"damage": "2d cut"}, None), ("critical-hit", {}, None), ("head-blow", {}, None),
      ("head-blow", {"location": "eye", "two_weapons": True}, None), ("critical-miss", {"fine": True}, None),
      ("critical-miss", {}, None), ("critical-miss", {"cheap": True}, None), ("critical-miss", {"unarmed": True}, None),
      ("defense", {"skill": 11, "defense": "parry"}, None), ("defense", {"skill": 13, "defense": "dodge"}, BERTRAM),
      ("defense", {"skill": 9, "defense": "block"}, None), ("spell", {"skill": 14}, None), ("spell", {"skill": 18}, None)]
engine = Engine("gurps")
total = hashlib.sha256()
n = 0
for proc, params, target in Q:
    try:
        odds = exact_odds(engine, proc, params, target=target)
    except ParamError as e:
        line = f"{proc} {params} refused {e}"
    else:
        rows = [json.dumps(b.to_json(), sort_keys=True, default=str) + "|" + str(b.probability) for b in odds.branches]
        line = f"{proc} {sorted(params.items())} {bool(target)} {odds.remainder} " + hashlib.sha256("\n".join(rows).encode()).hexdigest()
        n += 1
    total.update(line.encode())
    if "-v" in sys.argv: print(line)
print(len(Q), "questions", n, "answered", total.hexdigest())
