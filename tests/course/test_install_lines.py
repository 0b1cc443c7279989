"""Every line a newcomer is told to type to install the course, run as written on a Python that
refuses installs into itself (PEP 668): Debian's ``/usr/bin/python3``, found first on ``PATH``.

The lines come from the files a newcomer reads: the README's and the instructor's guide's
``bash`` blocks that install the wheel, and the bash/zsh lines of the offline kit's
``README.txt``. Each runs in a temporary home folder (``HOME``), from the folder that holds the
wheel (or from inside the kit), with the wheel the session built (conftest.py). One change is
made to them: ``bpe-workshop start`` gets ``--no-lab``, so it copies the series and returns
instead of serving JupyterLab (test_from_the_wheel serves it). Lines that need the course on the
package index ("once published") cannot run before it is; the wheel's line beside each is run.
PowerShell and cmd cannot run here: their lines are checked to be the same commands.
"""

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DEBIAN_PYTHON = Path("/usr/bin/python3")
SERIES = len(list((ROOT / "notebooks").glob("[0-9]*.ipynb")))  # notebooks (and solutions)
pytestmark = [pytest.mark.wheel, pytest.mark.xdist_group("wheel")]


def fenced_blocks(text: str, language: str) -> list[str]:
    """The ```language blocks of a Markdown text, in a blockquote or a list item or not."""
    lines = [re.sub(r"^(> ?)?\s*", "", line) for line in text.splitlines()]
    blocks, inside = [], None
    for line in lines:
        if inside is None and line == f"```{language}":
            inside = []
        elif inside is not None and line == "```":
            blocks.append("\n".join(inside))
            inside = None
        elif inside is not None:
            inside.append(line)
    return blocks


def kit_lines(readme: str, heading: str) -> list[str]:
    """The indented lines under ``heading`` in a kit's README.txt."""
    after = readme.split(f"\n{heading}\n", 1)[1].lstrip("\n")
    return [line.strip() for line in after.split("\n\n", 1)[0].splitlines()]


def install_blocks(path: Path) -> list[str]:
    """The bash blocks of ``path`` that install the course's wheel on a laptop (not the
    classroom server's, run as root with apt-get: the hub tests run that)."""
    return [block for block in fenced_blocks(path.read_text(encoding="utf-8"), "bash")
            if re.search(r"pip install .*\.whl", block) and "conda" not in block
            and "apt-get" not in block]


def shell(script: str, cwd: Path, home: Path, **extra_env) -> str:
    """Run ``script`` with bash -e as a newcomer would, Debian's Python first on PATH."""
    env = {name: value for name, value in os.environ.items()
           if name not in {"PYTHONPATH", "VIRTUAL_ENV", "PYTHONHOME"}}
    env.update(HOME=str(home), PATH=f"/usr/bin:/bin:{env.get('PATH', '')}", **extra_env)
    env = {name: value for name, value in env.items() if value is not None}
    script = re.sub(r"(bpe-workshop start\b.*)$", r"\1 --no-lab", script, flags=re.MULTILINE)
    done = subprocess.run(["bash", "-e", "-c", script], cwd=cwd, env=env, text=True,
                          capture_output=True, timeout=1200)
    assert done.returncode == 0, f"{script}\n{done.stdout}\n{done.stderr}"
    return done.stdout


@pytest.fixture
def wheel_folder(built, tmp_path):
    """A folder holding the wheel under its own name, as downloaded."""
    folder = tmp_path / "Downloads"
    folder.mkdir()
    shutil.copy(built[0], folder)
    return folder


def test_this_python_refuses_the_old_line(wheel_folder, tmp_path):
    """The premise: `pip install <wheel>` straight into Debian's Python fails (PEP 668)."""
    done = subprocess.run([str(DEBIAN_PYTHON), "-m", "pip", "install", built_name(wheel_folder)],
                          cwd=wheel_folder, capture_output=True, text=True, timeout=120)
    assert done.returncode != 0 and "externally-managed-environment" in done.stderr


def built_name(folder: Path) -> str:
    (wheel,) = folder.glob("*.whl")
    return wheel.name


def test_the_readme_and_guide_lines_install_and_start_the_course(wheel_folder, tmp_path):
    home = tmp_path / "home"
    home.mkdir()
    readme, guide = install_blocks(ROOT / "README.md"), install_blocks(ROOT / "docs" /
                                                                       "instructor-guide.md")
    assert len(readme) >= 3 and guide, (readme, guide)  # attendee, activated, slides; guide's
    for block in [*readme, *guide]:
        assert built_name(wheel_folder) in block  # the file the release ships
    shown = [shell(block, wheel_folder, home) for block in [*readme, *guide]]
    course = home / "bpe-course"
    assert f"Copied {SERIES} notebooks and {SERIES} solutions into {course}." in shown[0]
    assert f"The series in {course} is up to date." in shown[1]
    venv_python = home / "bpe-workshop-venv" / "bin" / "python"
    assert subprocess.run([str(venv_python), "-c", "import jupyterlab_rise, bpe_workshop"],
                          cwd=tmp_path).returncode == 0  # the slides extra went in


def test_the_windows_lines_are_the_same_commands(built):
    """PowerShell and cmd blocks: the bash lines with Windows paths (they cannot run here)."""
    for path in (ROOT / "README.md", ROOT / "docs" / "instructor-guide.md"):
        text = path.read_text(encoding="utf-8")
        bash = [b for b in fenced_blocks(text, "bash") if "-m venv" in b and ".whl" in b][0]
        for language, home in (("powershell", r"$HOME"), ("bat", r"%USERPROFILE%")):
            (block,) = [b for b in fenced_blocks(text, language) if ".whl" in b]
            as_bash = (block.replace("& ", "").replace(home, "~").replace("\\Scripts\\", "/bin/")
                       .replace("\\", "/").replace("py -m venv", "python3 -m venv"))
            assert as_bash == bash, (path.name, language)


def test_the_kit_lines_install_from_inside_the_kit_with_no_index(built, tmp_path):
    # for every Python of this X.Y (Debian's 3.11.2 may be older than the one running the tests)
    kit, python = tmp_path / "kit", f"{sys.version_info[0]}.{sys.version_info[1]}"
    subprocess.run([sys.executable, "-m", "bpe_workshop", "wheelhouse", str(kit), "--wheel",
                    str(built[0]), "--python", python], check=True, capture_output=True,
                   timeout=1200)
    readme = (kit / "README.txt").read_text(encoding="utf-8")
    assert f"Install it with Python {python}:" in readme
    lines = kit_lines(readme, "macOS, Linux (bash, zsh):")
    assert lines[0] == f"python{python} -m venv ~/bpe-workshop-venv"
    home = tmp_path / "home"
    home.mkdir()
    # no pip configuration: the kit alone, no other folder of wheels, no index
    shown = shell("\n".join(lines), kit, home, PIP_CONFIG_FILE=os.devnull, PIP_FIND_LINKS=None)
    assert f"Copied {SERIES} notebooks and {SERIES} solutions into {home / 'bpe-course'}." in shown
    for heading, home_text in (("Windows, PowerShell:", "$HOME"), ("Windows, cmd:",
                                                                    "%USERPROFILE%")):
        windows = [line.replace("& ", "").replace(home_text, "~").replace("\\Scripts\\", "/bin/")
                   .replace("\\", "/").replace(f"py -{python} ", f"python{python} ")
                   for line in kit_lines(readme, heading)]
        assert windows == lines, heading
