"""The ``optirules`` command."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from . import __version__
from .errors import OptirulesError

__all__ = ["main"]


def _cmd_solvers(args: argparse.Namespace) -> int:
    from .solvers import available_solvers

    print(f"{'name':<10} {'version':<10} {'interfaces':<22} capabilities")
    for info in available_solvers():
        print(info)
    return 0


def _cmd_demo(args: argparse.Namespace) -> int:
    from .experiments._demo import format_demo, run_demo

    result = run_demo(
        args.dataset,
        max_degree=args.max_degree,
        complexity=args.complexity,
        solver=args.solver,
        time_limit=args.time_limit,
        output=args.output,
        random_state=args.random_state,
    )
    print(format_demo(result))
    return 0


def _cmd_export(args: argparse.Namespace) -> int:
    from .data import FeatureBinarizer, load_dataset
    from .experiments._demo import all_clauses
    from .models import RuleMasterModel

    X, y = load_dataset(args.dataset)
    binarizer = FeatureBinarizer(n_thresholds=args.n_thresholds).fit(X)
    A = binarizer.transform(X)
    feature_of = [lit.feature for lit in binarizer.literals_]
    clauses = [c for c in all_clauses(A, y, args.max_degree)
               if len({feature_of[j] for j in c}) == len(c)]
    model = RuleMasterModel(A, y, clauses, complexity_budget=args.complexity, relax=args.relax)
    model.write(args.output)
    kind = "LP relaxation" if args.relax else "IP"
    print(f"wrote the rule master {kind} ({len(clauses)} clauses, {int(y.sum())} cover rows) "
          f"to {args.output}")
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="optirules",
        description="Declarative optimization models for interpretable classification.",
    )
    parser.add_argument("--version", action="version", version=f"optirules {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True

    p = sub.add_parser("solvers", help="list the installed solver backends and their capabilities",
                       description="List the installed solver backends and what each can take.")
    p.set_defaults(func=_cmd_solvers)

    p = sub.add_parser(
        "demo", help="the main job on bundled data: learn a rule set with HiGHS and export it",
        description="Binarize a bundled dataset, solve the rule-set integer program (seed 000 "
        "eqs 6-8) over all clauses of at most --max-degree literals, print the rules, test "
        "accuracy, solve status and gap, and write the model as an .lp file.")
    p.add_argument("--dataset", default="monks1",
                   help="bundled dataset (default monks1, with its own test file)")
    p.add_argument("--max-degree", type=int, default=2, help="literals per clause (default 2)")
    p.add_argument("--complexity", type=float, default=20.0,
                   help="complexity budget C: rules + literals (default 20)")
    p.add_argument("--solver", default="highs", help="MILP solver (default highs)")
    p.add_argument("--time-limit", type=float, default=30.0,
                   help="seconds for the IP; at the limit the incumbent and its gap are shown (default 30)")
    p.add_argument("--output", default="optirules_demo.lp", help="model file (.lp or .mps)")
    p.add_argument("--random-state", type=int, default=0)
    p.set_defaults(func=_cmd_demo)

    p = sub.add_parser(
        "export", help="write the rule master of a bundled dataset as an .lp or .mps file",
        description="Build the rule master (seed 000 eqs 6-8) over all clauses of at most "
        "--max-degree literals on a bundled dataset and write it, without solving.")
    p.add_argument("output", help="path ending in .lp or .mps")
    p.add_argument("--dataset", default="tic_tac_toe")
    p.add_argument("--max-degree", type=int, default=1)
    p.add_argument("--complexity", type=float, default=20.0)
    p.add_argument("--n-thresholds", type=int, default=9)
    p.add_argument("--relax", action="store_true", help="write the LP relaxation")
    p.set_defaults(func=_cmd_export)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
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


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
