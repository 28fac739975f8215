"""Execute every teaching notebook in ``notebooks/`` and check the repository copies.

Each ``notebooks/*.ipynb`` is found automatically, run top to bottom in a fresh
``python3`` kernel (working directory: a temporary folder, so exported ``.lp``/``.mps``
files do not litter the tree; matplotlib on the Agg backend), and fails on the first
cell that raises — including the ``assert`` cells each notebook ends with.  The copies
in the repository must be stored without outputs.
"""

from __future__ import annotations

from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient
from nbclient.exceptions import CellExecutionError

NOTEBOOK_DIR = Path(__file__).resolve().parents[1] / "notebooks"
NOTEBOOKS = sorted(NOTEBOOK_DIR.glob("*.ipynb"))
CELL_TIMEOUT = 300  # seconds per cell


def _ids(path: Path) -> str:
    return path.stem


def test_notebooks_are_found():
    names = {p.name for p in NOTEBOOKS}
    assert {"01_rule_master.ipynb", "02_column_generation.ipynb",
            "03_worst_case_distributions.ipynb", "04_dro_ensembles.ipynb",
            "05_boosting_parities.ipynb", "06_smooth_boosting.ipynb",
            "07_decision_lists.ipynb", "08_qmm_pruning.ipynb"} <= names


@pytest.mark.parametrize("path", NOTEBOOKS, ids=_ids)
def test_notebook_is_stripped(path: Path):
    nb = nbformat.read(path, as_version=4)
    nbformat.validate(nb)
    assert nb.metadata.get("kernelspec", {}).get("name") == "python3", (
        f"{path.name}: set the kernelspec to python3"
    )
    dirty = [i for i, cell in enumerate(nb.cells) if cell.cell_type == "code"
             and (cell.outputs or cell.execution_count is not None)]
    assert not dirty, (
        f"{path.name}: code cells {dirty} keep outputs or execution counts; clear all outputs "
        "before committing (see notebooks/README.md)"
    )


@pytest.mark.parametrize("path", NOTEBOOKS, ids=_ids)
def test_notebook_ends_with_asserts(path: Path):
    nb = nbformat.read(path, as_version=4)
    code_cells = [cell for cell in nb.cells if cell.cell_type == "code"]
    assert code_cells, f"{path.name} has no code"
    assert "assert " in code_cells[-1].source, (
        f"{path.name}: the last code cell must check what the notebook teaches with asserts"
    )


@pytest.mark.parametrize("path", NOTEBOOKS, ids=_ids)
def test_notebook_runs(path: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("MPLBACKEND", "Agg")  # inherited by the kernel process
    before = sorted(p.name for p in NOTEBOOK_DIR.iterdir())
    nb = nbformat.read(path, as_version=4)
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
