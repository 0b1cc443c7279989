"""Where the notebooks are, how tests read their code, and what a committed notebook must not
carry. The one home of ``NOTEBOOKS`` and of the notebook-code loader for every test."""

from __future__ import annotations

import ast
from pathlib import Path

import nbformat
from IPython.core.inputtransformer2 import TransformerManager

NOTEBOOKS = Path(__file__).resolve().parent.parent / "notebooks"


def all_notebooks() -> list[Path]:
    """Every notebook of the series and its solutions, in reading order."""
    return sorted(
        path
        for path in NOTEBOOKS.rglob("*.ipynb")
        if ".ipynb_checkpoints" not in path.parts
    )


def notebook_path(prefix: str, solutions: bool = False) -> Path:
    """The notebook whose name starts with ``prefix`` (e.g. ``"04"``), or its solutions.

    >>> notebook_path("04").name, notebook_path("04", solutions=True).name
    ('04_byte_level_bpe.ipynb', '04_byte_level_bpe_solutions.ipynb')
    """
    folder = NOTEBOOKS / "solutions" if solutions else NOTEBOOKS
    [path] = folder.glob(f"{prefix}_*.ipynb")
    return path


def definitions(path: Path, tag: str | None = None) -> dict:
    """name -> object for what a notebook's code cells define, without running the rest.

    Keeps the top-level ``def``s, imports, literals bound to ``my_*`` names (an exercise such
    as ``my_first_wrong_step = 3``) and UPPER_CASE constants (a table a solution uses) of every
    code cell (only cells tagged ``tag`` when given); IPython syntax such as ``%pip`` is
    allowed. Example lines and slow cells are left out.
    """
    keep = (ast.FunctionDef, ast.Import, ast.ImportFrom)
    transform = TransformerManager().transform_cell
    namespace: dict = {"__name__": "__notebook__"}
    for cell in nbformat.read(path, as_version=4).cells:
        if cell.cell_type != "code" or (tag and tag not in cell.metadata.get("tags", [])):
            continue
        tree = ast.parse(transform(cell.source))
        tree.body = [node for node in tree.body if isinstance(node, keep) or _assigns_literal(node)]
        exec(compile(tree, f"{path.name}", "exec"), namespace)  # noqa: S102
    return namespace


def _assigns_literal(node: ast.stmt) -> bool:
    """``my_answer = 3`` (a literal bound to an exercise) or ``TABLE = ...`` (a constant)."""
    if not isinstance(node, ast.Assign):
        return False
    names = [target.id for target in node.targets if isinstance(target, ast.Name)]
    bindable = all(n.startswith("my_") or n.isupper() for n in names)
    if len(names) != len(node.targets) or not bindable:
        return False
    if all(n.isupper() for n in names):
        return True  # a constant of the notebook, e.g. GPT2_REGEX = regex.compile(GPT2_PATTERN)
    try:
        ast.literal_eval(node.value)
    except ValueError:
        return False
    return True


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
