"""Every notebook runs top to bottom, headless, with the python3 kernel ("Restart & Run All").

A failing cell fails its notebook's test, and the message shows that cell and the error.
"""

import time

import nbformat
import pytest
from nbclient import NotebookClient
from nbclient.exceptions import CellExecutionError
from notebook_files import NOTEBOOKS, all_notebooks


def run_notebook(path, timeout=300):
    """Execute a notebook in its own folder; return the executed copy (the file is untouched)."""
    notebook = nbformat.read(path, as_version=4)
    client = NotebookClient(
        notebook,
        timeout=timeout,
        kernel_name="python3",
        resources={"metadata": {"path": str(path.parent)}},
    )
    client.execute()
    return notebook


@pytest.mark.notebook
@pytest.mark.parametrize("path", all_notebooks(), ids=lambda p: str(p.relative_to(NOTEBOOKS)))
def test_notebook_runs_top_to_bottom(path):
    started = time.perf_counter()
    try:
        executed = run_notebook(path)
    except CellExecutionError as error:
        pytest.fail(f"{path.name} stopped at a cell:\n{error}", pytrace=False)
    print(f"{path.name}: {time.perf_counter() - started:.1f} s")
    errors = [
        output
        for cell in executed.cells
        for output in cell.get("outputs", [])
        if output.get("output_type") == "error"
    ]
    assert errors == []


@pytest.mark.notebook
def test_a_failing_cell_fails_the_run(tmp_path):
    notebook = nbformat.v4.new_notebook(
        cells=[
            nbformat.v4.new_code_cell("x = 1"),
            nbformat.v4.new_code_cell("raise ValueError('this cell is broken')"),
        ],
        metadata={"kernelspec": {"name": "python3", "display_name": "Python 3",
                                 "language": "python"}},
    )
    path = tmp_path / "broken.ipynb"
    nbformat.write(notebook, path)
    with pytest.raises(CellExecutionError, match="this cell is broken"):
        run_notebook(path, timeout=60)


@pytest.mark.notebook
@pytest.mark.parametrize("name", ["04_byte_level_bpe.ipynb", "07_train_your_own.ipynb"])
def test_notebooks_that_save_models_leave_nothing_in_the_temp_folder(name, tmp_path, monkeypatch):
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    monkeypatch.setenv("TMPDIR", str(scratch))  # the kernel, a new process, uses this folder
    run_notebook(NOTEBOOKS / name)
    left = sorted(path.name for path in scratch.iterdir())
    # tiktoken may keep its cache of encoding files there; nothing else may stay
    assert [entry for entry in left if "tiktoken" not in entry] == []
