"""optirules.data."""
