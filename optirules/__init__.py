"""optirules: declarative optimization models for interpretable classification."""

__version__ = "0.1.0"
__all__ = ["__version__"]
