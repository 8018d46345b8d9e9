"""Rulebooks and their sections (the rules reference issue builds this out)."""
