"""Every notebook runs top to bottom, headless, with the python3 kernel ("Restart & Run All").

A failing cell fails its notebook's test, and the message shows that cell and the error.
"""

import re
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
    assert unprinted_figures(executed) == []


def unprinted_figures(executed) -> list[str]:
    """The figures of a "## What we measured" cell that no output (or code constant) shows.

    A summary cell quotes what the cells above print; when a corpus, a setting or a library
    changes a figure, the quote must change with it, or this names the stale figure.
    """
    summaries = [cell.source for cell in executed.cells if cell.cell_type == "markdown"
                 and cell.source.startswith("## What we measured")]
    shown = "\n".join(
        [output.get("text", "") + str(output.get("data", {}).get("text/plain", ""))
         for cell in executed.cells for output in cell.get("outputs", [])]
        + [cell.source.replace("_", ",") for cell in executed.cells if cell.cell_type == "code"])
    figures = [figure for summary in summaries
               for figure in re.findall(r"\d[\d,.|]*\d|\d", summary.split("\n", 3)[-1])]
    return [figure for figure in figures if figure not in shown]


def test_a_stale_figure_in_a_summary_is_caught():
    executed = nbformat.v4.new_notebook(cells=[
        nbformat.v4.new_code_cell("print(1_234)", outputs=[
            nbformat.v4.new_output("stream", name="stdout", text="1,234 tokens\n")]),
        nbformat.v4.new_markdown_cell("## What we measured\n\nThe figures:\n- 1,234 tokens, 1,235 bytes"),
    ])
    assert unprinted_figures(executed) == ["1,235"]


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
