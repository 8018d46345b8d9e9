"""Card sets players enter and share (issue 14): figures, equipment and scenarios of a set
are ordinary cards (`Card.card_set`), seen only by who may see the set.

`selectors`: who may see or edit a set, and the card querysets narrowed to what a reader
may see. `services`: every write (keyword-only). `document`: the set as a citadel-cards/1
document, read (import, all-or-nothing) and written (export).
"""
