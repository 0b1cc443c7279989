"""``bpe-workshop site OUT``: the reading copy, every notebook run and shown with its outputs.

Sphinx builds it from a clone's ``docs/site/`` (its conf.py: myst-nb, the furo theme, offline
search, the Colab, Binder and download links), the instructor's guide as it is, and the
notebooks, staged here with solutions and hidden teaching cells folded. While they run, widgets
write the HTML a page shows with no kernel (steppers: every frame; see ``widgets._common``).
Left out: building from the wheel, which has no docs/.
"""
from __future__ import annotations

import json
import os
import shutil
import tempfile
from importlib.metadata import metadata
from pathlib import Path

from bpe_workshop.check import DISTRIBUTION
from bpe_workshop.files.corpora import SERIES_ROOT
from bpe_workshop.render.style import READING_COPY


def repository() -> str:
    """The repository's address, ``[project.urls] Repository`` in pyproject.toml, as installed."""
    urls = dict(line.split(", ", 1) for line in metadata(DISTRIBUTION).get_all("Project-URL") or [])
    if "Repository" not in urls:
        raise ValueError("the installed course has no Repository address: install it again "
                         "from the clone (make, or pip install -e .)")
    return urls["Repository"]


def stage_notebook(path: Path, dest: Path) -> None:
    """Copy a notebook for the build, its solutions and hidden teaching cells folded."""
    notebook = json.loads(path.read_text(encoding="utf-8"))
    for cell in notebook["cells"]:
        hidden = cell["metadata"].get("jupyter", {}).get("source_hidden")
        if cell["cell_type"] == "code" and (hidden or path.parent.name == "solutions"):
            cell["metadata"].setdefault("tags", []).append("hide-input")  # myst-nb folds it
    dest.parent.mkdir(parents=True, exist_ok=True)
    dest.write_text(json.dumps(notebook), encoding="utf-8")


def build_site(out: Path, only: list[str] | None = None, clone: Path = SERIES_ROOT) -> Path:
    """Build the site into ``out`` from ``clone``; ``only`` keeps notebooks by prefix ("04")."""
    from sphinx.application import Sphinx  # the [site] extra: the other commands need none

    if not (clone / "docs" / "site").is_dir():
        raise OSError(f"no docs/site in {clone}: the site builds from a clone of {repository()}")
    with tempfile.TemporaryDirectory(prefix="bpe-site-") as work:
        src, html = Path(work) / "src", Path(work) / "html"
        shutil.copytree(clone / "docs" / "site", src)
        shutil.copy(clone / "docs" / "instructor-guide.md", src)
        for path in sorted((clone / "notebooks").glob("**/[0-9]*.ipynb")):
            if not only or path.name.startswith(tuple(only)):
                stage_notebook(path, src / path.relative_to(clone))
        os.environ[READING_COPY] = "1"  # the notebooks' kernels inherit it
        try:
            Sphinx(src, src, html, Path(work) / "doctrees", "html").build()
        finally:
            del os.environ[READING_COPY]
        shutil.copytree(html, out, dirs_exist_ok=True)
    for page in (out / "notebooks").glob("**/*.html"):  # each notebook beside its page
        shutil.copy(clone / page.relative_to(out).with_suffix(".ipynb"), page.with_suffix(".ipynb"))
    return out


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "site", help="build the reading copy: a static site of the series, run, with its outputs",
        description="Run every notebook and write a static site into OUT: outputs, steppers "
                    "that step with no kernel, the instructor's guide, search, and Colab, "
                    "Binder and download links. Needs a clone and the [site] extra.",
        epilog="example: bpe-workshop site build/site --only 03 04   (open build/site/index.html)")
    parser.add_argument("out", type=Path, metavar="OUT", help="the folder the site goes into")
    parser.add_argument("--only", nargs="+", metavar="NN", help="only these notebooks (quicker)")
    parser.set_defaults(run=run)


def run(args) -> int:
    try:
        out = build_site(args.out, args.only)
    except ImportError as err:  # Sphinx or myst-nb missing
        raise OSError(f"{err}; install the [site] extra: pip install -e '.[site]'") from None
    print(f"The site is in {out}: open {out / 'index.html'}")
    return 0
