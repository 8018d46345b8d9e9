"""Lists of the test card pool (tests/carddata.py) for event tests."""

from tests.carddata import STARK_LIST

LEGAL = STARK_LIST  # 15 points of a 40-point game

# Two commanders and over 12 points: illegal at any event size below 23.
OVER_SIZE = STARK_LIST.replace("Points: 40", "Points: 12")

# No commander: illegal.
NO_COMMANDER = """Faction: Stark
Points: 40
Combat Units:
• Stark Sworn Swords (5)
• Stark Outriders (6)
"""

# The same army as LEGAL, written as players write it (another fingerprint? no: the same).
LEGAL_AS_PLAYERS_WRITE = """House Stark - 40 pts
Stark Sworn Swords (5) with Robb Stark, The Wolf Lord (C)
Stark Outriders (6)
NCU: Catelyn Stark
"""

LANNISTER = """Faction: Lannister
Points: 40
Combat Units:
• Lannister Guardsmen (5)
  • Jaime Lannister - The Kingslayer (C)
"""

WARBAND = """Game: Tactics
Scenario: 2-4-12
Faction: Baratheon
Heroes:
• Robert Baratheon [2G]
Soldiers:
• Baratheon Guardians x3 [1C each]
"""
