"""environment.yml (conda, Binder) names the same packages as pyproject.toml.

No conda solver can run here, so this static comparison is the check we can make.
"""

import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def requirement_name(requirement: str) -> str:
    """'tiktoken>=0.7' -> 'tiktoken'; names compared the way PyPI does (case, - _ .)."""
    name = re.match(r"\s*([A-Za-z0-9][A-Za-z0-9._-]*)", requirement).group(1)
    return re.sub(r"[-_.]+", "-", name).lower()


def pyproject_packages() -> dict[str, str]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    wanted = project["dependencies"] + project["optional-dependencies"]["test"]
    return {requirement_name(r): r.replace(" ", "") for r in wanted}


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
        packages[requirement_name(requirement)] = requirement.replace(" ", "")
    return packages


def test_same_package_names():
    assert sorted(environment_packages()) == sorted(pyproject_packages())


def test_same_version_bounds():
    assert environment_packages() == pyproject_packages()


def test_environment_installs_this_package_and_names_the_env():
    text = (ROOT / "environment.yml").read_text()
    assert re.search(r"^name: bpe-workshop$", text, re.M)
    assert re.search(r"^\s+- -e \.$", text, re.M)
    assert "conda-forge" in text
