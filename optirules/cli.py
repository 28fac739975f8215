"""The ``optirules`` command."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from typing import Any

from . import __version__
from ._cli_input import _parse_params, _read_csv, _target_class_label
from ._progress import progress_lines
from .errors import OptirulesError

#: the suffixes of the model files the commands write (in any case: .lp, .LP, .Mps ...)
_MODEL_SUFFIXES = (".lp", ".mps")

__all__ = ["main"]


def _cmd_solvers(args: argparse.Namespace) -> int:
    from .learners import LEARNER_FORMULATIONS
    from .models import FORMULATIONS
    from .solvers import CAPABILITIES, PARTS, available_solvers, solver_support

    print(f"{'name':<10} {'version':<10} {'interfaces':<22} capabilities")
    for info in available_solvers():
        print(info)
    support = solver_support(FORMULATIONS, LEARNER_FORMULATIONS)
    names = list(support)

    def label(f) -> str:
        return f"{f.name} ({f.interface}: {', '.join(c for c in CAPABILITIES if c in f.needs)})"

    width = max(len(label(f)) for f in FORMULATIONS) + 2
    cols = " ".join(f"{n:<{max(len(n), 3)}}" for n in names)
    print(f"{'formulation (problem type: needs)':<{width}}{cols}")
    for f in FORMULATIONS:
        marks = " ".join(f"{'yes' if f.name in support[n].formulations else '-':<{max(len(n), 3)}}"
                         for n in names)
        print(f"{label(f):<{width}}{marks}".rstrip())
    print(f"{'learner (solver= is used for)':<{width}}{cols}")
    for learner in LEARNER_FORMULATIONS:
        marks = " ".join(f"{'yes' if learner in support[n].learners else '-':<{max(len(n), 3)}}"
                         for n in names)
        print(f"{learner:<{width}}{marks}".rstrip())
    print(f"{'part (solver={part: name, ...})':<{width}}{cols}")
    for part, what in PARTS.items():
        forms = [f.name for f in FORMULATIONS if f.part == part]
        marks = " ".join(f"{'yes' if any(f in support[n].formulations for f in forms) else '-':<{max(len(n), 3)}}"
                         for n in names)
        print(f"{f'{part}: {what}':<{width}}{marks}".rstrip())
    return 0


def _cmd_demo(args: argparse.Namespace) -> int:
    if args.method == "enumerate":
        from .experiments import format_demo, run_demo

        result = run_demo(
            args.dataset or "monks1",
            max_degree=2 if args.max_degree is None else args.max_degree,
            complexity=args.complexity if args.complexity is not None else 20.0,
            solver=args.solver,
            time_limit=args.time_limit,
            output=args.output,
            random_state=args.random_state,
        )
        print(format_demo(result))
        return 0
    from .experiments import RulesDemoSettings, format_rules_demo, run_rules_demo

    result = run_rules_demo(
        args.dataset or "tic_tac_toe",
        RulesDemoSettings(complexity=args.complexity,
                          max_degree="auto" if args.max_degree is None else args.max_degree,
                          solver=args.solver, time_limit=args.time_limit),
        output=args.output,
        random_state=args.random_state,
    )
    print(format_rules_demo(result))
    return 0


def _check_clause_count(n_literals: int, args: argparse.Namespace) -> None:
    """Refuse, before the enumeration, an export whose candidate clauses (every clause of 1 to
    --max-degree of the dataset's literals) are more than the enumeration takes."""
    from .errors import InputError
    from .models import n_candidate_clauses, options

    limit = options.MAX_ENUMERATED_CLAUSES

    def count(degree: int) -> int:
        return n_candidate_clauses(n_literals, degree)

    total = count(args.max_degree)
    if total <= limit:
        return
    fits = [d for d in range(1, min(args.max_degree, n_literals) + 1) if count(d) <= limit]
    advice = (f"use --max-degree {fits[-1]} or less" if fits else
              "use fewer --n-thresholds")
    raise InputError(f"--max-degree {args.max_degree} on {args.dataset} means {total:,} "
                     f"candidate clauses of its {n_literals} literals, more than the {limit:,} "
                     f"the enumeration takes; {advice}, or fit a rule set by column generation "
                     "(optirules fit), which prices clauses without listing them.")


def _cmd_export(args: argparse.Namespace) -> int:
    from .data import FeatureBinarizer, load_dataset
    from .models import RuleMasterModel, all_clauses

    family = args.dataset.strip().lower().replace("-", "_").replace(" ", "_")
    # a pair of MONK's files (monks1, monks2, monks3): the master of its training file
    split = "train" if family in ("monks1", "monks2", "monks3") else None
    X, y = load_dataset(args.dataset, split=split)
    binarizer = FeatureBinarizer(n_thresholds=args.n_thresholds).fit(X)
    A = binarizer.transform(X)
    _check_clause_count(A.shape[1], args)
    feature_of = [lit.feature for lit in binarizer.literals_]
    clauses = [c for c in all_clauses(A, y, args.max_degree)
               if len({feature_of[j] for j in c}) == len(c)]
    model = RuleMasterModel(A, y, clauses, complexity=args.complexity, relax=args.relax)
    model.write(args.output)
    kind = "LP relaxation" if args.relax else "IP"
    print(f"wrote the rule master {kind} ({len(clauses)} clauses, {int(y.sum())} cover rows) "
          f"to {args.output}")
    return 0


#: reproduction name -> module of optirules.experiments with run(quick=...) and format_table(df)
REPRODUCTIONS = {
    "parity": "._parity",
    "smooth": "._smooth",
    "decision-list": "._decision_list",
    "pruning": "._pruning",
    "rules": "._rules",
}

#: JSON "format" tag -> (module, class) of the learners that save themselves as JSON
JSON_MODELS = {
    "optirules.BooleanRuleSetClassifier": ("optirules.learners", "BooleanRuleSetClassifier"),
    "optirules.DRORuleEnsembleClassifier": ("optirules.learners", "DRORuleEnsembleClassifier"),
    "optirules.DecisionListClassifier": ("optirules.learners", "DecisionListClassifier"),
    "optirules.BoostingClassifier": ("optirules.learners", "BoostingClassifier"),
    "optirules.BooleanRuleSetCV": ("optirules.learners", "BooleanRuleSetCV"),
}


def _io_paths(args: argparse.Namespace) -> tuple[list, list]:
    """The files a command reads, as (flag, path), and writes, as (flag, path, suffixes or
    None for any); commands that touch no files have neither."""
    from pathlib import Path

    command = args.command
    inputs: list = []
    outputs: list = []
    if command == "demo":
        outputs.append(("--output", args.output, _MODEL_SUFFIXES))
        if args.method == "cg":  # the model's JSON goes next to the .lp/.mps file
            outputs.append(("the JSON model next to --output",
                            str(Path(args.output).with_suffix(".json")), None))
    elif command == "export":
        outputs.append(("output", args.output, _MODEL_SUFFIXES))
    elif command == "fit":
        inputs.append(("data", args.data))
        outputs.append(("--output", args.output, None))
        if args.export:
            outputs.append(("--export", args.export, _MODEL_SUFFIXES))
    elif command == "predict":
        inputs += [("model", args.model), ("data", args.data)]
        if args.output:
            outputs.append(("--output", args.output, None))
    elif command == "reproduce" and args.output:
        outputs.append(("--output", args.output, None))
    return inputs, outputs


def _check_paths(args: argparse.Namespace) -> None:
    """Every output path of the command, checked before any work: its folder exists, it is no
    folder, its suffix names a format the command writes (in any case), and it is neither one
    of the command's inputs nor another of its outputs (after links and ``..``)."""
    from pathlib import Path

    from ._atomic import same_file
    from .errors import OutputError

    inputs, outputs = _io_paths(args)
    for k, (flag, path, suffixes) in enumerate(outputs):
        real = Path(os.path.realpath(path))
        if not real.parent.is_dir():
            raise OutputError(f"{flag} {path}: the folder {str(real.parent)!r} does not exist; "
                              "create it or choose another path.")
        if real.is_dir():
            raise OutputError(f"{flag} {path} is a folder; give a file name.")
        if suffixes and Path(path).suffix.lower() not in suffixes:
            raise OutputError(f"{flag} {path}: the file name must end in "
                              f"{' or '.join(suffixes)} (the format is chosen by the suffix).")
        for in_flag, in_path in inputs:
            if same_file(path, in_path):
                raise OutputError(f"{flag} {path} is the same file as the input {in_flag} "
                                  f"{in_path}: writing it would destroy the input; choose "
                                  f"another path for {flag}.")
        for other_flag, other, _ in outputs[:k]:
            if same_file(path, other):
                raise OutputError(f"{other_flag} {other} and {flag} {path} are the same file: "
                                  "the second write would replace the first; give them "
                                  "different paths.")


def _check_numbers(args: argparse.Namespace) -> None:
    """The numeric options of every command, checked before any work with messages that say
    what each option means and what values it takes."""
    import math

    from .errors import InputError

    def value(name: str):
        return getattr(args, name, None)

    def flag(name: str) -> str:
        return "--" + name.replace("_", "-")

    for name in ("complexity", "time_limit"):
        v = value(name)
        if v is not None and not (math.isfinite(v) and v > 0):
            what = "budget (rules + literals)" if name == "complexity" else "number of seconds"
            raise InputError(f"{flag(name)} must be a positive {what}, got {v}.")
    for name, what in (("max_degree", "literals per clause"),
                       ("n_thresholds", "thresholds per numeric feature")):
        v = value(name)
        if v is not None and v < 1:
            raise InputError(f"{flag(name)} must be a whole number of {what}, at least 1; got "
                             f"{v}.")
    v = value("test_size")
    if v is not None and not (math.isfinite(v) and 0 < v < 1):
        raise InputError(f"--test-size must be the share of rows held out for the test "
                         f"accuracy, strictly between 0 and 1 (e.g. 0.25); got {v}.")
    v = value("random_state")
    if v is not None and not 0 <= v < 2**32:
        raise InputError(f"--random-state must be a whole number from 0 to {2**32 - 1}, got {v}.")
    v = value("n_jobs")
    if v is not None and v == 0:
        raise InputError("--n-jobs must be a positive number of processes, or negative to count "
                         "from the number of cores (-1: every core, -2: all but one); got 0.")


def _write_stdout(text: str) -> None:
    """Write ``text`` to standard output and flush it, so that a failed write (a full disk, a
    closed pipe) is an error of the command rather than lost output."""
    from .errors import OutputError

    try:
        sys.stdout.write(text)
        sys.stdout.flush()
    except OSError as exc:
        raise OutputError(f"could not write to standard output ({exc.strerror or exc}); "
                          "use --output to write a file instead.") from None


def _export_model(est, path: str) -> None:
    """``est.export_model(path)``, written atomically; the learner gets a temporary path
    whose suffix is in lower case, so ``x.LP`` works as ``x.lp`` does."""
    from ._atomic import atomic_path

    with atomic_path(path) as tmp:
        work = tmp.with_name(tmp.stem + tmp.suffix.lower())
        try:
            est.export_model(str(work))
            if work != tmp:
                os.replace(work, tmp)
        finally:
            if work != tmp and work.exists():
                work.unlink()


def _check_outputs(args: argparse.Namespace, est) -> None:
    """What ``fit`` will export or solve with, checked before the fit starts (the paths are
    checked by ``_check_paths``): the learner has a model to export, and the solver is
    installed."""
    from .errors import InputError

    if args.export:
        if not hasattr(est, "export_model"):
            raise InputError(f"learner {args.learner!r} has no optimization model to export; "
                             "drop --export.")
    if args.solver is not None:
        from .solvers import get_backend

        get_backend(args.solver, "pyomo")


def _cmd_fit(args: argparse.Namespace) -> int:
    import time

    import numpy as np
    from sklearn.model_selection import train_test_split

    from .errors import InputError
    from .experiments import LEARNERS, make_learner

    frame = _read_csv(args.data)
    if args.target not in frame.columns:
        raise InputError(f"no column {args.target!r} in {args.data}; its columns are: "
                         f"{', '.join(map(str, frame.columns))}.")
    savable = ["rule_set", "rule_set_cv", "dro_rule_ensemble", "decision_list",
               "decision_list_cv", "boosting"]
    if args.learner not in LEARNERS:
        raise InputError(f"unknown learner {args.learner!r}; choose one of: {', '.join(savable)}.")
    y_raw = frame[args.target]
    if y_raw.isna().any():
        raise InputError(f"the target column {args.target!r} has missing values; drop those rows.")
    X = frame.drop(columns=[args.target])
    classes = np.unique(y_raw.astype(str))
    if len(classes) < 2:
        raise InputError(f"the target {args.target!r} must have at least two classes, found "
                         f"{len(classes)}: {', '.join(classes[:5])}.")
    y = y_raw.to_numpy()
    params = _parse_params(args.param)
    target_class = None if args.target_class is None else \
        _target_class_label(args, y, classes)
    # the class with its own defaults (binarize=False: no FeatureBinarizer forced on it)
    est = make_learner(args.learner, params, seed=args.random_state, solver=args.solver,
                       binarize=False)
    if target_class is not None:  # the rule set's, inside the CV's search too
        from sklearn.base import clone

        if args.learner == "rule_set":
            est.set_params(target_class=target_class)
        else:
            est.set_params(estimator=clone(est._base_estimator()).set_params(
                target_class=target_class))
    if not hasattr(est, "to_json"):
        raise InputError(f"learner {args.learner!r} cannot be saved as JSON; choose one of: "
                         f"{', '.join(savable)}.")
    _check_outputs(args, est)
    X_tr, X_te, y_tr, y_te = train_test_split(X, y, test_size=args.test_size, stratify=y,
                                              random_state=args.random_state)
    t0, c0 = time.perf_counter(), time.process_time()
    with progress_lines(params.get("verbose")):
        est.fit(X_tr, y_tr)
    wall, cpu = time.perf_counter() - t0, time.process_time() - c0
    print(str(est))
    print(f"train accuracy: {np.mean(est.predict(X_tr) == y_tr):.4f} ({len(y_tr)} rows)")
    print(f"test accuracy:  {np.mean(est.predict(X_te) == y_te):.4f} ({len(y_te)} rows)")
    # wall-clock time grows on a busy machine; the CPU time of this process (its threads,
    # not worker processes) does not
    print(f"fit time:       {wall:.2f} s wall-clock, {cpu:.2f} s CPU of this process")
    est.to_json(args.output)
    print(f"model saved:    {args.output}")
    if args.export:
        _export_model(est, args.export)
        print(f"model exported: {args.export}")
    return 0


def _load_model(path: str):
    import importlib
    import json

    from .errors import InputError

    try:
        with open(path, encoding="utf-8") as fh:
            text = fh.read()
        data = json.loads(text)
    except FileNotFoundError:
        raise InputError(f"no such model file: {path}") from None
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise InputError(f"{path} is not an optirules JSON model ({exc}).") from None
    except RecursionError:
        raise InputError(f"{path} is nested too deeply to be an optirules JSON model; "
                         "re-export the model with to_json().") from None
    fmt = data.get("format") if isinstance(data, dict) else None
    if fmt not in JSON_MODELS:
        raise InputError(f"{path} is not an optirules JSON model (its 'format' is {fmt!r}; "
                         f"known: {', '.join(JSON_MODELS)}).")
    module, name = JSON_MODELS[fmt]
    return getattr(importlib.import_module(module), name).from_json(text)


def _cmd_predict(args: argparse.Namespace) -> int:
    import numpy as np
    import pandas as pd

    from .errors import InputError

    model = _load_model(args.model)
    frame = _read_csv(args.data)
    y = None
    if args.target is not None:
        if args.target not in frame.columns:
            raise InputError(f"no column {args.target!r} in {args.data}.")
        y = frame[args.target].to_numpy()
        frame = frame.drop(columns=[args.target])
    names = getattr(model, "feature_names_in_", None)
    if names is not None:
        missing = [str(c) for c in names if c not in frame.columns]
        if missing:
            raise InputError(f"{args.data} lacks the model's feature columns: {', '.join(missing[:8])}.")
        frame = frame[list(names)]
    if args.explain:  # the rule(s) that decided each row, from the model's explain(X)
        why = model.explain(frame)
        pred = why["prediction"].to_numpy()
        out = pd.DataFrame({"prediction": pred, "score": why["score"].round(6),
                            "explanation": why["text"]})
    else:
        pred = model.predict(frame)
        out = pd.DataFrame({"prediction": pred})
    if args.output:
        from ._atomic import atomic_write

        atomic_write(args.output, out.to_csv(index=False))
        print(f"{len(pred)} predictions written to {args.output}")
    else:
        _write_stdout(out.to_csv(index=False))
    if y is not None:
        print(f"accuracy: {np.mean(pred.astype(str) == y.astype(str)):.4f}", file=sys.stderr)
    return 0


def _cmd_reproduce(args: argparse.Namespace) -> int:
    import contextlib
    import importlib
    import inspect

    from .errors import InputError

    module = importlib.import_module(REPRODUCTIONS[args.name], "optirules.experiments")
    run = module.run
    kwargs = {"quick": args.quick}
    accepts_jobs = "n_jobs" in inspect.signature(run).parameters
    if accepts_jobs:
        kwargs["n_jobs"] = args.n_jobs
    elif args.backend != "local" or args.n_jobs != 1:
        raise InputError(f"reproduction {args.name!r} runs in one process; drop --backend/--n-jobs.")
    ctx = contextlib.nullcontext()
    client = None
    if args.backend != "local":
        from joblib import parallel_config

        if args.backend == "dask":
            try:
                from dask.distributed import Client
            except ImportError:
                raise InputError("--backend dask needs dask.distributed installed.") from None
            client = Client(args.scheduler) if args.scheduler else Client(
                n_workers=max(1, args.n_jobs), threads_per_worker=1, dashboard_address=None)
            ctx = parallel_config(backend="dask")
        else:
            try:
                import ray
                from ray.util.joblib import register_ray
            except ImportError:
                raise InputError("--backend ray needs ray installed (pip install 'optirules[ray]').") from None
            ray.init(address=args.scheduler, include_dashboard=False, log_to_driver=False)
            register_ray()
            ctx = parallel_config(backend="ray")
        kwargs["n_jobs"] = -1 if accepts_jobs else 1
    try:
        with ctx:
            frame = run(**kwargs)
    finally:
        if client is not None:
            client.close()
    print(module.format_table(frame))
    if args.output:
        from ._atomic import atomic_write

        atomic_write(args.output, frame.to_csv(index=False))
        print(f"results written to {args.output}")
    return 0


def _benchmarks_dir():
    from pathlib import Path

    for base in (Path.cwd(), Path(__file__).resolve().parents[1]):
        if (base / "benchmarks").is_dir():
            return base / "benchmarks"
    return None


def _cmd_bench(args: argparse.Namespace) -> int:
    import subprocess

    from .errors import InputError

    folder = _benchmarks_dir()
    if folder is None:
        raise InputError("the benchmarks live in the source repository's benchmarks/ folder: run "
                         "this command from a checkout of optirules.")
    scripts = sorted(p.stem for p in folder.glob("*.py") if not p.stem.startswith("_"))
    if args.name is None:
        print("benchmarks: " + ", ".join(scripts))
        return 0
    if args.name not in scripts:
        raise InputError(f"no benchmark {args.name!r}; available: {', '.join(scripts)}.")
    cmd = [sys.executable, str(folder / f"{args.name}.py")] + (["--quick"] if args.quick else [])
    return subprocess.call(cmd)


def _add_solvers(sub: Any) -> None:
    """The ``solvers`` command's arguments."""
    p = sub.add_parser("solvers", help="list the installed solver backends and their capabilities",
                       description="List the installed solver backends, what each can take "
                       "on each interface, and which formulations and learners each can serve.")
    p.set_defaults(func=_cmd_solvers)


#: where ``optirules demo`` writes without --output: a folder of its own (in .gitignore), so
#: that a demo run from a checkout leaves nothing beside the sources
DEMO_FOLDER = "optirules-demo"
DEMO_OUTPUT = f"{DEMO_FOLDER}/optirules_demo.lp"


def _make_demo_folder(args: argparse.Namespace) -> None:
    """Create the demo's own folder when the demo writes there (its default --output)."""
    from .errors import OutputError

    if args.command != "demo" or args.output != DEMO_OUTPUT:
        return
    if os.path.lexists(DEMO_FOLDER) and not os.path.isdir(DEMO_FOLDER):
        raise OutputError(f"{DEMO_FOLDER} is a file, and the demo writes into a folder of that "
                          "name; move the file, or give --output another path.")
    os.makedirs(DEMO_FOLDER, exist_ok=True)


def _add_demo(sub: Any) -> None:
    """The ``demo`` command's arguments."""
    p = sub.add_parser(
        "demo", help="the main job on bundled data: learn a rule set with HiGHS and export it",
        description="Binarize a bundled dataset, learn a Boolean rule set by column generation "
        "(the DRO paper eqs 6-8: master LP, exact pricing, master IP with HiGHS), print the rules, "
        "test accuracy, solve status and certified gap, and write the final master as an .lp "
        "file (and the model as JSON). --method enumerate instead solves the IP over every "
        "clause of at most --max-degree literals.")
    p.add_argument("--dataset", default=None,
                   help="bundled dataset (default tic_tac_toe; monks1 for --method enumerate)")
    p.add_argument("--method", choices=["cg", "enumerate"], default="cg",
                   help="column generation (default) or the IP over all clauses")
    p.add_argument("--max-degree", type=int, default=None,
                   help="literals per clause (default: chosen from the data size; 2 for enumerate)")
    p.add_argument("--complexity", type=float, default=None,
                   help="complexity budget C, rules + literals (default: the penalty form)")
    p.add_argument("--solver", default="highs", help="MILP solver (default highs)")
    p.add_argument("--time-limit", type=float, default=None,
                   help="wall-clock seconds for the fit (default: none, so the result does not "
                   "depend on the machine's speed); at the limit the incumbent and its gap "
                   "are shown")
    p.add_argument("--output", default=DEMO_OUTPUT,
                   help=f"model file, .lp or .mps; the model's JSON goes next to it (default "
                   f"{DEMO_OUTPUT}: a folder of its own in the current folder, created when "
                   "missing)")
    p.add_argument("--random-state", type=int, default=0,
                   help="seed of the train/test split and of the solver (default 0)")
    p.set_defaults(func=_cmd_demo)


def _add_export(sub: Any) -> None:
    """The ``export`` command's arguments."""
    p = sub.add_parser(
        "export", help="write the rule master of a bundled dataset as an .lp or .mps file",
        description="Build the rule master (the DRO paper eqs 6-8) over all clauses of at most "
        "--max-degree literals on a bundled dataset and write it, without solving.")
    p.add_argument("output", help="path ending in .lp or .mps")
    p.add_argument("--dataset", default="tic_tac_toe",
                   help="bundled dataset (default tic_tac_toe); monks1, monks2 and monks3 "
                   "use their training file (monks1_train, ...), monks1_test names a test file")
    p.add_argument("--max-degree", type=int, default=1,
                   help="most literals per clause: every clause of 1 to this many literals "
                   "(on distinct features) is a column of the master (default 1)")
    p.add_argument("--complexity", type=float, default=20.0,
                   help="budget C on the rules plus literals of the rule set (default 20.0)")
    p.add_argument("--n-thresholds", type=int, default=9,
                   help="thresholds per numeric feature of the FeatureBinarizer that makes "
                   "the literals (default 9)")
    p.add_argument("--relax", action="store_true",
                   help="write the LP relaxation instead of the IP")
    p.set_defaults(func=_cmd_export)


def _add_fit(sub: Any) -> None:
    """The ``fit`` command's arguments."""
    p = sub.add_parser(
        "fit", help="fit a learner on a CSV file, print its rules and metrics, save it as JSON",
        description="Fit a learner on a CSV file (a stratified hold-out split gives the test "
        "accuracy), print the model, its accuracies and its fit time (wall-clock and CPU), "
        "and save it as JSON (never a pickle).  Each learner is its class of "
        "optirules.learners with the class's own defaults (--learner boosting is "
        "BoostingClassifier(), rule_set is BooleanRuleSetClassifier(), ...), as in Python; "
        "--random-state sets its random_state, --solver its solver, --param any other "
        "parameter.  A long fit prints nothing until it ends: --param verbose=true shows a "
        "progress bar and a log line per step on stderr.")
    p.add_argument("data", help="CSV file with a header row, one example per row")
    p.add_argument("--target", required=True,
                   help="name of the label column, two classes or more: with more than two, "
                   "the rule sets, the DRO ensemble and boosting fit one model per class "
                   "against the rest, the decision list one list for all classes")
    p.add_argument("--learner", default="rule_set",
                   help="rule_set (BooleanRuleSetClassifier), rule_set_cv (BooleanRuleSetCV: "
                        "its penalty by cross-validation; saved with its search results and "
                        "the refitted rule set), dro_rule_ensemble "
                        "(DRORuleEnsembleClassifier), decision_list (DecisionListClassifier), "
                        "decision_list_cv (DecisionListCV: its depth by cross-validation; "
                        "saved as the refitted list) or boosting (BoostingClassifier), each "
                        "with the class's own defaults (default rule_set)")
    p.add_argument("--solver", default=None,
                   help="solver of the learners that solve optimization models (rule_set, "
                   "rule_set_cv, dro_rule_ensemble), a name `optirules solvers` lists "
                   "(default: the learner's own, HiGHS); decision lists and boosting solve "
                   "none and refuse it")
    p.add_argument("--param", action="append", default=[], metavar="NAME=VALUE",
                   help="a parameter of the learner, VALUE read as JSON (max_degree=2, "
                   "'penalties=[0.01, 0.1]', binarizer=null) or else as a string; "
                   "repeatable (default: none, the class's defaults); --param verbose=true "
                   "shows the progress of a long fit")
    p.add_argument("--target-class", default=None,
                   help="the class the rules describe, a label of the target column "
                   "(rule_set and rule_set_cv, two classes; default: the class's own rule, "
                   "the second label for numbers, the class with fewer rows for text "
                   "labels)")
    p.add_argument("--test-size", type=float, default=0.25,
                   help="share of the rows held out, stratified by label, for the test "
                   "accuracy (default 0.25)")
    p.add_argument("--random-state", type=int, default=0,
                   help="seed of the train/test split and the learner's random_state "
                   "(default 0)")
    p.add_argument("--output", default="model.json",
                   help="where to save the fitted model as JSON, for optirules predict "
                   "(default model.json)")
    p.add_argument("--export", default=None,
                   help="also write the final model as .lp or .mps (a two-class target only; "
                   "default: none)")
    p.set_defaults(func=_cmd_fit)


def _add_predict(sub: Any) -> None:
    """The ``predict`` command's arguments."""
    p = sub.add_parser("predict", help="predict a CSV file with a saved JSON model",
                       description="Load a model saved by `optirules fit` and predict every row "
                       "of a CSV file; prints CSV (or writes --output).")
    p.add_argument("model", help="JSON model file")
    p.add_argument("data", help="CSV file with the model's feature columns")
    p.add_argument("--target", default=None, help="label column to drop and score against")
    p.add_argument("--output", default=None, help="write predictions here instead of stdout")
    p.add_argument("--explain", action="store_true",
                   help="add the columns score (the model's score of the prediction) and "
                   "explanation (which rule, member or hypotheses decided each row)")
    p.set_defaults(func=_cmd_predict)


def _add_reproduce(sub: Any) -> None:
    """The ``reproduce`` command's arguments."""
    p = sub.add_parser(
        "reproduce", help="reproduce a seed paper's experiment and print its table beside ours",
        description="Run one of the papers' experiments: " + ", ".join(REPRODUCTIONS) + ".")
    p.add_argument("name", choices=sorted(REPRODUCTIONS), help="the experiment to run")
    p.add_argument("--quick", action="store_true", help="a small version that runs in seconds")
    p.add_argument("--backend", choices=["local", "dask", "ray"], default="local",
                   help="where parallel work runs (dask/ray: an existing cluster or a local one)")
    p.add_argument("--scheduler", default=None, help="dask scheduler or ray cluster address")
    p.add_argument("--n-jobs", type=int, default=1,
                   help="processes (or cluster workers) running the experiment's fits "
                   "(default 1)")
    p.add_argument("--output", default=None, help="also write the result table as CSV")
    p.set_defaults(func=_cmd_reproduce)


def _add_bench(sub: Any) -> None:
    """The ``bench`` command's arguments."""
    p = sub.add_parser("bench", help="run a benchmark script of the repository's benchmarks/",
                       description="Run benchmarks/NAME.py (from a checkout); without NAME, "
                       "list them.")
    p.add_argument("name", nargs="?", default=None,
                   help="the script's name without .py (default: list the scripts)")
    p.add_argument("--quick", action="store_true", help="pass --quick to the script")
    p.set_defaults(func=_cmd_bench)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="optirules",
        description="Declarative optimization models for interpretable classification.",
    )
    parser.add_argument("--version", action="version", version=f"optirules {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    _add_solvers(sub)
    _add_demo(sub)
    _add_export(sub)
    _add_fit(sub)
    _add_predict(sub)
    _add_reproduce(sub)
    _add_bench(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        _check_numbers(args)  # before any work: numbers, then every output path
        _make_demo_folder(args)
        _check_paths(args)
        return int(args.func(args) or 0)
    except OptirulesError as exc:
        print(f"optirules {args.command}: error: {exc}", file=sys.stderr)
        return 2
    except (OSError, ValueError) as exc:
        print(f"optirules {args.command}: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"optirules {args.command}: interrupted", file=sys.stderr)
        return 130
    except Exception as exc:  # an optirules bug: one line for the user, details on request
        if os.environ.get("OPTIRULES_DEBUG"):
            raise
        print(f"optirules {args.command}: internal error: {type(exc).__name__}: {exc} "
              "(set OPTIRULES_DEBUG=1 to see the traceback, and please report it)", file=sys.stderr)
        return 1


def run() -> None:
    """The ``optirules`` command: :func:`main`, its return code the process's.  After Ctrl-C
    the process ends with 130 at once (``os._exit``, streams flushed): an interpreter
    shutdown interrupted again would end it by the signal instead, and the code would
    not say that ``optirules`` stopped cleanly."""
    code = main()
    if code == 130:
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(130)
    sys.exit(code)


if __name__ == "__main__":  # pragma: no cover
    run()
