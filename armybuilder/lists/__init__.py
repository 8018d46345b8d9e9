"""Saved army lists: models (in the armybuilder app), services, selectors and the builder pages.

Legality is never stored: every page recomputes it from the current card data through the
same validator the text checker uses.
"""
