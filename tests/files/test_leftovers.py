"""A test run leaves nothing in the temp folder: conftest deletes its tiktoken cache folder.

Runs a small pytest session (doctests that load tiktoken's encodings, and a test file) in a
child process whose temp folder is an empty one of ours, then looks at what is left there.
"""

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_a_test_run_leaves_no_tiktoken_cache_behind(tmp_path):
    temp = tmp_path / "temp"
    temp.mkdir()
    env = {key: value for key, value in os.environ.items()
           if key not in ("TIKTOKEN_CACHE_DIR", "DATA_GYM_CACHE_DIR", "PYTEST_XDIST_WORKER")}
    env["TMPDIR"] = str(temp)
    result = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:xdist",
         "-o", "tmp_path_retention_policy=none", "bpe_workshop/files/offline.py",
         "tests/test_import_graph.py"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=300,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "passed" in result.stdout
    files = [path.relative_to(temp) for path in temp.rglob("*") if not path.is_dir()]
    folders = [path.relative_to(temp) for path in temp.rglob("*") if path.is_dir()]
    assert files == []
    # only pytest's own (empty) per-user folder may remain
    assert all(path.parts[0].startswith("pytest-of-") for path in folders), folders
