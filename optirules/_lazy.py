"""Lazy re-exports, so that ``import optirules`` stays fast (Pyomo and CVXPY are slow to import)."""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from typing import Any


def lazy_exports(package: str, names: Mapping[str, str], modules: Mapping[str, str] | None = None,
                 ) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """Return ``(__getattr__, __dir__)`` for a package whose public names live in private modules.

    ``names`` maps each public name to the module (relative to ``package``) that defines it;
    ``modules`` maps each public name that is a module itself to that module
    (``{"options": ".options", "parity": "._parity"}``).
    """
    modules = dict(modules or {})

    def __getattr__(name: str) -> Any:
        if name in modules:
            return importlib.import_module(modules[name], package)
        try:
            module = names[name]
        except KeyError:
            raise AttributeError(f"module {package!r} has no attribute {name!r}") from None
        return getattr(importlib.import_module(module, package), name)

    def __dir__() -> list[str]:
        return sorted([*names, *modules])

    return __getattr__, __dir__
