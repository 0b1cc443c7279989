"""Teach it live: the notebooks as RISE slides, and the widgets on a projector.

Two things plain tests cannot see:

* the slideshow: JupyterLab's RISE extension turns a notebook's slide metadata into reveal.js
  slides that run code on the notebook's kernel, so a widget can be stepped during the talk;
* the size: on a 1280x720 projector at 150% browser zoom every widget must fit the notebook's
  width, with no horizontal scrollbar.

The server and browser plumbing is in ``browser_lab.py`` (shared with
``test_browser_notebooks.py``).
"""

from __future__ import annotations

import re

import pytest
from browser_lab import (
    PRESENT_SLIDE,
    PageLog,
    launch_chromium,
    next_slide_until,
    open_notebook,
    present_slide_text,
    run_all_cells,
    screenshot,
    slide_count,
    start_slideshow,
    unexpected_errors,
    wait_for_run_all,
    widget_problems,
)
from playwright.sync_api import expect

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser")]

expect.set_options(timeout=20_000)  # bounds a hang on a loaded machine; not a speed check

# A 1280x720 screen at 150% zoom shows 853x480 CSS pixels, each drawn 1.5 device pixels wide.
PROJECTOR_VIEWPORT = (853, 480)
PROJECTOR_ZOOM = 1.5


def browser_page(playwright, tmp_path, **options):
    context = launch_chromium(playwright, tmp_path / "chromium-profile", **options)
    context.set_default_timeout(30_000)
    page = context.pages[0] if context.pages else context.new_page()
    return context, page


def run_in_lab(page, lab, name: str) -> None:
    open_notebook(page, lab, name)
    run_all_cells(page)
    state = wait_for_run_all(page)
    assert unexpected_errors(state) == [], f"{name} raised during Run All"


# -- the slideshow -----------------------------------------------------------

STEPPER_NOTEBOOK = "04_byte_level_bpe.ipynb"
STEPPER_SLIDE = "13. Watch it train"
STEP_SUMMARY = re.compile(r"step (\d+) of (\d+) merges")


def test_browser_slides_step_the_merge_stepper(lab, playwright, tmp_path):
    """Run 04 in JupyterLab, start RISE, advance, run the stepper cell on its slide, play it."""
    context, page = browser_page(playwright, tmp_path, viewport=(1280, 720))
    page_log = PageLog(page)
    try:
        run_in_lab(page, lab, STEPPER_NOTEBOOK)
        slides = start_slideshow(page)
        slides_log = PageLog(slides)

        # The title slide first, then the numbered sections in order.
        assert slide_count(slides) >= 8
        assert "04 — Byte-level BPE" in present_slide_text(slides)
        assert next_slide_until(slides, "1. Text as bytes", max_steps=1) == 1
        assert next_slide_until(slides, "2. Counting pairs", max_steps=1) == 1
        # skipped cells are not on any slide: the Colab set-up cell is gone
        assert "google.colab" not in slides.locator(".reveal .slides").inner_text()
        next_slide_until(slides, STEPPER_SLIDE)
        for _ in range(3):  # the stepper may sit on a subslide below its heading: go down to it
            if slides.locator(PRESENT_SLIDE).first.locator(".jp-CodeCell").count():
                break
            before = present_slide_text(slides)
            slides.keyboard.press("Space")
            slides.wait_for_function(
                "([sel, before]) => { const s = document.querySelector(sel);"
                " return s && s.innerText !== before; }", arg=[PRESENT_SLIDE, before])
        screenshot(slides, tmp_path / "slide-stepper-before-run.png")

        # Run the stepper's cell where it stands (Ctrl+Enter keeps the slide on screen).
        slide = slides.locator(PRESENT_SLIDE).first
        slide.locator(".jp-CodeCell .cm-content").first.click()
        slides.keyboard.press("Control+Enter")
        expect(slide.locator(".jp-OutputArea-output").first).to_be_visible()
        assert "MergeStepper(" not in slide.inner_text() and "VBox(" not in slide.inner_text(), (
            "the slideshow printed the widget's text instead of drawing it: the ipywidgets front "
            "end did not load in the RISE page (jupyterlab_widgets 3.0.11 and later need "
            "@jupyterlab/console, which jupyterlab-rise's page does not share; 3.0.10 works; "
            "upstream: jupyterlab-contrib/rise#119). Console: " + " | ".join(slides_log.errors[:3])
        )
        expect(slide.locator(".widget-slider")).to_have_count(1)
        expect(slide.locator(".bpe-tokens .bpe-tok").first).to_be_visible()
        summary = STEP_SUMMARY.search(slide.inner_text())
        assert summary, slide.inner_text()[:300]
        step, total = map(int, summary.groups())
        tokens_before = slide.locator(".bpe-tokens .bpe-tok").count()
        screenshot(slides, tmp_path / "slide-stepper-live.png")

        # Interact: Play steps the merges through the front-end link; pause after two or more.
        readout = slide.locator(".widget-readout").first
        play_pause = slide.locator(".widget-play button").first
        play_pause.click()
        slides.wait_for_function(
            "([el, at]) => parseInt(el.textContent, 10) >= at + 2",
            arg=[readout.element_handle(), step],
            timeout=60_000,
        )
        play_pause.click()
        paused_at = int(readout.inner_text())
        expect(slide).to_contain_text(f"step {paused_at} of {total} merges")
        expect(slide.locator(".bpe-tokens .bpe-tok")).not_to_have_count(tokens_before)
        assert slide.locator(".bpe-tokens .bpe-tok").count() < tokens_before
        screenshot(slides, tmp_path / "slide-stepper-after-play.png")
        assert widget_problems_in(slide) == []
    finally:
        if page_log.errors:
            print("lab console errors:\n  " + "\n  ".join(page_log.errors[:10]))
        context.close()


def widget_problems_in(slide) -> list[str]:
    text = slide.inner_text()
    problems = [p for p in ("Error displaying widget", "Loading widget...") if p in text]
    if slide.locator(".jupyter-widgets-error-widget").count():
        problems.append("a widget view failed (.jupyter-widgets-error-widget)")
    return problems


# -- projector size ------------------------------------------------------------

# Every notebook with a widget, each widget kind at least once.
WIDGET_NOTEBOOKS = [
    "00_why_tokenization.ipynb",  # token playground
    "01_unicode_and_utf8.ipynb",  # UTF-8 explorer
    "02_regex_splitting.ipynb",  # split explorer
    "03_bpe_by_hand.ipynb",  # Wikipedia stepper
    "04_byte_level_bpe.ipynb",  # merge stepper
    "05_word_level_bpe.ipynb",  # word table stepper
    "07_train_your_own.ipynb",  # training progress
]

# Per widget output: elements wider than their box, and boxes sticking out of the notebook.
_OVERFLOW_JS = """() => {
    const panel = document.querySelector('.jp-NotebookPanel:not(.lm-mod-hidden)');
    const scroller = panel.querySelector('.jp-WindowedPanel-outer');
    const right = scroller.getBoundingClientRect().right;
    const describe = el => `${el.className.toString().split(' ').slice(0, 3).join('.')}`
        + ` "${el.innerText.trim().slice(0, 40).replace(/\\s+/g, ' ')}"`;
    const problems = [];
    if (scroller.scrollWidth > scroller.clientWidth + 1) {
        problems.push(
            `the notebook scrolls sideways: ${scroller.scrollWidth} > ${scroller.clientWidth}`);
    }
    const outputs = [...panel.querySelectorAll('.jp-OutputArea-output')]
        .filter(out => out.querySelector('.jupyter-widgets'));
    for (const out of outputs) {
        for (const el of [out, ...out.querySelectorAll('*')]) {
            const style = getComputedStyle(el);
            const scrolls = ['auto', 'scroll'].includes(style.overflowX);
            const widget = el.matches('.widget-box, .jupyter-widgets');
            if ((scrolls || widget) && el.scrollWidth > el.clientWidth + 1 && el.clientWidth > 0) {
                problems.push(
                    `${describe(el)}: content ${el.scrollWidth}px in ${el.clientWidth}px`);
            }
            if (widget && el.getBoundingClientRect().right > right + 1) {
                const end = Math.round(el.getBoundingClientRect().right);
                problems.push(
                    `${describe(el)}: ends at ${end}px, the notebook at ${Math.round(right)}px`);
            }
        }
    }
    return {widgets: outputs.length, problems: [...new Set(problems)]};
}"""


@pytest.mark.parametrize("name", WIDGET_NOTEBOOKS, ids=lambda n: n[:2])
def test_browser_widgets_fit_a_projector_at_150_percent(lab, playwright, tmp_path, name):
    context, page = browser_page(
        playwright, tmp_path, viewport=PROJECTOR_VIEWPORT, scale=PROJECTOR_ZOOM
    )
    try:
        assert page.evaluate("() => [innerWidth, devicePixelRatio]") == [853, 1.5]
        run_in_lab(page, lab, name)
        assert widget_problems(page) == []
        found = page.evaluate(_OVERFLOW_JS)
        assert found["widgets"] > 0, f"{name}: no widget output found"
        widget = page.locator(".jp-OutputArea-output:has(.jupyter-widgets)").first
        widget.evaluate("el => el.scrollIntoView({block: 'start'})")
        screenshot(page, tmp_path / f"projector-{name[:2]}.png")
        assert found["problems"] == [], f"{name} at 1280x720, 150% zoom:\n" + "\n".join(
            found["problems"][:15]
        )
    finally:
        context.close()
