"""Presentation helpers for card templates: the current language's text, costs, stats."""

from django import template
from django.utils.html import format_html_join
from django.utils.translation import gettext as _

from cards.models import Game
from common.i18n import current_language, localized

register = template.Library()


def current_lang() -> str:
    """ "fr" when the active language is French, else "en" (the two languages cards carry).
    Other apps import it under this name; it is `common.i18n.current_language`."""
    return current_language()


@register.filter
def loc(obj, field: str) -> str:
    """`{{ card|loc:"name" }}`: the French `name_fr` in French when set, else `name_en`."""
    if obj is None:
        return ""
    return localized(obj, field, current_language())


@register.filter
def full_name(card) -> str:
    return card.full_name(current_language()) if card is not None else ""


@register.filter
def nplus(value) -> str:
    """A target number printed as on the card: 4 -> "4+", unknown -> "–"."""
    return "–" if value in (None, "") else f"{value}+"


@register.filter
def dash(value) -> str:
    return "–" if value in (None, "") else str(value)


@register.simple_tag
def coin_chips(gold: int | None, silver: int | None, copper: int | None) -> str:
    """Gold, silver and copper chips ("?" for an unknown coin): `{% coin_chips g s c %}`."""
    coins = (
        ("gold", _("Gold"), gold),
        ("silver", _("Silver"), silver),
        ("copper", _("Copper"), copper),
    )
    return format_html_join(
        "",
        '<span class="coin coin-{}{}" title="{}">{}</span>',
        (
            (key, " coin-zero" if amount == 0 else "", label, "?" if amount is None else amount)
            for key, label, amount in coins
        ),
    )


@register.filter
def cost(card) -> str:
    """The printed cost: TMG points ("Commander" at 0), Tactics gold/silver/copper chips."""
    if card.game == Game.TACTICS:
        return coin_chips(card.gold, card.silver, card.copper)
    if card.points is None:
        return "–"
    if card.points == 0 and card.is_commander:
        return _("Commander")
    return str(card.points)


@register.filter
def qr_svg(url: str, title: str = "") -> str:
    """`{{ url|qr_svg:_("QR code of the share link") }}`: an inline SVG QR code of `url`."""
    from django.utils.safestring import mark_safe

    from common.qr import qr_svg as make

    return mark_safe(
        make(str(url), title=str(title))
    )  # segno writes the markup and escapes the title
