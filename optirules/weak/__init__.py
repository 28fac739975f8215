"""optirules.weak."""
