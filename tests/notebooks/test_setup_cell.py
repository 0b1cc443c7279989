"""The first code cell of every notebook: it installs the course on Colab, and anywhere else
without the course it stops the notebook with the line to run (one message, not an
ModuleNotFoundError followed by a NameError in every later cell).

Each case runs the cell from notebook 00 (the same cell is in every notebook: see
test_notebook_hygiene) in a real kernel. A first cell stands in for the situation: an import
hook that makes ``bpe_workshop`` not importable, a ``google.colab`` module, and a recording
``subprocess.run`` in place of pip, so nothing is installed and no network is used.
"""

import json
import tomllib
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient
from notebook_files import NOTEBOOKS

ROOT = Path(__file__).resolve().parents[2]
REPOSITORY = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["urls"]["Repository"]
SETUP = next(cell.source for cell in nbformat.read(NOTEBOOKS / "00_why_tokenization.ipynb",
                                                    as_version=4).cells
             if cell.cell_type == "code")
pytestmark = pytest.mark.notebook

NO_COURSE = '''\
import sys

class NoCourse:  # as if bpe_workshop had never been installed
    def find_spec(self, name, path=None, target=None):
        if name.partition(".")[0] == "bpe_workshop":
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)

sys.meta_path.insert(0, NoCourse())
'''

ON_COLAB_WITHOUT_THE_INDEX = '''\
import subprocess, sys, types

sys.modules["google.colab"] = types.ModuleType("google.colab")
pip_calls = []

def fake_run(command, **kwargs):  # pip: the index has no bpe-workshop, everything else works
    pip_calls.append(command[-1])
    return subprocess.CompletedProcess(command, 1 if command[-1] == "bpe-workshop" else 0)

subprocess.run = fake_run
'''


def run(tmp_path, *sources, allow_errors=False):
    """Execute code cells ``sources`` in a fresh python3 kernel; the executed notebook."""
    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(s) for s in sources])
    client = NotebookClient(notebook, timeout=120, kernel_name="python3",
                            allow_errors=allow_errors,
                            resources={"metadata": {"path": str(tmp_path)}})
    try:
        client.execute()
    except Exception as err:  # nbclient's CellExecutionError: the notebook stopped at a cell
        notebook.metadata["stopped"] = type(err).__name__
    return notebook


def test_the_cell_installs_from_the_address_in_pyproject():
    assert f'REPOSITORY = "{REPOSITORY}"' in SETUP


def test_with_the_course_installed_the_cell_shows_nothing(tmp_path):
    ran = run(tmp_path, SETUP)
    assert ran.cells[0].outputs == []


def test_without_the_course_the_notebook_stops_at_the_cell_with_the_line_to_run(tmp_path):
    ran = run(tmp_path, NO_COURSE, SETUP, "print('a later cell ran')")
    assert ran.metadata["stopped"] == "CellExecutionError"
    (error,) = ran.cells[1].outputs
    assert error.output_type == "error" and error.ename == "SetUpFirst"
    shown = "\n".join(error.traceback)  # the message alone: no traceback lines
    assert f'%pip install "git+{REPOSITORY}"' in shown and "restart the kernel" in shown
    assert "Traceback" not in shown and "File " not in shown
    assert ran.cells[2].outputs == []  # Run All stopped there


def test_on_colab_without_the_course_on_the_index_it_says_so_and_uses_the_repository(tmp_path):
    ran = run(tmp_path, NO_COURSE, ON_COLAB_WITHOUT_THE_INDEX, SETUP,
              "import json; print(json.dumps(pip_calls))", allow_errors=True)
    printed = "".join(o.get("text", "") for o in ran.cells[2].outputs if o.output_type == "stream")
    assert printed == ("The package index does not have bpe-workshop yet: installing it from "
                       f"{REPOSITORY}\n")
    calls = json.loads(ran.cells[3].outputs[0].text)
    assert calls == ["bpe-workshop", f"git+{REPOSITORY}"]
