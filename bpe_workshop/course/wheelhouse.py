"""An offline kit for a room: every wheel the course needs, in one folder, for chosen machines.

When the Wi-Fi dies, one folder on a USB stick installs the course on every laptop::

    bpe-workshop wheelhouse kit --wheel dist/bpe_workshop-0.2.0-py3-none-any.whl \\
        --platform win_amd64 --platform macosx_11_0_arm64 --python 3.12

gathers the course's wheel and everything it needs into ``kit/``: first for this machine
(``pip wheel``, which also turns a dependency published only as source into a wheel), then for
each platform and Python version (``pip download``); two targets share the files they both
need. Each attendee then runs the lines written in ``kit/README.txt``, from inside the kit: a
virtual environment made with the kit's Python, then ``pip install --no-index --find-links .
bpe-workshop`` with its own pip. With no ``--platform`` or ``--python`` the kit is for this
machine. Only wheels go in (a laptop may have no compiler).

Left out: conda packages, and Python itself.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
from importlib import metadata
from pathlib import Path

from bpe_workshop.check import DISTRIBUTION
from bpe_workshop.course.series import folder_argument

# README.txt in the kit: the lines for bash/zsh, PowerShell and cmd, with the kit's Python
README = Path(__file__).with_name("kit_readme.txt")


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "wheelhouse", help="download every wheel the course needs into one folder (offline kit)",
        description="Download the course's wheel and every wheel it needs into FOLDER, for the "
                    "platforms and Python versions given (default: this machine's).",
        epilog="example: bpe-workshop wheelhouse kit --wheel bpe_workshop-0.2.0-py3-none-any.whl"
               " --platform win_amd64 --platform macosx_11_0_arm64 --python 3.12")
    parser.add_argument("folder", type=folder_argument,
                        help="where the wheels go (created if needed)")
    parser.add_argument("--wheel", type=Path, help="the course's own wheel file (until the "
                        "course is on the package index, where it is found by its version)")
    parser.add_argument("--platform", action="append", default=[], metavar="TAG",
                        help="a platform tag, e.g. win_amd64, macosx_11_0_arm64, "
                             "manylinux2014_x86_64 (repeat for more)")
    parser.add_argument("--python", action="append", default=[], metavar="X.Y",
                        help="a Python version, e.g. 3.12 (repeat for more)")
    parser.set_defaults(run=run)


def run(args) -> int:
    if args.wheel is not None and not args.wheel.is_file():
        raise ValueError(f"no wheel file {str(args.wheel)!r}; build one with `python -m build "
                         "--wheel` in a clone, or leave out --wheel")
    version, folder = metadata.version(DISTRIBUTION), args.folder
    course = str(args.wheel.absolute()) if args.wheel else f"{DISTRIBUTION}=={version}"
    folder.mkdir(parents=True, exist_ok=True)
    exact, here = sys.version.split()[0], "{}.{}".format(*sys.version_info)  # "3.11.2", "3.11"
    # This machine first, with `pip wheel`: it also builds a wheel for a dependency published
    # only as source (GPT-2's files come with `future`, pure Python), which every target reuses.
    targets = [(f"this machine, Python {exact}", [sys.executable, "-m", "pip", "wheel",
                                                  "--wheel-dir"])]
    # Then each platform and Python named, with `pip download`: wheels only, those for that
    # target, the kit's own wheels (this machine's) counting as found
    targets += [(f"{platform or sys.platform}, Python {python or exact}", [
        sys.executable, "-m", "pip", "download", "--only-binary=:all:", "--find-links", str(folder),
        *(["--platform", platform] if platform else []),
        *(["--python-version", python] if python else []), "--dest"])
        for platform in args.platform or [None] for python in args.python or [None]
        if platform or python]
    for label, command in targets:
        print(f"Gathering the wheels for {label} ...", flush=True)
        with tempfile.TemporaryDirectory(dir=folder, prefix=".download-") as scratch:
            if subprocess.run([*command, scratch, course]).returncode != 0:
                raise OSError(f"pip could not gather every wheel for {label} (its message is "
                              "above); try another --python, or check the network")
            wheels = sorted(Path(scratch).glob("*.whl"))
            size = sum(wheel.stat().st_size for wheel in wheels) / 2**20
            print(f"{label}: {len(wheels)} wheels, {size:.1f} MB", flush=True)
            for wheel in wheels:
                if not (folder / wheel.name).exists():
                    shutil.move(wheel, folder / wheel.name)
    # pip chose this machine's wheels for its exact Python (a wheel may need 3.11.5 or later);
    # a --python X.Y target holds wheels that every X.Y takes
    pythons = dict.fromkeys([here if here in args.python else f"{exact} or a later {here}",
                             *args.python])
    (folder / "README.txt").write_text(README.read_text(encoding="utf-8").format(
        version=version, pythons=" or ".join(pythons), python=(args.python or [here])[0],
        targets="\n".join(f"- {label}" for label, _ in targets)), encoding="utf-8")
    every = sorted(folder.glob("*.whl"))
    total = sum(wheel.stat().st_size for wheel in every) / 2**20
    print(f"{folder}: {len(every)} wheels, {total:.1f} MB in all; README.txt says how to "
          "install from it.")
    return 0
