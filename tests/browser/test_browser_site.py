"""The reading copy in headless Chromium, served from 127.0.0.1 with every other host blocked.

``bpe-workshop site`` builds the whole site once for this module (every notebook executed); a
plain HTTP server in this process serves it. Every request to another host is aborted and
recorded, so "no request outside the site" is checked on every page, with the console's errors.
The stepper of notebook 04 is stepped with no kernel anywhere: the frames were made at build.
"""

from __future__ import annotations

import functools
import http.server
import re
import threading
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from browser_lab import PageLog, launch_chromium, screenshot
from playwright.sync_api import expect

from bpe_workshop import GPT4_PATTERN, ByteLevelBPE
from bpe_workshop.course.site import build_site, repository
from bpe_workshop.files.corpora import load_english
from bpe_workshop.render.tables import token_chip

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser")]
expect.set_options(timeout=20_000)  # bounds a hang on a busy machine; measures nothing

STEPPER_PAGE = "notebooks/04_byte_level_bpe.html"
REPOSITORY = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def site(tmp_path_factory, playwright):
    """The whole site, built once, served on 127.0.0.1 (a free port); its folder and address."""
    root = build_site(tmp_path_factory.mktemp("site") / "site")
    handler = functools.partial(QuietHandler, directory=str(root))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield root, f"http://127.0.0.1:{server.server_address[1]}/"
    server.shutdown()
    server.server_close()
    thread.join()


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format, *args):  # noqa: A002 - the base class's name
        pass


@pytest.fixture
def browser(playwright, tmp_path, site):
    """A fresh Chromium page that may reach only the site; ``outside`` lists what was blocked."""
    context = launch_chromium(playwright, tmp_path / "profile")
    context.set_default_timeout(30_000)
    page = context.pages[0] if context.pages else context.new_page()
    page.outside = []
    own_host = urlsplit(site[1]).netloc

    def only_the_site(route):
        if urlsplit(route.request.url).netloc == own_host:
            route.continue_()
        else:
            page.outside.append(route.request.url)
            route.abort()

    context.route("**/*", only_the_site)
    page.log = PageLog(page)
    yield page
    context.close()


def test_every_page_loads_with_no_error_and_no_outside_request(site, browser):
    root, address = site
    pages = sorted(path.relative_to(root).as_posix() for path in root.rglob("*.html"))
    assert {"index.html", "instructor-guide.html", "search.html", STEPPER_PAGE} <= set(pages)
    series = sorted(path.stem for path in (REPOSITORY / "notebooks").glob("[0-9]*.ipynb"))
    assert [name[10:-5] for name in pages if re.fullmatch(r"notebooks/\d.*", name)] == series
    for name in pages:
        browser.goto(address + name, wait_until="networkidle")
        assert browser.log.errors == [], name
        assert browser.outside == [], name
        if name not in ("search.html", "genindex.html"):  # every content page has its buttons
            expect(browser.locator(".bpe-launch-bar a")).to_have_count(3)


def test_search_finds_the_wikipedia_string(site, browser):
    browser.goto(site[1] + "search.html?q=aaabdaaabac", wait_until="networkidle")
    results = browser.locator("#search-results li a")
    expect(results.first).to_be_visible()
    found = results.evaluate_all("links => links.map(a => a.getAttribute('href'))")
    assert any("03_bpe_by_hand" in href for href in found), found
    assert browser.outside == [] and browser.log.errors == []


def test_stepper_on_04_moves_from_merge_1_to_5_with_no_kernel(site, browser, tmp_path):
    # the tokenizer notebook 04 steps through: GPT-4's split, trained on the same book
    tok = ByteLevelBPE.train(load_english(), vocab_size=262, pattern=GPT4_PATTERN)
    new_ids = list(tok.merges.values())
    browser.goto(site[1] + STEPPER_PAGE, wait_until="networkidle")
    stepper = browser.locator(".bpe-frames")
    expect(stepper.locator(".bpe-frame-controls input[type=range]")).to_be_visible()
    expect(stepper.locator(".bpe-frame")).to_contain_text("No merges yet")
    for step in range(1, 6):
        stepper.locator("button.bpe-next").click()
        merge_line = stepper.locator(".bpe-frame div", has_text=f"Merge {step}:").last
        expect(merge_line).to_contain_text(f"→ {new_ids[step - 1]}")
        made = merge_line.locator(".bpe-tok").nth(2)  # left + right → made
        expected = browser.evaluate(
            "html => { const d = document.createElement('div'); d.innerHTML = html;"
            " return d.textContent; }", token_chip(tok.vocab[new_ids[step - 1]], 5))
        expect(made).to_have_text(expected)
    expect(stepper.locator("output")).to_have_text(f"step 5 of {stepper_steps(browser)}")
    stepper.scroll_into_view_if_needed()
    screenshot(browser, tmp_path / "stepper-04-merge-5.png")
    assert browser.outside == [] and browser.log.errors == []


def stepper_steps(page) -> int:
    return int(page.locator(".bpe-frames input[type=range]").get_attribute("max"))


def test_buttons_of_04_point_at_04_and_the_download_is_the_notebook(site, browser, tmp_path):
    root, address = site
    browser.goto(address + STEPPER_PAGE, wait_until="networkidle")
    colab = browser.locator(".bpe-launch-bar a.bpe-colab").get_attribute("href")
    slug = repository().removeprefix("https://github.com/")  # owner/name
    assert colab == ("https://colab.research.google.com/github/"
                     f"{slug}/blob/main/notebooks/04_byte_level_bpe.ipynb")
    assert browser.locator("a.bpe-binder").get_attribute("href") == (
        f"https://mybinder.org/v2/gh/{slug}/HEAD?labpath=notebooks/04_byte_level_bpe.ipynb")
    download = browser.request.get(address + "notebooks/"
                                   + browser.locator("a.bpe-download").get_attribute("href"))
    assert download.body() == (REPOSITORY / "notebooks" / "04_byte_level_bpe.ipynb").read_bytes()
    # a widget that needs a kernel says so, with this page's own links beside it
    browser.goto(address + "notebooks/00_why_tokenization.html", wait_until="networkidle")
    needs = browser.locator(".bpe-needs-kernel")
    expect(needs).to_contain_text("needs a running Python")
    assert needs.locator("a").first.get_attribute("href").endswith(
        "/notebooks/00_why_tokenization.ipynb")
    browser.goto(address + "index.html", wait_until="networkidle")
    for path in ("Attendee", "Instructor", "Self-study"):
        expect(browser.locator("[role=main]")).to_contain_text(path)
    screenshot(browser, tmp_path / "landing.png")
