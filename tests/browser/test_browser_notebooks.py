"""Run the widget notebooks in a real JupyterLab in headless Chromium.

Plain widget tests (``test_widget_*``) check the HTML the Python side produces;
these tests check what a learner sees: that the widget views render in the
page (a broken front end still leaves the text behind), and that moving a
control re-renders the tokens.  See ``browser_lab.py`` for the server and
browser plumbing.
"""

from __future__ import annotations

import re

import pytest
from browser_lab import (
    PageLog,
    launch_chromium,
    open_notebook,
    output_with,
    run_all_cells,
    screenshot,
    scroll_to_top,
    unexpected_errors,
    wait_for_run_all,
    widget_problems,
)
from playwright.sync_api import expect

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser")]
# Seconds-scale limits for expect(): a loaded 2-core CI machine re-renders slowly.
# They bound a hang; nothing here measures speed.
expect.set_options(timeout=20_000)


# -- fixtures --------------------------------------------------------------


@pytest.fixture
def page(playwright, tmp_path):
    """A fresh Chromium profile and page per test; errors are collected."""
    context = launch_chromium(playwright, tmp_path / "chromium-profile")
    context.set_default_timeout(30_000)
    page = context.pages[0] if context.pages else context.new_page()
    log = PageLog(page)
    yield page
    try:
        screenshot(page, tmp_path / "final.png")  # the page as the test left it, pass or fail
    except Exception as err:  # noqa: BLE001 - a crashed page must not hide the test's own error
        print(f"no final screenshot: {err}")
    if log.errors:  # shown with -s; useful when a widget view fails in the front end
        print("browser console errors:\n  " + "\n  ".join(log.errors[:20]))
    context.close()


# -- tests -----------------------------------------------------------------

PLAYGROUND_NOTEBOOK = "00_why_tokenization.ipynb"
STEPPER_NOTEBOOK = "04_byte_level_bpe.ipynb"
NEW_TEXT = ("Byte pair encoding merges the most frequent pair, again and again: "
            "3221 + 2334 = 5555 🙂")


def run_in_lab(page, lab, name: str) -> None:
    """Open ``name``, wait for the idle kernel, Run All, wait for it to finish."""
    open_notebook(page, lab, name)  # waits for an idle kernel (it may turn busy again at once,
    run_all_cells(page)              # answering the widget manager: no second look here)
    state = wait_for_run_all(page)
    assert unexpected_errors(state) == [], f"{name} raised during Run All"


def coloured_tokens(output):
    """The coloured token boxes of a text (inside ``.bpe-tokens``), not the chips in tables."""
    return output.locator(".bpe-tokens .bpe-tok")


def test_browser_token_playground(lab, page, tmp_path):
    """00: the playground renders; typing new text re-tokenizes it in every column."""
    from bpe_workshop.files.offline import get_encoding

    run_in_lab(page, lab, PLAYGROUND_NOTEBOOK)

    playground = output_with(page, ".widget-textarea", ".bpe-tokens")
    missing = f"{PLAYGROUND_NOTEBOOK} shows no token playground (text area + tokens)"
    expect(playground, missing).to_have_count(1)
    assert widget_problems(page) == []
    expect(playground.locator(".widget-checkbox")).not_to_have_count(0)
    scroll_to_top(playground)
    screenshot(page, tmp_path / "playground-before.png")
    tokens_before = coloured_tokens(playground).count()
    assert tokens_before > 0

    area = playground.locator("textarea").first
    area.fill(NEW_TEXT)
    area.blur()  # also covers a text area with continuous_update=False (syncs on change)

    # Each column's count line must match the real encoding of the new text.
    n_bytes = len(NEW_TEXT.encode("utf-8"))
    for name in ("gpt2", "cl100k_base"):
        n_tokens = len(get_encoding(name).encode(NEW_TEXT))
        expect(playground).to_contain_text(f"{n_tokens} tokens · {n_bytes} bytes")
    expect(playground.locator(".bpe-tokens").first).to_contain_text("frequent")
    assert coloured_tokens(playground).count() != tokens_before
    scroll_to_top(playground)
    screenshot(page, tmp_path / "playground-after.png", element=playground)
    assert widget_problems(page) == []


STEP_SUMMARY = re.compile(r"step (\d+) of (\d+) merges.*?passage: ([\d,]+) tokens", re.S)


def stepper_state(stepper) -> tuple[int, int, int]:
    """(step, number of merges, passage tokens) as the stepper's summary line says."""
    match = STEP_SUMMARY.search(stepper.inner_text())
    assert match, f"no step summary in the merge stepper: {stepper.inner_text()[:300]!r}"
    step, total, tokens = match.groups()
    return int(step), int(total), int(tokens.replace(",", ""))


def test_browser_merge_stepper(lab, page, tmp_path):
    """04: the stepper renders; the slider moved by keyboard re-renders fewer tokens."""
    run_in_lab(page, lab, STEPPER_NOTEBOOK)

    stepper = output_with(page, ".widget-slider", ".bpe-tokens")
    expect(stepper, f"{STEPPER_NOTEBOOK} shows no merge stepper (slider + tokens)").to_have_count(1)
    assert widget_problems(page) == []
    expect(stepper.locator(".widget-play")).to_have_count(1)
    scroll_to_top(stepper)
    screenshot(page, tmp_path / "stepper-before.png", element=stepper)
    step, total, tokens_before = stepper_state(stepper)
    shown_before = coloured_tokens(stepper).count()
    moves = min(5, total - step)
    assert moves > 0, "the merge stepper starts at its last step; nothing to step through"

    handle = stepper.locator(".widget-slider .noUi-handle").first
    handle.focus()
    for _ in range(moves):
        handle.press("ArrowRight")
    expect(stepper.locator(".widget-readout").first).to_have_text(str(step + moves))
    expect(stepper).to_contain_text(f"step {step + moves} of {total} merges")

    _, _, tokens_after = stepper_state(stepper)
    assert tokens_after < tokens_before  # every merge joins at least one pair in the passage
    # subtle: the summary and the token view are separate HTML widgets, updated one
    # after the other, so wait for the token view too before comparing.
    expect(coloured_tokens(stepper)).not_to_have_count(shown_before)
    assert coloured_tokens(stepper).count() < shown_before
    scroll_to_top(stepper)
    screenshot(page, tmp_path / "stepper-after.png", element=stepper)

    # Play: the Play widget drives the slider through a front-end link (jslink), which
    # only a browser exercises. Let it advance at least two steps, then pause.
    readout = stepper.locator(".widget-readout").first
    at = step + moves
    play_pause = stepper.locator(".widget-play button").first
    play_pause.click()
    page.wait_for_function(
        "([el, at]) => parseInt(el.textContent, 10) >= at + 2",
        arg=[readout.element_handle(), at],
        timeout=60_000,
    )
    play_pause.click()
    expect(play_pause.locator("i.fa-play")).to_have_count(1)  # paused again
    paused_at = int(readout.inner_text())
    expect(stepper).to_contain_text(f"step {paused_at} of {total} merges")
    assert widget_problems(page) == []


LATTICE_NOTEBOOK = "09_other_families.ipynb"


def test_browser_lattice_explorer(lab, page, tmp_path):
    """09: the lattice renders with its best path; lowering a piece's score moves the path."""
    run_in_lab(page, lab, LATTICE_NOTEBOOK)

    explorer = output_with(page, ".widget-dropdown", ".bpe-lattice")
    expect(explorer, f"{LATTICE_NOTEBOOK} shows no lattice explorer").to_have_count(1)
    assert widget_problems(page) == []
    scroll_to_top(explorer)
    expect(explorer).to_contain_text("best path: ▁something =")
    screenshot(page, tmp_path / "lattice-before.png", element=explorer)

    explorer.locator(".widget-dropdown select").select_option("▁something")
    handle = explorer.locator(".widget-slider .noUi-handle").first
    handle.focus()
    handle.press("Home")  # the lowest log probability: the path goes round the piece
    expect(explorer).not_to_contain_text("best path: ▁something =")
    expect(explorer).to_contain_text("best path: ▁some")
    screenshot(page, tmp_path / "lattice-after.png", element=explorer)
    assert widget_problems(page) == []
