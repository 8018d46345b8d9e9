"""The ground floor: pure helpers every other package may use (no Django models, no app)."""
