"""The attendees' set-up check (``python -m bpe_workshop.check``, ``make check``).

It runs in a subprocess, as an attendee runs it: once on this environment (everything passes),
and once on an environment broken on purpose (two dependencies that cannot be imported), where it
must name each broken one, print the fix under it and exit with status 1.
"""

from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path

from bpe_workshop import check

ROOT = Path(__file__).resolve().parent.parent


def run_check(tmp_path: Path, extra_path: Path | None = None) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONIOENCODING="utf-8", TMPDIR=str(tmp_path))
    env.pop("PYTHONPATH", None)
    if extra_path is not None:
        env["PYTHONPATH"] = str(extra_path)  # searched before site-packages
    return subprocess.run(
        [sys.executable, "-m", "bpe_workshop.check"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=300,  # bounds a hang; speed is not asserted here
    )


def test_check_passes_on_this_environment(tmp_path):
    done = run_check(tmp_path)
    print(done.stdout)
    assert done.returncode == 0, done.stdout + done.stderr
    lines = done.stdout.splitlines()
    results = [line for line in lines if line.startswith(("✅", "❌"))]
    assert results and all(line.startswith("✅") for line in results)
    # One line per declared dependency, plus the fixed checks.
    for name, _ in check.declared_dependencies():
        assert any(line.startswith(f"✅ {name} ") for line in results), name
    assert "✅ Python 3." in done.stdout
    assert "@jupyter-widgets/jupyterlab-manager" in done.stdout
    assert "JupyterLab extension jupyterlab-rise" in done.stdout
    assert "gpt2 [31373, 995], cl100k_base [15339, 1917]" in done.stdout
    assert "All set for the workshop." in done.stdout
    # The temporary folder it worked in is gone again.
    assert list(tmp_path.iterdir()) == []


def test_check_names_a_broken_dependency_and_its_fix(tmp_path):
    broken = tmp_path / "broken"
    for module in ("sentencepiece", "ipywidgets"):
        (broken / module).mkdir(parents=True)
        (broken / module / "__init__.py").write_text(
            f"raise ImportError('{module} is broken on purpose')\n", encoding="utf-8"
        )
    scratch = tmp_path / "scratch"
    scratch.mkdir()
    done = run_check(scratch, extra_path=broken)
    print(done.stdout)
    assert done.returncode == 1, done.stdout + done.stderr
    lines = done.stdout.splitlines()
    failed = [i for i, line in enumerate(lines) if line.startswith("❌")]
    assert len(failed) == 2, done.stdout
    for i, module in zip(failed, ("ipywidgets", "sentencepiece")):
        assert lines[i].startswith(f"❌ {module} ")
        assert f"`import {module}` fails: ImportError: {module} is broken on purpose" in lines[i]
        assert lines[i + 1].strip().startswith("fix: reinstall from the repository folder:")
        assert "-m pip install -e" in lines[i + 1]
    # The rest still runs and passes: one failure does not hide the others.
    assert "✅ tiktoken " in done.stdout
    assert "✅ tiny training run" in done.stdout
    assert done.stdout.rstrip().endswith("2 check(s) failed: fix them before the workshop.")
    assert list(scratch.iterdir()) == []


def test_missing_lab_extension_is_a_failure_with_a_fix(monkeypatch, tmp_path):
    monkeypatch.setattr(check, "labextension_dirs", lambda: [tmp_path])
    rise = check.check_labextension("jupyterlab-rise", "RISE slides", "jupyterlab-rise")
    result = check.run_one("rise", rise)
    assert not result.ok
    assert "JupyterLab has no jupyterlab-rise extension (RISE slides)" in result.detail
    assert "pip install --force-reinstall --no-deps jupyterlab-rise" in result.fix


def test_old_python_is_a_failure(monkeypatch):
    monkeypatch.setattr(check.sys, "version_info", (3, 9, 18, "final", 0))
    result = check.run_one("python", check.check_python)
    assert not result.ok
    assert result.detail == "Python 3.9.18, the series needs >=3.11"
    assert "install Python 3.11 or newer" in result.fix


def test_plain_marks_on_a_console_without_emoji():
    stream = io.TextIOWrapper(io.BytesIO(), encoding="cp1252")
    assert check.marks(stream) == ("[ok]", "[FAILED]")
    assert check.marks(io.TextIOWrapper(io.BytesIO(), encoding="utf-8")) == ("✅", "❌")
