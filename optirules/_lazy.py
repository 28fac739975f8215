"""Lazy re-exports, so that ``import optirules`` stays fast (Pyomo and CVXPY are slow to import)."""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from typing import Any


def lazy_exports(package: str, names: Mapping[str, str]) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """Return ``(__getattr__, __dir__)`` for a package whose public names live in private modules.

    ``names`` maps each public name to the module (relative to ``package``) that defines it;
    a name mapped to the module of its own name (``"options": ".options"``) is that module.
    """

    def __getattr__(name: str) -> Any:
        try:
            module = names[name]
        except KeyError:
            raise AttributeError(f"module {package!r} has no attribute {name!r}") from None
        loaded = importlib.import_module(module, package)
        return loaded if module.lstrip(".") == name else getattr(loaded, name)

    def __dir__() -> list[str]:
        return sorted(names)

    return __getattr__, __dir__
