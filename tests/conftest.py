"""Settings shared by the whole suite.

- tiktoken's cache goes to a fresh temporary folder, so the tests prove the encodings load
  offline from the shipped files and never write into a user's own cache. Each process (the
  main one and every pytest-xdist worker) makes its own and deletes it when the session ends.
- Hypothesis runs without per-example deadlines: this suite asserts behaviour, never speed.
- matplotlib draws off-screen.
"""

import os
import shutil
import tempfile

from hypothesis import HealthCheck, settings

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
