"""The package's import graph: no cycle, and the engine never imports the teaching layers.

Every ``import`` and ``from ... import`` in every module of ``bpe_workshop`` counts, including
those inside functions (an import moved into a function to dodge a cycle is still a cycle).
The engine is everything except ``render/``, ``widgets/``, ``exercises/`` and ``check.py``.
"""

import ast
from pathlib import Path

import bpe_workshop

PACKAGE = Path(bpe_workshop.__file__).parent
TEACHING = ("bpe_workshop.render", "bpe_workshop.widgets", "bpe_workshop.exercises",
            "bpe_workshop.check")


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_name(path): path for path in PACKAGE.rglob("*.py")}


def imports_of(name: str) -> set[str]:
    """The package's modules that module ``name`` imports, anywhere in its code."""
    path = MODULES[name]
    is_package = path.name == "__init__.py"
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:  # relative: climb from this module's package
                package = name.split(".") if is_package else name.split(".")[:-1]
                package = package[:len(package) - (node.level - 1)]
                base = ".".join(package + ([base] if base else []))
            # "from pkg import sub" imports the submodule pkg.sub when there is one
            targets = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in MODULES else base
                       for alias in node.names]
        else:
            continue
        for target in targets:
            # "import a.b.c" names a.b.c; keep the longest prefix that is one of our modules
            while target and target not in MODULES:
                target = target.rpartition(".")[0]
            if target and target != name:
                found.add(target)
    return found


GRAPH = {name: imports_of(name) for name in MODULES}


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One cycle as a list of modules (first repeated at the end), or None."""
    state = {}  # module -> "open" while on the current path, "done" once fully explored
    path = []

    def visit(node):
        state[node] = "open"
        path.append(node)
        for nxt in sorted(graph[node]):
            if state.get(nxt) == "open":
                return path[path.index(nxt):] + [nxt]
            if nxt not in state and (cycle := visit(nxt)):
                return cycle
        path.pop()
        state[node] = "done"
        return None

    for node in sorted(graph):
        if node not in state and (cycle := visit(node)):
            return cycle
    return None


def test_the_graph_is_read_from_real_imports():
    assert "bpe_workshop.tokenizers.byte_level" in GRAPH["bpe_workshop"]
    assert "bpe_workshop.algorithm.encode_fast" in GRAPH["bpe_workshop.tokenizers.byte_level"]
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": set()}) is None


def test_no_import_cycle_in_the_package():
    cycle = find_cycle(GRAPH)
    assert cycle is None, f"import cycle: {' -> '.join(cycle)}"


def test_the_engine_never_imports_render_widgets_or_exercises():
    engine = [name for name in GRAPH if not name.startswith(TEACHING)]
    assert "bpe_workshop.tokenizers.byte_level" in engine
    assert "bpe_workshop.files.model_file" in engine
    wrong = {name: sorted(t for t in GRAPH[name] if t.startswith(TEACHING)) for name in engine}
    assert not {name: targets for name, targets in wrong.items() if targets}
