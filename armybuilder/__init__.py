"""Citadel's project package: settings, URLs, WSGI and the Celery app, plus the army builder.

Deliberately empty: the pure game logic below it (armybuilder.tmg, armybuilder.tactics,
armybuilder.listtext, armybuilder.findings) must import without Django or Celery. The
Celery app is loaded where Django starts (ArmybuilderConfig.ready), and `celery -A
armybuilder` finds it in the `armybuilder.celery` submodule.
"""
