"""``make``'s virtual environment (the ``venv`` target every other target needs): made whole or
not at all. Debian and Ubuntu keep ensurepip, which puts pip into a new environment, in the
``python3-venv`` package; without it ``python3 -m venv`` used to leave a ``.venv`` with no pip
that failed every later ``make``. Each test points ``VENV`` at a temporary folder.
"""

import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# A Python as Debian's is without python3-venv: no ensurepip, and `-m venv` makes the folder and
# its python, then fails (as venv does when ensurepip is missing).
NO_VENV_MODULE = """#!/bin/sh
if [ "$1" = "-m" ] && [ "$2" = "ensurepip" ]; then
  echo "/usr/bin/python3: No module named ensurepip" >&2; exit 1
fi
if [ "$1" = "-m" ] && [ "$2" = "venv" ]; then
  mkdir -p "$3/bin" && ln -s /usr/bin/python3 "$3/bin/python"
  echo "The virtual environment was not created successfully: ensurepip is not available." >&2
  exit 1
fi
exec /usr/bin/python3 "$@"
"""


def make_venv(tmp_path, python):
    return subprocess.run(["make", "--no-print-directory", "-C", str(ROOT), "venv",
                           f"VENV={tmp_path / 'venv'}", f"PYTHON={python}"],
                          capture_output=True, text=True, timeout=300)


def test_without_the_venv_module_make_names_the_package_and_makes_nothing(tmp_path):
    python = tmp_path / "python3"
    python.write_text(NO_VENV_MODULE)
    python.chmod(0o755)
    done = make_venv(tmp_path, python)
    assert done.returncode != 0
    assert "sudo apt-get install python3-venv" in done.stderr, done.stderr
    assert not (tmp_path / "venv").exists()


def test_a_venv_without_pip_is_made_again(tmp_path):
    half_made = tmp_path / "venv"
    subprocess.run(["/usr/bin/python3", "-m", "venv", "--without-pip", str(half_made)],
                   check=True)
    done = make_venv(tmp_path, "/usr/bin/python3")
    assert done.returncode == 0, done.stderr
    pip = subprocess.run([str(half_made / "bin" / "python"), "-m", "pip", "--version"],
                         capture_output=True, text=True)
    assert pip.returncode == 0 and str(half_made) in pip.stdout
