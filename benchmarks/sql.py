"""Rules that run where the data lives: ``to_sql`` against ``predict``, row for row.

For each data set a rule set, a DRO ensemble and a decision list (``fallback="default"``)
are fitted on a stratified sample of at most 2,000 rows with their defaults
(``random_state=0``); each model's SQL runs over the whole table in SQLite (Python's
``sqlite3``) and DuckDB, and the table prints the rows whose SQL prediction differs from
``predict`` and the seconds the engine took.  The data sets: adult, magic_gamma and
mushroom (whole), and heart_cleveland with every fourth value of two numeric and one
categorical column made missing and a category never seen in training.

    python benchmarks/sql.py [--out benchmarks/results/sql.md]
"""

from __future__ import annotations

import argparse
import os
import platform
import sqlite3
import time
from pathlib import Path

import numpy as np
import pandas as pd


def tables() -> dict[str, tuple[pd.DataFrame, np.ndarray, pd.DataFrame]]:
    """name -> (training rows, their labels, the whole table to predict)."""
    from sklearn.model_selection import train_test_split

    from optirules.data import load_dataset

    out = {}
    for name in ("adult", "magic_gamma", "mushroom"):
        X, y = load_dataset(name)
        n = min(2000, len(y))
        X_tr, _, y_tr, _ = train_test_split(X, y, train_size=n, stratify=y, random_state=0)
        out[name] = (X_tr, y_tr, X)
    X, y = load_dataset("heart_cleveland")
    X = X.copy()
    for col in ("chol", "thalach"):
        X.loc[X.index[::4], col] = np.nan
    # chest pain type as text (a categorical column), with missing values
    X["cp"] = [None if i % 4 == 1 else f"type {int(v)}" for i, v in enumerate(X["cp"])]
    whole = X.copy()
    whole.loc[whole.index[2::7], "cp"] = "never seen"  # a category not in training
    out["heart_cleveland with NaN and an unseen category"] = (X, y, whole)
    return out


def models():
    from optirules.learners import (
        BooleanRuleSetClassifier,
        DecisionListClassifier,
        DRORuleEnsembleClassifier,
    )

    return {"rule set": lambda: BooleanRuleSetClassifier(random_state=0),
            "DRO ensemble": lambda: DRORuleEnsembleClassifier(random_state=0),
            "decision list": lambda: DecisionListClassifier(fallback="default")}


def run(query: str, X: pd.DataFrame, engine: str) -> tuple[np.ndarray, float]:
    df = X.reset_index(drop=True).copy()
    df.insert(0, "row_id", np.arange(len(df)))
    if engine == "sqlite":
        con = sqlite3.connect(":memory:")
        df.to_sql("data", con, index=False)
        t = time.perf_counter()
        rows = con.execute(query).fetchall()
    else:
        import duckdb

        con = duckdb.connect()
        con.register("frame", df)
        con.execute('CREATE TABLE "data" AS SELECT * FROM frame')
        t = time.perf_counter()
        rows = con.execute(query).fetchall()
    seconds = time.perf_counter() - t
    con.close()
    rows.sort(key=lambda r: r[0])
    return np.array([r[1] for r in rows], dtype=object), seconds


def main(argv: list[str] | None = None) -> None:
    import duckdb

    import optirules

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, default=None)
    args = ap.parse_args(argv)
    started = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    rows = []
    for tname, (X_tr, y_tr, whole) in tables().items():
        for mname, make in models().items():
            model = make().fit(X_tr, y_tr)
            expected = model.predict(whole)
            for engine in ("sqlite", "duckdb"):
                got, seconds = run(model.to_sql("data", engine, keep=("row_id",)), whole, engine)
                bad = int(sum(str(a) != str(b) for a, b in zip(got, expected)))
                rows.append({"table": tname, "rows": len(whole), "model": mname,
                             "engine": engine, "mismatches": bad, "query s": seconds})
                print(f"{tname} / {mname} / {engine}: {bad} mismatches ({seconds:.2f} s)",
                      flush=True)
    load = os.getloadavg()[0]
    head = (f"sql.py run {started}; optirules {optirules.__version__}, Python "
            f"{platform.python_version()}, sqlite {sqlite3.sqlite_version}, duckdb "
            f"{duckdb.__version__}, pandas {pd.__version__}; {os.cpu_count()} cores, load "
            f"{load:.2f} at the end\n")
    text = head + "\n" + pd.DataFrame(rows).to_markdown(index=False, floatfmt=".3f") + "\n"
    print(text)
    if args.out is not None:
        args.out.write_text(text)


if __name__ == "__main__":
    main()
