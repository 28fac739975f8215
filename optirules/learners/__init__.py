"""optirules.learners."""
