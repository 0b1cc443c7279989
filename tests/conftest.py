"""Settings shared by the whole suite.

- tiktoken's cache goes to a fresh temporary folder, so the tests prove the encodings load
  offline from the shipped files and never write into a user's own cache. Each process (the
  main one and every pytest-xdist worker) makes its own and deletes it when the session ends.
- Hypothesis runs without per-example deadlines: this suite asserts behaviour, never speed.
- matplotlib draws off-screen.
- The real-browser tests share two fixtures: ``lab`` (JupyterLab on a copy of the notebooks)
  and ``playwright``; the plumbing behind them is in ``browser_lab.py``.
"""

import os
import shutil
import tempfile

import pytest
from browser_lab import LabServer, copy_notebooks, require_chromium
from hypothesis import HealthCheck, settings
from notebook_files import NOTEBOOKS
from playwright.sync_api import sync_playwright

_TIKTOKEN_CACHE = tempfile.mkdtemp(prefix="bpe-workshop-test-tiktoken-")
os.environ["TIKTOKEN_CACHE_DIR"] = _TIKTOKEN_CACHE
os.environ.setdefault("MPLBACKEND", "Agg")

settings.register_profile(
    "workshop",
    deadline=None,
    max_examples=100,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "workshop"))


def pytest_unconfigure(config):
    """Delete this process's tiktoken cache folder (runs in every xdist worker too)."""
    shutil.rmtree(_TIKTOKEN_CACHE, ignore_errors=True)


@pytest.fixture(scope="module")
def lab(tmp_path_factory):
    """JupyterLab on a copy of notebooks/ (the originals are never opened)."""
    require_chromium()
    base = tmp_path_factory.mktemp("lab")
    root = copy_notebooks(NOTEBOOKS, base / "notebooks")
    server = LabServer(root, base / "state").start()
    print(f"\njupyter lab: {server.base_url} (log {server.log_path})")
    yield server
    server.stop()


@pytest.fixture(scope="module")
def playwright():
    require_chromium()
    with sync_playwright() as pw:
        yield pw
