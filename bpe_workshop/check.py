"""The set-up check attendees run the day before a workshop: ``bpe-workshop check``.

In a clone: ``make check``. One line per check (✅ or ❌, the fix under each
❌; exit status 1 if any failed): Python's version, each declared dependency, JupyterLab's
widget and RISE extensions, tiktoken's cache setting and encodings offline, matplotlib, the
corpora, a tiny training run. It writes nothing outside one temporary folder. A check returns
what it found, or raises :class:`CheckFailed` with what went wrong and the fix::

    >>> def broken():
    ...     raise CheckFailed("no such thing", fix="install it")
    >>> result = run_one("demo", broken)
    >>> result.ok, result.detail, result.fix
    (False, 'no such thing', 'install it')
"""

from __future__ import annotations

import importlib
import importlib.metadata as metadata
import importlib.util
import io
import json
import os
import sys
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from unittest import mock

DISTRIBUTION = "bpe-workshop"

# The labextensions: (package name in JupyterLab, what it is for, the package that installs it)
LAB_EXTENSIONS = (
    ("@jupyter-widgets/jupyterlab-manager", "ipywidgets front end", "jupyterlab_widgets"),
    ("jupyterlab-rise", "RISE slides", "jupyterlab-rise"),
)

# Encoding name -> the ids tiktoken gives "hello world" (GPT-2, GPT-4, GPT-4o).
KNOWN_IDS = {"gpt2": [31373, 995], "cl100k_base": [15339, 1917], "o200k_base": [24912, 2375]}

DATA_FILES = ("english.txt", "multilingual.txt")

HIDING: list[str] = []  # files found hiding a dependency: whatever imports it fails too


class CheckFailed(Exception):
    """A check found a problem: ``str(err)`` says what, ``err.fix`` how to fix it."""

    def __init__(self, problem: str, fix: str) -> None:
        super().__init__(problem)
        self.fix = fix


@dataclass(frozen=True)
class Result:
    name: str
    ok: bool
    detail: str
    fix: str = ""


def run_one(name: str, check: Callable[[], str]) -> Result:
    """Run one check; any exception other than :class:`CheckFailed` is a failure too."""
    try:
        return Result(name, True, check())
    except CheckFailed as err:
        return Result(name, False, str(err), err.fix)
    except Exception as err:  # noqa: BLE001 - a broken install raises anything; report it
        return Result(name, False, f"{name}: {type(err).__name__}: {err}", reinstall_fix())


def reinstall_fix() -> str:
    """The command that reinstalls the package and its dependencies into this Python."""
    if HIDING:  # then the hiding file is the likelier cause
        return f"first rename or move {', '.join(HIDING)} (see above), then check again"
    return (f'reinstall the course into this Python: "{sys.executable}" -m pip install '
            "--force-reinstall bpe-workshop (or the wheel file you were given; in a clone of "
            "the repository: make clean, then make check)")


# -- parsing the package's own metadata ------------------------------------------------------


def declared_dependencies() -> list[tuple[str, str]]:
    """``(distribution name, version specifier)`` for each run-time dependency (no extras).

    >>> deps = declared_dependencies()
    >>> ("tiktoken", ">=0.7") in deps, any(name == "pytest" for name, _ in deps)
    (True, False)
    """
    from packaging.requirements import Requirement

    requirements = [Requirement(line) for line in metadata.requires(DISTRIBUTION) or []]
    return [(r.name, str(r.specifier)) for r in requirements
            if r.marker is None or r.marker.evaluate({"extra": ""})]


def satisfies(version: str, specifier: str) -> bool:
    """Whether ``version`` meets ``specifier`` (PEP 440, read by ``packaging``).

    >>> satisfies("3.11.2", ">=3.11"), satisfies("3.10.9", ">=3.11"), satisfies("8.1", "")
    (True, False, True)
    >>> satisfies("4.0", ">=3.6,<4"), satisfies("3.13.0rc1", ">=3.11")
    (False, True)
    """
    from packaging.specifiers import SpecifierSet

    return SpecifierSet(specifier).contains(version, prereleases=True)


def shadowing_file(distribution: str, module: str) -> str | None:
    """The file that ``import module`` would load instead of the installed distribution's.

    A ``regex.py`` beside the notebooks, or a folder of that name on ``PYTHONPATH``, comes
    first on ``sys.path`` and hides the real package; ``None`` when nothing does.
    """
    spec = importlib.util.find_spec(module)
    if spec is None or not spec.origin or not Path(spec.origin).is_file():
        return None
    installed = Path(metadata.distribution(distribution).locate_file("")).resolve()
    origin = Path(spec.origin).resolve()
    return None if origin.is_relative_to(installed) else str(origin)


def module_names(distribution: str) -> list[str]:
    """The top-level modules an installed distribution provides (for importing it).

    >>> module_names("jupyterlab-rise")
    ['jupyterlab_rise']
    """
    dist = metadata.distribution(distribution)
    # Some wheels list sub-modules too ("sentencepiece/__init__"): keep the top level only.
    listed = {line.split("/")[0] for line in (dist.read_text("top_level.txt") or "").split()}
    if listed:
        return sorted(listed)
    folders = {Path(str(f)).parts[0] for f in dist.files or [] if str(f).endswith("__init__.py")}
    return sorted(folders) or [distribution.replace("-", "_").lower()]


# -- the checks ------------------------------------------------------------------------------


def check_python() -> str:
    wanted = metadata.metadata(DISTRIBUTION)["Requires-Python"] or ""
    have = ".".join(map(str, sys.version_info[:3]))
    if not satisfies(have, wanted):
        raise CheckFailed(f"Python {have}, the series needs {wanted}",
                          "install Python 3.11 or newer (python.org, or conda), then recreate "
                          "the venv with it: make clean && make check PYTHON=python3.11")
    return f"Python {have} (needs {wanted})"


def check_dependency(distribution: str, specifier: str) -> Callable[[], str]:
    def check() -> str:
        try:
            version = metadata.version(distribution)
        except metadata.PackageNotFoundError:
            raise CheckFailed(f"{distribution} is not installed", reinstall_fix()) from None
        for name in module_names(distribution):
            shadow = shadowing_file(distribution, name)
            if shadow:
                HIDING.append(shadow)
                raise CheckFailed(
                    f"`import {name}` would load {shadow}, not the installed {distribution} "
                    f"{version}: a file or folder named {name} hides it",
                    f"rename or move {shadow} (keep your own files out of the names of "
                    "packages), then run the check again")
            try:
                importlib.import_module(name)
            except Exception as err:  # noqa: BLE001 - a broken package raises anything
                raise CheckFailed(f"{distribution} {version} is installed but `import {name}` "
                                  f"fails: {type(err).__name__}: {err}", reinstall_fix()) from None
        if not satisfies(version, specifier):
            raise CheckFailed(f"{distribution} {version} is too old or too new (needs {specifier})",
                              f'"{sys.executable}" -m pip install "{distribution}{specifier}"')
        return f"{distribution} {version}" + (f" (needs {specifier})" if specifier else "")

    return check


def labextension_dirs() -> list[Path]:
    """Where JupyterLab looks for prebuilt extensions, as ``jupyter labextension list`` does."""
    from jupyter_core.paths import jupyter_path

    return [Path(folder) for folder in jupyter_path("labextensions")]


def check_labextension(package: str, purpose: str, provider: str) -> Callable[[], str]:
    def check() -> str:
        for folder in labextension_dirs():
            manifest = folder / package / "package.json"
            if manifest.is_file():
                version = json.loads(manifest.read_text(encoding="utf-8")).get("version", "?")
                return f"JupyterLab extension {package} {version} ({purpose})"
        raise CheckFailed(
            f"JupyterLab has no {package} extension ({purpose}); without it "
            + ("widgets show as a line of text" if "widgets" in package else "there are no slides"),
            f'"{sys.executable}" -m pip install --force-reinstall --no-deps {provider}, '
            "then restart JupyterLab",
        )

    return check


def check_cache_setting(folder: str | None) -> Callable[[], str]:
    """tiktoken's cache folder as the attendee set it (the run itself uses a scratch folder)."""
    def check() -> str:
        if folder and Path(folder).exists() and not Path(folder).is_dir():
            raise CheckFailed(f"TIKTOKEN_CACHE_DIR={folder} is a file, not a folder; encodings "
                              "still load, but from memory each time",
                              "point TIKTOKEN_CACHE_DIR at a folder, or unset it")
        return f"tiktoken cache: {folder if folder else 'off' if folder == '' else 'default'}"
    return check


def check_encodings() -> str:
    from bpe_workshop.files.offline import get_encoding

    shown = []
    for name, ids in KNOWN_IDS.items():
        got = get_encoding(name).encode("hello world")
        if got != ids:
            raise CheckFailed(f"{name} encodes 'hello world' as {got}, expected {ids}",
                              reinstall_fix())
        shown.append(f"{name} {got}")
    return "offline encodings: 'hello world' -> " + ", ".join(shown)


def check_matplotlib() -> str:
    from matplotlib.figure import Figure

    figure = Figure(figsize=(2, 1))  # drawn by matplotlib's own Agg renderer, no GUI
    figure.add_subplot().bar(["a", "b"], [3, 1])
    png = io.BytesIO()
    figure.savefig(png, format="png")
    if not png.getvalue().startswith(b"\x89PNG"):
        raise CheckFailed("matplotlib drew no PNG", reinstall_fix())
    return f"matplotlib draws (a {len(png.getvalue()):,}-byte PNG)"


def check_data() -> str:
    from bpe_workshop.files import corpora

    sizes = []
    for name in DATA_FILES:
        try:
            path = corpora.data_path(name)
        except (FileNotFoundError, ValueError) as err:
            raise CheckFailed(str(err), reinstall_fix()) from None
        sizes.append(f"{name} {path.stat().st_size // 1024} KB")
    # the folder `bpe-workshop start` copies from (course.series.SERIES, a layer above)
    if (carried := len(list((corpora.SERIES_ROOT / "notebooks").glob("**/*.ipynb")))) < 20:
        raise CheckFailed(f"the package holds {carried} of the 20 notebooks", reinstall_fix())
    try:
        corpora.load_stdlib_code(max_bytes=20_000)
    except FileNotFoundError:
        raise CheckFailed("this Python ships no standard-library source files (notebook 07 trains "
                          "on them)", "install a full Python (Debian/Ubuntu: apt-get install "
                          "python3-full)") from None
    return "data files: " + ", ".join(sizes) + ", standard-library sources, 20 notebooks"


def check_training() -> str:
    from bpe_workshop import GPT4_PATTERN, ByteLevelBPE
    from bpe_workshop.files.corpora import load_english

    text = load_english()[:3000]
    tok = ByteLevelBPE.train(text, vocab_size=256 + 20, pattern=GPT4_PATTERN)
    ids = tok.encode(text)
    if tok.decode(ids) != text or len(ids) >= len(text.encode("utf-8")):
        raise CheckFailed("a tiny training run does not round-trip its text", reinstall_fix())
    return f"tiny training run: 20 merges, {len(text.encode('utf-8')):,} bytes -> {len(ids):,} ids"


def all_checks(cache_setting: str | None = None) -> list[tuple[str, Callable[[], str]]]:
    checks: list[tuple[str, Callable[[], str]]] = [("python", check_python)]
    try:
        dependencies = declared_dependencies()
    except metadata.PackageNotFoundError:
        return checks + [("package", _not_installed)]
    except ImportError:  # packaging, which reads the requirements, is missing or broken
        return checks + [("packaging", check_dependency("packaging", ""))]
    checks += [(name, check_dependency(name, spec)) for name, spec in dependencies]
    # RISE only where the [slides] extra is installed (a missing ipywidgets is reported above)
    checks += [(package, check_labextension(package, purpose, provider))
               for package, purpose, provider in LAB_EXTENSIONS if installed_version(provider)]
    checks += [
        ("cache", check_cache_setting(cache_setting)),
        ("encodings", check_encodings),
        ("matplotlib", check_matplotlib),
        ("data", check_data),
        ("training", check_training),
    ]
    return checks


def installed_version(distribution: str) -> str | None:
    try:
        return metadata.version(distribution)
    except metadata.PackageNotFoundError:
        return None


def _not_installed() -> str:
    raise CheckFailed(f"the {DISTRIBUTION} package is not installed in this Python",
                      reinstall_fix())


# -- printing --------------------------------------------------------------------------------


def marks(stream) -> tuple[str, str]:
    """✅/❌, or plain words where the console cannot show them (older Windows consoles)."""
    try:
        "✅❌".encode(stream.encoding or "ascii")
    except (UnicodeEncodeError, LookupError):
        return "[ok]", "[FAILED]"
    return "✅", "❌"


def main(stream=None) -> int:
    """Run every check, print one line each (and the fix under each failure); 0 if all pass."""
    stream = stream or sys.stdout or sys.stderr or io.StringIO()  # `check >&-`: stdout closed
    good, bad = marks(stream)
    sys.dont_write_bytecode = True
    saved = os.environ.get("TIKTOKEN_CACHE_DIR")
    failures = 0
    with (
        tempfile.TemporaryDirectory(prefix="bpe-workshop-check-") as scratch,
        mock.patch.dict(os.environ, {"TIKTOKEN_CACHE_DIR": scratch}),  # restored after
    ):
        print(f"{DISTRIBUTION} {installed_version(DISTRIBUTION)} set-up check "
              f"({sys.executable})", file=stream)
        for name, check in all_checks(saved):
            result = run_one(name, check)
            print(f"{good if result.ok else bad} {result.detail}", file=stream, flush=True)
            if not result.ok:
                failures += 1
                print(f"   fix: {result.fix}", file=stream, flush=True)
    if failures:
        print(f"{failures} check(s) failed: fix them before the workshop.", file=stream)
        return 1
    print("All set for the workshop.", file=stream)
    return 0
