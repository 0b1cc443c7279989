"""The series in a learner's folder: copied once, updated with care, never overwritten.

The notebooks this release carries live inside the package (``bpe_workshop/notebooks``) in a
wheel, in the repository's ``notebooks/`` in a clone (``SERIES_ROOT`` knows which). The first
``bpe-workshop start`` copies them, with their solutions, into the learner's folder. A later run,
after an upgrade, replaces only the notebooks the learner never changed. It tells them apart by
a manifest it keeps in the folder, ``.bpe-workshop.json``: the sha256 of each notebook as it was
copied. A notebook whose bytes no longer have that hash is the learner's work: the release's newer
version goes beside it as ``NAME.new.ipynb`` and the learner's stays as it is. A missing or
unreadable manifest makes every differing notebook count as the learner's, so the worst case is
an extra ``.new`` file, never a lost edit. ``reset_notebook`` brings one notebook back to the
release's and keeps the learner's as ``NAME.backup.ipynb``.

Left out: merging a learner's edits with a new release (the two files sit side by side).
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

from bpe_workshop.files.corpora import SERIES_ROOT

SERIES = SERIES_ROOT / "notebooks"  # the notebooks this release carries
FIRST = "00_why_tokenization.ipynb"  # where JupyterLab opens
MANIFEST = ".bpe-workshop.json"  # {"files": {name: sha256 as copied}} in the learner's folder


def release_files() -> dict[str, Path]:
    """The release's notebooks and solutions by name, solutions as ``solutions/NAME``."""
    found = sorted(SERIES.glob("*.ipynb")) + sorted(SERIES.glob("solutions/*.ipynb"))
    return {path.relative_to(SERIES).as_posix(): path for path in found}


def copy_series(folder: Path) -> list[str]:
    """Copy the series into ``folder`` or bring it up to date; the lines to tell the learner.

    Notebooks the learner changed are never written over (see the module's docstring).
    """
    folder = Path(folder).expanduser().absolute()
    if folder.resolve() == SERIES.resolve():
        return [f"Opening the series where it lives, {folder} (nothing to copy)."]
    folder.joinpath("solutions").mkdir(parents=True, exist_ok=True)
    copied = _read_manifest(folder)
    new, updated, beside = [], [], []
    for name, source in release_files().items():
        release, target = source.read_bytes(), folder / name
        have = _sha(target.read_bytes()) if target.exists() else None
        if have == _sha(release):  # already this release's
            copied[name] = have
            continue
        if have is None:
            new.append(name)
        elif have == copied.get(name):
            updated.append(name)  # the learner never changed it: take the new release
        elif copied.get(name) == _sha(release):
            continue  # the learner's work, and the release has nothing newer
        else:
            # subtle: the learner's work; the manifest keeps the hash it was copied with, so
            # a later run still knows it as theirs
            beside.append(_write_beside(target, "new", release))
            continue
        _write(target, release)
        copied[name] = _sha(release)
    _write(folder / MANIFEST, json.dumps({"files": copied}, indent=1).encode())
    lines = []
    if new:
        solutions = sum(name.startswith("solutions/") for name in new)
        lines.append(f"Copied {len(new) - solutions} notebooks and {solutions} solutions into "
                     f"{folder}.")
    if updated:
        lines.append(f"Updated, since you had not changed them: {', '.join(updated)}.")
    for path in beside:
        lines.append(f"{path.name}: this release's version of a notebook you changed, beside "
                     "yours (yours is untouched).")
    return lines or [f"The series in {folder} is up to date."]


def reset_notebook(folder: Path, name: str) -> list[str]:
    """Put the release's ``name`` (``04``, ``04_byte_level_bpe`` or the file name) back in
    ``folder``, keeping the learner's as ``NAME.backup.ipynb``; the lines to tell the learner."""
    folder = Path(folder).expanduser().absolute()
    files = release_files()
    stem = name.removesuffix(".ipynb")
    matches = [known for known in files
               if known.removesuffix(".ipynb") == stem
               or ("/" in stem) == ("/" in known) and known.startswith(stem)]
    if len(matches) != 1:
        choices = ", ".join(known.removesuffix(".ipynb") for known in files if "/" not in known)
        raise ValueError(f"--reset takes one notebook of the series, such as 04 or "
                         f"04_byte_level_bpe; {name!r} matches {len(matches)}: "
                         f"choose from {choices}")
    known, target = matches[0], folder / matches[0]
    release = files[known].read_bytes()
    lines = []
    if target.exists() and _sha(target.read_bytes()) != _sha(release):
        backup = _write_beside(target, "backup", target.read_bytes())
        lines.append(f"Your {known} is kept as {backup.name}.")
    target.parent.mkdir(parents=True, exist_ok=True)
    _write(target, release)
    copied = _read_manifest(folder)
    copied[known] = _sha(release)
    _write(folder / MANIFEST, json.dumps({"files": copied}, indent=1).encode())
    return [*lines, f"{known} is the release's again."]


def _sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _read_manifest(folder: Path) -> dict[str, str]:
    """Name -> sha256 as copied; empty when the file is missing or damaged (the safe side)."""
    try:
        files = json.loads((folder / MANIFEST).read_text(encoding="utf-8"))["files"]
        return {str(name): str(sha) for name, sha in files.items()}
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return {}


def _write_beside(target: Path, tag: str, data: bytes) -> Path:
    """Write ``data`` as ``NAME.<tag>.ipynb`` beside ``target`` (``NAME.<tag>-2.ipynb`` and so
    on when that name holds something else) and return the path."""
    stem, number = target.name.removesuffix(".ipynb"), 1
    while True:
        path = target.with_name(f"{stem}.{tag}{'' if number == 1 else f'-{number}'}.ipynb")
        if not path.exists() or path.read_bytes() == data:
            _write(path, data)
            return path
        number += 1


def _write(path: Path, data: bytes) -> None:
    """Write the whole file or nothing: a temporary file renamed over the old one."""
    temporary = path.with_name(f".{path.name}.partial")
    temporary.write_bytes(data)
    os.replace(temporary, path)
