"""Every public name documents its parameters and what it returns (numpydoc's checks).

The names are those of the ``__all__`` of each public layer (classes and functions, not
constants or type aliases) and the public methods of the public classes, inherited ones
included when they are defined in optirules (a ``predict`` written once in a mixin is
checked once, under the first public class that has it); properties are not checked
(they take no parameter and their docstring is the value's description).  Each must
pass numpydoc's

- PR01: every parameter of the signature is documented,
- PR02: no documented parameter is missing from the signature,
- RT01: a function that returns something has a Returns section (``fit`` returns
  ``self`` and says so).

A dataclass may document its fields once, as an Attributes section (the fields are its
constructor's parameters; ``numpydoc_attributes_as_param_list`` renders them as such):
a field named there counts as documented for PR01.  Skipped when numpydoc (the ``docs``
extra) is not installed.
"""

from __future__ import annotations

import dataclasses
import importlib
import inspect
import re

import pytest

validate = pytest.importorskip("numpydoc.validate").validate
NumpyDocString = pytest.importorskip("numpydoc.docscrape").NumpyDocString

MODULES = ("solvers", "models", "data", "weak", "learners", "experiments", "plotting",
           "errors")
CHECKS = ("PR01", "PR02", "RT01")

#: names whose signature the checks cannot read as the constructor a user calls
EXCEPTIONS = {
    # an Enum: its "signature" is Enum's functional API (value, names, module, qualname,
    # type, start, boundary), not parameters of optirules; its members are listed instead
    "optirules.solvers.Status",
    # a typing.Protocol: never instantiated, its signature is Protocol's (*args, **kwargs)
    "optirules.models.RestrictedMaster",
}


def _public_names() -> list[str]:
    names: dict[str, None] = {}
    seen: set[int] = set()
    for layer in MODULES:
        module = importlib.import_module(f"optirules.{layer}")
        for name in module.__all__:
            obj = getattr(module, name)
            if isinstance(obj, type(tuple[int])) or not callable(obj):
                continue                      # constants and type aliases
            qualname = f"optirules.{layer}.{name}"
            names[qualname] = None
            if not inspect.isclass(obj):
                continue
            done: set[str] = set()
            for klass in obj.__mro__:
                if not klass.__module__.startswith("optirules"):
                    continue                  # scikit-learn's get_params, object's ...
                for attr, value in vars(klass).items():
                    if attr.startswith("_") or attr in done:
                        continue
                    if not (inspect.isfunction(value)
                            or isinstance(value, (classmethod, staticmethod))):
                        continue              # properties and class attributes
                    done.add(attr)
                    function = getattr(value, "__func__", value)
                    if id(function) in seen:
                        continue
                    seen.add(id(function))
                    names[f"{qualname}.{attr}"] = None
    return list(names)


def _resolve(qualname: str):
    parts = qualname.split(".")
    obj = importlib.import_module(".".join(parts[:2]))
    for part in parts[2:]:
        obj = getattr(obj, part)
    return obj


def _attribute_names(obj) -> set[str]:
    names: set[str] = set()
    for entry in NumpyDocString(inspect.getdoc(obj) or "")["Attributes"]:
        names.update(n.strip() for n in entry.name.split(","))
    return names


def _errors(qualname: str) -> list[str]:
    obj = _resolve(qualname)
    errors = []
    for code, message in validate(qualname)["errors"]:
        if code not in CHECKS:
            continue
        if code == "PR01" and dataclasses.is_dataclass(obj) and inspect.isclass(obj):
            missing = set(re.findall(r"'([^']+)'", message)) - _attribute_names(obj)
            if not missing:
                continue
            message = f"Parameters {sorted(missing)} not documented"
        errors.append(f"{code} {message}")
    return errors


NAMES = _public_names()


def test_the_names_are_collected():
    # every layer contributes, and the estimators' methods are among the names
    assert len(NAMES) > 200
    for name in ("optirules.learners.BooleanRuleSetClassifier.fit",
                 "optirules.learners.DecisionListClassifier.predict",
                 "optirules.solvers.solve", "optirules.plotting.plot_grid"):
        assert name in NAMES
    assert EXCEPTIONS <= set(NAMES)


@pytest.mark.parametrize("qualname", [n for n in NAMES if n not in EXCEPTIONS])
def test_parameters_and_returns_are_documented(qualname):
    errors = _errors(qualname)
    assert not errors, f"{qualname}:\n" + "\n".join(errors)
