"""Execute every teaching notebook in ``notebooks/`` from its jupytext source.

Each notebook is one jupytext percent-format file ``notebooks/0X_name.py`` (markdown cells
as ``# %% [markdown]`` comments, code cells after ``# %%``): the only copy in the
repository, so no ``.ipynb`` file may be committed beside it.  Each is found
automatically, read with ``jupytext.read`` into a notebook, run top to bottom in a fresh
``python3`` kernel (working directory: a temporary folder, so exported ``.lp``/``.mps``
files do not litter the tree; matplotlib on the Agg backend), and fails on the first
cell that raises — including the ``assert`` cells each notebook ends with.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import jupytext
import nbformat
import pytest
from nbclient import NotebookClient
from nbclient.exceptions import CellExecutionError

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOK_DIR = ROOT / "notebooks"
NOTEBOOKS = sorted(NOTEBOOK_DIR.glob("[0-9]*.py"))
CELL_TIMEOUT = 300  # seconds per cell


def _ids(path: Path) -> str:
    return path.stem


def _read(path: Path) -> nbformat.NotebookNode:
    return jupytext.read(path, fmt="py:percent")


def test_notebooks_are_found():
    names = {p.name for p in NOTEBOOKS}
    assert {"01_rule_master.py", "02_column_generation.py",
            "03_worst_case_distributions.py", "04_dro_ensembles.py",
            "05_boosting_parities.py", "06_smooth_boosting.py",
            "07_decision_lists.py", "08_qmm_pruning.py"} <= names


def test_no_ipynb_is_committed():
    """The ``.py`` file is the one source: no ``.ipynb`` copy is tracked beside it
    (``notebooks/.gitignore`` keeps the ones Jupyter or ``jupytext --to notebook`` write out
    of the repository; a tracked file already deleted from the work tree does not count)."""
    proc = subprocess.run(["git", "ls-files", "--", "*.ipynb"], cwd=NOTEBOOK_DIR,
                          capture_output=True, text=True)
    if proc.returncode != 0:
        pytest.skip("not a git checkout")
    tracked = [name for name in proc.stdout.split() if (NOTEBOOK_DIR / name).exists()]
    assert not tracked, (
        f"commit the jupytext .py sources only, not {tracked} (see notebooks/README.md)"
    )


@pytest.mark.parametrize("path", NOTEBOOKS, ids=_ids)
def test_notebook_is_a_python3_percent_notebook(path: Path):
    nb = _read(path)
    nbformat.validate(nb)
    assert nb.metadata.get("kernelspec", {}).get("name") == "python3", (
        f"{path.name}: set the kernelspec to python3 in the jupytext header"
    )
    fmt = nb.metadata.get("jupytext", {}).get("text_representation", {})
    assert fmt.get("format_name") == "percent", (
        f"{path.name}: keep the jupytext header of the percent format (myst-nb reads it)"
    )
    assert any(cell.cell_type == "markdown" for cell in nb.cells), path.name


@pytest.mark.parametrize("path", NOTEBOOKS, ids=_ids)
def test_notebook_ends_with_asserts(path: Path):
    nb = _read(path)
    code_cells = [cell for cell in nb.cells if cell.cell_type == "code"]
    assert code_cells, f"{path.name} has no code"
    assert "assert " in code_cells[-1].source, (
        f"{path.name}: the last code cell must check what the notebook teaches with asserts"
    )


@pytest.mark.parametrize("path", NOTEBOOKS, ids=_ids)
def test_notebook_runs(path: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("MPLBACKEND", "Agg")  # inherited by the kernel process
    before = sorted(p.name for p in NOTEBOOK_DIR.iterdir())
    nb = _read(path)
    client = NotebookClient(nb, timeout=CELL_TIMEOUT, kernel_name="python3",
                            resources={"metadata": {"path": str(tmp_path)}})
    try:
        client.execute()
    except CellExecutionError as exc:
        pytest.fail(f"{path.name} failed:\n{exc}", pytrace=False)
    errors = [out for cell in nb.cells if cell.cell_type == "code"
              for out in cell.outputs if out.output_type == "error"]
    assert not errors, f"{path.name}: {errors[0].ename}: {errors[0].evalue}"
    ran = [cell for cell in nb.cells if cell.cell_type == "code"]
    assert all(cell.execution_count is not None for cell in ran)
    assert sorted(p.name for p in NOTEBOOK_DIR.iterdir()) == before, (
        f"{path.name} wrote files next to the notebooks; write to the working directory"
    )
