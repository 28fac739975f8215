"""literal_conflicts: the columns of thresholds, done together, give the pairs (and their
order) of literals_conflict applied to every pair of literals of one column."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from optirules.data import FeatureBinarizer, Literal, literal_conflicts, literals_conflict


def _pairwise(literals):
    by_column: dict[str, list[int]] = {}
    for j, lit in enumerate(literals):
        by_column.setdefault(str(lit.feature), []).append(j)
    pairs = [(i, j) for idx in by_column.values()
             for p, i in enumerate(idx) for j in idx[p + 1:]
             if literals_conflict(literals[i], literals[j])]
    return np.array(pairs, dtype=np.int64).reshape(-1, 2)


def _random_literals(seed):
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(int(rng.integers(1, 30))):
        feature = f"f{rng.integers(0, 5)}"
        ops = ["<=", ">"] if seed % 3 else ["<=", ">", "==", "!=", "is missing"]
        op = str(rng.choice(ops))
        value = (None if op == "is missing" else float(rng.integers(0, 5))
                 if op in ("<=", ">") else str(rng.integers(0, 3)))
        column = None if rng.random() < 0.5 else int(rng.integers(0, 2))
        out.append(Literal(feature, op, value, column))
    return out


@pytest.mark.parametrize("seed", range(30))
def test_equals_the_pairwise_definition(seed):
    """Repeated thresholds, equal literals, columns given or not, mixed operators."""
    lits = _random_literals(seed)
    got = literal_conflicts(lits)
    assert got.dtype == np.int64
    np.testing.assert_array_equal(got, _pairwise(lits))


def test_equals_the_pairwise_definition_on_a_binarized_table():
    rng = np.random.default_rng(0)
    X = pd.DataFrame(rng.standard_normal((40, 50)), columns=[f"c{i}" for i in range(50)])
    X["cat"] = rng.choice(list("abc"), 40)
    X.loc[3, "c0"] = np.nan
    lits = FeatureBinarizer().fit(X).literals_
    got = literal_conflicts(lits)
    assert len(got) > 0
    np.testing.assert_array_equal(got, _pairwise(lits))
    assert literal_conflicts([]).shape == (0, 2)
