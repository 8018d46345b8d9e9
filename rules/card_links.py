"""Card pages link ability names and the game terms a card's text mentions to the rulebook
sections that define them.

Cards sit below rules and may not import it: this module plugs the lookup into the hook
`cards.rule_links` declares. `CardsConfig.ready` imports it at start-up (it looks for a
`card_links` module in every installed app), which registers `card_rule_links`.
"""

from __future__ import annotations

from cards.models import Card
from cards.rule_links import RuleLinks, register_rule_linker

from .definitions import Definition
from .selectors import definition_index


def card_rule_links(card: Card, lang: str) -> RuleLinks:
    """Link ability names ("Order: Threaten" -> Orders) and the game terms the card's text
    mentions ("Panicked", "Charge") to the sections that define them, in the reader's
    language when an imported book has one."""
    index = definition_index(card.game)
    abilities: dict[int, Definition] = {}
    texts = [getattr(card, f"text_{lang}") or ""]
    for link in card.card_abilities.all():
        ability = link.ability
        # A French reader's ability may be defined under its French or its English name.
        names = (ability.name_fr, ability.name_en) if lang == "fr" else (ability.name_en,)
        found = index.find_first([n for n in names if n], language=lang)
        if found is not None:
            abilities[ability.id] = found
        texts += [getattr(ability, f"text_{lang}") or "", getattr(ability, f"trigger_{lang}") or ""]
    linked = {definition.section_id for definition in abilities.values()}
    mentioned: list[tuple[str, Definition]] = []
    text = "\n".join(t for t in texts if t)
    for term in index.mentioned_terms(text, lang=lang, games=[card.game]):
        found = index.find(term, language=lang)
        if found is not None and found.section_id not in linked:
            linked.add(found.section_id)
            mentioned.append((term, found))
    return RuleLinks(abilities=abilities, mentioned=tuple(mentioned))


register_rule_linker(card_rule_links)
