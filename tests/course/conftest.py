"""The course built once per test session, as a release builds it, for every test of the
installed course (test_from_the_wheel, test_install_lines: both in the xdist group "wheel", so
one worker runs them and builds once)."""

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="session")
def built(tmp_path_factory):
    """(the wheel, the sdist): ``python -m build`` makes the sdist, and the wheel from it."""
    dist = tmp_path_factory.mktemp("dist")
    done = subprocess.run([sys.executable, "-m", "build", "--outdir", str(dist), str(ROOT)],
                          cwd=dist, capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, f"python -m build\n{done.stdout}\n{done.stderr}"
    (wheel,), (sdist,) = dist.glob("*.whl"), dist.glob("*.tar.gz")
    return wheel, sdist
