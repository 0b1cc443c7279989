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


def colab_setup_cells(path) -> list[str]:
    """The sources of a notebook's code cells that set it up on Google Colab."""
    notebook = nbformat.read(path, as_version=4)
    return [cell.source for cell in notebook.cells
            if cell.cell_type == "code" and "google.colab" in cell.source]


def test_the_colab_setup_cell_is_the_same_first_code_cell_everywhere():
    reference = colab_setup_cells(NOTEBOOKS / "00_why_tokenization.ipynb")
    assert len(reference) == 1 and reference[0].startswith("# Setup.")
    for path in all_notebooks():
        notebook = nbformat.read(path, as_version=4)
        first_code = next(cell for cell in notebook.cells if cell.cell_type == "code")
        assert colab_setup_cells(path) == reference, f"{path.name}: set-up cell differs or missing"
        assert first_code.source == reference[0], f"{path.name}: set-up is not the first code cell"


def test_a_changed_setup_cell_is_caught(tmp_path):
    notebook = nbformat.read(NOTEBOOKS / "04_byte_level_bpe.ipynb", as_version=4)
    setup = next(cell for cell in notebook.cells if "google.colab" in cell.get("source", ""))
    setup.source = setup.source.replace("bpe-workshop", "bpe_workshop")
    changed = tmp_path / "changed.ipynb"
    nbformat.write(notebook, changed)
    assert colab_setup_cells(changed) != colab_setup_cells(NOTEBOOKS / "00_why_tokenization.ipynb")
