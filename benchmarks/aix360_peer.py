"""Optional peer run: AIX360's BooleanRuleCG (BRCG) on the folds of ``benchmarks/rules.py``.

This is the older run on a pinned Python 3.8 stack with AIX360's own binarizer (the
accuracy and complexity columns of ``benchmarks/results/rules.md``).  The speed comparison
with the current release on the current stack, fed the same 0/1 fold matrices as ours and
interleaved with our fits, is ``benchmarks/brcg_peer.py``
(``benchmarks/results/brcg_peer.md``).

aix360 0.3.0 needs old pins (Python 3.8, pandas < 2.1, cvxpy < 1.5 with ECOS), so it runs in
its own virtual environment and does not import optirules::

    python3.8 -m venv aix360-venv
    aix360-venv/bin/pip install aix360==0.3.0 "cvxpy<1.5" ecos
    python benchmarks/rules.py                  # writes benchmarks/results/rules_folds.json
    nice aix360-venv/bin/python benchmarks/aix360_peer.py                 # ECOS LP
    nice aix360-venv/bin/python benchmarks/aix360_peer.py --solver SCIPY   # HiGHS LP
    python benchmarks/rules.py --tables-only    # the table now shows the peer column

It reads the fold row indices from ``rules_folds.json`` (and the data files bundled in
``optirules/data/datasets`` or scikit-learn's own datasets), binarizes each training fold with
AIX360's ``FeatureBinarizer(negations=True)`` (deciles, as ours; 0/1 data such as the digits
pixels take the literals ``x == 1`` and ``x == 0`` directly, as ours do, since that
binarizer fails on a column that is constant in a training fold), fits
``BooleanRuleCG()`` with its defaults (lambda0 = lambda1 = 0.001, beam width 5, LP solver
ECOS unless ``--solver`` names another cvxpy solver: ``SCIPY`` is HiGHS through SciPy's
``linprog``) and writes ``rules_aix360.json`` (ECOS) or
``rules_aix360_<solver>.json``: per dataset and fold the test accuracy, rules + literals and fit
time of ``BooleanRuleCG.fit`` (AIX360's binarizer excluded; our fit times include our
binarizer), or the error message when a fold fails.
"""

import argparse
import gzip
import io
import json
import os
import sys
import time
import traceback
from pathlib import Path

import numpy as np
import pandas as pd

HERE = Path(__file__).resolve().parent
DATA = HERE.parent / "optirules" / "data" / "datasets"


def read_bundled(stem):
    for name in (stem + ".csv", stem + ".csv.gz"):
        path = DATA / name
        if path.exists():
            raw = path.read_bytes()
            if name.endswith(".gz"):
                raw = gzip.decompress(raw)
            frame = pd.read_csv(io.BytesIO(raw), keep_default_na=False, na_values=[""])
            y = frame["label"].to_numpy().astype(int)
            return frame.drop(columns="label"), y
    raise FileNotFoundError(stem)


def load(name, entry):
    if name == "wdbc":
        from sklearn.datasets import load_breast_cancer

        d = load_breast_cancer(as_frame=True)
        return d.data.reset_index(drop=True), (1 - d.target.to_numpy()).astype(int)
    if name.startswith("digits_"):
        from sklearn.datasets import load_digits

        a, b = (1, 7) if name == "digits_1v7" else (4, 9)
        d = load_digits()
        keep = np.isin(d.target, [a, b])
        X = pd.DataFrame((d.data[keep] > 7).astype(int),
                         columns=[f"pixel_{r}_{c}" for r in range(8) for c in range(8)])
        return X, (d.target[keep] == a).astype(int)
    if name == "heart":
        return read_bundled("heart_statlog")
    if name == "adult_10k":
        X, y = read_bundled("adult")
        rows = np.asarray(entry["adult_rows"])
        return X.iloc[rows].reset_index(drop=True), y[rows]
    return read_bundled(name)


def literals01(X):
    """The literals ``x == 1`` and ``x == 0`` of 0/1 columns (ours for binary data), with the
    (feature, operation, value) column index BRCG expects.  AIX360's FeatureBinarizer fails
    on the digits folds where a pixel column is constant in training, so 0/1 data skip it."""
    pos = X.astype(int)
    neg = 1 - pos
    pos.columns = pd.MultiIndex.from_tuples([(c, "==", 1) for c in X.columns])
    neg.columns = pd.MultiIndex.from_tuples([(c, "==", 0) for c in X.columns])
    return pd.concat([pos, neg], axis=1)


def complexity(model):
    w = np.asarray(model.w).ravel()
    z = model.z
    total = 0
    for k in np.flatnonzero(w > 0.5):
        total += 1 + int(np.asarray(z.iloc[:, k]).sum())
    return total


def main(argv=None):
    from aix360.algorithms.rbm import BooleanRuleCG, FeatureBinarizer

    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--folds", default=str(HERE / "results" / "rules_folds.json"))
    parser.add_argument("--out", default=None,
                        help="default results/rules_aix360.json (ECOS) or "
                             "results/rules_aix360_<solver>.json")
    parser.add_argument("--datasets", nargs="*", default=None)
    parser.add_argument("--solver", default="ECOS")
    args = parser.parse_args(argv)
    if args.out is None:
        stem = "rules_aix360" if args.solver == "ECOS" else f"rules_aix360_{args.solver.lower()}"
        args.out = str(HERE / "results" / f"{stem}.json")
    lp = {"ECOS": "ECOS LP", "SCIPY": "HiGHS LP via SciPy"}.get(args.solver,
                                                                f"{args.solver} LP")
    spec = json.loads(Path(args.folds).read_text())
    names = args.datasets or list(spec)
    out = {"label": f"AIX360 0.3.0 BRCG ({lp}), separate venv",
           "note": "fit time = BooleanRuleCG.fit on the binarized fold (binarizer excluded)",
           "load_average": list(os.getloadavg()), "results": {}}
    if Path(args.out).exists() and args.datasets:  # rerun some datasets: keep the others
        previous = json.loads(Path(args.out).read_text())
        out["results"] = previous.get("results", {})
        out["reruns"] = previous.get("reruns", []) + [
            {"datasets": names, "load_average": out["load_average"]}]
        out["load_average"] = previous.get("load_average", out["load_average"])
    for name in names:
        entry = spec[name]
        X, y = load(name, entry)
        cats = list(entry.get("categorical", []))
        binary = bool(X.isin([0, 1]).all().all())
        rows = []
        for f, fold in enumerate(entry["folds"]):
            tr, te = np.asarray(fold["train"]), np.asarray(fold["test"])
            rec = {"fold": f}
            try:
                if binary:
                    Xtr, Xte = literals01(X.iloc[tr]), literals01(X.iloc[te])
                else:
                    fb = FeatureBinarizer(colCateg=cats, negations=True)
                    Xtr = fb.fit_transform(X.iloc[tr])
                    Xte = fb.transform(X.iloc[te])
                model = BooleanRuleCG(silent=True, solver=args.solver)
                t0 = time.perf_counter()
                model.fit(Xtr, y[tr])
                rec["fit_time"] = time.perf_counter() - t0
                rec["accuracy"] = float(np.mean(model.predict(Xte) == y[te]))
                rec["complexity"] = complexity(model)
                rec["rules"] = model.explain()["rules"]
            except Exception as exc:  # record and go on: the peer is optional
                rec["accuracy"] = None
                rec["error"] = f"{type(exc).__name__}: {exc}"
                rec["traceback"] = traceback.format_exc(limit=3)
            rows.append(rec)
            print(name, rec.get("fold"), rec.get("accuracy"), rec.get("complexity"),
                  rec.get("fit_time"), rec.get("error", ""), file=sys.stderr, flush=True)
        out["results"][name] = rows
        Path(args.out).write_text(json.dumps(out, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
