"""Where the notebooks are, and what a committed notebook must not carry."""

from __future__ import annotations

from pathlib import Path

import nbformat

NOTEBOOKS = Path(__file__).resolve().parent.parent / "notebooks"


def all_notebooks() -> list[Path]:
    """Every notebook of the series and its solutions, in reading order."""
    return sorted(
        path
        for path in NOTEBOOKS.rglob("*.ipynb")
        if ".ipynb_checkpoints" not in path.parts
    )


def leftovers(notebook: nbformat.NotebookNode) -> list[str]:
    """What a notebook still carries from being run: outputs, execution counts, widget state.

    >>> cell = nbformat.v4.new_code_cell("1 + 1")
    >>> leftovers(nbformat.v4.new_notebook(cells=[cell]))
    []
    >>> cell.outputs = [nbformat.v4.new_output("execute_result", {"text/plain": "2"})]
    >>> cell.execution_count = 1
    >>> leftovers(nbformat.v4.new_notebook(cells=[cell]))
    ['cell 1 has outputs', 'cell 1 has execution count 1']
    """
    found = []
    for number, cell in enumerate(notebook.cells, start=1):
        if cell.cell_type != "code":
            continue
        if cell.get("outputs"):
            found.append(f"cell {number} has outputs")
        if cell.get("execution_count") is not None:
            found.append(f"cell {number} has execution count {cell.execution_count}")
    if "widgets" in notebook.metadata:
        found.append("notebook metadata holds saved widget state")
    return found
