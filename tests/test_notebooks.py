"""The tutorial notebooks: committed as their generator writes them (outputs stripped), and each one
runs to the end under ``CI=true`` (small budgets) and passes its own assertions.

Executed with nbclient on the ``python3`` kernel; ``pytest --nbmake notebooks/`` does the same.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

NOTEBOOKS = Path(__file__).resolve().parents[1] / "notebooks"
NAMES = ("01_quickstart.ipynb", "02_train_ppo.ipynb", "03_tournament.ipynb", "04_cave_troll.ipynb",
         "05_fall_of_the_mountain_king.ipynb")
CELL_TIMEOUT_S = 300

nbformat = pytest.importorskip("nbformat")


def _builder():
    spec = importlib.util.spec_from_file_location("build_notebooks", NOTEBOOKS / "build_notebooks.py")
    module = importlib.util.module_from_spec(spec)
    keep, sys.dont_write_bytecode = sys.dont_write_bytecode, True  # no __pycache__ in notebooks/
    try:
        spec.loader.exec_module(module)
    finally:
        sys.dont_write_bytecode = keep
    return module


def test_committed_notebooks_are_the_generated_ones_without_outputs():
    builder = _builder()
    assert sorted(builder.NOTEBOOKS) == sorted(NAMES)
    for name in NAMES:
        text = (NOTEBOOKS / name).read_text(encoding="utf-8")
        assert text == builder.render(name), f"{name} is stale: run python notebooks/build_notebooks.py"
        nb = nbformat.reads(text, as_version=4)
        nbformat.validate(nb)
        for cell in nb.cells:
            if cell.cell_type == "code":
                assert cell.outputs == [] and cell.execution_count is None, f"{name}: outputs not stripped"


@pytest.mark.parametrize("name", NAMES)
def test_notebook_runs_under_ci_budgets(name, monkeypatch, tmp_path):
    nbclient = pytest.importorskip("nbclient")
    pytest.importorskip("ipykernel")
    monkeypatch.setenv("CI", "true")          # the kernel inherits it: small budgets
    monkeypatch.setenv("MPLBACKEND", "Agg")   # no display; %matplotlib inline still draws
    monkeypatch.setenv("TMPDIR", str(tmp_path))  # the notebooks' temp folders land here
    before = sorted(NOTEBOOKS.parent.glob("notebooks/**/*"))
    nb = nbformat.read(NOTEBOOKS / name, as_version=4)
    client = nbclient.NotebookClient(nb, timeout=CELL_TIMEOUT_S, kernel_name="python3",
                                     resources={"metadata": {"path": str(NOTEBOOKS)}})
    client.execute()  # raises CellExecutionError, with the cell and traceback, on any failure
    errors = [o for c in nb.cells if c.cell_type == "code" for o in c.outputs if o.output_type == "error"]
    assert not errors
    images = [o for c in nb.cells if c.cell_type == "code" for o in c.outputs
              if "image/png" in o.get("data", {})]
    assert images, f"{name} drew no figure"
    after = sorted(NOTEBOOKS.parent.glob("notebooks/**/*"))
    assert after == before, f"{name} wrote into notebooks/: {sorted(set(after) - set(before))}"
