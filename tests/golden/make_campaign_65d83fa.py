"""Makes campaign-65d83fa.db and campaign-65d83fa.json: a campaign written by critcore at commit
65d83fa (campaign format 1, before issue 25), for tests/test_core_campaign_upgrade.py.

Run with that commit's code and tests first on the path, from a checkout of it::

    git worktree add --detach /tmp/old65 65d83fa
    PYTHONPATH=/tmp/old65:/tmp/old65/tests python tests/golden/make_campaign_65d83fa.py tests/golden

The JSON holds what that critcore answered about its own campaign (targets as listed, the log,
each live target's state), to compare with what this critcore answers after the upgrade.
"""

import json
import os
import sys

import critcore
from critcore.campaign import Campaign
from critcore.plugins import Registry

import fakesystem
import critcore.campaign as campaign_module

_clock = iter(range(10_000))
# a clock that moves a minute a change, so that every log entry has its own time ("updated" must
# come from a target's latest entry, not any)
campaign_module._now = lambda: f"2026-01-01T{next(_clock) // 60:02d}:{next(_clock) % 60:02d}:00+00:00"

folder = sys.argv[1]
path = os.path.join(folder, "campaign-65d83fa.db")
if os.path.exists(path):
    os.remove(path)
registry = Registry.installed(extra_systems={"fake": fakesystem}, discover=False)
with Campaign.new(path, registry=registry, who="gm") as camp:
    camp.add("fake", "ogre", {"hp": 10})
    camp.add("fake", "troll", {"hp": 20})
    camp.add("fake", "imp", {"hp": 3})
    for _ in range(3):
        camp.treat("ogre", "rest", dice="1")  # 13
    camp.resolve("ogre", "attack", dice="20,6,2")  # a critical, x3, 2 damage: 7
    camp.undo("ogre")  # 13
    camp.undo("ogre")  # 12
    camp.redo("ogre")  # 13: the attack is still undone, and redo would bring it back
    camp.treat("troll", "rest", dice="2")  # 22
    camp.remove("imp")  # undo brings it back
    camp.set_option("fake", "crit_on_19", True)
    expected = {
        "made_by": critcore.__version__ + " at 65d83fa",
        "targets": [t.to_dict() for t in camp.targets()],
        "log": [e.to_dict() for e in camp.log()],
        "states": {t.name: camp.state(t.name) for t in camp.targets()},
    }
with open(os.path.join(folder, "campaign-65d83fa.json"), "w", encoding="utf-8") as fh:
    json.dump(expected, fh, indent=1, ensure_ascii=False)
    fh.write("\n")
print(f"wrote {path}")
