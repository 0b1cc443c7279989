"""Settings shared by the whole suite.

- tiktoken's cache goes to a fresh temporary folder, so the tests prove the encodings load
  offline from the shipped files and never write into a user's own cache.
- Hypothesis runs without per-example deadlines: this suite asserts behaviour, never speed.
- matplotlib draws off-screen.
"""

import os
import tempfile

from hypothesis import HealthCheck, settings

os.environ["TIKTOKEN_CACHE_DIR"] = tempfile.mkdtemp(prefix="bpe-workshop-test-tiktoken-")
os.environ.setdefault("MPLBACKEND", "Agg")

settings.register_profile(
    "workshop",
    deadline=None,
    max_examples=100,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "workshop"))
