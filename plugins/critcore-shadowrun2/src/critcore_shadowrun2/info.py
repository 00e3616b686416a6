"""How the Shadowrun 2nd Edition critical-hit system describes itself to critcore."""

from __future__ import annotations

from critcore.plugin import Option, Param, Procedure, SystemInfo

from . import __version__
from .events import EVENTS

SEVERITIES: tuple[str, ...] = ("light", "moderate", "serious", "deadly")
"""Wound severities in order; the index + 1 is the row of the ``body-check`` table."""

EFFECT_CODES = frozenset({
    "body-check-tn", "lethality", "hit-location", "wound-level", "medic-treatment", "healing-modifier",
    "internal-bleeding", "brain", "heart", "suffocation", "artery",
})

# Ranges (issue 14): Shadowrun's scale with room for cyberware, magic and big campaigns; the rules set
# no upper bounds (docs/systems/shadowrun2.md, "Where the rules are silent").
_CRITICAL = Param("critical", "int", "Number of the critical to work on (see `crit show shadowrun2`).",
                  min=1, max=1000)
_DICE_MIN, _DICE_MAX = 0, 50  # dice pools: Biotech, Combat Pool
_TN_MODIFIER_MIN, _TN_MODIFIER_MAX = -50, 50

WOUND = Procedure(
    "wound",
    "A character takes a wound: the GM's secret Body check decides whether it is a critical hit, "
    "then where it struck and how deadly it is.",
    (
        Param("severity", "choice", "Severity of the wound.", choices=SEVERITIES, required=True),
        Param("body", "int", "The character's Body rating (taken from the character file when not given).",
              min=1, max=50),
        Param("combat_pool", "int", "Combat Pool dice added to the Body check (needs option allow_combat_pool).",
              default=0, min=_DICE_MIN, max=_DICE_MAX),
        Param("closed", "bool", "A closed wound (fall, blunt blow, spell); by default the wound is open "
              "(bullet, blade), which lets some criticals be diagnosed on sight.", default=False),
        Param("stun", "bool", "The wound is Stun damage: mark the Stun track instead of the Physical one.",
              default=False),
        Param("no_mark", "bool", "Do not mark the wound's boxes on a track (already marked).", default=False),
        Param("help_minutes", "float", "Minutes before help (a medic, a healer) can reach the character: a Mortal "
              "critical whose time runs out by then counts as dead before help can arrive (for crit odds).",
              default=10.0, min=0),
    ),
    target="optional",
)

DIAGNOSE = Procedure(
    "diagnose",
    "A medic examines the character: one Biotech test per critical not yet found.",
    (
        Param("biotech", "int", "Biotech dice (when defaulting, the dice you default to).", required=True, min=_DICE_MIN, max=_DICE_MAX),
        Param("modifier", "int", "Other target-number modifiers (defaulting, the medic's own wounds, ...).",
              default=0, min=_TN_MODIFIER_MIN, max=_TN_MODIFIER_MAX),
        Param("assensing", "bool", "The medic is a magician with Biotech who assenses the patient (-2).",
              default=False),
        _CRITICAL,
    ),
    verb="treat",
    target="required",
)

MEDIC = Procedure(
    "medic",
    "A medic treats one diagnosed critical (Mortal or Critical; nobody can treat a Crippling one).",
    (
        Param("biotech", "int", "Biotech dice.", required=True, min=_DICE_MIN, max=_DICE_MAX),
        Param("modifier", "int", "Other target-number modifiers.", default=0, min=_TN_MODIFIER_MIN, max=_TN_MODIFIER_MAX),
        _CRITICAL,
    ),
    verb="treat",
    target="required",
)

HEAL_MAGIC = Procedure(
    "heal-magic",
    "A Heal or Treat spell: its successes erase boxes on the Physical track and the critical monitors.",
    (
        Param("successes", "int", "Successes of the healing spell.", required=True, min=0, max=100),
        Param("allocate", "str", "How a healer who knows of the criticals spends them, "
              "e.g. physical=3,1=6,2=1 (critical numbers as `crit show` lists them)."),
        Param("split", "str", "For a healer who does not know of the criticals: even (split evenly, "
              "the remainder to the physical wound) or physical (everything on the physical wound)."),
    ),
    verb="treat",
    target="required",
)

HEAL_NATURAL = Procedure(
    "heal-natural",
    "A critical of Critical lethality heals by itself: Body test against TN 6 and modifiers; "
    "8 weeks divided by the successes.",
    (
        _CRITICAL,
        Param("hospital", "bool", "The character rests in a hospital.", default=False),
        Param("treatment", "str", "Override how the critical was treated: none, improper or proper "
              "(default: from the character file)."),
    ),
    verb="treat",
    target="required",
)

ADVANCE = Procedure(
    "advance",
    "Let time pass: untreated Mortal criticals run out, natural healing finishes.",
    (
        # at most ten years at a time: a campaign's scale (the clock stays a reasonable number)
        Param("minutes", "float", "Minutes to pass.", default=0.0, min=0, max=5_256_000),
        Param("hours", "float", "Hours to pass.", default=0.0, min=0, max=87_600),
        Param("days", "float", "Days to pass.", default=0.0, min=0, max=3_650),
        Param("weeks", "float", "Weeks to pass.", default=0.0, min=0, max=520),
    ),
    verb="treat",
    target="required",
)

OPTIONS = (
    Option("tn_set", "choice", "recommended",
           "Body check target numbers: recommended (the higher set) or gentle (the lower set, where a "
           "light wound is never a critical).", ("recommended", "gentle")),
    Option("allow_combat_pool", "bool", False, "Allow Combat Pool dice on the Body check (--combat-pool)."),
    Option("no_critical_category", "bool", False,
           "Drop the Critical lethality: two successes are enough to avoid a critical hit."),
    Option("locate_all_wounds", "bool", False,
           "Roll the hit location for every wound, not only for critical hits (the document allows it)."),
    Option("body_12_healing", "choice", "9-12",
           "Which natural-healing row a Body of exactly 12 uses (the document lists both).", ("9-12", "12+")),
    Option("medic_tn_mortal", "int", None, "Biotech TN to treat a Mortal critical (unset: medic-chart, 6).",
           min=2, max=30),
    Option("medic_tn_critical", "int", None, "Biotech TN to treat a Critical critical (unset: medic-chart, 4).",
           min=2, max=30),
    Option("medic_minutes_mortal", "int", None,
           "Base time in minutes to treat a Mortal critical (unset: medic-chart, 5).", min=1, max=10_000),
    Option("medic_minutes_critical", "int", None,
           "Base time in minutes to treat a Critical critical (unset: medic-chart, 20).", min=1, max=10_000),
)

INFO = SystemInfo(
    name="shadowrun2",
    title="Shadowrun 2nd Edition critical hits",
    procedures=(WOUND, DIAGNOSE, MEDIC, HEAL_MAGIC, HEAL_NATURAL, ADVANCE),
    version=__version__,
    package="critcore-shadowrun2",
    tables_package="critcore_shadowrun2.tables",
    options=OPTIONS,
    effect_codes=EFFECT_CODES,
    target_noun="character",
    events=EVENTS,  # the outcome tags the stages set (events.py)
    target_schema="critcore_shadowrun2:target-schema.toml",  # every key of a character, checked by critcore
)
