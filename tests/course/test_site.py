"""``bpe-workshop site``: the reading copy built from the repository, and what widgets write for it.

One build of notebook 03 (``--only 03``, seconds) is read as files here; the whole site, in a
browser with every other host blocked, is ``tests/browser/test_browser_site.py``.
"""

from __future__ import annotations

import base64
import gzip
import json
import re
from pathlib import Path

import pytest

from bpe_workshop.algorithm.by_hand import replace_pairs_by_hand
from bpe_workshop.course.cli import main
from bpe_workshop.course.site import build_site, repository
from bpe_workshop.widgets import utf8_explorer, wikipedia_stepper
from bpe_workshop.widgets._common import NEEDS_KERNEL, READING_COPY

pytestmark = pytest.mark.xdist_group("site")  # one worker builds notebook 03's site, once
ROOT = Path(__file__).resolve().parents[2]


def unpack_frames(html: str) -> list[str]:
    """The frames of the first stepper in ``html`` (gzipped JSON in base64, as the page's script
    reads them)."""
    packed = re.search(r'class="bpe-frames" data-frames="([^"]+)"', html).group(1)
    return json.loads(gzip.decompress(base64.b64decode(packed)))


@pytest.fixture(scope="module")
def site_03(tmp_path_factory):
    out = tmp_path_factory.mktemp("site") / "site"
    assert main(["site", str(out), "--only", "03"]) == 0
    return out


@pytest.mark.notebook
def test_landing_page_has_three_paths_and_the_guide(site_03):
    landing = (site_03 / "index.html").read_text(encoding="utf-8")
    for path in ("Attendee", "Instructor", "Self-study"):
        assert f"<strong>{path}" in landing
    assert 'href="instructor-guide.html"' in landing
    assert f'href="{repository()}#readme"' in landing  # {{ readme }}, from the one address
    guide = (site_03 / "instructor-guide.html").read_text(encoding="utf-8")
    assert "Running a room" in guide


@pytest.mark.notebook
def test_stepper_of_03_holds_every_step_and_search_knows_the_string(site_03):
    page = (site_03 / "notebooks" / "03_bpe_by_hand.html").read_text(encoding="utf-8")
    frames = unpack_frames(page)
    steps = replace_pairs_by_hand("aaabdaaabac")
    assert len(frames) == len(steps) + 1
    for k, frame in enumerate(frames):
        assert f"step {k} of {len(steps)}" in frame
    assert steps[-1].after in frames[-1]  # the string after the last replacement
    assert "aaabdaaabac" in (site_03 / "searchindex.js").read_text(encoding="utf-8")


@pytest.mark.notebook
def test_pages_link_to_colab_binder_and_the_download_and_load_nothing_from_outside(site_03):
    slug = repository().removeprefix("https://github.com/")
    page = (site_03 / "notebooks" / "03_bpe_by_hand.html").read_text(encoding="utf-8")
    assert (f'href="https://colab.research.google.com/github/{slug}/blob/main/notebooks/'
            '03_bpe_by_hand.ipynb"') in page
    assert f'href="https://mybinder.org/v2/gh/{slug}/HEAD?labpath=notebooks/03_bpe_by_hand.ipynb"' \
        in page
    assert 'href="03_bpe_by_hand.ipynb"' in page
    assert (site_03 / "notebooks" / "03_bpe_by_hand.ipynb").read_bytes() == \
        (ROOT / "notebooks" / "03_bpe_by_hand.ipynb").read_bytes()
    for html in site_03.rglob("*.html"):
        text = html.read_text(encoding="utf-8")
        assert not re.search(r'<(script|link|img)[^>]+(src|href)="(https?:)?//', text), html
        assert "{colab}" not in text and "{binder}" not in text, html
        assert "widget-state+json" not in text, html


@pytest.mark.notebook
def test_solutions_are_folded(site_03):
    name = "03_bpe_by_hand_solutions"
    solution = json.loads((ROOT / "notebooks" / "solutions" / f"{name}.ipynb").read_text())
    code_cells = sum(cell["cell_type"] == "code" for cell in solution["cells"])
    page = (site_03 / "notebooks" / "solutions" / f"{name}.html").read_text(encoding="utf-8")
    assert page.count('hide above-input">') == code_cells > 0  # <details>, closed


def test_widgets_write_the_reading_copy_only_while_the_site_runs_them(monkeypatch):
    stepper, explorer = wikipedia_stepper("aaabdaaabac"), utf8_explorer("héllo")
    assert "text/html" not in stepper._repr_mimebundle_()
    monkeypatch.setenv(READING_COPY, "1")
    stepper.slider.value = 2
    frames = unpack_frames(stepper._repr_mimebundle_()["text/html"])
    assert stepper.slider.value == 2  # the step shown is put back
    shown = []
    for k in range(stepper.slider.max + 1):
        stepper.slider.value = k
        shown.append(stepper.value)
    assert frames == shown and len(set(frames)) == len(frames) > 3
    bundle = explorer._repr_mimebundle_()
    assert bundle["text/html"] == explorer.value + NEEDS_KERNEL
    assert "application/vnd.jupyter.widget-view+json" in bundle  # live in JupyterLab still


def test_site_needs_a_clone(tmp_path):
    with pytest.raises(OSError, match="the site builds from a clone of https://"):
        build_site(tmp_path / "out", clone=tmp_path)
