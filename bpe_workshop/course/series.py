"""The series in a learner's folder: copied once, updated with care, never overwritten.

The notebooks this release carries live inside the package (``bpe_workshop/notebooks``) in a
wheel, in the repository's ``notebooks/`` in a clone (``SERIES_ROOT`` knows which). The first
``bpe-workshop start`` copies them, with their solutions, into the learner's folder. A later run,
after an upgrade, replaces only the notebooks the learner never changed. It tells them apart by
a manifest it keeps in the folder, ``.bpe-workshop.json``: the sha256 of each notebook as it was
copied. A notebook whose bytes no longer have that hash is the learner's work: the release's newer
version goes beside it as ``NAME.new.ipynb`` and the learner's stays as it is. A missing or
damaged manifest makes every differing notebook count as the learner's, so the worst case is
an extra ``.new`` file, never a lost edit. ``reset_notebook`` brings one notebook back to the
release's and keeps the learner's as ``NAME.backup.ipynb``. Before any copy, the release's own
notebooks are checked against ``series.sha256``, their hashes written when the wheel was built:
a damaged install is named, with the line that reinstalls it.

Left out: merging a learner's edits with a new release (the two files sit side by side).
"""

from __future__ import annotations

import argparse
import hashlib
import itertools
import json
import os
from pathlib import Path

from bpe_workshop.check import reinstall_fix
from bpe_workshop.files.corpora import SERIES_ROOT

SERIES = SERIES_ROOT / "notebooks"  # the notebooks this release carries
FIRST = "00_why_tokenization.ipynb"  # where JupyterLab opens
FOLDER = "bpe-workshop"  # the learner's copy when no folder is named (each attendee's on a hub)
MANIFEST = ".bpe-workshop.json"  # {"files": {name: sha256 as copied}} in the learner's folder
BUILT = SERIES_ROOT / "series.sha256"  # "<sha256>  notebooks/NAME" lines, made with the wheel


def release_files() -> dict[str, bytes]:
    """The release's notebooks and solutions (as ``solutions/NAME``): name -> bytes, checked
    against the hashes the wheel was built with (a clone has none: its notebooks are its own)."""
    found = sorted(SERIES.glob("*.ipynb")) + sorted(SERIES.glob("solutions/*.ipynb"))
    files = {path.relative_to(SERIES).as_posix(): _read(path) for path in found}
    built = [line.partition("  notebooks/") for line in  # (sha256, _, name); data has no name
             (_read(BUILT).decode(errors="replace").splitlines() if BUILT.exists() else [])]
    damaged = [name for sha, _, name in built
               if name and (name not in files or _sha(files[name]) != sha)]
    if damaged:
        raise OSError(f"the installed series is damaged, {', '.join(damaged)} missing or changed: "
                      f"{reinstall_fix()}")
    return files


def folder_argument(text: str) -> Path:
    """A FOLDER of the command line, absolute, ``~`` expanded; refused (exit 2) when it is empty,
    names no user's home, or is relative to a working folder that was deleted."""
    try:
        if text:
            return Path(text).expanduser().absolute()
        problem = "the folder's name is empty"
    except RuntimeError:  # ~name of no user
        problem = f"{text}: no user {text[1:].split('/')[0]!r} on this machine"
    except FileNotFoundError:  # os.getcwd() of a deleted folder
        problem = "the current folder no longer exists"
    raise argparse.ArgumentTypeError(f"{problem}: give the folder's whole path")


def port(text: str) -> int:
    """``--port``'s value, a TCP port: ``port("8890")`` is 8890, 0 and 99999999 are refused."""
    if not text.isdigit() or not 1 <= int(text) <= 65535:
        raise argparse.ArgumentTypeError(
            f"{text} is not a port: give a number from 1 to 65535, such as 8890")
    return int(text)


def copy_series(folder: Path) -> list[str]:
    """Copy the series into ``folder`` or bring it up to date; the lines to tell the learner.

    Notebooks the learner changed are never written over (see the module's docstring).
    """
    if os.path.realpath(folder) == os.path.realpath(SERIES):
        return [f"Opening the series where it lives, {folder} (nothing to copy)."]
    files = release_files()  # first: a damaged install leaves no folder behind
    folder.mkdir(parents=True, exist_ok=True)  # before solutions/, so an error names the folder
    (folder / "solutions").mkdir(exist_ok=True)
    copied = _read_manifest(folder) or {}
    new, updated, beside = [], [], []
    for name, release in files.items():
        target, sha = folder / name, _sha(release)
        have = _sha(_read(target)) if target.exists() else None
        if have != sha and have in (None, copied.get(name)):  # missing, or as it was copied:
            (updated if have else new).append(name)  # the learner never changed it, take ours
            _write(target, release)
        elif have != sha != copied.get(name):  # the learner's work, and the release is newer
            # subtle: the manifest keeps the hash it was copied with, so a later run still
            # knows it as theirs
            beside.append(_write_beside(target, "new", release))
            continue
        copied[name] = sha  # as it is now, or the learner's and the release has nothing newer
    _write(folder / MANIFEST, json.dumps({"files": copied}, indent=1).encode())
    lines = []
    if new:
        solutions = sum(name.startswith("solutions/") for name in new)
        lines.append(f"Copied {len(new) - solutions} notebooks and {solutions} solutions into "
                     f"{folder}.")
    if updated:
        lines.append(f"Updated, since you had not changed them: {', '.join(updated)}.")
    lines += [f"{path.name}: this release's version of a notebook you changed, beside yours "
              "(yours is untouched)." for path in beside]
    return lines or [f"The series in {folder} is up to date."]


def reset_notebook(folder: Path, number: str) -> list[str]:
    """Put the release's notebook ``number`` (``"04"``) back in ``folder``, a copy of the series,
    keeping the learner's as ``NAME.backup.ipynb``; the lines to tell the learner."""
    files = release_files()
    notebooks = {name[:2]: name for name in files if "/" not in name}  # "04" -> its file name
    if number not in notebooks:
        raise ValueError(f"--reset takes the number of a notebook ({', '.join(notebooks)}), not "
                         f"{number!r}")
    if (copied := _read_manifest(folder)) is None:
        raise ValueError(f"the series was never copied into {folder}: check the folder's name, "
                         f"or run `bpe-workshop start {folder}` first")
    known, target = notebooks[number], folder / notebooks[number]
    release, lines = files[known], []
    if target.exists() and (mine := _read(target)) != release:
        lines.append(f"Your {known} is kept as {_write_beside(target, 'backup', mine).name}.")
    _write(target, release)
    copied[known] = _sha(release)
    _write(folder / MANIFEST, json.dumps({"files": copied}, indent=1).encode())
    return [*lines, f"{known} is the release's again."]


def _sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _read_manifest(folder: Path) -> dict[str, str] | None:
    """Name -> sha256 as copied; empty when the file is damaged (the safe side), None when
    there is none (the series was never copied there)."""
    try:
        files = json.loads(_read(folder / MANIFEST))["files"]
        return {str(name): str(sha) for name, sha in files.items()}
    except FileNotFoundError:
        return None
    except (ValueError, KeyError, TypeError, AttributeError, RecursionError):
        return {}


def _read(path: Path) -> bytes:
    """A file's bytes; a pipe, a device or a folder in its place is refused unread (reading one
    could wait, or never end)."""
    if path.exists() and not path.is_file():
        raise OSError(f"{path} is not a file (a pipe, a device or a folder?): move it away, "
                      "then run the command again")
    return path.read_bytes()


def _write_beside(target: Path, tag: str, data: bytes) -> Path:
    """Write ``data`` as ``NAME.<tag>.ipynb`` beside ``target`` (``NAME.<tag>-2.ipynb`` and so
    on when that name holds something else) and return the path."""
    stem = target.name.removesuffix(".ipynb")
    for number in itertools.count(1):
        path = target.with_name(f"{stem}.{tag}{'' if number == 1 else f'-{number}'}.ipynb")
        if not path.exists() or _read(path) == data:
            _write(path, data)
            return path


def _write(path: Path, data: bytes) -> None:
    """Write the whole file or nothing: a temporary file of this process renamed over the old
    one; when that fails (no space, no permission) the error names ``path``, and nothing is left."""
    temporary = path.with_name(f".{path.name}.{os.getpid()}.partial")
    try:
        temporary.write_bytes(data)
        os.replace(temporary, path)
    except OSError as err:
        temporary.unlink(missing_ok=True)
        raise OSError(err.errno, err.strerror, str(path)) from None
