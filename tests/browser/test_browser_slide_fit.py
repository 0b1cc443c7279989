"""Every screen of every notebook fits a 1280x720 projector (RISE, after Run All).

The test walks each notebook's slideshow screen by screen with the space bar, as a presenter
does, and measures each screen once reveal.js has finished sliding it in:

* height: how tall the screen's content is against the window. At least 92% of a notebook's
  screens must fit without scrolling, and none may be taller than 1.5 screens;
* width: where each piece of text actually ends (the client rectangles of every text node),
  against the window less the slide's scroll bar. Text inside a box that scrolls sideways (a
  code cell) ends where its box ends. No text may end past the right edge.

The walk is made twice, at 1280x720 and at 150% zoom (853x480 CSS pixels drawn at 1.5 device
pixels each, as in ``test_browser_slides.py``); at 150% only the width is held, since every
screen is taller there. Chromium draws its scroll bars here, as on the presenter's laptop.
The test prints a table per notebook. The slide rules that get there are in the instructor's
guide ("The slide rules"): long explanations are speaker notes or subslides of their own, code
and its output stay on one screen, folded solution cells are skipped.
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
FITS, TALLEST = 0.92, 1.5
PROJECTOR = (1280, 720)
ZOOM, ZOOMED = 1.5, (853, 480)  # 1280x720 at 150% zoom, in CSS pixels

_SCREENS = "[...document.querySelectorAll('.reveal .slides section:not(.stack)')]"

# The screen on display once it stands still: reveal.js moves a new slide in with a CSS
# transition on the slide and its stack, and text measured meanwhile is off by the distance
# still to go.
_SETTLED_JS = f"""(index) => {{
    const slide = document.querySelector('{PRESENT_SLIDE}');
    return {_SCREENS}.indexOf(slide) === index
        && [slide, slide.parentElement].every(el => el.getAnimations().length === 0);
}}"""

# The slides have followed a change of the window's width.
_LAID_OUT_JS = """(width) => window.innerWidth === width
    && document.querySelector('.reveal .slides').getBoundingClientRect().width <= width"""

# [index, screens, content height / window height, px of text past the right edge, that text]
_SCREEN_JS = f"""() => {{
    const slide = document.querySelector('{PRESENT_SLIDE}');
    const clips = el => getComputedStyle(el).overflowX !== 'visible';
    const inner = el => el.getBoundingClientRect().left + el.clientLeft + el.clientWidth;
    let edge = window.innerWidth;  // less the scroll bar of the slide or a box around it
    for (let el = slide; el; el = el.parentElement) {{
        if (clips(el)) {{ edge = Math.min(edge, inner(el)); }}
    }}
    let past = 0, text = '';
    const range = document.createRange();
    const walker = document.createTreeWalker(slide, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {{
        if (!node.data.trim() || getComputedStyle(node.parentElement).visibility !== 'visible') {{
            continue;
        }}
        let box = Infinity;  // text in a box of its own ends where the box does
        for (let el = node.parentElement; el !== slide; el = el.parentElement) {{
            if (clips(el)) {{ box = Math.min(box, inner(el)); }}
        }}
        range.selectNodeContents(node);
        for (const rect of range.getClientRects()) {{
            const end = Math.min(rect.right, box);
            if (rect.width > 0 && end - edge > past) {{
                past = end - edge;
                text = node.data.trim().slice(0, 60);
            }}
        }}
    }}
    return [{_SCREENS}.indexOf(slide), {_SCREENS}.length,
            slide.scrollHeight / window.innerHeight, past, text];
}}"""


def walk(slides) -> list[tuple[float, float, str]]:
    """(height in windows, px of text past the right edge, that text) per screen, in order.

    Starts on the first screen (reveal.js follows the page address) and moves on with the
    space bar, as a presenter does.
    """
    slides.evaluate("() => { location.hash = '#/0'; }")
    screens = []
    while True:
        slides.wait_for_function(_SETTLED_JS, arg=len(screens), timeout=10_000)
        index, total, height, past, text = slides.evaluate(_SCREEN_JS)
        screens.append((height, past if past > 0.5 else 0.0, text))
        if index == total - 1:
            return screens
        slides.keyboard.press("Space")


def cut(screens) -> list[str]:
    """The screens (numbered from 1) whose text ends past the right edge, with that text."""
    return [f"screen {i}: {text!r} {past:.0f} px past"
            for i, (_, past, text) in enumerate(screens, 1) if past]


def row(size: str, screens) -> str:
    """One line of the table: screens, how many fit in height, how many have text cut."""
    fitting = sum(height <= 1.0 for height, _, _ in screens)
    return (f"  {size:9}  {len(screens):7}  {fitting:6} ({fitting / len(screens):4.0%})"
            f"  {len(cut(screens)):7}\n")


@pytest.mark.parametrize("name", SERIES)
def test_every_screen_fits_a_projector(lab, playwright, tmp_path, name):
    # Drawn at 1.5 device pixels per CSS pixel throughout: 1280x720 CSS pixels lay out as on a
    # 1280x720 projector, and 853x480 are that projector at 150% zoom.
    context = launch_chromium(playwright, tmp_path / "profile", viewport=PROJECTOR, scale=ZOOM,
                              scrollbars=True)
    context.set_default_timeout(30_000)
    page = context.pages[0] if context.pages else context.new_page()
    try:
        open_notebook(page, lab, name)
        run_all_cells(page)
        assert unexpected_errors(wait_for_run_all(page)) == [], f"{name} raised during Run All"
        slides = start_slideshow(page)
        at_projector = walk(slides)
        slides.set_viewport_size({"width": ZOOMED[0], "height": ZOOMED[1]})
        slides.wait_for_function(_LAID_OUT_JS, arg=ZOOMED[0])
        zoomed = walk(slides)
    finally:
        context.close()
    heights = [height for height, _, _ in at_projector]
    fitting = sum(h <= 1.0 for h in heights)
    print(f"\n{name}       screens  fit in height  text past the right edge\n"
          + row("1280x720", at_projector) + row("150% zoom", zoomed)
          + f"  tallest {max(heights):.2f} screens; heights: "
          + " ".join(f"{h:.2f}" for h in heights))
    assert cut(at_projector) == [], f"{name} at 1280x720: text past the right edge"
    assert cut(zoomed) == [], f"{name} at 150% zoom: text past the right edge"
    assert fitting >= FITS * len(heights), f"{name}: only {fitting}/{len(heights)} screens fit"
    assert max(heights) <= TALLEST, f"{name}: a screen is {max(heights):.2f} screens tall"
