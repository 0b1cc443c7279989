"""Run the widget notebooks in a real JupyterLab in headless Chromium.

Plain widget tests (``test_widget_*``) check the HTML the Python side produces;
these tests check what a learner sees: that the widget views render in the
page (a broken front end still leaves the text behind), and that moving a
control re-renders the tokens.  See ``browser_lab.py`` for the server and
browser plumbing.
"""

from __future__ import annotations

import re
from pathlib import Path

import nbformat
import pytest
from playwright.sync_api import expect

from browser_lab import (
    LabServer,
    PageLog,
    copy_notebooks,
    kernel_status_text,
    launch_chromium,
    open_notebook,
    output_with,
    require_chromium,
    run_all_cells,
    screenshot,
    unexpected_errors,
    wait_for_run_all,
    widget_problems,
)

pytestmark = pytest.mark.browser

NOTEBOOKS = Path(__file__).resolve().parent.parent / "notebooks"
SCRATCH = "_browser_scratch.ipynb"


def scratch_notebook() -> nbformat.NotebookNode:
    """A tiny notebook with a slider and a text area driving HTML token spans.

    It checks the harness itself (server, widget manager, Run All, input
    events) independently of the workshop notebooks.
    """
    cells = [
        "import ipywidgets as widgets\nfrom IPython.display import display",
        (
            "slider = widgets.IntSlider(value=0, min=0, max=8, description='step')\n"
            "tokens = widgets.HTML()\n"
            "def show(_=None):\n"
            "    tokens.value = ''.join(f'<span class=\"scratch-token\">{i}</span>' for i in range(slider.value + 1))\n"
            "slider.observe(show, 'value')\n"
            "show()\n"
            "box = widgets.VBox([slider, tokens])\n"
            "box.add_class('scratch-stepper')\n"
            "display(box)"
        ),
        (
            "text = widgets.Textarea(value='hello world')\n"
            "words = widgets.HTML()\n"
            "def split(_=None):\n"
            "    words.value = ''.join(f'<span class=\"scratch-token\">{w}</span>' for w in text.value.split())\n"
            "text.observe(split, 'value')\n"
            "split()\n"
            "box2 = widgets.VBox([text, words])\n"
            "box2.add_class('scratch-playground')\n"
            "display(box2)"
        ),
    ]
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell(src) for src in cells]
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3 (ipykernel)", "language": "python"}
    return nb


# -- fixtures --------------------------------------------------------------


@pytest.fixture(scope="module")
def lab(tmp_path_factory):
    """JupyterLab on a copy of notebooks/ (plus the scratch notebook)."""
    require_chromium()
    base = tmp_path_factory.mktemp("lab")
    root = copy_notebooks(NOTEBOOKS, base / "notebooks")
    nbformat.write(scratch_notebook(), root / SCRATCH)
    server = LabServer(root, base / "state").start()
    print(f"\njupyter lab: {server.base_url} (log {server.log_path})")
    yield server
    server.stop()


@pytest.fixture(scope="module")
def playwright():
    require_chromium()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        yield pw


@pytest.fixture
def page(playwright, tmp_path):
    """A fresh Chromium profile and page per test; errors are collected."""
    context = launch_chromium(playwright, tmp_path / "chromium-profile")
    context.set_default_timeout(30_000)
    page = context.pages[0] if context.pages else context.new_page()
    log = PageLog(page)
    yield page
    if log.errors:  # shown with -s; useful when a widget view fails in the front end
        print("browser console errors:\n  " + "\n  ".join(log.errors[:20]))
    context.close()


# -- tests -----------------------------------------------------------------


def run_in_lab(page, lab, name: str) -> None:
    """Open ``name``, wait for the idle kernel, Run All, wait for it to finish."""
    open_notebook(page, lab, name)
    assert kernel_status_text(page).endswith("| Idle")
    run_all_cells(page)
    state = wait_for_run_all(page)
    assert unexpected_errors(state) == [], f"{name} raised during Run All"


def test_browser_scratch_widgets_render_and_react(lab, page, tmp_path):
    run_in_lab(page, lab, SCRATCH)

    stepper = output_with(page, ".widget-slider", ".scratch-token")
    expect(stepper).to_have_count(1)
    assert widget_problems(page) == []
    expect(stepper.locator(".scratch-token")).to_have_count(1)
    screenshot(page, tmp_path / "scratch-before.png")

    handle = stepper.locator(".noUi-handle")
    handle.focus()
    for _ in range(3):
        handle.press("ArrowRight")
    expect(stepper.locator(".widget-readout")).to_have_text("3")
    expect(stepper.locator(".scratch-token")).to_have_count(4)

    playground = output_with(page, ".widget-textarea", ".scratch-token")
    playground.locator("textarea").fill("one two three four five")
    expect(playground.locator(".scratch-token")).to_have_count(5)
    screenshot(page, tmp_path / "scratch-after.png")
    assert widget_problems(page) == []


# -- the workshop notebooks ------------------------------------------------

PLAYGROUND_NOTEBOOK = "00_why_tokenization.ipynb"
STEPPER_NOTEBOOK = "04_byte_level_bpe.ipynb"
NEW_TEXT = "Byte pair encoding merges the most frequent pair, again and again: 3221 + 2334 = 5555 🙂"


def tokens_text(output) -> str:
    """The coloured tokens as the page shows them (whitespace markers included)."""
    return " ".join(output.locator(".bpe-tokens").all_inner_texts())


def test_browser_token_playground(lab, page, tmp_path):
    run_in_lab(page, lab, PLAYGROUND_NOTEBOOK)

    playground = output_with(page, ".widget-textarea", ".bpe-tok")
    expect(playground, "notebook 00 shows no token playground (text area + coloured tokens)").to_have_count(1)
    assert widget_problems(page) == []
    playground.scroll_into_view_if_needed()
    screenshot(page, tmp_path / "playground-before.png")
    tokens_before = playground.locator(".bpe-tok").count()
    text_before = tokens_text(playground)

    area = playground.locator("textarea").first
    area.fill(NEW_TEXT)
    area.blur()  # a text area with continuous_update=False syncs on change

    expect(playground.locator(".bpe-tokens").first).to_contain_text("frequent")
    assert playground.locator(".bpe-tok").count() != tokens_before
    assert tokens_text(playground) != text_before
    screenshot(page, tmp_path / "playground-after.png")
    screenshot(playground, tmp_path / "playground-widget.png")
    assert widget_problems(page) == []


def test_browser_merge_stepper(lab, page, tmp_path):
    run_in_lab(page, lab, STEPPER_NOTEBOOK)

    stepper = output_with(page, ".widget-slider", ".bpe-tok")
    expect(stepper, "notebook 04 shows no merge stepper (slider + coloured tokens)").to_have_count(1)
    assert widget_problems(page) == []
    stepper.scroll_into_view_if_needed()
    screenshot(page, tmp_path / "stepper-before.png")
    first_tokens = stepper.locator(".bpe-tokens").first
    tokens_before = first_tokens.inner_text()
    summary_before = stepper.inner_text()

    handle = stepper.locator(".widget-slider .noUi-handle").first
    step = int(handle.get_attribute("aria-valuenow").split(".")[0])
    top = int(handle.get_attribute("aria-valuemax").split(".")[0])
    handle.focus()
    key, moves = ("ArrowRight", min(5, top - step)) if step < top else ("ArrowLeft", min(5, step))
    assert moves > 0, "the merge stepper's slider has a single position"
    for _ in range(moves):
        handle.press(key)
    new_step = step + moves if key == "ArrowRight" else step - moves
    expect(stepper.locator(".widget-readout").first).to_have_text(str(new_step))

    expect(first_tokens).not_to_have_text(tokens_before)
    assert stepper.inner_text() != summary_before
    screenshot(page, tmp_path / "stepper-after.png")
    screenshot(stepper, tmp_path / "stepper-widget.png")
    assert widget_problems(page) == []
