"""Reading and exercise times of every notebook, counted from the files by one stated rule.

Nothing is timed here: the instructor's guide quotes this table, so anyone can recompute it after
an edit. The rule, in full:

- **reading**: the words of the markdown cells (a word is a run of letters or digits; cells whose
  slide type is ``notes``, the speaker notes, are left out) at 150 words a minute, plus the
  non-blank lines of the code cells at 10 lines a minute (reading code, not typing it), all but
  the first code cell (the set-up cell, which installs on Colab and is not read);
- **exercises**: for each exercise, the non-blank lines of its worked answer (each cell of the
  solutions notebook that defines a ``my_...`` function) at 1 line a minute, plus 2 minutes to
  run its checker and read the verdict;
- **on your own**: reading plus exercises, each rounded up to a whole minute.

    python benchmarks/reading_times.py          # every notebook in notebooks/, in name order
"""

from __future__ import annotations

import json
import math
import re
import sys
from pathlib import Path

NOTEBOOKS = Path(__file__).resolve().parents[1] / "notebooks"
WORDS_PER_MINUTE = 150
CODE_LINES_PER_MINUTE = 10
ANSWER_LINES_PER_MINUTE = 1
MINUTES_PER_CHECK = 2


def cells(path: Path) -> list[dict]:
    return json.loads(path.read_text(encoding="utf-8"))["cells"]


def source(cell: dict) -> str:
    return "".join(cell["source"])


def non_blank_lines(text: str) -> int:
    """
    >>> non_blank_lines("a = 1\\n\\n  \\nb = 2\\n")
    2
    """
    return sum(1 for line in text.splitlines() if line.strip())


def words(text: str) -> int:
    """Runs of letters or digits: ``e.g.`` is two words, ```merge`` one, a table rule none.

    >>> words("| step | pair |\\n|---|---|\\nThe `merge` of e.g. 3 pairs.")
    9
    """
    return len(re.findall(r"[^\W_]+", text))


def reading(path: Path) -> tuple[int, int]:
    """(markdown words without the speaker notes, non-blank code lines after the set-up cell)."""
    markdown = [source(c) for c in cells(path) if c["cell_type"] == "markdown"
                and c.get("metadata", {}).get("slideshow", {}).get("slide_type") != "notes"]
    code = [source(c) for c in cells(path) if c["cell_type"] == "code"][1:]
    return sum(map(words, markdown)), sum(map(non_blank_lines, code))


def answers(path: Path) -> list[int]:
    """The non-blank lines of each worked answer (a ``def my_...`` cell) in a solutions notebook."""
    return [non_blank_lines(source(c)) for c in cells(path)
            if c["cell_type"] == "code" and re.search(r"^def my_\w+\(", source(c), re.MULTILINE)]


def row(path: Path) -> dict:
    """The counts and the minutes of one notebook."""
    solutions = NOTEBOOKS / "solutions" / f"{path.stem}_solutions.ipynb"
    word_count, code_lines = reading(path)
    answer_lines = answers(solutions) if solutions.exists() else []
    read = math.ceil(word_count / WORDS_PER_MINUTE + code_lines / CODE_LINES_PER_MINUTE)
    exercise = math.ceil(sum(answer_lines) / ANSWER_LINES_PER_MINUTE
                         + MINUTES_PER_CHECK * len(answer_lines))
    return {"notebook": path.stem[:2], "words": word_count, "code lines": code_lines,
            "reading": read, "exercises": len(answer_lines), "answer lines": sum(answer_lines),
            "exercise time": exercise, "on your own": read + exercise}


def table(rows: list[dict]) -> str:
    """A markdown table, as the guide shows it."""
    head = ["notebook", "words", "code lines", "reading", "exercises", "answer lines",
            "exercise time", "on your own"]
    minutes = {"reading", "exercise time", "on your own"}
    lines = ["| " + " | ".join(head) + " |", "| --- |" + " ---: |" * (len(head) - 1)]
    for r in rows:
        lines.append("| " + " | ".join(f"{r[h]} min" if h in minutes else f"{r[h]:,}"
                                       if isinstance(r[h], int) else r[h] for h in head) + " |")
    return "\n".join(lines)


def main() -> int:
    paths = sorted(NOTEBOOKS.glob("[0-9][0-9]_*.ipynb"))
    if not paths:
        print(f"no notebooks found in {NOTEBOOKS}", file=sys.stderr)
        return 1
    print(table([row(path) for path in paths]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
