"""The guide's reading and exercise times are the ones ``benchmarks/reading_times.py`` counts.

An edit to a notebook's prose or to a worked answer changes the count; the guide must then be
given the script's new table (run it and paste), so the times it quotes never drift from the rule.
"""
import importlib.util
import json
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def load_script():
    spec = importlib.util.spec_from_file_location("reading_times",
                                                  ROOT / "benchmarks" / "reading_times.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_guides_times_table_is_the_scripts_count():
    script = load_script()
    paths = sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))
    rows = [script.row(path) for path in paths]
    assert [r["notebook"] for r in rows] == [path.name[:2] for path in paths]
    guide = (ROOT / "docs" / "instructor-guide.md").read_text(encoding="utf-8")
    quoted = "\n".join(line.strip() for line in guide.splitlines())
    assert script.table(rows) in quoted, (
        "the guide's times table is not the count: run python benchmarks/reading_times.py "
        "and paste its table into docs/instructor-guide.md")


def test_the_count_follows_the_rule_on_a_small_notebook(tmp_path):
    script = load_script()
    markdown = {"cell_type": "markdown", "metadata": {}, "source": ["word " * 300]}
    setup = {"cell_type": "code", "metadata": {}, "source": ["import this\n"]}
    code = {"cell_type": "code", "metadata": {}, "source": ["x = 1\n\ny = 2\n"]}
    notes = {"cell_type": "markdown", "metadata": {"slideshow": {"slide_type": "notes"}},
             "source": ["speaker " * 900]}
    path = tmp_path / "99_small.ipynb"
    path.write_text(json.dumps({"cells": [markdown, setup, code, notes]}))
    row = script.row(path)
    # 300 words / 150 + 2 code lines / 10 = 2.2, rounded up; notes and the set-up cell not read
    assert (row["words"], row["code lines"], row["reading"]) == (300, 2, 3)
    assert row["exercises"] == 0 and row["on your own"] == 3
