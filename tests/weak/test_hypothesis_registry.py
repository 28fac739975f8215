"""The hypothesis registry: every weak hypothesis type round-trips through JSON by its key."""

from __future__ import annotations

import json

import numpy as np
import pytest

import optirules.weak as weak
from optirules.errors import InputError
from optirules.weak import HYPOTHESIS_TYPES, WeakHypothesis, hypothesis_from_dict


def _one_of_each() -> dict[str, tuple[WeakHypothesis, np.ndarray]]:
    """A fitted hypothesis of every registered type, with data to predict on."""
    rng = np.random.default_rng(0)
    Xb = rng.integers(0, 2, size=(60, 5)).astype(np.uint8)
    y = np.where(Xb[:, 0] ^ Xb[:, 1], 1, -1)
    Xr = rng.normal(size=(60, 3))
    yr = np.where(Xr[:, 0] > 0.1, 1, -1)
    return {
        "constant": (weak.Constant(-1), Xb),
        "literal": (weak.LiteralHypothesis(2, negated=True, feature_names=list("abcde")), Xb),
        "parity": (weak.ParityLearner().fit(Xb, y), Xb),
        "stump": (weak.StumpLearner().fit(Xr, yr), Xr),
        "tree": (weak.CartLearner(size=4, random_state=0).fit(Xr, yr), Xr),
    }


def test_every_subclass_is_registered_under_its_kind():
    classes = {weak.Constant, weak.LiteralHypothesis, weak.Parity, weak.Stump,
               weak.TreeHypothesis}
    assert HYPOTHESIS_TYPES == {c.kind: c for c in classes}


def test_json_round_trip_of_every_type():
    made = _one_of_each()
    assert set(made) == set(HYPOTHESIS_TYPES)          # a new type must be added here too
    for kind, (h, X) in made.items():
        assert type(h) is HYPOTHESIS_TYPES[kind]
        back = hypothesis_from_dict(json.loads(json.dumps(h.to_dict())))
        assert type(back) is type(h) and back == h
        np.testing.assert_array_equal(back.predict(X), h.predict(X))
        assert str(back) == str(h)


def test_unknown_or_malformed_type_is_a_clear_error():
    with pytest.raises(InputError, match=r"Unknown hypothesis type 'forest'.*constant"):
        hypothesis_from_dict({"type": "forest", "feature": 0})
    with pytest.raises(InputError, match="Unknown hypothesis type None"):
        hypothesis_from_dict({"feature": 0})
    with pytest.raises(InputError, match="a 'literal' hypothesis has fields"):
        hypothesis_from_dict({"type": "literal", "column": 3})
    with pytest.raises(InputError, match="dict with a 'type' key"):
        hypothesis_from_dict(["literal"])


def test_a_kind_cannot_be_taken_twice():
    with pytest.raises(TypeError, match="'literal' is taken"):
        type("Other", (weak.LiteralHypothesis,), {"kind": "literal"})
    assert HYPOTHESIS_TYPES["literal"] is weak.LiteralHypothesis
