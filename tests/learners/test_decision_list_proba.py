"""The decision list's probabilities: the class counts behind each decision smoothed toward
the training class shares (the m-estimate the rule set uses), with the prediction as the
largest entry."""

import numpy as np
import pytest

from optirules.data import load_dataset
from optirules.learners import DecisionListClassifier
from tests.internals import smoothed_distribution


def test_the_m_estimate_of_every_class():
    counts = np.array([[6.0, 2.0, 0.0], [0.0, 0.0, 0.0]])
    prior = np.array([0.5, 0.3, 0.2])
    p = smoothed_distribution(counts, prior, strength=10.0)
    np.testing.assert_allclose(p[0], (counts[0] + 10 * prior) / 18.0)
    np.testing.assert_allclose(p[1], prior)  # no rows behind the decision: the prior


def test_the_prediction_stays_the_largest_entry():
    """Three rows of the rare class: the prior alone would put the common class first; the
    predicted (largest-count) class is raised just above it."""
    counts = np.array([[0.0, 3.0]])
    p = smoothed_distribution(counts, np.array([0.8, 0.2]), strength=10.0)
    assert np.argmax(p[0]) == 1 and p[0, 1] - p[0, 0] < 1e-9
    assert p.sum() == pytest.approx(1.0)


@pytest.mark.parametrize("name", ["ilpd", "ecoli", "tic_tac_toe"])
def test_probabilities_agree_with_predict_and_are_never_certain(name):
    X, y = load_dataset(name)
    est = DecisionListClassifier().fit(X, y)
    p = est.predict_proba(X)
    np.testing.assert_allclose(p.sum(axis=1), 1.0)
    np.testing.assert_array_equal(est.classes_[np.argmax(p, axis=1)], est.predict(X))
    assert ((p > 0) & (p < 1)).all()
