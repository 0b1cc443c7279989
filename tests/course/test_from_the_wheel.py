"""The course as a learner gets it: built into a wheel, installed outside the repository.

One build per test session (the ``built`` fixture in conftest.py, shared with
test_install_lines): ``python -m build`` makes the sdist and, from it, the wheel (so the sdist
is proven whole too); a fresh virtual environment in a temporary folder installs the wheel (no
editable install; the repository is never on ``sys.path``: every command runs from the
temporary folder with ``PYTHONPATH`` unset). Then the learner's path: ``bpe-workshop start``
serves notebook 00 from the folder it copied, an edit survives a second ``start``, every notebook
runs headless from that folder, the set-up check passes, and a wheelhouse made by the course
installs it again with ``--no-index``. Slow (minutes: it installs the course twice); marked
``wheel``, left out of ``make quick``.
"""

import hashlib
import json
import os
import secrets
import subprocess
import sys
import tarfile
import time
import urllib.request
import zipfile
from pathlib import Path

import pytest
from test_run_command import free_port, stop

ROOT = Path(__file__).resolve().parents[2]
SERIES = len(list((ROOT / "notebooks").glob("[0-9]*.ipynb")))  # notebooks (and solutions)
pytestmark = [pytest.mark.wheel, pytest.mark.xdist_group("wheel")]


def run(command, cwd, timeout=900, **kwargs):
    """Run a command of the installed course; fail the test with its output if it fails."""
    env = {name: value for name, value in os.environ.items() if name != "PYTHONPATH"}
    done = subprocess.run([str(part) for part in command], cwd=cwd, env=env, text=True,
                          capture_output=True, timeout=timeout, **kwargs)
    assert done.returncode == 0, f"{command}\n{done.stdout}\n{done.stderr}"
    return done.stdout


def venv_with(tmp: Path, name: str, *install: str) -> Path:
    """A fresh virtual environment in ``tmp/name`` with ``install`` pip-installed; its bin/."""
    run([sys.executable, "-m", "venv", tmp / name], cwd=tmp)
    bin_dir = tmp / name / "bin"
    run([bin_dir / "python", "-m", "pip", "install", "--quiet", *install], cwd=tmp)
    return bin_dir


@pytest.fixture(scope="module")
def installed(built, tmp_path_factory):
    """The bin/ folder of a fresh venv outside the repository with the wheel installed."""
    return venv_with(tmp_path_factory.mktemp("learner"), "venv", str(built[0]))


def test_the_wheel_and_sdist_carry_the_course_and_no_tests(built):
    wheel, sdist = built
    with zipfile.ZipFile(wheel) as archive, tarfile.open(sdist) as tar:
        in_wheel = archive.namelist()
        entry_points = next(archive.read(name).decode() for name in in_wheel
                            if name.endswith(".dist-info/entry_points.txt"))
        in_sdist = [name.split("/", 1)[1] for name in tar.getnames() if "/" in name]
    # the sdist is laid out as the repository; the wheel maps data/ and notebooks/ into the package
    for names, inside in ((in_wheel, "bpe_workshop/"), (in_sdist, "")):
        notebooks = [n for n in names if n.startswith(f"{inside}notebooks/")]
        assert len([n for n in notebooks if n.endswith(".ipynb")]) == 2 * SERIES, notebooks
        for data in ("english.txt", "multilingual.txt", "gpt2.cuts", "cl100k_base.cuts",
                     "o200k_base.cuts"):
            assert f"{inside}data/{data}" in names
        assert not [n for n in names if n.startswith(("tests/", "benchmarks/"))]
    assert "bpe_workshop/course/cli.py" in in_wheel
    assert "bpe-workshop = bpe_workshop.course.cli:main" in entry_points


def test_the_wheel_carries_the_hash_of_every_series_file_it_holds(built):
    with zipfile.ZipFile(built[0]) as archive:
        series = {name.removeprefix("bpe_workshop/"): archive.read(name)
                  for name in archive.namelist()
                  if name.startswith(("bpe_workshop/data/", "bpe_workshop/notebooks/"))}
        lines = archive.read("bpe_workshop/series.sha256").decode().splitlines()
    listed = dict(reversed(line.split("  ", 1)) for line in lines)
    assert sorted(listed) == sorted(series) and "notebooks/04_byte_level_bpe.ipynb" in listed
    assert listed == {name: hashlib.sha256(data).hexdigest() for name, data in series.items()}


def test_the_installed_course_lives_in_site_packages(installed, tmp_path):
    where = run([installed / "python", "-c", "import bpe_workshop; print(bpe_workshop.__file__)"],
                cwd=tmp_path)
    assert "site-packages" in where and str(ROOT) not in where
    assert run([installed / "bpe-workshop", "--version"], cwd=tmp_path).startswith("bpe-workshop ")


def test_start_serves_notebook_00_from_the_folder_it_copied(installed, tmp_path):
    folder = tmp_path / "my-course"
    port, token = free_port(), secrets.token_hex(16)
    env = {name: value for name, value in os.environ.items() if name != "PYTHONPATH"}
    env["JUPYTER_RUNTIME_DIR"] = str(tmp_path / "runtime")
    server = subprocess.Popen(
        [installed / "bpe-workshop", "start", folder, "--no-browser", f"--port={port}", "--",
         "--ip=127.0.0.1", f"--IdentityProvider.token={token}", "--ServerApp.port_retries=0"],
        cwd=tmp_path, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        start_new_session=True)
    try:
        base, deadline = f"http://127.0.0.1:{port}", time.monotonic() + 90
        while True:
            try:
                with urllib.request.urlopen(f"{base}/lab/tree/00_why_tokenization.ipynb"
                                            f"?token={token}", timeout=5) as page:
                    assert page.status == 200 and "JupyterLab" in page.read().decode()
                break
            except OSError:
                assert server.poll() is None, server.stdout.read()
                assert time.monotonic() < deadline, "JupyterLab did not start within 90 s"
                time.sleep(0.5)
        with urllib.request.urlopen(f"{base}/api/contents/00_why_tokenization.ipynb"
                                    f"?token={token}", timeout=5) as served:
            served_cells = json.loads(served.read())["content"]["cells"]
        copied_cells = json.loads((folder / "00_why_tokenization.ipynb").read_text())["cells"]
        assert [cell["source"] for cell in served_cells] == \
            ["".join(cell["source"]) for cell in copied_cells]
    finally:
        stop(server)
    assert f"Copied {SERIES} notebooks and {SERIES} solutions into {folder}." in \
        server.stdout.read()


def test_a_learners_edit_survives_a_second_start(installed, tmp_path):
    folder = tmp_path / "course"
    run([installed / "bpe-workshop", "start", folder, "--no-lab"], cwd=tmp_path)
    edited = folder / "04_byte_level_bpe.ipynb"
    edited.write_text(edited.read_text().replace("Byte-level BPE", "My byte-level BPE", 1))
    again = run([installed / "bpe-workshop", "start", folder, "--no-lab"], cwd=tmp_path)
    assert again.strip() == f"The series in {folder} is up to date."
    assert "My byte-level BPE" in edited.read_text()


def test_every_notebook_runs_headless_from_the_copied_folder(installed, tmp_path):
    folder = tmp_path / "course"
    run([installed / "bpe-workshop", "start", folder, "--no-lab"], cwd=tmp_path)
    notebooks = sorted(folder.glob("[0-9]*.ipynb"))
    assert len(notebooks) == SERIES
    run([installed / "jupyter", "nbconvert", "--to", "notebook", "--execute",
         "--ExecutePreprocessor.timeout=600", "--output-dir", tmp_path / "ran", *notebooks],
        cwd=folder, timeout=1800)
    ran = sorted((tmp_path / "ran").glob("*.ipynb"))
    assert [path.name for path in ran] == [path.name for path in notebooks]
    for path in ran:  # no cell stopped with an error
        cells = json.loads(path.read_text())["cells"]
        errors = [output for cell in cells for output in cell.get("outputs", [])
                  if output.get("output_type") == "error"]
        assert errors == [], f"{path.name}: {errors[:1]}"


def test_the_set_up_check_passes_from_the_wheel(installed, tmp_path):
    shown = run([installed / "bpe-workshop", "check"], cwd=tmp_path)
    assert "All set for the workshop." in shown and "20 notebooks" in shown


def test_a_wheelhouse_installs_the_course_with_no_index(installed, built, tmp_path):
    kit = tmp_path / "kit"
    shown = run([installed / "bpe-workshop", "wheelhouse", kit, "--wheel", built[0]],
                cwd=tmp_path)
    assert f"{kit}:" in shown and "MB in all" in shown
    assert "python -m pip install --no-index --find-links . bpe-workshop" in \
        (kit / "README.txt").read_text()
    offline = venv_with(tmp_path, "offline", "--no-index", "--find-links", str(kit),
                        "bpe-workshop")
    assert run([offline / "bpe-workshop", "--version"], cwd=tmp_path).startswith("bpe-workshop")
