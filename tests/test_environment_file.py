"""environment.yml (conda, Binder) names the same packages as pyproject.toml.

No conda solver can run here, so this static comparison is the check we can make.
"""

import os
import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


# conda does not normalise names: where conda-forge spells a package differently from PyPI,
# environment.yml must use conda-forge's spelling
CONDA_FORGE_NAMES = {"jupyterlab-widgets": "jupyterlab_widgets",
                     "jupyterlab-rise": "jupyterlab_rise",
                     "playwright": "playwright-python", "build": "python-build"}


def requirement_name(requirement: str) -> str:
    """'tiktoken>=0.7' -> 'tiktoken'; names compared the way PyPI does (case, - _ .)."""
    name = re.match(r"\s*([A-Za-z0-9][A-Za-z0-9._-]*)", requirement).group(1)
    return re.sub(r"[-_.]+", "-", name).lower()


def bounds(requirement: str) -> str:
    """'jupyterlab_rise >= 0.42' -> '>=0.42': the version bounds without the name."""
    return re.sub(r"^\s*[A-Za-z0-9._-]+", "", requirement).replace(" ", "")


def pyproject_packages() -> dict[str, str]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    wanted = project["dependencies"] + project["optional-dependencies"]["test"]
    return {requirement_name(r): bounds(r) for r in wanted}


def environment_packages() -> dict[str, str]:
    packages = {}
    text = (ROOT / "environment.yml").read_text()
    for line in text.split("\ndependencies:", 1)[1].splitlines():
        item = re.match(r"\s*-\s+([^#\s].*?)\s*(#.*)?$", line)
        if not item or ":" in item.group(1):
            continue
        requirement = item.group(1)
        if requirement.startswith("-e") or requirement_name(requirement) in {"python", "pip"}:
            continue  # the project itself, the interpreter and the installer
        name = requirement_name(requirement)
        pypi = {requirement_name(conda): pypi for pypi, conda in CONDA_FORGE_NAMES.items()}
        packages[pypi.get(name, name)] = bounds(requirement)
    return packages


def test_same_package_names():
    assert sorted(environment_packages()) == sorted(pyproject_packages())


def test_same_version_bounds():
    assert environment_packages() == pyproject_packages()


def test_conda_forge_spellings():
    text = (ROOT / "environment.yml").read_text()
    for pypi, conda in CONDA_FORGE_NAMES.items():
        assert re.search(rf"^\s+- {conda}(?![\w.-])", text, re.M), conda
        assert not re.search(rf"^\s+- {pypi}(?![\w.-])", text, re.M), pypi


def test_binder_pins_python_and_installs_the_package_after_copying_it():
    text = (ROOT / "environment.yml").read_text()
    assert re.search(r"^name: bpe-workshop$", text, re.M)
    assert re.search(r"^\s+- python=3\.\d+\b", text, re.M)  # an explicit version
    assert not re.search(r"^\s+- -e \.", text, re.M)  # repo2docker builds before copying
    post_build = ROOT / "postBuild"
    assert os.access(post_build, os.X_OK)
    assert "pip install --no-deps -e ." in post_build.read_text()
    assert "conda-forge" in text
