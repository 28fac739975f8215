"""BooleanRuleSetClassifier.fit on a dask array: the rows stay on the workers (binarized
there), and the fitted model is the local fit's on the same rows."""

from __future__ import annotations

import numpy as np
import pytest

from optirules.data import make_planted_dnf
from optirules.errors import InputError
from optirules.learners import BooleanRuleSetClassifier

distributed = pytest.importorskip("distributed")
da = pytest.importorskip("dask.array")


@pytest.fixture(scope="module")
def client():
    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                       dashboard_address=None)
    c = distributed.Client(cluster)
    yield c
    c.close()
    cluster.close()


KW = dict(pricing="exact", random_state=0, tol=0.0)


def same_model(remote, local, X):
    # the same rule set and objective (the pools may differ: a degenerate LP has several
    # optimal duals, and the master over the patterns may return other ones)
    assert remote.clauses_ == local.clauses_
    assert remote.literals_ == local.literals_
    assert remote.ip_objective_ == pytest.approx(local.ip_objective_, abs=1e-12)
    assert remote.lp_bound_ == pytest.approx(local.lp_bound_, abs=1e-12)
    assert remote.gap_certified_ and remote.pricing_complete_
    np.testing.assert_allclose(remote.rule_precision_, local.rule_precision_, atol=1e-12)
    np.testing.assert_allclose(remote.rule_support_, local.rule_support_, atol=1e-9)
    assert remote.default_precision_ == pytest.approx(local.default_precision_, abs=1e-12)
    np.testing.assert_array_equal(remote.predict(X), local.predict(X))
    np.testing.assert_allclose(remote.predict_proba(X), local.predict_proba(X), atol=1e-6)


def test_fit_on_a_dask_array_of_bits_is_the_local_fit(client):
    X, y = make_planted_dnf(6000, random_state=2)
    local = BooleanRuleSetClassifier(**KW).fit(X, y)
    remote = BooleanRuleSetClassifier(**KW).fit(da.from_array(X, chunks=(1500, 10)),
                                                da.from_array(y, chunks=2000))
    same_model(remote, local, X)
    assert sorted(remote.clauses_) == [(0, 1, 32), (3, 5, 34), (7, 8, 36)]  # the planted DNF
    assert sorted(remote.pool_) == sorted(local.pool_)
    assert remote.fit_info_["pricing"] == "exact (rows on the workers)"
    assert remote.fit_info_["rows"]["n_partitions"] == 4
    assert remote.fit_info_["rows"]["n_rows"] == 6000
    assert "_train" not in vars(remote)
    # the same partitions again: the same numbers (sums reduced in partition order); other
    # partitions: the same model
    again = BooleanRuleSetClassifier(**KW).fit(da.from_array(X, chunks=(1500, 10)),
                                               da.from_array(y, chunks=2000))
    assert [h["lp_objective"] for h in again.history_] == \
        [h["lp_objective"] for h in remote.history_]
    assert again.ip_objective_ == remote.ip_objective_ and again.pool_ == remote.pool_
    other = BooleanRuleSetClassifier(**KW).fit(da.from_array(X, chunks=(3500, 30)),
                                               da.from_array(y, chunks=3500))
    same_model(other, local, X)


def test_fit_on_raw_numbers_binarizes_on_the_workers(client):
    rng = np.random.default_rng(4)
    X = rng.normal(size=(3000, 4))
    y = ((X[:, 0] > 0.3) & (X[:, 1] < 0.5)) | (X[:, 2] > 1.2)
    y = np.where(y ^ (rng.random(3000) < 0.02), "yes", "no")
    local = BooleanRuleSetClassifier(max_degree=2, **KW).fit(X, y)
    remote = BooleanRuleSetClassifier(max_degree=2, **KW).fit(
        da.from_array(X, chunks=(700, 4)), da.from_array(y, chunks=700))
    assert list(remote.classes_) == ["no", "yes"] and remote.target_class_ == local.target_class_
    same_model(remote, local, X)  # every row in the binarizer's sample: the same thresholds


def test_what_a_fit_on_a_dask_collection_refuses_before_any_work(client, monkeypatch):
    X, y = make_planted_dnf(400, random_state=0)
    dX, dy = da.from_array(X, chunks=(100, 30)), da.from_array(y, chunks=100)
    with pytest.raises(InputError, match="y as a dask array"):
        BooleanRuleSetClassifier().fit(dX, y)
    with pytest.raises(InputError, match="pricing='exact'"):
        BooleanRuleSetClassifier(pricing="beam").fit(dX, dy)
    with pytest.raises(InputError, match="sample_weight"):
        BooleanRuleSetClassifier().fit(dX, dy, sample_weight=np.ones(400))
    with pytest.raises(InputError, match="max_rules"):
        BooleanRuleSetClassifier(max_rules=2).fit(dX, dy)
    unknown = dX[dX[:, 0] > 0]  # chunks of unknown size
    with pytest.raises(InputError, match="compute_chunk_sizes"):
        BooleanRuleSetClassifier().fit(unknown, dy)
    with pytest.raises(InputError, match="two-class"):
        BooleanRuleSetClassifier(pricing="exact").fit(dX, dy + (dX[:, 3] * dX[:, 4]))

    def no_client():
        raise ValueError("No global client found")

    monkeypatch.setattr(distributed, "get_client", no_client)
    with pytest.raises(InputError, match="Client"):
        BooleanRuleSetClassifier().fit(dX, dy)


def test_fit_on_a_dask_dataframe_is_the_local_fit(client):
    pd = pytest.importorskip("pandas")
    dd = pytest.importorskip("dask.dataframe")  # needs pyarrow
    X, y = make_planted_dnf(4000, random_state=3)
    frame = pd.DataFrame(X, columns=[f"f{j}" for j in range(X.shape[1])])
    frame["label"] = y
    local = BooleanRuleSetClassifier(**KW).fit(frame.drop(columns="label"), frame["label"])
    parts = dd.from_pandas(frame, npartitions=3)
    remote = BooleanRuleSetClassifier(**KW).fit(parts.drop(columns="label"), parts["label"])
    same_model(remote, local, frame.drop(columns="label"))
    assert list(remote.feature_names_in_) == list(frame.columns[:-1])
