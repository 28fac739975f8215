"""CNF rule sets beside DNF, and the class the rules describe (``form``, ``target_class``)
of BooleanRuleSetClassifier: the CNF of the BRCG paper (Dash, Günlük and Wei, 2018) is the
negation of the DNF learnt for the other class, printed and evaluated exactly (missing
values and unseen categories included)."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest

from optirules.data import load_dataset
from optirules.errors import InputError
from optirules.learners import BooleanRuleSetClassifier, BooleanRuleSetCV
from tests.internals import Clause, RuleSet


def planted_cnf(n: int = 240, seed: int = 0):
    rng = np.random.default_rng(seed)
    X = rng.integers(0, 2, (n, 6))
    y = ((X[:, 0] | X[:, 1]) & (X[:, 2] | X[:, 3])).astype(int)
    return X, y


def mixed(n: int = 160, seed: int = 1):
    """A small table with numbers, a category and missing values, and noisy labels."""
    rng = np.random.default_rng(seed)
    X = pd.DataFrame({
        "age": rng.integers(20, 80, n).astype(float),
        "score": rng.normal(size=n).round(2),
        "colour": rng.choice(["red", "green", "blue"], n).astype(object),
    })
    X.loc[rng.random(n) < 0.1, "score"] = np.nan
    X.loc[rng.random(n) < 0.1, "colour"] = None
    signal = (X.age > 50) | (X.colour == "red")
    y = np.where(signal ^ (rng.random(n) < 0.1), "yes", "no")
    return X, y


def heart():
    """heart_cleveland (NaN in ca and thal) with cp as named categories."""
    X, y = load_dataset("heart_cleveland")
    X = X.copy()
    names = {1.0: "typical", 2.0: "atypical", 3.0: "nonanginal", 4.0: "asymptomatic"}
    X["cp"] = X["cp"].map(names).astype(object)
    return X, np.asarray(y)


def unseen_rows(X: pd.DataFrame) -> pd.DataFrame:
    """Rows of X with NaN where training had none (age, cp), all-NaN rows and an unseen
    category."""
    Z = X.copy()
    Z.loc[Z.index[::3], "age"] = np.nan
    Z.loc[Z.index[1::4], "cp"] = "unheard-of"
    Z.loc[Z.index[2::5], "cp"] = None
    Z.loc[Z.index[::7], :] = np.nan
    return pd.concat([X, Z], ignore_index=True)


KW = dict(max_degree=2, random_state=0)


# ------------------------------------------------------------------------------ recovery
def test_planted_cnf_is_recovered_exactly():
    X, y = planted_cnf()
    m = BooleanRuleSetClassifier(binarizer=None, form="cnf").fit(X, y)
    assert m.rules_.form == "cnf"
    assert {str(c) for c in m.rules_.rules} == {"x0 == 1 OR x1 == 1", "x2 == 1 OR x3 == 1"}
    assert (m.predict(X) == y).mean() == 1.0
    text = m.to_text()
    assert text.startswith("predict 1 if every clause holds, else 0:\n  clause 1: ")
    assert str(m) == text
    assert all(isinstance(c, Clause) for c in m.rules_.rules)


def test_cnf_is_the_negation_of_the_complement_dnf():
    X, y = mixed()
    cnf = BooleanRuleSetClassifier(form="cnf", target_class="yes", **KW).fit(X, y)
    flipped = np.where(y == "yes", "no", "yes")
    # target_class names the class where the complement DNF fits its own label 1
    dnf = BooleanRuleSetClassifier(target_class="no", **KW).fit(X, y)
    assert cnf.clauses_ == dnf.clauses_
    np.testing.assert_array_equal(cnf.predict(X), dnf.predict(X))
    # the same DNF from the flipped labels: cnf = NOT dnf, row for row
    dnf2 = BooleanRuleSetClassifier(target_class="yes", **KW).fit(X, flipped)
    assert dnf2.clauses_ == cnf.clauses_
    np.testing.assert_array_equal(cnf.predict(X) == "yes", dnf2.predict(X) == "no")
    np.testing.assert_allclose(cnf.predict_proba(X), dnf.predict_proba(X))
    # clause m holds exactly where rule m of the DNF does not fire
    np.testing.assert_array_equal(cnf.decision_rules(X), ~dnf.decision_rules(X))


def test_target_class_first_equals_a_fit_on_flipped_labels():
    X, y = planted_cnf(seed=3)
    y = y ^ (np.random.default_rng(3).random(len(y)) < 0.05)
    m0 = BooleanRuleSetClassifier(binarizer=None, target_class=0).fit(X, y)
    flip = BooleanRuleSetClassifier(binarizer=None).fit(X, 1 - y)
    assert m0.target_class_ == 0 and m0.rules_.form == "dnf"
    assert m0.clauses_ == flip.clauses_
    assert [str(r) for r in m0.rules_.rules] == [str(r) for r in flip.rules_.rules]
    np.testing.assert_array_equal(m0.predict(X), 1 - flip.predict(X))
    np.testing.assert_allclose(m0.predict_proba(X), flip.predict_proba(X)[:, ::-1],
                               rtol=0, atol=1e-15)
    assert m0.to_text().startswith("predict 0 if any rule holds, else 1:")
    assert (m0.rules_table()["class"] == 0).all()


# ------------------------------------------------------------------------ missing values
@pytest.mark.parametrize("form", ["cnf", "dnf"])
def test_nan_and_unseen_categories_agree_everywhere(form):
    X, y = heart()
    m = BooleanRuleSetClassifier(form=form, target_class=0 if form == "dnf" else None,
                                 **KW).fit(X, y)
    Z = unseen_rows(X)
    pred = m.predict(Z)
    back = BooleanRuleSetClassifier.from_json(m.to_json())
    np.testing.assert_array_equal(back.predict(Z), pred)
    np.testing.assert_array_equal(back.predict_proba(Z), m.predict_proba(Z))
    np.testing.assert_array_equal(back.decision_rules(Z), m.decision_rules(Z))
    assert back.to_text() == m.to_text()
    # the typed rules alone, evaluated on the raw rows
    np.testing.assert_array_equal(m.rules_.predict(Z), pred)
    np.testing.assert_array_equal(
        np.where(m.rules_.evaluate(Z), m.target_class_, 1 - m.target_class_), pred)
    np.testing.assert_array_equal(RuleSet.from_json(m.rules_.to_json()).predict(Z), pred)


def test_negated_literals_carry_the_missing_case():
    X, y = heart()
    m = BooleanRuleSetClassifier(form="cnf", **KW).fit(X, y)
    assert m.rules_.n_rules >= 1
    for clause in m.rules_.rules:
        for lit in clause.conditions:
            if lit.op not in ("is missing", "is not missing"):
                assert any(o.op == "is missing" and o.feature == lit.feature
                           for o in clause.conditions), str(clause)
    # a row missing everything fails every comparison of the DNF, so every clause holds
    row = pd.DataFrame([[np.nan] * X.shape[1]], columns=X.columns).astype(X.dtypes)
    assert m.decision_rules(row).all()
    assert m.predict(row)[0] == 1


# ---------------------------------------------------------------------- probabilities
@pytest.mark.parametrize("form,target", [("cnf", None), ("cnf", "no"), ("dnf", "no"),
                                         ("dnf", None)])
def test_predict_proba_is_consistent_with_predict(form, target):
    X, y = mixed()
    m = BooleanRuleSetClassifier(form=form, target_class=target, **KW).fit(X, y)
    p = m.predict_proba(X)
    np.testing.assert_allclose(p.sum(axis=1), 1.0)
    np.testing.assert_array_equal(m.classes_[p.argmax(axis=1)], m.predict(X))
    np.testing.assert_array_equal(m.decision_function(X) > 0, m.predict(X) == "yes")
    e = m.explain(X)
    np.testing.assert_array_equal(e["prediction"], m.predict(X))
    np.testing.assert_allclose(e["score"], p.max(axis=1))


@pytest.mark.parametrize("form,target", [("cnf", None), ("dnf", 0)])
def test_clipped_scores_still_follow_predict(form, target):
    # penalties so large that the master picks no rule: the DNF's class is the majority
    # but never predicted, so its score is clipped to 1/2, a tie argmax must break right
    rng = np.random.default_rng(0)
    X = rng.integers(0, 2, (60, 4))
    y = (rng.random(60) < 0.3).astype(int)
    m = BooleanRuleSetClassifier(binarizer=None, form=form, target_class=target,
                                 lambda0=1.0, lambda1=1.0).fit(X, y)
    assert m.rules_.n_rules == 0
    p = m.predict_proba(X)
    np.testing.assert_array_equal(m.classes_[p.argmax(axis=1)], m.predict(X))
    # the empty CNF always holds, the empty DNF never: both predict 1 here, the minority
    assert (m.predict(X) == 1).all()
    assert (m.decision_function(X) > 0).all()
    text = m.explain(X[:1])["text"][0]
    assert "default: " in text and ("the CNF has no clause" in text) == (form == "cnf")


# ---------------------------------------------------------------------- bad parameters
def test_bad_values_raise_input_error():
    X, y = planted_cnf()
    with pytest.raises(InputError, match="form"):
        BooleanRuleSetClassifier(binarizer=None, form="xnf").fit(X, y)
    with pytest.raises(InputError, match=r"target_class=7 .*\[0, 1\]"):
        BooleanRuleSetClassifier(binarizer=None, target_class=7).fit(X, y)
    with pytest.raises(InputError, match="target_class"):
        BooleanRuleSetClassifier(binarizer=None, target_class="1").fit(X, y)
    y3 = y + X[:, 5]
    with pytest.raises(InputError, match="target_class.*3 classes"):
        BooleanRuleSetClassifier(binarizer=None, target_class=1).fit(X, y3)


# ------------------------------------------------------------------ the default target
def test_the_default_describes_the_minority_text_label():
    """Text labels 'no'/'yes' ('no' the minority): target_class=None describes 'no', as
    target_class='no' does, and says so; the JSON keeps the choice."""
    X, y = mixed()
    assert (y == "no").sum() < (y == "yes").sum()
    base = BooleanRuleSetClassifier(**KW).fit(X, y)
    same = BooleanRuleSetClassifier(form="dnf", target_class=None, **KW).fit(X, y)
    named = BooleanRuleSetClassifier(target_class="no", **KW).fit(X, y)
    assert base.target_class_ == "no"
    for m in (same, named):
        assert m.clauses_ == base.clauses_
        np.testing.assert_array_equal(m.predict_proba(X), base.predict_proba(X))
    assert same.to_text() == base.to_text()
    assert base.to_text().startswith("predict 'no' if any rule holds, else 'yes':")
    assert "the rules describe 'no', the class with fewer training rows" in base.to_text()
    assert "fewer training rows" not in named.to_text()
    a, b = json.loads(base.to_json()), json.loads(named.to_json())
    assert "form" not in a["rules"]
    assert a["rules"] == b["rules"] and a["clauses"] == b["clauses"]
    assert a["params"]["form"] == "dnf" and a["params"]["target_class"] is None
    assert b["params"]["target_class"] == "no"


def test_old_files_without_the_params_load_as_dnf():
    """A file without ``form`` and ``target_class`` loads as a DNF of the class its rules
    predict."""
    X, y = mixed()
    m = BooleanRuleSetClassifier(target_class="yes", **KW).fit(X, y)
    data = json.loads(m.to_json())
    del data["params"]["form"], data["params"]["target_class"]
    back = BooleanRuleSetClassifier.from_json(json.dumps(data))
    assert back.form == "dnf" and back.target_class is None and back.target_class_ == "yes"
    np.testing.assert_array_equal(back.predict(X), m.predict(X))
    np.testing.assert_array_equal(back.predict_proba(X), m.predict_proba(X))


def test_damaged_form_is_refused():
    X, y = mixed()
    m = BooleanRuleSetClassifier(form="cnf", **KW).fit(X, y)
    data = json.loads(m.to_json())
    data["params"]["form"] = "dnf"
    with pytest.raises(InputError, match="damaged.*form"):
        BooleanRuleSetClassifier.from_json(json.dumps(data))
    data["params"]["form"] = "cnf"
    data["params"]["target_class"] = "maybe"
    with pytest.raises(InputError, match="damaged.*target_class"):
        BooleanRuleSetClassifier.from_json(json.dumps(data))


# ------------------------------------------------------------------ explain and table
def test_cnf_explain_names_the_failed_or_held_clauses():
    X, y = planted_cnf()
    m = BooleanRuleSetClassifier(binarizer=None, form="cnf").fit(X, y)
    e = m.explain(X)
    holds = m.decision_rules(X)
    for i in range(len(y)):
        rules = e["rules"][i]
        if e["prediction"][i] == 1:
            assert rules == [f"clause {k + 1} holds: {c}" for k, c in enumerate(m.rules_.rules)]
            assert list(e["fired"][i]) == [1]
        else:
            failed = np.flatnonzero(~holds[i])
            assert [r.split(" (precision")[0] for r in rules] == \
                [f"clause {k + 1} fails: {m.rules_.rules[k]}" for k in failed]
            assert list(e["fired"][i]) == [0]
    assert e["text"][0].startswith(f"{e['prediction'][0]}: clause 1 ")


def test_cnf_rules_table_is_one_row_per_clause():
    X, y = mixed()
    m = BooleanRuleSetClassifier(form="cnf", target_class="yes", **KW).fit(X, y)
    t = m.rules_table()
    assert list(t["rule"]) == [str(c) for c in m.rules_.rules]
    assert (t["class"] == "no").all()  # a failing clause speaks for the other class
    g = m.rules_table(X, y)
    fails = ~m.decision_rules(X)
    np.testing.assert_array_equal(g["support"], fails.sum(axis=0))
    no = y == "no"
    np.testing.assert_allclose(g["precision"], (fails & no[:, None]).sum(0) / fails.sum(0))
    np.testing.assert_allclose(g["recall"], (fails & no[:, None]).sum(0) / no.sum())
    # unweighted training statistics are the same row counts
    np.testing.assert_allclose(t["support"], g["support"])
    np.testing.assert_allclose(t["precision"], g["precision"])
    np.testing.assert_allclose(t["recall"], g["recall"])
    assert "every clause holds" in m._repr_html_()


# --------------------------------------------------------------- multiclass, CV, export
def test_multiclass_cnf_fits_each_class():
    X, y = mixed(n=150)
    y3 = np.where(X["colour"].fillna("none") == "blue", "b", y)
    m = BooleanRuleSetClassifier(form="cnf", **KW).fit(X, y3)
    assert all(e.rules_.form == "cnf" for e in m.estimators_)
    p = m.predict_proba(X)
    np.testing.assert_allclose(p.sum(axis=1), 1.0)
    np.testing.assert_array_equal(m.classes_[p.argmax(axis=1)], m.predict(X))
    back = BooleanRuleSetClassifier.from_json(m.to_json())
    np.testing.assert_array_equal(back.predict(X), m.predict(X))
    assert set(m.rules_table()["class"]) <= {"not 'b'", "not 'no'", "not 'yes'"}
    m.explain(X.head(5))


def test_cv_passes_form_and_target_class_through():
    X, y = mixed()
    est = BooleanRuleSetClassifier(form="cnf", target_class="no", **KW)
    cv = BooleanRuleSetCV(estimator=est, cv=3, penalties=[0.01, 0.05]).fit(X, y)
    best = cv.best_estimator_
    assert best.rules_.form == "cnf" and best.target_class_ == "no"
    np.testing.assert_array_equal(cv.predict(X), best.predict(X))
    np.testing.assert_array_equal(cv.predict_proba(X), best.predict_proba(X))
    back = BooleanRuleSetCV.from_json(cv.to_json())
    np.testing.assert_array_equal(back.predict(X), cv.predict(X))
    assert back.best_estimator_.rules_.form == "cnf"


def test_export_model_writes_the_complement_dnf_master(tmp_path):
    X, y = planted_cnf()
    m = BooleanRuleSetClassifier(binarizer=None, form="cnf").fit(X, y)
    A, yk, _ = m._train
    np.testing.assert_array_equal(yk, y == 0)  # the master's label 1: not the target
    (path,) = m.export_model(tmp_path / "cnf.lp")
    text = path.read_text()
    assert "x0_eq_0_and_x1_eq_0" in text or "x0 == 0 AND x1 == 0" in text
    back = BooleanRuleSetClassifier.from_json(m.to_json())
    (p2,) = back.export_model(tmp_path / "back.lp", X=X, y=y)
    assert "NOT (x0 == 1 OR x1 == 1)" in p2.read_text()


# --------------------------------------------------------------------- damaged CNF files
@pytest.mark.parametrize("target", [None, "no"])
def test_every_damaged_field_of_a_cnf_file_is_refused_or_harmless(target):
    from .test_json_catalogue import ACTIONS, _mutated, _outcome, _paths

    X, y = mixed(n=90)
    m = BooleanRuleSetClassifier(form="cnf", target_class=target, **KW).fit(X, y)
    doc = json.loads(m.to_json())
    problems = []
    for action in ACTIONS:
        if action == "very deep":
            continue
        for path in _paths(doc):
            bad = _mutated(doc, path, action)
            renamed = "feature_names_in" in path and action in ("abc", "empty")
            no_scores = path[-1] == "scores" and action in ("delete", "null")
            problem = _outcome(BooleanRuleSetClassifier,
                               lambda b=bad: BooleanRuleSetClassifier.from_json(b), X,
                               other_columns=renamed, no_scores=no_scores)
            if problem:
                problems.append(f"{action} {'.'.join(map(str, path))}: {problem}")
    assert not problems, "\n".join(problems[:25])


def test_the_default_target_is_the_second_number_or_the_minority_text_label():
    """target_class=None: classes_[1] for numeric labels (1 the positive class), the class
    with fewer rows for text labels (ties: classes_[1]); the fit on text labels equals the
    fit on numbers with that class as target."""
    from tests.internals import default_target

    assert default_target(np.array([0, 1]), np.array([1, 1, 1, 0])) == 1
    assert default_target(np.array(["a", "b"]), np.array(["b", "b", "a"])) == 0
    assert default_target(np.array(["a", "b"]), np.array(["b", "a"])) == 1
    X, y = planted_cnf(seed=4)
    y = np.where(y == 1, "yes", "no")  # 'yes', the majority, sorts second
    minority = "no"
    assert (y == "no").sum() < (y == "yes").sum()
    text = BooleanRuleSetClassifier(binarizer=None, random_state=0).fit(X, y)
    named = BooleanRuleSetClassifier(binarizer=None, random_state=0,
                                     target_class=minority).fit(X, y)
    assert text.target_class_ == minority
    assert [str(r) for r in text.rules_.rules] == [str(r) for r in named.rules_.rules]
    np.testing.assert_array_equal(text.predict_proba(X), named.predict_proba(X))
    back = BooleanRuleSetClassifier.from_json(text.to_json())
    np.testing.assert_array_equal(back.predict(X), text.predict(X))
