"""Example house-rule plugins for critcore, one module per rule.

Each module is a plugin on its own (entry point group ``critcore.rules``) and says what it is
in its ``critcore_rule`` hook (a ``RuleInfo(name, system, summary)``); critcore imports and
registers it only when the rule is enabled by name (``--rule NAME`` or ``rules = [...]`` in ``critcore.toml``) and only for its
system.

* :mod:`.toughness` (Shadowrun 2e, determine stage, ``tryfirst``): one more die on the Body check.
* :mod:`.floating_criticals` (BattleTech, locate stage, ``wrapper``): a hit-location 2 is rolled
  again and the through-armor critical goes where the new roll lands.
* :mod:`.no_dud_criticals` (GURPS, effect stage, ``wrapper``): a critical hit whose table roll
  says "ordinary damage" does maximum damage instead.
"""

__version__ = "0.1.0"
