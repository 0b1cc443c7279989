"""Committed notebooks are clean: no outputs, no execution counts, no widget state."""

import json

import nbformat
import pytest
from notebook_files import NOTEBOOKS, all_notebooks, leftovers


def test_there_are_notebooks_to_check():
    assert (NOTEBOOKS / "00_why_tokenization.ipynb").exists()


@pytest.mark.parametrize("path", all_notebooks(), ids=lambda p: str(p.relative_to(NOTEBOOKS)))
def test_committed_notebook_is_stripped(path):
    notebook = nbformat.read(path, as_version=4)
    assert leftovers(notebook) == [], f"{path.name}: clear outputs before committing"


@pytest.mark.parametrize("path", all_notebooks(), ids=lambda p: str(p.relative_to(NOTEBOOKS)))
def test_notebook_uses_the_python3_kernel(path):
    spec = json.loads(path.read_text(encoding="utf-8"))["metadata"]["kernelspec"]
    assert spec["name"] == "python3"


def test_a_notebook_with_an_output_is_caught(tmp_path):
    notebook = nbformat.read(NOTEBOOKS / "00_why_tokenization.ipynb", as_version=4)
    first_code = next(cell for cell in notebook.cells if cell.cell_type == "code")
    first_code.outputs = [nbformat.v4.new_output("stream", text="hello\n")]
    first_code.execution_count = 3
    notebook.metadata["widgets"] = {"application/vnd.jupyter.widget-state+json": {}}
    saved = tmp_path / "dirty.ipynb"
    nbformat.write(notebook, saved)
    problems = leftovers(nbformat.read(saved, as_version=4))
    assert any("has outputs" in p for p in problems)
    assert any("execution count 3" in p for p in problems)
    assert "notebook metadata holds saved widget state" in problems
