"""The attendees' set-up check (``bpe-workshop check``, ``make check``).

It runs in a subprocess, as an attendee runs it: once on this environment (everything passes),
and on environments broken on purpose (dependencies hidden by files that cannot be imported, a
cache setting that is a file, a reader that stops early), where it must name each problem, print
the fix under it, exit with status 1 and never end in a traceback.
"""

from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path

from bpe_workshop import check

ROOT = Path(__file__).resolve().parent.parent


def run_check(tmp_path: Path, extra_path: Path | None = None, **variables: str):
    env = dict(os.environ, PYTHONIOENCODING="utf-8", TMPDIR=str(tmp_path))
    for name in ("PYTHONPATH", "TIKTOKEN_CACHE_DIR", "DATA_GYM_CACHE_DIR"):
        env.pop(name, None)
    env.update(variables)
    if extra_path is not None:
        env["PYTHONPATH"] = str(extra_path)  # searched before site-packages
    return subprocess.run(
        [sys.executable, "-m", "bpe_workshop", "check"],
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


def test_check_names_a_shadowing_module_and_its_fix(tmp_path):
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
        shadow = broken / module / "__init__.py"
        assert lines[i].startswith(f"❌ `import {module}` would load {shadow}, not the installed")
        assert lines[i + 1].strip() == (f"fix: rename or move {shadow} (keep your own files out "
                                        "of the names of packages), then run the check again")
    # The rest still runs and passes: one failure does not hide the others.
    assert "✅ tiktoken " in done.stdout
    assert "✅ tiny training run" in done.stdout
    assert done.stdout.rstrip().endswith("2 check(s) failed: fix them before the workshop.")
    assert list(scratch.iterdir()) == []


def test_a_broken_regex_or_tiktoken_gives_lines_not_a_traceback(tmp_path):
    shadows = tmp_path / "notebooks"  # as if saved beside the notebooks
    shadows.mkdir()
    for module in ("regex", "tiktoken"):
        (shadows / f"{module}.py").write_text(f"raise ImportError('my own {module}.py')\n",
                                              encoding="utf-8")
    scratch = tmp_path / "scratch"
    scratch.mkdir()
    done = run_check(scratch, extra_path=shadows)
    print(done.stdout, done.stderr)
    assert done.returncode == 1 and "Traceback" not in done.stdout + done.stderr
    for module in ("regex", "tiktoken"):
        assert f"❌ `import {module}` would load {shadows / module}.py" in done.stdout
    # What imports them fails too, each check named, its fix pointing at the hiding files.
    for name in ("encodings", "training"):
        assert f"❌ {name}: ImportError: my own " in done.stdout
    fix = f"fix: first rename or move {shadows / 'regex'}.py, {shadows / 'tiktoken'}.py (see above)"
    assert done.stdout.count(fix) >= 2
    assert "✅ matplotlib draws" in done.stdout


def test_a_closed_pipe_ends_the_check_quietly(tmp_path):
    env = dict(os.environ, PYTHONIOENCODING="utf-8", TMPDIR=str(tmp_path))
    env.pop("PYTHONPATH", None)
    done = subprocess.run(f'"{sys.executable}" -m bpe_workshop check | head -2', shell=True,
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert len(done.stdout.splitlines()) == 2
    assert "Traceback" not in done.stderr and "BrokenPipeError" not in done.stderr


def test_a_closed_stdout_sends_the_lines_to_stderr(tmp_path):
    env = dict(os.environ, PYTHONIOENCODING="utf-8", TMPDIR=str(tmp_path))
    env.pop("PYTHONPATH", None)
    done = subprocess.run(f'"{sys.executable}" -m bpe_workshop check >&-', shell=True, cwd=ROOT,
                          env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    assert "✅ tiny training run" in done.stderr
    assert done.stderr.rstrip().endswith("All set for the workshop.")


def test_a_tiktoken_cache_setting_that_is_a_file_is_reported(tmp_path):
    not_a_folder = tmp_path / "cache.txt"
    not_a_folder.write_text("x", encoding="utf-8")
    result = check.run_one("cache", check.check_cache_setting(str(not_a_folder)))
    assert not result.ok and "is a file, not a folder" in result.detail
    assert result.fix == "point TIKTOKEN_CACHE_DIR at a folder, or unset it"
    assert check.run_one("cache", check.check_cache_setting(str(tmp_path))).ok
    # As an attendee meets it: the check's own scratch cache does not hide the setting.
    done = run_check(tmp_path, TIKTOKEN_CACHE_DIR=str(not_a_folder))
    assert done.returncode == 1
    assert f"❌ TIKTOKEN_CACHE_DIR={not_a_folder} is a file, not a folder" in done.stdout
    assert "✅ offline encodings" in done.stdout
    assert done.stdout.rstrip().endswith("1 check(s) failed: fix them before the workshop.")


def test_the_package_imports_no_dependency_until_a_name_is_used():
    """Lazy names (PEP 562): the set-up check can check regex and tiktoken before they load."""
    code = (
        "import sys, bpe_workshop as b; heavy = sorted({'regex', 'tiktoken'} & set(sys.modules)); "
        "from bpe_workshop import *; missing = set(b.__all__) - set(dir(b)) - set(globals()); "
        "print(heavy, sorted(missing), 'regex' in sys.modules)"
    )
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                          text=True, timeout=120, env=dict(os.environ, PYTHONPATH=str(ROOT)))
    assert done.stdout.split() == ["[]", "[]", "True"], done.stderr


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
