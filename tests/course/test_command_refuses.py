"""``bpe-workshop`` refuses what it cannot do, in one sentence that names the path and the way out.

Each case runs the command as a learner meets it, through ``main``: in this process, or in a
forked child where the case needs the process itself set up (another user, ``ulimit -f``, a
working folder deleted under it) or could hang (a pipe where a file belongs). The child stops
itself after a minute, so a command that hangs fails its test instead of stopping the run.
"""

from __future__ import annotations

import errno
import hashlib
import io
import json
import os
import pwd
import resource
import shutil
import signal
import subprocess
import sys
import traceback
from pathlib import Path

import pytest

from bpe_workshop.course import series
from bpe_workshop.course.cli import explain, main
from bpe_workshop.course.series import MANIFEST, copy_series, release_files

NB04 = "04_byte_level_bpe.ipynb"


def in_a_child(argv, *, user=None, file_size=None, gone=None) -> tuple[int, str]:
    """Run ``main(argv)`` in a forked process, as ``user``, with a file size limit, or in the
    folder ``gone`` removed after the child entered it: its exit status and its stderr."""
    return ended(*forked(argv, user=user, file_size=file_size, gone=gone))


def forked(argv, *, user=None, file_size=None, gone=None) -> tuple[int, int]:
    """Start ``main(argv)`` in a forked child set up as :func:`in_a_child` says; its pid and the
    pipe its stderr comes back on."""
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: set up, run, send stderr back, never return into pytest
        code = 70
        try:
            os.close(read)
            signal.alarm(60)  # a hang ends the child, and the test fails
            sys.stderr = io.StringIO()
            try:
                if gone is not None:
                    os.chdir(gone)
                    os.rmdir(gone)
                if file_size is not None:
                    resource.setrlimit(resource.RLIMIT_FSIZE, (file_size, file_size))
                if user is not None:
                    os.setgid(pwd.getpwnam(user).pw_gid)
                    os.setuid(pwd.getpwnam(user).pw_uid)
                code = main(argv)
            except SystemExit as done:
                code = done.code
            except BaseException:  # noqa: BLE001 - a traceback is what the test must see
                traceback.print_exc()
            os.write(write, sys.stderr.getvalue().encode())
        finally:
            os._exit(code)
    os.close(write)
    return pid, read


def ended(pid: int, read: int) -> tuple[int, str]:
    """A forked child's exit status and stderr, once it ends."""
    with os.fdopen(read, "rb") as pipe:
        said = pipe.read().decode()
    return os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1]), said


def leftovers(folder: Path) -> list[str]:
    return sorted(path.name for path in folder.rglob("*.partial"))


# -- the command line ------------------------------------------------------------------------


def test_an_unknown_option_before_the_dashes_is_refused(tmp_path, capsys):
    with pytest.raises(SystemExit) as done:
        main(["start", str(tmp_path / "course"), "--no-lab", "--rest", "04"])
    assert done.value.code == 2
    assert capsys.readouterr().err.endswith("error: unrecognized arguments: --rest 04\n")
    assert not (tmp_path / "course").exists()
    # after `--` the same words are Jupyter's, and the series is copied
    assert main(["start", str(tmp_path / "course"), "--no-lab", "--", "--rest", "04"]) == 0
    assert (tmp_path / "course" / NB04).exists()


@pytest.mark.parametrize("port", ["99999999", "0", "65536", "-1", "http"])
def test_a_port_out_of_range_is_refused(tmp_path, capsys, port):
    with pytest.raises(SystemExit) as done:
        main(["start", str(tmp_path), "--no-lab", "--port", port])
    assert done.value.code == 2
    assert capsys.readouterr().err.endswith(
        f"error: argument --port: {port} is not a port: give a number from 1 to 65535, "
        "such as 8890\n")
    assert not any(tmp_path.iterdir())


def test_reset_in_a_folder_the_series_was_never_copied_into_is_refused(tmp_path, capsys):
    typo = tmp_path / "coures"
    assert main(["start", str(typo), "--no-lab", "--reset", "04"]) == 2
    assert capsys.readouterr().err == (
        f"bpe-workshop start: the series was never copied into {typo}: check the folder's "
        f"name, or run `bpe-workshop start {typo}` first\n")
    assert not typo.exists()


@pytest.mark.parametrize("command", [["start", "--no-lab"],  # a wheel that is not there: no pip
                                     ["wheelhouse", "--wheel", "not-there.whl"]])
@pytest.mark.parametrize(("folder", "problem"), [
    ("~nosuchuser-bpe/x", "~nosuchuser-bpe/x: no user 'nosuchuser-bpe' on this machine"),
    ("", "the folder's name is empty")])
def test_an_unknown_user_or_an_empty_name_as_the_folder_is_refused(tmp_path, monkeypatch, capsys,
                                                                    command, folder, problem):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(SystemExit) as done:
        main([*command, folder])
    assert done.value.code == 2
    assert capsys.readouterr().err.endswith(
        f"error: argument folder: {problem}: give the folder's whole path\n")
    assert not any(tmp_path.iterdir())


def test_a_deleted_working_folder_is_named(tmp_path):
    gone = tmp_path / "gone"
    gone.mkdir()
    code, said = in_a_child(["start", "--no-lab"], gone=gone)
    assert code == 2, said
    assert said.endswith("error: argument folder: the current folder no longer exists: give the "
                         "folder's whole path\n")


# -- the installed series ----------------------------------------------------------------------


def test_a_damaged_or_missing_notebook_of_the_installed_series_is_named(tmp_path, monkeypatch,
                                                                        capsys):
    installed = tmp_path / "site-packages" / "bpe_workshop"  # as a wheel lays it out
    shutil.copytree(series.SERIES, installed / "notebooks")
    lines = [f"{hashlib.sha256(path.read_bytes()).hexdigest()}  "
             f"{path.relative_to(installed).as_posix()}"
             for path in sorted(installed.rglob("*.ipynb"))]
    (installed / "series.sha256").write_text("\n".join(lines) + "\n")
    monkeypatch.setattr(series, "SERIES", installed / "notebooks")
    monkeypatch.setattr(series, "BUILT", installed / "series.sha256")
    # intact, it copies
    assert main(["start", str(tmp_path / "ok"), "--no-lab"]) == 0
    # a notebook cut short, and a solution deleted
    nb04 = installed / "notebooks" / NB04
    nb04.write_bytes(nb04.read_bytes()[:1000])
    (installed / "notebooks" / "solutions" / "07_train_your_own_solutions.ipynb").unlink()
    capsys.readouterr()
    assert main(["start", str(tmp_path / "course"), "--no-lab"]) == 1
    error = capsys.readouterr().err
    assert error.startswith(
        f"bpe-workshop start: the installed series is damaged, {NB04}, "
        "solutions/07_train_your_own_solutions.ipynb missing or changed: reinstall the course into "
        f'this Python: "{sys.executable}" -m pip install --force-reinstall bpe-workshop')
    assert error.count("\n") == 1
    assert not (tmp_path / "course").exists()


# -- the learner's folder ----------------------------------------------------------------------


def test_a_file_where_the_folder_belongs_is_named(tmp_path, capsys):
    notes = tmp_path / "notes.txt"
    notes.write_text("mine")
    assert main(["start", str(notes), "--no-lab"]) == 1
    assert capsys.readouterr().err == (f"bpe-workshop start: a file is in the way of folder "
                                       f"{notes}: move it, or name another folder\n")
    assert notes.read_text() == "mine"


def test_a_symbolic_link_loop_is_named(tmp_path, capsys):
    loop = tmp_path / "loop"
    loop.symlink_to(loop)
    assert main(["start", str(loop / "course"), "--no-lab"]) == 1
    assert capsys.readouterr().err == (
        f"bpe-workshop start: {loop / 'course'} goes through a loop of symbolic links: remove "
        "the link, or name another\n")
    assert main(["start", str(loop), "--no-lab"]) == 1
    assert capsys.readouterr().err == (f"bpe-workshop start: a file is in the way of folder "
                                       f"{loop}: move it, or name another folder\n")


def test_a_name_too_long_for_the_disk_is_named(tmp_path, capsys):
    long = tmp_path / ("a" * 300)
    assert main(["start", str(long), "--no-lab"]) == 1
    assert capsys.readouterr().err == (f"bpe-workshop start: a name in {long} is too long for "
                                       "the disk: name a shorter folder\n")


@pytest.mark.parametrize("what", ["pipe as the manifest", "pipe as a notebook",
                                  "/dev/zero as the manifest", "folder as a notebook"])
def test_a_pipe_a_device_or_a_folder_in_a_files_place_is_refused_unread(tmp_path, what):
    course = tmp_path / "course"
    copy_series(course)
    path = course / (MANIFEST if "manifest" in what else NB04)
    path.unlink()
    if what.startswith("pipe"):
        os.mkfifo(path)
    elif what.startswith("folder"):
        path.mkdir()
    else:
        path.symlink_to("/dev/zero")
    code, said = in_a_child(["start", str(course), "--no-lab"])
    assert code == 1, said
    assert said == (f"bpe-workshop start: {path} is not a file (a pipe, a device or a folder?): "
                    "move it away, then run the command again\n")
    assert leftovers(course) == []


def test_a_manifest_nested_too_deep_counts_as_damaged(tmp_path, capsys):
    course = tmp_path / "course"
    copy_series(course)
    (course / NB04).write_text("my own notes")
    (course / MANIFEST).write_text("[" * 100_000)
    assert main(["start", str(course), "--no-lab"]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == (
        "04_byte_level_bpe.new.ipynb: this release's version of a notebook you changed, beside "
        "yours (yours is untouched).")
    assert (course / NB04).read_text() == "my own notes"
    assert json.loads((course / MANIFEST).read_text())["files"]


@pytest.mark.skipif(os.geteuid() != 0, reason="becoming another user (nobody) needs root")
def test_a_folder_you_may_not_write_is_named(tmp_path):
    shared = tmp_path / "shared"
    shared.mkdir(mode=0o755)
    code, said = in_a_child(["start", str(shared / "course"), "--no-lab"], user="nobody")
    assert code == 1, said
    assert said == (f"bpe-workshop start: you may not write {shared / 'course'}: name a folder "
                    "of yours, such as one in your home\n")


def test_an_immutable_folder_is_named(tmp_path):
    course = tmp_path / "course"
    course.mkdir()
    if subprocess.run(["chattr", "+i", str(course)], capture_output=True).returncode != 0:
        pytest.skip("chattr +i needs root on a file system with attributes (ext4, xfs)")
    try:
        code, said = in_a_child(["start", str(course), "--no-lab"])
    finally:
        subprocess.run(["chattr", "-i", str(course)], check=True)
    assert code == 1, said
    assert said == (f"bpe-workshop start: {course / 'solutions'} may not be changed (immutable? "
                    "see lsattr -d): name another folder\n")


def test_a_file_size_limit_is_named_and_leaves_no_partial_file(tmp_path):
    course = tmp_path / "course"
    code, said = in_a_child(["start", str(course), "--no-lab"], file_size=4096)
    assert code == 1, said
    first = course / "00_why_tokenization.ipynb"
    assert said == (f"bpe-workshop start: no room to write {first} (disk full, or ulimit -f): "
                    "free some, or name another\n")
    assert leftovers(course) == [] and not first.exists()


def test_36_starts_at_once_into_one_folder_all_succeed(tmp_path):
    course = tmp_path / "course"
    children = [forked(["start", str(course), "--no-lab"]) for _ in range(36)]
    assert [ended(*child) for child in children] == [(0, "")] * 36
    assert leftovers(course) == []
    for name, release in release_files().items():
        assert (course / name).read_bytes() == release


def test_the_wheelhouse_onto_an_existing_file_is_named(tmp_path, capsys):
    kit = tmp_path / "kit"
    kit.write_text("not a folder")
    assert main(["wheelhouse", str(kit)]) == 1
    assert capsys.readouterr().err == (f"bpe-workshop wheelhouse: a file is in the way of folder "
                                       f"{kit}: move it, or name another folder\n")


def test_an_error_with_no_sentence_of_ours_still_names_the_path():
    said = explain(OSError(errno.EIO, "Input/output error", "/mnt/usb/course"))
    assert said == "/mnt/usb/course: Input/output error"
