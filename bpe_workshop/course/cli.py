"""The ``bpe-workshop`` command (``python -m bpe_workshop`` is the same).

    bpe-workshop start [FOLDER]     copy the series into FOLDER (./bpe-workshop), open JupyterLab
    bpe-workshop check              the set-up check, one line per check with the fix
    bpe-workshop wheelhouse FOLDER  every wheel the course needs, for an offline room
    bpe-workshop hub                a classroom JupyterHub: attendees need only a browser

Exit status: 0 done, 1 failed, 2 a wrong command line (argparse's). ``make lab`` and
``make check`` in a clone run this same code.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

from bpe_workshop import check as setup_check
from bpe_workshop.course import hub, wheelhouse
from bpe_workshop.course.series import FIRST, copy_series, reset_notebook


def main(argv: list[str] | None = None) -> int:
    """Run one subcommand; its exit status."""
    parser = argparse.ArgumentParser(
        prog="bpe-workshop", description="A teaching series on Byte Pair Encoding: install it, "
        "open it, check it, take it to a room.",
        epilog="example: bpe-workshop start my-course   (then open the address it prints)")
    version = setup_check.installed_version(setup_check.DISTRIBUTION) or "(not installed)"
    parser.add_argument("--version", action="version", version=f"%(prog)s {version}")
    subparsers = parser.add_subparsers(title="commands", metavar="COMMAND", required=True)
    register_start(subparsers)
    subparsers.add_parser(
        "check", help="the set-up check: one line per check, and the fix for each failure",
        description="Check Python, the packages, JupyterLab's extensions, the offline "
                    "encodings, the data and a tiny training run; exit 1 if anything failed.",
    ).set_defaults(run=lambda args: setup_check.main())
    wheelhouse.register(subparsers)
    hub.register(subparsers)
    args, extra = parser.parse_known_args(argv)
    if extra and not getattr(args, "takes_extra", False):
        parser.error(f"unrecognized arguments: {' '.join(extra)}")
    if extra:
        args.extra = extra[1:] if extra[0] == "--" else extra
    try:
        return args.run(args)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:  # `... | head -3` closed the pipe: stop quietly, as a filter does
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1


def register_start(subparsers) -> None:
    parser = subparsers.add_parser(
        "start", help="copy the series into a folder (first run) and open it in JupyterLab",
        description="Copy the series into FOLDER on the first run, then open JupyterLab at "
                    "notebook 00 there. Later runs never overwrite a notebook you changed: a "
                    "newer one from an upgrade goes beside yours as NAME.new.ipynb. Anything "
                    "after -- goes to Jupyter.",
        epilog="example: bpe-workshop start my-course --port 8890 -- --ServerApp.ip=0.0.0.0")
    parser.add_argument("folder", nargs="?", type=Path, default=Path("bpe-workshop"),
                        help="where the series lives (default: ./bpe-workshop)")
    parser.add_argument("--reset", metavar="NAME", help="put notebook NAME (e.g. 04) back as "
                        "the release has it; yours is kept as NAME.backup.ipynb")
    parser.add_argument("--port", type=int, help="JupyterLab's port (default: Jupyter's, 8888)")
    parser.add_argument("--no-browser", action="store_true", help="do not open a browser")
    parser.add_argument("--no-lab", action="store_true",
                        help="copy or update the series, then stop")
    parser.set_defaults(run=start, takes_extra=True, extra=[])


def start(args) -> int:
    try:
        lines = (reset_notebook(args.folder, args.reset) if args.reset
                 else copy_series(args.folder))
    except (ValueError, OSError) as err:
        print(f"bpe-workshop start: {err}", file=sys.stderr)
        return 2 if isinstance(err, ValueError) else 1
    print("\n".join(lines), flush=True)
    if args.no_lab:
        return 0
    return subprocess.call(lab_command(args.folder, args.port, args.no_browser, args.extra),
                           cwd=args.folder)


def lab_command(folder: Path, port: int | None, no_browser: bool, extra: list[str]) -> list[str]:
    """JupyterLab on ``folder``, opening notebook 00; as root it adds ``--allow-root``.

    >>> lab_command(Path("course"), 8890, True, ["--ServerApp.token=x"])[3:]  # doctest: +ELLIPSIS
    ['00_why_tokenization.ipynb', '--LabApp.default_url=/lab/tree/00_why_tokenization.ipynb', \
'--ServerApp.root_dir=...course', ...'--port=8890', '--no-browser', '--ServerApp.token=x']
    """
    command = [sys.executable, "-m", "jupyterlab", FIRST, f"--LabApp.default_url=/lab/tree/{FIRST}",
               f"--ServerApp.root_dir={Path(folder).absolute()}"]
    if hasattr(os, "geteuid") and os.geteuid() == 0:  # a container, a cloud VM, a classroom
        command.append("--allow-root")
    if port is not None:
        command.append(f"--port={port}")
    if no_browser:
        command.append("--no-browser")
    return [*command, *extra]
