"""Every field of the query language: canonical names, aliases, accepted values.

Pure data, shared by the parser (validation), the compiler and the help page. Keys and
choice values are looked up folded (case, accents and `-`/space/`_` do not matter), so
`Coût`, `cout` and `COST` are the same field and `war-machine` = `war_machine`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from cards.normalise import fold

NUMBER = "number"  # cost>=5: = != < <= > >= (":" is "=")
CHOICE = "choice"  # kind:ncu: one value from `choices`
BOOL = "bool"  # commander:yes
TEXT = "text"  # faction:stark, name:"jaime": free text, matched folded
FLAG = "flag"  # is:commander / not:commander
DIRECTIVE = "directive"  # sort:cost, dir:desc: not a filter

NUMBER_OPS = ("=", "!=", "<", "<=", ">", ">=")
TEXT_OPS = (":", "=", "!=")


@dataclass(frozen=True)
class FieldSpec:
    name: str
    kind: str
    aliases: tuple[str, ...] = ()
    # canonical value -> aliases (all written folded, "_" between words)
    choices: dict[str, tuple[str, ...]] = field(default_factory=dict)
    negated: bool = False  # `not:x` is `-is:x`

    @property
    def operators(self) -> tuple[str, ...]:
        return (":", *NUMBER_OPS) if self.kind == NUMBER else TEXT_OPS

    def choice(self, value: str) -> str | None:
        """The canonical choice for a typed value, or None."""
        key = choice_key(value)
        for canonical, aliases in self.choices.items():
            if key == canonical or key in aliases:
                return canonical
        return None


def choice_key(text: str) -> str:
    """'War-Machine' -> 'war_machine', 'Engin de siège' -> 'engin_de_siege'."""
    return re.sub(r"[\s\-_']+", "_", fold(text)).strip("_")


GAMES = {"tmg": ("asoiaf",), "tactics": ("tactic", "tactique", "tactiques"), "agot": (), "hotk": ()}
KINDS = {
    "unit": ("units", "unite", "unites"),
    "attachment": ("attachments", "attachement", "attachements", "attach"),
    "ncu": ("ncus", "ucn", "unc"),
    "tactics": ("tactic", "tactique", "tactiques"),
    "special": ("specials", "speciale", "speciales"),
    "hero": ("heroes", "heros"),
    "champion": ("champions",),
    "soldier": ("soldiers", "soldat", "soldats"),
    "equipment": ("equipement", "equip", "gear"),
}
_INFANTRY = ("inf", "infanterie")
_CAVALRY = ("cav", "cavalerie")
_WAR_MACHINE = ("warmachine", "siege", "machine", "machine_de_guerre", "engin", "engin_de_siege")
UNIT_TYPES = {
    "infantry": _INFANTRY,
    "cavalry": _CAVALRY,
    "monster": ("monsters", "monstre", "monstres"),
    "war_machine": _WAR_MACHINE,
    "none": ("aucun",),
}
TRAYS = {
    "solo": (),
    "infantry": _INFANTRY,
    "cavalry": _CAVALRY,
    "war_machine": _WAR_MACHINE,
    "none": ("aucun",),
}
BOOLS = {
    "yes": ("y", "true", "1", "oui", "o", "vrai"),
    "no": ("n", "false", "0", "non", "faux"),
}
FLAGS = {
    "character": ("char", "personnage", "perso"),
    "commander": ("commandant",),
    "unique": (),
    "mounted": ("mount", "monte"),
    "neutral": ("neutre",),
}
SORT_KEYS = {
    "name": ("nom",),
    "cost": ("points", "pts", "cout", "prix"),
    "speed": ("spd", "vitesse"),
    "defense": ("def",),
    "morale": ("mor", "moral"),
    "wounds": ("blessures",),
    "will": ("volonte",),
    "gold": ("or",),
    "silver": ("argent",),
    "copper": ("cuivre",),
    "faction": (),
    "kind": ("categorie", "genre"),
    "version": ("ver",),
}
DIRECTIONS: dict[str, tuple[str, ...]] = {
    "asc": ("ascending", "up", "croissant"),
    "desc": ("descending", "down", "decroissant"),
}

# Numeric field -> Card column.
NUMBER_COLUMNS = {
    "cost": "points",
    "speed": "speed",
    "defense": "defense",
    "morale": "morale",
    "wounds": "wounds",
    "will": "will",
    "gold": "gold",
    "silver": "silver",
    "copper": "copper",
}

FIELDS: tuple[FieldSpec, ...] = (
    FieldSpec("game", CHOICE, ("jeu",), GAMES),
    FieldSpec("faction", TEXT),
    FieldSpec("kind", CHOICE, ("categorie", "genre"), KINDS),
    FieldSpec("type", CHOICE, ("unit_type", "unittype"), UNIT_TYPES),
    FieldSpec("tray", CHOICE, ("plateau", "socle"), TRAYS),
    FieldSpec("cost", NUMBER, ("points", "pts", "cout", "prix")),
    FieldSpec("speed", NUMBER, ("spd", "vitesse")),
    FieldSpec("defense", NUMBER, ("def",)),
    FieldSpec("morale", NUMBER, ("mor", "moral")),
    FieldSpec("wounds", NUMBER, ("wound", "blessures", "blessure")),
    FieldSpec("will", NUMBER, ("volonte",)),
    FieldSpec("gold", NUMBER, ("or",)),
    FieldSpec("silver", NUMBER, ("argent",)),
    FieldSpec("copper", NUMBER, ("cuivre",)),
    FieldSpec("commander", BOOL, ("commandant",), BOOLS),
    FieldSpec("is", FLAG, ("est",), FLAGS),
    FieldSpec("not", FLAG, (), FLAGS, negated=True),
    FieldSpec("character", TEXT, ("char", "personnage", "perso")),
    FieldSpec("ability", TEXT, ("abilities", "capacite", "capacites")),
    FieldSpec("name", TEXT, ("nom",)),
    FieldSpec("title", TEXT, ("titre",)),
    FieldSpec("version", TEXT, ("ver",)),
    FieldSpec("id", TEXT, ("external_id", "ref")),
    FieldSpec("requires", TEXT, ("requirement", "requirements", "exige")),
    FieldSpec("set", TEXT, ("cardset", "card_set", "jeu_de_cartes", "serie")),
    FieldSpec("sort", DIRECTIVE, ("order", "tri", "trier"), SORT_KEYS),
    FieldSpec("dir", DIRECTIVE, ("direction", "sens"), DIRECTIONS),
)

_BY_KEY: dict[str, FieldSpec] = {}
for _spec in FIELDS:
    for _key in (_spec.name, *_spec.aliases):
        assert _key not in _BY_KEY, f"duplicate query field key {_key!r}"
        _BY_KEY[_key] = _spec


def lookup(key: str) -> FieldSpec | None:
    """The field a typed key names (`Coût` -> cost), or None."""
    return _BY_KEY.get(choice_key(key))
