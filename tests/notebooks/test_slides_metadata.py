"""Every notebook is also a RISE slideshow: its cells carry slideshow metadata.

The slide view and the self-study view are the same file, so these checks keep the tags honest
as the notebooks change: enough slides, the set-up and checker cells hidden from the slides,
speaker notes present, and no tag RISE does not know.
"""

from __future__ import annotations

import re
from pathlib import Path

import nbformat
import pytest
from notebook_files import NOTEBOOKS

# the series itself (solutions notebooks are for reading, not presenting)
SERIES = sorted(NOTEBOOKS.glob("[0-9][0-9]_*.ipynb"))
SLIDE_TYPES = {"slide", "subslide", "fragment", "skip", "notes", "-"}
CHECKER = re.compile(r"check_\w+\(\w+\)")


def slide_type(cell) -> str | None:
    return cell.metadata.get("slideshow", {}).get("slide_type")


def read(path: Path):
    return nbformat.read(path, as_version=4)


def test_there_are_notebooks_to_present():
    assert len(SERIES) >= 8


@pytest.mark.parametrize("path", SERIES, ids=lambda p: p.stem)
def test_slide_types_are_ones_rise_knows(path):
    # A cell without a tag continues the slide above it, as "-" does.
    cells = read(path).cells
    unknown = [(i, slide_type(c)) for i, c in enumerate(cells) if slide_type(c) not in SLIDE_TYPES]
    assert [u for u in unknown if u[1] is not None] == [], f"{path.name}: unknown slide types"
    tagged = sum(slide_type(c) is not None for c in cells)
    assert tagged >= len(cells) // 2, f"{path.name}: most cells carry no slide metadata"


@pytest.mark.parametrize("path", SERIES, ids=lambda p: p.stem)
def test_at_least_eight_slides_starting_with_the_title(path):
    cells = read(path).cells
    assert slide_type(cells[0]) == "slide" and cells[0].source.startswith("# ")
    slides = [c for c in cells if slide_type(c) == "slide"]  # subslides come on top
    assert len(slides) >= 8, f"{path.name} has {len(slides)} slides"
    # every numbered section opens a slide of its own
    for cell in cells:
        if cell.cell_type == "markdown" and re.match(r"## \d+\.", cell.source):
            assert slide_type(cell) == "slide", cell.source.splitlines()[0]


@pytest.mark.parametrize("path", SERIES, ids=lambda p: p.stem)
def test_set_up_and_checker_cells_are_skipped(path):
    cells = read(path).cells
    set_up = [c for c in cells if c.cell_type == "code" and c.source.startswith("# Setup.")]
    assert len(set_up) == 1, f"{path.name}: expected one Colab set-up cell"
    assert slide_type(set_up[0]) == "skip"
    checkers = [c for c in cells if c.cell_type == "code" and CHECKER.fullmatch(c.source.strip())]
    assert checkers, f"{path.name} has no checker cells"
    shown = [c.source.strip() for c in checkers if slide_type(c) != "skip"]
    assert shown == [], f"{path.name}: checker cells shown on the slides: {shown}"


@pytest.mark.parametrize("path", SERIES, ids=lambda p: p.stem)
def test_folded_cells_are_not_on_the_slides(path):
    # a folded cell would show on a slide as one giant line (the guide's slide rules)
    folded = [c.source[:40] for c in read(path).cells
              if c.metadata.get("jupyter", {}).get("source_hidden") and slide_type(c) != "skip"]
    assert folded == [], f"{path.name}: folded cells shown on the slides: {folded}"


@pytest.mark.parametrize("path", SERIES, ids=lambda p: p.stem)
def test_speaker_notes_are_markdown(path):
    notes = [c for c in read(path).cells if slide_type(c) == "notes"]
    assert len(notes) >= 2, f"{path.name} has {len(notes)} speaker-notes cells"
    assert all(c.cell_type == "markdown" and c.source.strip() for c in notes)
