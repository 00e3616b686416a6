"""What the GURPS plugin declares: procedures, their parameters, options and effect codes."""

from __future__ import annotations

from critcore.plugin import Option, Param, Procedure, SystemInfo

from . import __version__
from .reference import LOCATIONS as KNOWN_LOCATIONS
from .reference import HIGHEST_SKILL, LOWEST_DEFENSE, LOWEST_SKILL
from .events import EVENTS

# --- parameters shared by several procedures -------------------------------------------------

# Ranges (issue 14): what GURPS's scale allows; where the rules set no bound, a generous one
# (docs/systems/gurps.md, "Where the rules are silent").
SKILL = Param("skill", "int", "Effective skill after every modifier.", required=True,
              min=LOWEST_SKILL, max=HIGHEST_SKILL)  # below 3 GURPS allows no roll (the help says what is checked)
DEFENSE_SKILL = Param("skill", "int", "Active defense score after every modifier.", required=True,
                      min=LOWEST_DEFENSE, max=HIGHEST_SKILL)
LOCATION = Param("location", "str", "Hit location: skull, face, eye, neck, torso, vitals, groin, right-arm, "
                 "left-arm, right-leg, left-leg, hand, foot, or 'random' to roll it.",
                 suggest=(*KNOWN_LOCATIONS, "random"))
# "str", not "dice": the plugin reads the whole text (an armor divisor may follow the dice with no
# space, "2d(2) pi"), and refuses what it cannot read in one line naming --damage
DAMAGE = Param("damage", "str", "The weapon's damage: dice and type, e.g. \"2d+1 cut\" or \"6d(2) pi\".")
ARMOR_DIVISOR = Param("armor_divisor", "float", "Armor divisor, if not given in --damage (the published ones "
                      "run from 0.1 to 100).", min=0.1, max=100)
DR = Param("dr", "int", "DR at the hit location (else the target file's dr).", min=0, max=10_000)
HP = Param("hp", "int", "Hit points of whoever takes the injury (else the target file; 10 if unknown).",
           min=1, max=10_000)
HT = Param("ht", "int", "HT of whoever takes the injury (else the target file; 10 if unknown).", min=1, max=100)
MALE = Param("male", "bool", "The victim is a human male (groin: double crushing shock, -5 knockdown).")
EYE_IMPOSSIBLE = Param("eye_impossible", "bool", "An eye hit is impossible (from behind, no eyes): head blow 6-7 uses 4.")
TWO_WEAPONS = Param("two_weapons", "bool", "The victim holds two weapons (head blow 14 drops a random one).")

RANGED = Param("ranged", "bool", "A ranged attack.")
ATTACK_KIND = Param("attack_kind", "choice", "A swung (if not given) or a thrust melee attack.",
                    choices=("swing", "thrust"))
PARRYING = Param("parrying", "bool", "The critical miss came on a parry.")
CHEAP = Param("cheap", "bool", "Cheap weapon (breaks on critical miss 9-11).")
FINE = Param("fine", "bool", "Fine or very fine weapon (resists breaking).")
MAGIC = Param("magic", "bool", "Magic weapon (resists breaking).")
SOLID_CRUSHING = Param("solid_crushing", "bool", "Solid crushing weapon: mace, flail, maul, metal bar (resists breaking).")
FIREARM = Param("firearm", "bool", "Firearm other than a wheellock, guided missile or beam weapon (resists breaking).")
FOOTING = Param("footing", "choice", "Where the fumbler stands (standing if not given): a 'fall down' result "
                "depends on it.", choices=("standing", "cannot-fall", "flying", "swimming"))
UNARMED_WITH = Param("unarmed_with", "choice", "Unarmed attack or parry made with a limb (if not given), or "
                     "with the head (bite, butt).", choices=("limb", "head"))
NATURAL_WEAPON = Param("natural_weapon", "bool", "Attacking with claws, teeth or another natural weapon.")
FOE_IMPALING = Param("foe_impaling", "bool", "The foe holds a ready impaling weapon (hit-object results).")
KICK = Param("kick", "bool", "The unarmed attack was a kick (trip: DX-4).")
TECHNIQUE = Param("technique_penalty", "int", "A technique's usual DX penalty against mishap (trip doubles it).",
                  default=0, min=-50, max=0)
DX = Param("dx", "int", "DX of the fumbler (else the target file); the trip roll is rolled when known.",
           min=1, max=100)
IQ = Param("iq", "int", "IQ of the fumbler or caster (else the target file).", min=1, max=100)
BODY_PART = Param("location", "str", "Body part used for the unarmed attack (default right-arm, or skull "
                  "for a head butt or bite).", suggest=tuple(KNOWN_LOCATIONS))

WEAPON = (CHEAP, FINE, MAGIC, SOLID_CRUSHING, FIREARM)
UNARMED = (UNARMED_WITH, NATURAL_WEAPON, FOE_IMPALING, KICK, TECHNIQUE, DX, IQ)
VICTIM = (DAMAGE, ARMOR_DIVISOR, DR, HP, HT, MALE)

ATTACK = Procedure(
    "attack",
    "Roll 3d6 against effective skill; a critical hit or miss rolls on the right table.",
    (SKILL, LOCATION, Param("unarmed", "bool", "An unarmed attack (punch, kick, bite...)."), RANGED, ATTACK_KIND,
     *VICTIM, EYE_IMPOSSIBLE, TWO_WEAPONS, *WEAPON, FOOTING, *UNARMED),
)
DEFENSE = Procedure(
    "defense",
    "Roll an active defense; a critical success makes the attacker roll on a miss table, a critical failure hurts the defender.",
    (DEFENSE_SKILL, Param("defense", "choice", "Which active defense.", required=True, choices=("dodge", "parry", "block")),
     Param("bare_handed", "bool", "Parrying bare-handed."),
     Param("attacker_unarmed", "bool", "The attacker struck unarmed (his miss uses the unarmed table)."),
     RANGED, ATTACK_KIND, DAMAGE, DR, HP, HT, *WEAPON, FOOTING, *UNARMED),
)
SPELL = Procedure(
    "spell",
    "Roll 3d6 against spell skill; a critical failure rolls on the Critical Spell Failure table.",
    (SKILL, Param("spell", "str", "Name of the spell (remembered if it is forgotten)."),
     Param("harmful", "bool", "The spell is meant to harm."), HP, HT, IQ),
)
CRITICAL_HIT = Procedure(
    "critical-hit", "Roll on the Critical Hit table, or the Critical Head Blow table for skull, face or eye.",
    (LOCATION, *VICTIM, TWO_WEAPONS),
)
HEAD_BLOW = Procedure(
    "head-blow", "Roll on the Critical Head Blow table (a critical hit on skull, face or eye).",
    (Param("location", "str", "skull, face or eye.", default="skull", suggest=("skull", "face", "eye")), *VICTIM, EYE_IMPOSSIBLE, TWO_WEAPONS),
)
CRITICAL_MISS = Procedure(
    "critical-miss", "Roll on the Critical Miss table; --target is the one who fumbled.",
    (RANGED, ATTACK_KIND, PARRYING, *WEAPON, DAMAGE, DR, HP, HT, FOOTING),
)
UNARMED_MISS = Procedure(
    "unarmed-miss", "Roll on the Unarmed Critical Miss table; --target is the one who fumbled.",
    (PARRYING, BODY_PART, DAMAGE, DR, HP, HT, FOOTING, *UNARMED),
)
SPELL_FAILURE = Procedure(
    "spell-failure", "Roll on the Critical Spell Failure table; --target is the caster.",
    (Param("spell", "str", "Name of the spell."), Param("harmful", "bool", "The spell is meant to harm."), HP, HT, IQ),
)
HIT_LOCATION = Procedure("hit-location", "Roll 3d6 for a random hit location: on a humanoid, or on the body table "
                         "of the character given with --target (a GCS file's own body type).", (), target="optional")

TREAT_WAIT = Procedure(
    "wait", "Let time pass: timed effects run out, periodic recovery rolls are made as they fall due.",
    tuple(Param(u, "int", f"{u.capitalize()} to pass (at most ten years' worth).", default=0, min=0, max=most)
          for u, most in (("seconds", 315_360_000), ("minutes", 5_256_000), ("hours", 87_600), ("days", 3_650),
                          ("weeks", 520))),
    verb="treat", target="required",
)
TREAT_RECOVER = Procedure(
    "recover", "Make a status's recovery roll now (stunned, knocked out, forgotten spell), or end one by "
    "taking the maneuver it needs (prone, dropped or unready weapon).",
    (Param("status", "str", "Status id, as `crit show gurps` lists it.", required=True),
     Param("modifier", "int", "Modifier to the recovery roll.", default=0, min=-50, max=50)),
    verb="treat", target="required",
)
TREAT_KNOCKDOWN = Procedure(
    "knockdown", "Roll the HT rolls against knockdown and stunning that injuries left owing.",
    (), verb="treat", target="required",
)
TREAT_SURVIVE = Procedure(
    "survive", "Roll the HT rolls low HP left owing: to avoid death at each multiple of -HP, then this "
    "turn's roll to stay conscious at 0 HP or less.",
    (Param("do_nothing", "bool", "He takes Do Nothing this turn: no roll to stay conscious (it is owed again "
           "next turn); rolls to avoid death are made all the same."),),
    verb="treat", target="required",
)
TREAT_AFTER_FIGHT = Procedure(
    "after-fight", "After the fight: an HT roll for each crippled part (and deafness, broken claws or teeth): "
    "temporary, lasting or permanent.",
    (Param("physician_tl", "int", "Tech level of the physician treating lasting injuries, if any.", min=0, max=12),),
    verb="treat", target="required",
)
TREAT_HEAL = Procedure(
    "heal", "Give back hit points; at full HP temporary crippling and torn muscles heal.",
    (Param("hp", "int", "Hit points restored.", required=True, min=1, max=10_000),),
    verb="treat", target="required",
)

OPTIONS = (
    Option("extended_critical_range", "bool", False,
           "Very high skill widens the critical success range: 7 at skill 20, 8 at 25, 9 at 30, 10 at 35 "
           "(GURPS Compendium II's cinematic table). Off by default."),
    Option("ranged_margin_critical", "bool", False,
           "Ranged attacks missing by 10+ become critical misses too (the Basic Set's general rule; "
           "the document limits that rule to melee)."),
    Option("random_location", "bool", False,
           "An attack with no --location rolls on the hit-location table instead of striking the torso."),
    Option("spell_margin_critical", "bool", True,
           "A casting roll missed by 10 or more is a critical failure (the Basic Set's general rule)."),
    Option("crippling_is_major_wound", "bool", True,
           "Any crippling injury counts as a major wound (knockdown roll), even an extremity's under HP/2."),
    Option("cheap_breaks_when_dropped", "bool", True,
           "Critical miss 14 sends a thrust, ranged attack or parry to result 9 in full: a cheap weapon breaks."),
    Option("footing_on_every_fall", "bool", True,
           "The rules for fighters who cannot fall, fliers and swimmers apply to every 'fall down' result "
           "(armed table 16, a dodge's critical failure), not only the unarmed table's."),
    Option("divided_dr_rounding", "choice", "down", "How DR divided by an armor divisor rounds.",
           choices=("down", "up")),
    Option("half_damage_rounding", "choice", "down", "How half damage (hit yourself, hit a solid object) rounds.",
           choices=("down", "up")),
    Option("default_hp", "int", 10, "HP assumed when neither --hp nor the character file gives them.",
           min=HP.min, max=HP.max),
    Option("default_ht", "int", 10, "HT assumed when neither --ht nor the character file gives it.",
           min=HT.min, max=HT.max),
    Option("month_days", "int", 30, "Days in a month, for lasting crippling injuries.", min=28, max=31),
)

EFFECT_CODES = frozenset({
    "damage", "eye-hit", "weapon-breaks", "hit-self", "lose-balance", "weapon-turns", "drop-weapon",
    "weapon-flies", "strain-shoulder", "fall-down", "knocked-out", "strain", "hit-object", "stumble", "trip",
    "drop-guard", "tear-muscle", "fail-injury", "misdirected", "stun", "no-effect", "reversed", "forget-spell",
    "demon", "location", "shield-unready",
})

INFO = SystemInfo(
    name="gurps",
    title="GURPS 4th Edition",
    version=__version__,
    package="critcore-gurps",
    tables_package="critcore_gurps.tables",
    options=OPTIONS,
    effect_codes=EFFECT_CODES,
    target_noun="character",
    target_schema="critcore_gurps.data:target-schema.toml",  # every key of a character, checked by critcore
    writes=(".gcs",),  # --save on a GCS character writes its injuries back into the .gcs (gcs.py)
    target_memo=True,  # a character's body table is built once per target (bodies.body_of)
    events=EVENTS,  # the outcome tags the stages set (events.py)
    procedures=(ATTACK, DEFENSE, SPELL, CRITICAL_HIT, HEAD_BLOW, CRITICAL_MISS, UNARMED_MISS, SPELL_FAILURE,
                HIT_LOCATION, TREAT_WAIT, TREAT_RECOVER, TREAT_KNOCKDOWN, TREAT_SURVIVE, TREAT_AFTER_FIGHT, TREAT_HEAL),
)
