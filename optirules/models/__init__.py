"""optirules.models."""
