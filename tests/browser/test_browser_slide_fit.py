"""Every screen of every notebook fits a 1280x720 projector (RISE, after Run All).

The test walks each notebook's slideshow screen by screen with the space bar, as a presenter
does, and measures how tall each screen's content is against the window: at least 90% of a
notebook's screens must fit without scrolling, and none may be taller than 1.5 screens. It
prints the table per notebook. The slide rules that get there are in the instructor's guide
("Slides"): long explanations are speaker notes or subslides of their own, code and its output
stay on one screen, folded solution cells are skipped.
"""

from __future__ import annotations

import pytest
from browser_lab import (
    PRESENT_SLIDE,
    launch_chromium,
    open_notebook,
    run_all_cells,
    start_slideshow,
    unexpected_errors,
    wait_for_run_all,
)
from notebook_files import NOTEBOOKS

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser")]

SERIES = sorted(path.name for path in NOTEBOOKS.glob("[0-9][0-9]_*.ipynb"))
FITS, TALLEST = 0.9, 1.5

_SCREEN_JS = f"""() => {{
    const screens = [...document.querySelectorAll('.reveal .slides section:not(.stack)')];
    const slide = document.querySelector('{PRESENT_SLIDE}');
    return [screens.indexOf(slide), screens.length, slide.scrollHeight, window.innerHeight];
}}"""


def screen_heights(slides) -> list[float]:
    """Each screen's content height in window heights, walking with the space bar."""
    heights = []
    while True:
        index, total, content, window = slides.evaluate(_SCREEN_JS)
        assert index == len(heights), f"the walk skipped from screen {len(heights)} to {index}"
        heights.append(content / window)
        if index == total - 1:
            return heights
        slides.keyboard.press("Space")
        slides.wait_for_function(f"() => ({_SCREEN_JS})()[0] === {index + 1}", timeout=10_000)


@pytest.mark.parametrize("name", SERIES)
def test_every_screen_fits_a_projector(lab, playwright, tmp_path, name):
    context = launch_chromium(playwright, tmp_path / "profile", viewport=(1280, 720))
    context.set_default_timeout(30_000)
    page = context.pages[0] if context.pages else context.new_page()
    try:
        open_notebook(page, lab, name)
        run_all_cells(page)
        assert unexpected_errors(wait_for_run_all(page)) == [], f"{name} raised during Run All"
        heights = screen_heights(start_slideshow(page))
    finally:
        context.close()
    fitting = sum(h <= 1.0 for h in heights)
    print(f"\n{name}: {fitting}/{len(heights)} screens fit ({fitting / len(heights):.0%}), "
          f"tallest {max(heights):.2f} screens; heights: "
          + " ".join(f"{h:.2f}" for h in heights))
    assert fitting >= FITS * len(heights), f"{name}: only {fitting}/{len(heights)} screens fit"
    assert max(heights) <= TALLEST, f"{name}: a screen is {max(heights):.2f} screens tall"
