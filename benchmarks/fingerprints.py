"""Fingerprints of every learner's fitted model, to show that a refactoring changed no model.

Each learner is fitted with its defaults (``random_state=0`` where it takes one) on three
bundled data sets with different kinds of columns (numeric, categorical, missing values);
its text (``str(model)``: the rules, hypotheses or list) and its ``predict_proba`` on the
training rows (rounded to 12 decimals) are hashed with SHA-256, so a new parameter or a
new JSON field leaves the fingerprint alone while any change of the model shows.  ``--write`` stores the table in
``benchmarks/results/fingerprints.json`` with the commit it was taken at; ``--check``
compares a new run with it and lists the models that differ.

    python benchmarks/fingerprints.py --write
    python benchmarks/fingerprints.py --check

Compare on the machine that wrote the file, or at least with the same BLAS kernel: the
file records OpenBLAS's kernel and numpy's SIMD extensions, and ``--check`` says when they
differ.  Fits that meet ties (clauses of equal reduced cost, rule sets of equal objective)
can break them differently under another kernel: on one machine, ``OPENBLAS_CORETYPE=
Sandybridge`` instead of the detected ``Haswell`` changed the fingerprints of the rule set,
its CV and the DRO ensemble (rules in another order, a tied rule swapped; the rule set's
text prints an absolute gap of rounding noise as 0 since, so that alone no longer shows).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import subprocess
import sys
import time
from pathlib import Path

RESULTS = Path(__file__).parent / "results" / "fingerprints.json"
DATA_SETS = ("banknote", "tic_tac_toe", "heart_cleveland")


def learners() -> dict:
    from optirules.learners import (
        BooleanRuleSetClassifier,
        BooleanRuleSetCV,
        BoostingClassifier,
        DecisionListClassifier,
        DecisionListCV,
        DRORuleEnsembleClassifier,
    )

    return {"rule_set": lambda: BooleanRuleSetClassifier(random_state=0),
            "rule_set_cv": lambda: BooleanRuleSetCV(random_state=0),
            "dro": lambda: DRORuleEnsembleClassifier(random_state=0),
            "boosting": lambda: BoostingClassifier(random_state=0),
            "boosting_parity": lambda: BoostingClassifier(weak_learner="parity",
                                                          random_state=0),
            "decision_list": lambda: DecisionListClassifier(),
            "decision_list_cv": lambda: DecisionListCV(random_state=0)}


def fingerprint(model, X) -> str:
    import numpy as np

    proba = np.round(np.asarray(model.predict_proba(X), dtype=float), 12)
    h = hashlib.sha256(str(model).encode())
    h.update(np.ascontiguousarray(proba).tobytes())
    return h.hexdigest()[:16]


def arithmetic() -> dict[str, str]:
    """The BLAS kernel and numpy's SIMD extensions in use: what the last bits depend on."""
    import numpy as np
    from threadpoolctl import threadpool_info

    blas = sorted({f"{d.get('internal_api')} {d.get('version')} {d.get('architecture')}"
                   for d in threadpool_info() if d.get("user_api") == "blas"})
    try:  # numpy's own record of the CPU features its loops dispatch on (no public API)
        from numpy._core._multiarray_umath import __cpu_features__ as features
    except ImportError:
        features = {}
    return {"blas": "; ".join(blas) or "unknown",
            "numpy": f"{np.__version__}, SIMD "
                     f"{' '.join(sorted(k for k, on in features.items() if on)) or 'unknown'}"}


def run() -> dict[str, dict[str, str]]:
    from optirules.data import load_dataset

    out: dict[str, dict[str, str]] = {}
    for name in DATA_SETS:
        X, y = load_dataset(name)
        for learner, make in learners().items():
            t0 = time.perf_counter()
            out.setdefault(learner, {})[name] = fingerprint(make().fit(X, y), X)
            print(f"{learner} on {name}: {out[learner][name]} "
                  f"({time.perf_counter() - t0:.1f} s)", file=sys.stderr, flush=True)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    group = parser.add_mutually_exclusive_group(required=True)
    group.add_argument("--write", action="store_true", help="store the fingerprints")
    group.add_argument("--check", action="store_true", help="compare with the stored ones")
    args = parser.parse_args(argv)
    found = run()
    if args.write:
        commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True,
                                text=True, cwd=Path(__file__).parent).stdout.strip()
        RESULTS.write_text(json.dumps({"commit": commit, "date": time.strftime("%Y-%m-%d"),
                                       "arithmetic": arithmetic(), "fingerprints": found},
                                      indent=2) + "\n")
        print(f"wrote {RESULTS}")
        return 0
    stored = json.loads(RESULTS.read_text())
    here = arithmetic()
    if stored.get("arithmetic") != here:
        print(f"note: the stored fingerprints were taken with "
              f"{stored.get('arithmetic', 'an unrecorded BLAS kernel')}, this run uses {here}; "
              "fits that meet ties can differ between the two")
    diff = [(lr, ds) for lr, by in stored["fingerprints"].items() for ds, h in by.items()
            if found.get(lr, {}).get(ds) != h]
    for lr, ds in diff:
        print(f"DIFFERS: {lr} on {ds}")
    n = sum(len(by) for by in stored["fingerprints"].values())
    print(f"{n - len(diff)} of {n} models equal those of commit {stored['commit']}")
    return 1 if diff else 0


if __name__ == "__main__":
    sys.exit(main())
