"""The GitHub workflows (.github/workflows): ci.yml runs .ci/run, release.yml publishes a tag.

Both are checked here, so ``make test`` (and so CI itself) fails on a broken workflow before a
release tag finds out: ``actionlint`` (the workflow syntax, expressions, job needs, the shell in
each ``run:``) and ``zizmor`` (permissions wider than a job needs, template injection, credentials
left in a checkout, actions not pinned). Both come as wheels with their binaries (the ``test``
extra), and zizmor runs ``--offline``: its audits that ask GitHub's API are left out.
"""

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
WORKFLOWS = ROOT / ".github" / "workflows"
BIN = Path(sys.executable).parent  # actionlint and zizmor are installed beside this Python


def lint(*command):
    done = subprocess.run([str(part) for part in command], cwd=ROOT, capture_output=True,
                          text=True, timeout=120)
    return done.returncode, done.stdout + done.stderr


def test_both_workflows_are_there():
    assert sorted(path.name for path in WORKFLOWS.glob("*.yml")) == ["ci.yml", "release.yml"]


def test_actionlint_finds_nothing():
    code, shown = lint(BIN / "actionlint", *sorted(WORKFLOWS.glob("*.yml")))
    assert code == 0, shown


def test_zizmor_finds_nothing():
    code, shown = lint(BIN / "zizmor", "--offline", "--no-progress", WORKFLOWS)
    assert code == 0, shown


def test_every_action_is_pinned_to_a_commit():
    """A tag can be moved to other code; a commit hash cannot (zizmor lets actions/* use tags)."""
    for path in WORKFLOWS.glob("*.yml"):
        for used in re.findall(r"^\s*(?:-\s+)?uses:\s*(\S+)", path.read_text(), re.MULTILINE):
            if not used.startswith(("$/", "./")):  # this repository's own workflow
                assert re.fullmatch(r"[\w.-]+/[\w./-]+@[0-9a-f]{40}", used), (path.name, used)
