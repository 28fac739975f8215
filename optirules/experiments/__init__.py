"""optirules.experiments."""
