"""Declarative parameter validation (scikit-learn's ``_parameter_constraints``) of the public
estimators of optirules.learners: every ``__init__`` parameter has a constraint, and a bad
value raises :class:`~optirules.errors.InputError` naming the parameter before ``fit`` reads
any data."""

import inspect
import numbers

import numpy as np
import pytest
from sklearn.utils._param_validation import (
    Interval,
    InvalidParameterError,
    make_constraint,
    validate_parameter_constraints,
)

from optirules.errors import InputError
from optirules.learners import (
    BooleanRuleSetClassifier,
    BooleanRuleSetCV,
    BoostingClassifier,
    DecisionListClassifier,
    DecisionListCV,
    DREPPruner,
    DRORuleEnsembleClassifier,
    KappaPruner,
    QMMPruner,
    ResampledAdaBoostClassifier,
)
from tests.internals import validate_params

ESTIMATORS = [BooleanRuleSetClassifier, BooleanRuleSetCV, BoostingClassifier,
              DecisionListClassifier, DecisionListCV, QMMPruner, KappaPruner, DREPPruner,
              ResampledAdaBoostClassifier, DRORuleEnsembleClassifier]


class Untouchable:
    """Data that fails the test if ``fit`` reads it in any way."""

    def __getattr__(self, name):
        raise AssertionError(f"fit read the data ({name}) before checking its parameters")

    def __len__(self):
        raise AssertionError("fit read the data (len) before checking its parameters")

    def __iter__(self):
        raise AssertionError("fit read the data (iter) before checking its parameters")

    def __array__(self, *args, **kwargs):
        raise AssertionError("fit read the data (array) before checking its parameters")


def _fails(cls, name, value):
    try:
        validate_parameter_constraints({name: cls._parameter_constraints[name]},
                                       {name: value}, cls.__name__)
    except InvalidParameterError:
        return True
    return False


def _bad_value(cls, name):
    """The first of a few wrong values that the constraints of ``name`` refuse."""
    for value in ("bogus-value", -1, 1.5, True, object()):
        if _fails(cls, name, value):
            return value
    raise AssertionError(f"no bad value found for {cls.__name__}.{name}")


def _constrained(cls):
    return [(cls, name) for name, c in cls._parameter_constraints.items()
            if c != "no_validation"]


CASES = [case for cls in ESTIMATORS for case in _constrained(cls)]
IDS = [f"{cls.__name__}-{name}" for cls, name in CASES]


@pytest.mark.parametrize("cls", ESTIMATORS, ids=lambda c: c.__name__)
def test_constraints_cover_every_init_parameter(cls):
    params = {name for name in inspect.signature(cls.__init__).parameters if name != "self"}
    assert set(cls._parameter_constraints) == params


@pytest.mark.parametrize("cls", ESTIMATORS, ids=lambda c: c.__name__)
def test_the_defaults_are_valid(cls):
    validate_params(cls())


@pytest.mark.parametrize("cls, name", CASES, ids=IDS)
def test_a_bad_value_is_refused_before_fit_reads_the_data(cls, name):
    bad = _bad_value(cls, name)
    est = cls(**{name: bad})
    with pytest.raises(InputError, match=rf"The '{name}' parameter of {cls.__name__} must be"
                                         r"[\s\S]*Fix this "):
        est.fit(Untouchable(), Untouchable())


@pytest.mark.parametrize("cls, name", CASES, ids=IDS)
def test_a_bad_value_fails_at_once_even_with_a_huge_table(cls, name):
    # no data is read: a big table costs nothing when a parameter is wrong
    X = np.zeros((200_000, 50), dtype=np.int8)
    y = np.zeros(200_000, dtype=np.int8)
    est = cls(**{name: _bad_value(cls, name)})
    with pytest.raises(InputError, match=f"'{name}' parameter"):
        est.fit(X, y)


def _integer_params():
    out = []
    for cls in ESTIMATORS:
        for name, constraints in cls._parameter_constraints.items():
            if constraints == "no_validation":
                continue
            ints = [c for c in map(make_constraint, constraints)
                    if isinstance(c, Interval) and c.type is numbers.Integral]
            if ints:
                out.append((cls, name, ints[-1]))
    return out


INTEGER_PARAMS = _integer_params()


@pytest.mark.parametrize("cls, name, interval", INTEGER_PARAMS,
                         ids=[f"{c.__name__}-{n}" for c, n, _ in INTEGER_PARAMS])
def test_integer_parameters_take_numpy_ints_and_refuse_bools(cls, name, interval):
    low = interval.left if interval.left is not None else interval.right
    if interval.left is not None and interval.closed in ("right", "neither"):
        low += 1
    if interval.left is None and interval.closed in ("left", "neither"):
        low -= 1
    validate_params(cls(**{name: np.int64(low)}))
    validate_params(cls(**{name: int(low)}))
    for flag in (True, False, np.True_):
        with pytest.raises(InputError, match=f"'{name}' parameter"):
            validate_params(cls(**{name: flag}))


@pytest.mark.parametrize("value", [float("inf"), float("nan"), True])
@pytest.mark.parametrize("cls, name", [
    (BooleanRuleSetClassifier, "tol"), (BooleanRuleSetClassifier, "lambda0"),
    (BooleanRuleSetClassifier, "time_limit"), (BoostingClassifier, "epsilon"),
    (DecisionListClassifier, "confidence"), (QMMPruner, "upsilon"),
    (KappaPruner, "fraction"), (DecisionListCV, "time_limit"),
])
def test_real_parameters_refuse_infinities_nan_and_bools(cls, name, value):
    with pytest.raises(InputError, match=f"'{name}' parameter"):
        validate_params(cls(**{name: value}))


@pytest.mark.parametrize("cls, params", [
    (BooleanRuleSetClassifier, dict(lambda0="auto", max_degree="auto", complexity=None,
                                    mip_gap=np.float64(0.5), random_state=np.int64(3),
                                    solver={"lp": "highs"}, binarizer=None, backend=None)),
    (BooleanRuleSetCV, dict(penalties=[0.1, (0.1, 0.2)], cv=np.int64(3), n_jobs=-1,
                            selection="one_se", solver="highs", class_weight={0: 2})),
    (BoostingClassifier, dict(target_error=None, binarizer=None, weak_learner="cart")),
    (DecisionListClassifier, dict(min_coverage="auto", categorical_features="all",
                                  max_rules=None, n_bins=np.int64(10))),
    (DecisionListCV, dict(max_degrees=np.array([1, 2]), min_coverages=(2,))),
    (QMMPruner, dict(upsilon="EMargin", hypothesis_space_size=10**30,
                     dependent="proportional")),
    (DREPPruner, dict(candidate_fraction=1, patience=np.int64(2), voting="weighted")),
    (ResampledAdaBoostClassifier, dict(max_depth=None, random_state=2**32 - 1)),
])
def test_accepted_values_pass(cls, params):
    validate_params(cls(**params))


def test_cross_parameter_rules_stay_hand_written():
    X = np.array([[0, 1], [1, 0], [1, 1], [0, 0]] * 5)
    y = np.array([1, 0, 1, 0] * 5)
    with pytest.raises(InputError, match="max_degree <= 3"):
        BooleanRuleSetClassifier(exact_method="enumerate", max_degree=4).fit(X, y)
    with pytest.raises(InputError, match="QMMPruner\\(time_limit=...\\)"):
        QMMPruner(solver_options={"time_limit": 3}).fit(np.where(X == 1, 1, -1), y)
    with pytest.raises(InputError, match="repeats a value"):
        BooleanRuleSetCV(penalties=[0.1, 0.1], cv=2).fit(X, y)
    with pytest.raises(InputError, match="min_coverages"):
        DecisionListCV(min_coverages=[]).fit(X, y)
