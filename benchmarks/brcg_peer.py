"""AIX360's BooleanRuleCG (current release, its own environment) against our rule set on WDBC.

Both learners fit the *same 0/1 literal matrix* of each fold, interleaved, one BLAS thread
each side; only ``fit`` is timed (no binarizer on either side).

* WDBC (``optirules.data.load_dataset("wdbc")``, the bundled CSV), 5 stratified folds
  shuffled with ``random_state=0``.
* Per fold the training rows are binarized as ``BooleanRuleSetClassifier(binarizer="auto")``
  does (a default :class:`~optirules.data.FeatureBinarizer`: deciles, each ``x <= t``
  followed by its negation ``x > t``).  The benchmark checks that every second column is
  the complement of the one before it and keeps the ``<=`` half ``H``.
* Ours: ``BooleanRuleSetClassifier()`` with its defaults (``binarizer=None``) on ``H``; with
  ``binarizer=None`` it takes the literals ``x == 1`` and ``x == 0`` of each column, so its
  literal matrix is ``[H, 1 - H]``: the binarizer's literal set (``x <= t`` and ``x > t``).
* Peer: ``BooleanRuleCG(solver="HIGHS")`` with its other defaults (lambda0 = lambda1 =
  0.001, beam width 5, K = 10 columns per iteration, degree up to 10, iterMax 100,
  timeMax 100 s) on a DataFrame of the same matrix ``[H, 1 - H]`` in the same column
  order, with the ``(feature, operation, value)`` column MultiIndex it documents
  (``(f, "<=", t)`` then ``(f, ">", t)``).  BooleanRuleCG adds no negations itself (it uses
  the columns as given; AIX360's ``FeatureBinarizer(negations=True)`` is what adds them),
  so both learners search the same literals.  AIX360's own binarizer is not used.
* Timing: per fold ``repeats`` rounds, ours then the peer in even rounds and the peer then
  ours in odd ones; the minimum wall time (``time.perf_counter``) and CPU time
  (``time.process_time`` of the fitting process) of each side.  One untimed warm-up fit per
  side first.  The master objective (Hamming loss / N + 0.001 per rule and per literal:
  both learners' objective) of each side's rule set on the training fold is computed here
  from its training predictions and rules.
* ``BooleanRuleSetCV(BooleanRuleSetClassifier(binarizer="auto", random_state=0), cv=<the
  same 5 folds>, random_state=0)`` on all rows with its defaults, as
  ``benchmarks/rule_set_speed.py`` times it: per fold = ``cv_time_ / n_splits_`` (every
  penalty of the grid on that fold, the refit excluded), minimum over ``repeats`` runs,
  printed next to 2x the peer's mean single fit (the goal).
* Where the time goes on fold 0: ours from ``fit_info_`` (column generation, exact
  pricing, master IP); the peer from one more, untimed fit under cProfile (beam-search
  pricing, the master LP through cvxpy and HiGHS inside it, the final rule selection).

The peer runs in a separate interpreter that stays alive: this file started with
``--serve`` by the peer environment's Python, reading one JSON request a line (a fold file
written here: ``.npz`` of the 0/1 matrices and labels) and answering one JSON line.  It
imports nothing from optirules.

Peer environment (Python 3.11, the current releases on PyPI on 2026-12-01)::

    python3.11 -m venv peer-venv
    peer-venv/bin/pip install --no-deps aix360==0.3.0
    peer-venv/bin/pip install numpy pandas scikit-learn "cvxpy[HIGHS]"
    export OPTIRULES_PEER_PYTHON="$PWD/peer-venv/bin/python"

giving (``pip freeze``)::

    aix360==0.3.0  cffi==2.1.1  clarabel==0.11.1  cloudpickle==3.1.3  cvxpy==1.9.3
    highspy==1.16.0  Jinja2==3.1.6  joblib==1.6.0  MarkupSafe==3.0.4  narwhals==2.29.0
    numpy==2.4.6  osqp==1.1.3  pandas==3.1.1  pycparser==3.12  python-dateutil==4.0.0
    qdldl==0.1.9.post1  scikit-learn==1.9.1  scipy==1.17.1  scs==3.3.1
    sparsediffpy==0.6.1  threadpoolctl==3.8.0  tzdata==2026.6

(cvxpy's installed solvers there: CLARABEL, SCS, SCIPY, HIGHS, OSQP; ``"HIGHS"`` is cvxpy's
own interface to highspy.)  aix360 0.3.0's ``rbm`` extra pins numpy <= 1.24.3, pandas < 2,
scikit-learn < 1.2 and scipy <= 1.10.1, hence ``--no-deps``.  Notes on running it there:

* ``aix360/algorithms/rbm/__init__.py`` imports the regression learners, which import
  matplotlib (not installed: BooleanRuleCG does not use it); the peer then loads
  ``aix360.algorithms.rbm.boolean_rule_cg`` (and its ``beam_search``) without running that
  ``__init__``.  Nothing in the algorithm is changed.
* BooleanRuleCG builds its LP with ``A * w`` (a matrix times a cvxpy variable); cvxpy 1.9
  still computes the matrix product and warns (``*`` for matrix multiplication is
  deprecated since cvxpy 1.1).  The peer silences those warnings.
* AIX360's ``FeatureBinarizer`` is the part that breaks on the current stack: on a
  categorical column of more than two categories its ``fit`` calls
  ``OneHotEncoder(sparse=False, ...)`` (``aix360/algorithms/rbm/features.py`` line 82),
  ``TypeError: OneHotEncoder.__init__() got an unexpected keyword argument 'sparse'``
  (scikit-learn 1.9).  On WDBC's numeric columns it runs, but it is not used here: both
  learners get the 0/1 matrices of our binarizer.

Run from the repository root (committed results go through the shared lock)::

    flock /tmp/bench.lock nice -n 5 python benchmarks/brcg_peer.py

Writes ``benchmarks/results/brcg_peer.md`` (date, both stacks, machine load before/after).
"""

from __future__ import annotations

import os

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[_var] = "1"

import argparse
import json
import platform
import shutil
import subprocess
import sys
import tempfile
import time
from datetime import datetime, timezone
from pathlib import Path

RESULTS = Path(__file__).resolve().parent / "results"
#: the AIX360 environment's interpreter: $OPTIRULES_PEER_PYTHON (no machine's path built in)
PEER_PYTHON = os.environ.get("OPTIRULES_PEER_PYTHON", "")
LAMBDA = 0.001  # lambda0 = lambda1: both learners' default


def master_objective(pred, y, n_rules: int, n_literals: int) -> float:
    """Hamming loss / N + lambda0 per rule + lambda1 per literal (uniform weights)."""
    import numpy as np

    return float(np.mean(np.asarray(pred) != np.asarray(y)) + LAMBDA * (n_rules + n_literals))


# ============================================================ peer side (peer environment)
def _import_brcg():
    """``BooleanRuleCG`` of the installed aix360 and how it was imported."""
    try:
        from aix360.algorithms.rbm import BooleanRuleCG

        return BooleanRuleCG, "from aix360.algorithms.rbm import BooleanRuleCG"
    except ImportError as exc:
        import types

        import aix360.algorithms

        pkg = types.ModuleType("aix360.algorithms.rbm")
        pkg.__path__ = [str(Path(aix360.algorithms.__file__).parent / "rbm")]
        sys.modules["aix360.algorithms.rbm"] = pkg
        from aix360.algorithms.rbm.boolean_rule_cg import BooleanRuleCG

        return BooleanRuleCG, (f"aix360.algorithms.rbm.boolean_rule_cg loaded without the "
                               f"package __init__, whose import failed: "
                               f"{type(exc).__name__}: {exc}")


def _peer_stack(route: str) -> dict:
    from importlib.metadata import distributions

    import cvxpy

    dists = sorted(f"{d.metadata['Name']}=={d.version}" for d in distributions()
                   if d.metadata["Name"] not in ("pip", "setuptools", "wheel"))
    return {"python": platform.python_version(), "import": route,
            "cvxpy_solvers": list(cvxpy.installed_solvers()), "freeze": dists}


def _peer_frames(path: str, cache: dict):
    import numpy as np
    import pandas as pd

    if path not in cache:
        data = np.load(path)
        cols = pd.MultiIndex.from_tuples(
            [tuple(c) for c in json.loads(str(data["columns"]))],
            names=["feature", "operation", "value"])
        cache.clear()
        cache[path] = (pd.DataFrame(data["Xtr"].astype(int), columns=cols), data["ytr"],
                       pd.DataFrame(data["Xte"].astype(int), columns=cols), data["yte"])
    return cache[path]


def _peer_fit(req: dict, cache: dict, BooleanRuleCG) -> dict:
    import numpy as np

    Xtr, ytr, Xte, yte = _peer_frames(req["path"], cache)
    model = BooleanRuleCG(solver=req.get("solver", "HIGHS"), silent=True)
    t0, c0 = time.perf_counter(), time.process_time()
    model.fit(Xtr, ytr)
    wall, cpu = time.perf_counter() - t0, time.process_time() - c0
    chosen = np.flatnonzero(np.asarray(model.w).ravel() > 0.5)
    sizes = [int(np.asarray(model.z.iloc[:, k]).sum()) for k in chosen]
    n_rules, n_lits = len(sizes), int(sum(sizes))
    return {"wall": wall, "cpu": cpu, "iterations": int(model.it),
            "pool": int(model.z.shape[1]), "rules": model.explain()["rules"],
            "n_rules": n_rules, "n_literals": n_lits,
            "accuracy": float(np.mean(model.predict(Xte) == yte)),
            "objective": master_objective(model.predict(Xtr), ytr, n_rules, n_lits),
            "pred": [int(v) for v in model.predict(Xte)]}


def _peer_profile(req: dict, cache: dict, BooleanRuleCG) -> dict:
    """One more fit under cProfile: where BRCG's time goes."""
    import cProfile
    import pstats

    Xtr, ytr, _, _ = _peer_frames(req["path"], cache)
    model = BooleanRuleCG(solver=req.get("solver", "HIGHS"), silent=True)
    prof = cProfile.Profile()
    prof.enable()
    model.fit(Xtr, ytr)
    prof.disable()
    stats = pstats.Stats(prof).stats

    def cum(name: str, where: str) -> tuple[float, int]:
        hits = [v for k, v in stats.items() if k[2] == name and k[0].endswith(where)]
        return sum(v[3] for v in hits), sum(v[1] for v in hits)

    def own(part: str) -> float:
        return sum(v[2] for k, v in stats.items() if part in k[2])

    return {"total": cum("fit", "boolean_rule_cg.py")[0],
            "beam_search": cum("beam_search", "beam_search.py"),
            "final_selection": cum("beam_search_K1", "beam_search.py"),
            "lp_solve": cum("solve", "problem.py"), "highs_run": own("highspy")}


def serve() -> int:
    """The peer process: answer JSON requests on stdin, one a line, until EOF."""
    import traceback
    import warnings

    warnings.simplefilter("ignore")  # cvxpy's deprecation of `*` as matrix product
    # the answers go to the original stdout; anything else written to stdout (HiGHS prints
    # its banner from C) goes to stderr
    answers = os.fdopen(os.dup(1), "w")
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    BooleanRuleCG, route = _import_brcg()
    cache: dict = {}
    for line in sys.stdin:
        req = json.loads(line)
        try:
            if req["cmd"] == "stack":
                out = _peer_stack(route)
            elif req["cmd"] == "fit":
                out = _peer_fit(req, cache, BooleanRuleCG)
            elif req["cmd"] == "profile":
                out = _peer_profile(req, cache, BooleanRuleCG)
            else:
                out = {"error": f"unknown command {req['cmd']!r}"}
        except Exception as exc:  # report to the driver, which stops
            out = {"error": f"{type(exc).__name__}: {exc}",
                   "traceback": traceback.format_exc()}
        answers.write(json.dumps(out) + "\n")
        answers.flush()
    return 0


# ============================================================ driver (optirules environment)
class Peer:
    """The peer interpreter, kept alive across folds."""

    def __init__(self, python: str, log: Path) -> None:
        self.log = log
        self.proc = subprocess.Popen([python, str(Path(__file__).resolve()), "--serve"],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=log.open("w"), text=True, bufsize=1,
                                     env=dict(os.environ))

    def ask(self, **req) -> dict:
        self.proc.stdin.write(json.dumps(req) + "\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        if not line:
            raise RuntimeError("the peer process ended:\n" + self.log.read_text()[-3000:])
        out = json.loads(line)
        if "error" in out:
            raise RuntimeError("the peer failed: " + out["error"] + "\n"
                               + out.get("traceback", ""))
        return out

    def close(self) -> None:
        self.proc.stdin.close()
        self.proc.wait(timeout=60)


def fold_matrices(X, y, train, test):
    """The fold's literal matrix as ``binarizer="auto"`` builds it, split into the ``<=``
    half ``H`` (ours, binarizer=None) and ``[H, 1 - H]`` with BRCG's column index."""
    import numpy as np

    from optirules.learners import BooleanRuleSetClassifier

    fb = BooleanRuleSetClassifier(binarizer="auto")._make_binarizer()
    fb.fit(X.iloc[train])
    full_tr = np.asarray(fb.transform(X.iloc[train]), dtype=np.uint8)
    full_te = np.asarray(fb.transform(X.iloc[test]), dtype=np.uint8)
    lits = list(fb.literals_)
    pos, neg = lits[0::2], lits[1::2]
    if (len(pos) != len(neg)
            or any(a.negation() != b for a, b in zip(pos, neg))
            or not np.array_equal(full_tr[:, 1::2], 1 - full_tr[:, 0::2])
            or not np.array_equal(full_te[:, 1::2], 1 - full_te[:, 0::2])):
        raise SystemExit("the binarizer's columns are not (literal, negation) pairs")
    H_tr, H_te = full_tr[:, 0::2], full_te[:, 0::2]
    columns = ([(a.feature, a.op, float(a.value)) for a in pos]
               + [(b.feature, b.op, float(b.value)) for b in neg])
    names = [str(a) for a in pos] + [str(b) for b in neg]
    return H_tr, H_te, columns, names, full_tr.shape[1]


def ours_fit(H_tr, ytr, H_te, yte, names):
    from math import nan

    import numpy as np

    from optirules.learners import BooleanRuleSetClassifier

    model = BooleanRuleSetClassifier()
    t0, c0 = time.perf_counter(), time.process_time()
    model.fit(H_tr, ytr)
    wall, cpu = time.perf_counter() - t0, time.process_time() - c0
    rules = [" AND ".join(names[j] for j in clause) for clause in model.clauses_]
    n_rules, n_lits = model.rules_.n_rules, model.rules_.n_literals
    return {"wall": wall, "cpu": cpu, "iterations": int(model.n_iter_),
            "pool": len(model.pool_), "rules": rules, "n_rules": n_rules,
            "n_literals": n_lits, "accuracy": float(np.mean(model.predict(H_te) == yte)),
            "objective": master_objective(model.predict(H_tr), ytr, n_rules, n_lits),
            "ip_objective": float(model.ip_objective_), "gap": float(model.gap_),
            "certified": bool(model.gap_certified_), "max_degree": int(model.max_degree_),
            "status": model.status_, "cg_time": float(model.fit_info_.get("cg_time", nan)),
            "ip_time": float(model.fit_info_.get("ip_time", nan)),
            "pricing_time": float(model.fit_info_.get("pricing_stats", {})
                                  .get("seconds", nan))}


def auto_check(X, ytr, train, names) -> dict:
    """Untimed: ours with ``binarizer="auto"`` on the raw fold, to show that the 0/1 input
    gives it the same literal set (in another column order) and the same objective."""
    from optirules.learners import BooleanRuleSetClassifier

    model = BooleanRuleSetClassifier(binarizer="auto").fit(X.iloc[train], ytr)
    return {"same_literals": sorted(str(lit) for lit in model.literals_) == sorted(names),
            "ip_objective": float(model.ip_objective_)}


def ours_stack() -> str:
    from importlib.metadata import version

    import numpy
    import pandas
    import sklearn

    return (f"Python {platform.python_version()}, optirules {version('optirules')} (this "
            f"checkout, commit {_commit()}), numpy {numpy.__version__}, pandas "
            f"{pandas.__version__}, scikit-learn {sklearn.__version__}, highspy "
            f"{version('highspy')}, pyomo {version('pyomo')}")


def _commit() -> str:
    try:
        out = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True,
                             text=True, cwd=Path(__file__).resolve().parent, check=True)
        dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no",
                                "optirules"], capture_output=True, text=True,
                               cwd=Path(__file__).resolve().parent.parent).stdout.strip()
        return out.stdout.strip() + (" + uncommitted changes in optirules/" if dirty else "")
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def best(runs: list[dict]) -> dict:
    """The last run's model facts with the minimum wall and CPU times over the runs."""
    out = dict(runs[-1])
    out["wall"] = min(r["wall"] for r in runs)
    out["cpu"] = min(r["cpu"] for r in runs)
    out["walls"] = [r["wall"] for r in runs]
    return out


def measure_cv(X, y, splits, repeats: int) -> dict:
    from optirules.learners import BooleanRuleSetClassifier, BooleanRuleSetCV

    runs = []
    for _ in range(repeats):
        base = BooleanRuleSetClassifier(binarizer="auto", random_state=0)
        c0 = time.process_time()
        cv = BooleanRuleSetCV(base, cv=splits, random_state=0).fit(X, y)
        runs.append({"per_fold": cv.cv_time_ / cv.n_splits_,
                     "cpu_per_fold": (time.process_time() - c0) / cv.n_splits_,
                     "penalty": [float(p) for p in cv.penalty_], "status": cv.status_})
        print(f"  BooleanRuleSetCV: {runs[-1]['per_fold']:.2f} s per fold", flush=True)
    return {"per_fold": min(r["per_fold"] for r in runs),
            "cpu_per_fold": min(r["cpu_per_fold"] for r in runs),
            "runs": [r["per_fold"] for r in runs], "penalty": runs[-1]["penalty"],
            "status": runs[-1]["status"], "reuse_pool": bool(cv.reuse_pool)}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--peer-python", default=PEER_PYTHON,
                    help="the peer environment's interpreter (default: "
                         "$OPTIRULES_PEER_PYTHON)")
    ap.add_argument("--repeats", type=int, default=3, help="rounds per fold (minimum taken)")
    ap.add_argument("--cv-repeats", type=int, default=3, help="BooleanRuleSetCV runs")
    ap.add_argument("--solver", default="HIGHS", help="the peer's cvxpy LP solver")
    ap.add_argument("--out", default=str(RESULTS / "brcg_peer.md"))
    args = ap.parse_args(argv)
    if not getattr(args, "serve", False) and not args.peer_python:
        ap.error("give the AIX360 environment's interpreter: --peer-python PATH or "
                 "$OPTIRULES_PEER_PYTHON (see the module docstring for how to build it)")
    if args.serve:
        return serve()
    if args.repeats < 1 or args.cv_repeats < 0:
        ap.error("--repeats must be >= 1 and --cv-repeats >= 0")

    import numpy as np
    from sklearn.model_selection import StratifiedKFold

    from optirules.data import load_dataset

    started = datetime.now(timezone.utc)
    load_before = os.getloadavg()
    print(f"load average before: {load_before}", flush=True)
    X, y = load_dataset("wdbc")
    y = np.asarray(y)
    splits = list(StratifiedKFold(5, shuffle=True, random_state=0).split(X, y))
    tmp = Path(tempfile.mkdtemp(prefix="brcg_peer_"))
    peer = Peer(args.peer_python, tmp / "peer_stderr.txt")
    try:
        peer_stack = peer.ask(cmd="stack")
        folds = []
        for k, (tr, te) in enumerate(splits):
            H_tr, H_te, columns, names, n_lit = fold_matrices(X, y, tr, te)
            path = tmp / f"fold{k}.npz"
            np.savez(path, Xtr=np.hstack([H_tr, 1 - H_tr]), ytr=y[tr],
                     Xte=np.hstack([H_te, 1 - H_te]), yte=y[te],
                     columns=np.array(json.dumps(columns)))
            folds.append((H_tr, H_te, y[tr], y[te], names, n_lit, str(path), tr))
        # untimed warm-up of both sides (imports, first-call caches)
        H_tr, H_te, ytr, yte, names = folds[0][:5]
        ours_fit(H_tr, ytr, H_te, yte, names)
        peer.ask(cmd="fit", path=folds[0][6], solver=args.solver)
        rows = []
        for k, (H_tr, H_te, ytr, yte, names, n_lit, path, tr) in enumerate(folds):
            ours_runs, peer_runs = [], []
            for r in range(args.repeats):
                if r % 2 == 0:
                    ours_runs.append(ours_fit(H_tr, ytr, H_te, yte, names))
                    peer_runs.append(peer.ask(cmd="fit", path=path, solver=args.solver))
                else:
                    peer_runs.append(peer.ask(cmd="fit", path=path, solver=args.solver))
                    ours_runs.append(ours_fit(H_tr, ytr, H_te, yte, names))
            o, p = best(ours_runs), best(peer_runs)
            rows.append({"fold": k, "n_train": len(ytr), "n_literals": n_lit,
                         "ours": o, "peer": p, "auto": auto_check(X, ytr, tr, names)})
            print(f"fold {k}: ours {o['wall']:.3f} s ({o['accuracy']:.4f}), peer "
                  f"{p['wall']:.3f} s ({p['accuracy']:.4f}), ratio "
                  f"{p['wall'] / o['wall']:.2f}x", flush=True)
        profile = peer.ask(cmd="profile", path=folds[0][6], solver=args.solver)
    finally:
        peer.close()
    shutil.rmtree(tmp, ignore_errors=True)
    cv = measure_cv(X, y, splits, args.cv_repeats) if args.cv_repeats else None
    load_after = os.getloadavg()
    print(f"load average after: {load_after}", flush=True)
    text = report(args, started, load_before, load_after, peer_stack, rows, cv, profile)
    print(text)
    Path(args.out).write_text(text)
    return 0


def report(args, started, load_before, load_after, peer_stack, rows, cv, profile) -> str:
    import numpy as np

    def mean(side, key):
        return float(np.mean([r[side][key] for r in rows]))

    def rl(d):
        return f"{d['n_rules']} / {d['n_literals']}"

    body = []
    for r in rows:
        o, p = r["ours"], r["peer"]
        body.append(
            f"| {r['fold']} | {o['wall']:.3f} | {o['cpu']:.3f} | {p['wall']:.3f} | "
            f"{p['cpu']:.3f} | {p['wall'] / o['wall']:.2f}x | {p['cpu'] / o['cpu']:.2f}x | "
            f"{o['accuracy']:.4f} | {p['accuracy']:.4f} | {rl(o)} | {rl(p)} | "
            f"{o['objective']:.5f} ({'certified' if o['certified'] else 'not certified'} "
            f"gap {o['gap']:.2g}, degree {o['max_degree']}) | {p['objective']:.5f} |")
    ow, pw, oc, pc = (mean("ours", "wall"), mean("peer", "wall"), mean("ours", "cpu"),
                      mean("peer", "cpu"))
    body.append(
        f"| mean | {ow:.3f} | {oc:.3f} | {pw:.3f} | {pc:.3f} | {pw / ow:.2f}x | "
        f"{pc / oc:.2f}x | {mean('ours', 'accuracy'):.4f} | {mean('peer', 'accuracy'):.4f} "
        f"| {mean('ours', 'n_rules'):.1f} / {mean('ours', 'n_literals'):.1f} | "
        f"{mean('peer', 'n_rules'):.1f} / {mean('peer', 'n_literals'):.1f} | "
        f"{mean('ours', 'objective'):.5f} | {mean('peer', 'objective'):.5f} |")
    lines = [
        "# AIX360 BooleanRuleCG (current release) against BooleanRuleSetClassifier on WDBC",
        "",
        f"Run {started:%Y-%m-%d %H:%M} UTC by `python benchmarks/brcg_peer.py "
        f"{' '.join(sys.argv[1:])}".rstrip() + "`; one BLAS thread each side "
        "(OMP/OPENBLAS/MKL_NUM_THREADS=1).",
        "",
        f"- ours: {ours_stack()}",
        f"- peer (own environment, `{args.peer_python}`): Python {peer_stack['python']}, "
        f"{', '.join(peer_stack['freeze'])}; cvxpy solvers {peer_stack['cvxpy_solvers']}; "
        f"BooleanRuleCG imported by: {peer_stack['import']}",
        f"- machine: {platform.machine()}, {os.cpu_count()} CPUs; load average (1, 5, 15 "
        f"min) before {tuple(round(v, 2) for v in load_before)}, after "
        f"{tuple(round(v, 2) for v in load_after)}",
        f"- WDBC (569 rows; {', '.join(str(r['n_train']) for r in rows)} training rows "
        "per fold), 5 stratified folds shuffled with random_state=0; per fold the training rows binarized "
        "as binarizer='auto' does (FeatureBinarizer defaults), "
        f"{', '.join(str(r['n_literals']) for r in rows)} literals per fold (x <= t and "
        "x > t); both learners fit that same 0/1 literal matrix: ours "
        "`BooleanRuleSetClassifier()` (binarizer=None, literals x == 1 and x == 0) on the "
        f"`<=` half, peer `BooleanRuleCG(solver={args.solver!r})` on both halves, same "
        "column order.  Ours: clauses of at most max_degree_ literals ('auto'), optimal "
        "and certified over that degree; BRCG: beam-search pricing up to degree 10 "
        "(its default D), no certificate.",
        f"- fit time only, per fold the minimum of {args.repeats} interleaved rounds (ours "
        "first in even rounds, the peer first in odd ones) after one untimed warm-up fit "
        "per side; CPU = process time of each fitting process.  Objective = training "
        "Hamming loss / N + 0.001 x (rules + literals), the master objective of both.",
        "",
        "| fold | ours s | ours CPU s | BRCG s | BRCG CPU s | BRCG / ours (wall) | "
        "BRCG / ours (CPU) | ours test acc | BRCG test acc | ours rules / literals | "
        "BRCG rules / literals | ours objective | BRCG objective |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|",
        *body,
        "",
        f"Goal (issue 16): ours >= 5x faster than BRCG per fold. Measured: "
        f"{pw / ow:.2f}x in wall time, {pc / oc:.2f}x in CPU time "
        f"({'met' if pw / ow >= 5 else 'not met'}).",
        "",
    ]
    if cv is not None:
        lines += [
            f"`BooleanRuleSetCV(BooleanRuleSetClassifier(binarizer='auto', random_state=0), "
            f"cv=<the 5 folds above>, random_state=0)` on all 569 rows, its defaults "
            f"(5-penalty grid, reuse_pool={cv['reuse_pool']}, n_jobs=None); per fold = "
            f"cv_time_ / 5, "
            f"minimum of {args.cv_repeats} runs (all runs: "
            f"{', '.join(f'{v:.2f}' for v in cv['runs'])} s); it binarizes inside.",
            "",
            "| BooleanRuleSetCV s per fold | its CPU s per fold (refit included) | "
            "BRCG single fit, mean per fold | 2x BRCG single fit (goal) | CV / BRCG fit | "
            "penalty chosen |",
            "|---|---|---|---|---|---|",
            f"| {cv['per_fold']:.2f} | {cv['cpu_per_fold']:.2f} | {pw:.3f} | {2 * pw:.3f} | "
            f"{cv['per_fold'] / pw:.1f}x | ({cv['penalty'][0]:g}, {cv['penalty'][1]:g}) |",
            "",
            f"Goal: BooleanRuleSetCV per fold <= 2x BRCG's single fit: "
            f"{'met' if cv['per_fold'] <= 2 * pw else 'not met'}.",
            "",
        ]
    lines += ["Rules of fold 0:", ""]
    for side, label in (("ours", "ours"), ("peer", "BRCG")):
        for rule in rows[0][side]["rules"]:
            lines.append(f"- {label}: {rule}")
    pr = profile
    lines += ["", "Where the time goes, fold 0.  Ours (fit_info_ of the last timed fit): "
              f"column generation {rows[0]['ours']['cg_time']:.3f} s (exact pricing "
              f"{rows[0]['ours']['pricing_time']:.3f} s), master IP "
              f"{rows[0]['ours']['ip_time']:.3f} s.  BRCG (one more fit under cProfile, after "
              f"the timed rounds): {pr['total']:.2f} s, of which beam-search pricing "
              f"{pr['beam_search'][0]:.2f} s ({pr['beam_search'][1]} calls), the master LP "
              f"through cvxpy {pr['lp_solve'][0]:.2f} s ({pr['lp_solve'][1]} solves; HiGHS "
              f"itself {pr['highs_run']:.2f} s), the final rule selection (beam_search_K1 "
              f"over the pool) {pr['final_selection'][0]:.2f} s."]
    lines += ["", "Column generation per fold (ours: iterations, pool, status; BRCG: "
              "iterations, pool of conjunctions incl. the singletons and the empty one):", ""]
    for r in rows:
        o, p = r["ours"], r["peer"]
        a = r["auto"]
        lines.append(f"- fold {r['fold']}: ours {o['iterations']} it, pool {o['pool']}, "
                     f"{o['status']}, master IP objective {o['ip_objective']:.6f} "
                     f"(binarizer='auto' on the raw fold: "
                     f"{'the same' if a['same_literals'] else 'ANOTHER'} literal set, "
                     f"objective {a['ip_objective']:.6f}); wall of the rounds "
                     f"{', '.join(f'{v:.3f}' for v in o['walls'])} s | BRCG "
                     f"{p['iterations']} it, pool {p['pool']}; wall of the rounds "
                     f"{', '.join(f'{v:.3f}' for v in p['walls'])} s")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    sys.exit(main())
