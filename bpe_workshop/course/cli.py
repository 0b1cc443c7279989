"""The ``bpe-workshop`` command (``python -m bpe_workshop`` is the same): ``start`` and ``check``
here, the others registered by their modules. Exit status: 0 done, 1 failed, 2 a wrong command
line or a value refused. A file or folder problem is one sentence naming the path and what to do.
``make lab`` and ``make check`` in a clone run this same code."""

from __future__ import annotations

import argparse
import errno
import os
import sys
from pathlib import Path

from bpe_workshop import check as setup_check
from bpe_workshop.course import hub, series, site, wheelhouse

PROBLEMS = {  # errno -> what it means for a learner's file or folder, and what to do
    errno.EEXIST: "a file is in the way of folder {path}: move it, or name another folder",
    errno.EACCES: "you may not write {path}: name a folder of yours, such as one in your home",
    errno.EPERM: "{path} may not be changed (immutable? see lsattr -d): name another folder",
    errno.ENOSPC: "no room to write {path} (disk full, or ulimit -f): free some, or name another",
    errno.ELOOP: "{path} goes through a loop of symbolic links: remove the link, or name another",
    errno.ENAMETOOLONG: "a name in {path} is too long for the disk: name a shorter folder",
}
PROBLEMS[errno.ENOTDIR] = PROBLEMS[errno.EEXIST]  # a file where a folder of the path belongs
PROBLEMS[errno.EFBIG] = PROBLEMS[errno.EDQUOT] = PROBLEMS[errno.ENOSPC]


def main(argv: list[str] | None = None) -> int:
    """Run one subcommand; its exit status."""
    parser = argparse.ArgumentParser(
        prog="bpe-workshop", description="A teaching series on Byte Pair Encoding: install it, "
        "open it, check it, take it to a room.",
        epilog="example: bpe-workshop start my-course   (then open the address it prints)")
    version = setup_check.installed_version(setup_check.DISTRIBUTION) or "(not installed)"
    parser.add_argument("--version", action="version", version=f"%(prog)s {version}")
    subparsers = parser.add_subparsers(title="commands", metavar="COMMAND", required=True,
                                       dest="command")
    register_start(subparsers)
    subparsers.add_parser(
        "check", help="the set-up check: one line per check, and the fix for each failure",
        description="Check Python, the packages, JupyterLab's extensions, the offline "
                    "encodings, the data and a tiny training run; exit 1 if anything failed.",
    ).set_defaults(run=lambda args: setup_check.main())
    for command in (wheelhouse, hub, site):  # each module registers its own command
        command.register(subparsers)
    argv = list(sys.argv[1:] if argv is None else argv)
    cut = argv.index("--") if "--" in argv else len(argv)  # what follows `--` is Jupyter's
    args = parser.parse_args(argv[:cut])  # subtle: so an unknown option before it is refused
    if cut < len(argv) and not getattr(args, "takes_extra", False):
        parser.error(f"unrecognized arguments: {' '.join(argv[cut:])}")
    args.extra = argv[cut + 1:]
    try:
        return args.run(args)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:  # `... | head -3` closed the pipe: stop quietly, as a filter does
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
    except (OSError, ValueError) as err:  # failed (1), or a value of the command line refused (2)
        print(f"bpe-workshop {args.command}: {explain(err)}", file=sys.stderr)
        return 1 if isinstance(err, OSError) else 2


def explain(err: OSError | ValueError) -> str:
    """An error as one sentence: the path or the value, what is wrong, what to do.

    >>> explain(OSError(errno.ENOSPC, "No space left on device", "course/04.ipynb"))
    'no room to write course/04.ipynb (disk full, or ulimit -f): free some, or name another'
    """
    path = isinstance(err, OSError) and err.errno and (err.filename2 or err.filename)
    if not path:  # a rename names its target, filename2
        return str(err)  # ours, already a sentence, or no path to name
    return PROBLEMS.get(err.errno, "{path}: {strerror}").format(path=path, strerror=err.strerror)


def register_start(subparsers) -> None:
    parser = subparsers.add_parser(
        "start", help="copy the series into a folder (first run) and open it in JupyterLab",
        description="Copy the series into FOLDER on the first run, then open JupyterLab at "
                    "notebook 00 there. Later runs never overwrite a notebook you changed: a "
                    "newer one from an upgrade goes beside yours as NAME.new.ipynb. Anything "
                    "after -- goes to Jupyter.",
        epilog="example: bpe-workshop start my-course --port 8890 -- --ServerApp.ip=0.0.0.0")
    parser.add_argument("folder", nargs="?", type=series.folder_argument,
                        default=series.FOLDER, help="where the series lives (default: "
                        f"./{series.FOLDER})")
    parser.add_argument("--reset", metavar="NN", help="put notebook NN (e.g. 04) back as the "
                        "release has it; yours is kept as NAME.backup.ipynb")
    parser.add_argument("--port", type=series.port,
                        help="JupyterLab's port (default: Jupyter's, 8888)")
    parser.add_argument("--no-browser", action="store_true", help="do not open a browser")
    parser.add_argument("--no-lab", action="store_true",
                        help="copy or update the series, then stop")
    parser.set_defaults(run=start, takes_extra=True)


def start(args) -> int:
    lines = (series.copy_series(args.folder) if args.reset is None
             else series.reset_notebook(args.folder, args.reset))
    print("\n".join(lines), flush=True)
    if args.no_lab:
        return 0
    from jupyterlab.labapp import LabApp  # `jupyter lab` itself (slow to import: only here)

    # subtle: JupyterLab runs in this process, so a SIGTERM or SIGINT sent to `bpe-workshop
    # start` reaches JupyterLab itself, which stops its kernels
    os.chdir(args.folder)
    LabApp.launch_instance(lab_arguments(args.folder, args.port, args.no_browser, args.extra))
    return 0


def lab_arguments(folder: Path, port: int | None, no_browser: bool, extra: list[str]) -> list[str]:
    """``jupyter lab``'s arguments: ``folder``, opening notebook 00; as root, ``--allow-root``.

    >>> lab_arguments(Path("course"), 8890, True, ["--ServerApp.token=x"])  # doctest: +ELLIPSIS
    ['00_why_tokenization.ipynb', '--LabApp.default_url=/lab/tree/00_why_tokenization.ipynb', \
'--ServerApp.root_dir=...course', ...'--port=8890', '--no-browser', '--ServerApp.token=x']
    """
    command = [series.FIRST, f"--LabApp.default_url=/lab/tree/{series.FIRST}",
               f"--ServerApp.root_dir={Path(folder).absolute()}"]
    if hasattr(os, "geteuid") and os.geteuid() == 0:  # a container, a cloud VM, a classroom
        command.append("--allow-root")
    if port is not None:
        command.append(f"--port={port}")
    if no_browser:
        command.append("--no-browser")
    return [*command, *extra]
