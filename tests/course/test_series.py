"""Copying the series into a learner's folder: what a first run, an upgrade and a reset do.

An upgrade is played by changing what the manifest says was copied (as if an older release had
written the folder): the release's files themselves are the package's and stay untouched.
"""

import json

import pytest

from bpe_workshop.course import series
from bpe_workshop.course.cli import main
from bpe_workshop.course.series import MANIFEST, copy_series, release_files, reset_notebook

NB04 = "04_byte_level_bpe.ipynb"


def as_if_an_older_release_copied(folder, name):
    """Make the folder's manifest say ``name`` was copied from an older release."""
    manifest = json.loads((folder / MANIFEST).read_text())
    manifest["files"][name] = "0" * 64
    (folder / MANIFEST).write_text(json.dumps(manifest))


def test_the_release_carries_eleven_notebooks_and_their_solutions():
    names = release_files()
    notebooks = [name for name in names if "/" not in name]
    solutions = [name for name in names if name.startswith("solutions/")]
    assert len(notebooks) == 11 and len(solutions) == 11 and len(names) == 22
    assert [name[:2] for name in notebooks] == [f"{n:02}" for n in range(11)]


def test_a_first_run_copies_every_notebook_byte_for_byte(tmp_path):
    folder = tmp_path / "course"
    lines = copy_series(folder)
    assert lines == [f"Copied 11 notebooks and 11 solutions into {folder}."]
    for name, release in release_files().items():
        assert (folder / name).read_bytes() == release
    assert copy_series(folder) == [f"The series in {folder} is up to date."]


def test_a_learners_edit_survives_a_second_run(tmp_path):
    copy_series(tmp_path)
    (tmp_path / NB04).write_text("my own notes")
    assert copy_series(tmp_path) == [f"The series in {tmp_path} is up to date."]
    assert (tmp_path / NB04).read_text() == "my own notes"
    assert not (tmp_path / "04_byte_level_bpe.new.ipynb").exists()


def test_a_newer_release_goes_beside_a_changed_notebook_and_replaces_an_unchanged_one(tmp_path):
    copy_series(tmp_path)
    (tmp_path / NB04).write_text("my own notes")
    as_if_an_older_release_copied(tmp_path, NB04)
    old_05 = "05_word_level_bpe.ipynb"
    (tmp_path / old_05).write_text("the older release's 05")
    as_if_an_older_release_copied(tmp_path, old_05)
    manifest = json.loads((tmp_path / MANIFEST).read_text())
    manifest["files"][old_05] = series._sha(b"the older release's 05")
    (tmp_path / MANIFEST).write_text(json.dumps(manifest))

    lines = copy_series(tmp_path)

    assert lines == [f"Updated, since you had not changed them: {old_05}.",
                     "04_byte_level_bpe.new.ipynb: this release's version of a notebook you "
                     "changed, beside yours (yours is untouched)."]
    assert (tmp_path / NB04).read_text() == "my own notes"
    assert (tmp_path / "04_byte_level_bpe.new.ipynb").read_bytes() == \
        release_files()[NB04]
    assert (tmp_path / old_05).read_bytes() == release_files()[old_05]
    # the learner's 04 is still known as theirs: a third run writes nothing new
    (tmp_path / "04_byte_level_bpe.new.ipynb").write_text("notes in the new one too")
    copy_series(tmp_path)
    assert (tmp_path / "04_byte_level_bpe.new.ipynb").read_text() == "notes in the new one too"
    assert (tmp_path / "04_byte_level_bpe.new-2.ipynb").exists()


@pytest.mark.parametrize("damage", ["", "{not json", '{"files": [1, 2]}', '"files"'])
def test_a_damaged_manifest_counts_every_difference_as_the_learners(tmp_path, damage):
    copy_series(tmp_path)
    (tmp_path / NB04).write_text("my own notes")
    (tmp_path / MANIFEST).write_text(damage)
    lines = copy_series(tmp_path)
    assert (tmp_path / NB04).read_text() == "my own notes"
    assert lines == ["04_byte_level_bpe.new.ipynb: this release's version of a notebook you "
                     "changed, beside yours (yours is untouched)."]


def test_reset_restores_one_notebook_and_keeps_the_learners_as_a_backup(tmp_path):
    copy_series(tmp_path)
    (tmp_path / NB04).write_text("first attempt")
    said = reset_notebook(tmp_path, "04")
    assert said == [f"Your {NB04} is kept as 04_byte_level_bpe.backup.ipynb.",
                    f"{NB04} is the release's again."]
    assert (tmp_path / NB04).read_bytes() == release_files()[NB04]
    assert (tmp_path / "04_byte_level_bpe.backup.ipynb").read_text() == "first attempt"
    (tmp_path / NB04).write_text("second attempt")
    reset_notebook(tmp_path, "04")
    assert (tmp_path / "04_byte_level_bpe.backup.ipynb").read_text() == "first attempt"
    assert (tmp_path / "04_byte_level_bpe.backup-2.ipynb").read_text() == "second attempt"


@pytest.mark.parametrize("name", ["4", "0", "99", "../04", "solutions",
                                  "04_byte_level_bpe", ""])
def test_reset_of_anything_but_a_notebooks_number_says_which_there_are(tmp_path, name, capsys):
    copy_series(tmp_path)
    before = {path: path.read_bytes() for path in tmp_path.rglob("*") if path.is_file()}
    assert main(["start", str(tmp_path), "--no-lab", "--reset", name]) == 2
    numbers = ", ".join(known[:2] for known in release_files() if "/" not in known)  # 00, 01...
    assert capsys.readouterr().err == (f"bpe-workshop start: --reset takes the number of a "
                                       f"notebook ({numbers}), not {name!r}\n")
    assert {path: path.read_bytes() for path in tmp_path.rglob("*") if path.is_file()} == before


def test_the_clones_own_notebooks_folder_is_opened_where_it_is():
    assert copy_series(series.SERIES) == [
        f"Opening the series where it lives, {series.SERIES} (nothing to copy)."]


def test_the_command_line_names_its_commands_and_version(capsys):
    with pytest.raises(SystemExit) as done:
        main(["--help"])
    assert done.value.code == 0
    shown = capsys.readouterr().out
    assert all(command in shown for command in ("start", "check", "wheelhouse"))
    with pytest.raises(SystemExit):
        main(["--version"])
    assert capsys.readouterr().out.startswith("bpe-workshop 0.")
    with pytest.raises(SystemExit) as done:
        main(["check", "--surprise"])
    assert done.value.code == 2
    assert "unrecognized arguments: --surprise" in capsys.readouterr().err
