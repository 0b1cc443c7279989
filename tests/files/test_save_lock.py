"""The save lock: a killed save's lock is free at once, a wait is told, a stray folder is named."""

import contextlib
import io
import subprocess
import sys
import textwrap

import pytest

from bpe_workshop.files import model_file
from bpe_workshop.tokenizers.byte_level import ByteLevelBPE

TOK = ByteLevelBPE.train("low lower newest widest " * 3, 260)

HOLDER = """
import sys, time
from pathlib import Path
from bpe_workshop.files.model_file import _locked

with _locked(Path(sys.argv[1])):
    print("held", flush=True)
    time.sleep(60)
"""


def test_the_lock_of_a_killed_save_is_free_at_once(tmp_path, capsys):
    holder = subprocess.Popen([sys.executable, "-c", textwrap.dedent(HOLDER), str(tmp_path)],
                              stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline() == "held\n"
    finally:
        holder.kill()  # a save killed while it holds the lock: its clean-up never runs
        holder.wait()
        holder.stdout.close()
    assert (tmp_path / ".bpe-save.lock").is_file()  # left behind, but no process holds it
    TOK.save(tmp_path / "mine")  # a lock still held would wait 30 s, then raise TimeoutError
    assert ByteLevelBPE.load(tmp_path / "mine").merges == TOK.merges
    assert sorted(p.name for p in tmp_path.iterdir()) == ["mine.model", "mine.vocab"]
    assert capsys.readouterr().err == ""  # no wait to tell of


class ReleasedWhenTold(io.StringIO):
    """A stderr whose first line releases the lock: the other save ends when the wait is told."""

    def __init__(self, held):
        super().__init__()
        self.held = held

    def write(self, text):
        self.held.close()
        return super().write(text)


def test_a_save_waiting_on_a_held_lock_says_so_naming_it(tmp_path, monkeypatch):
    held = contextlib.ExitStack()
    held.enter_context(model_file._locked(tmp_path))  # another save, still running
    monkeypatch.setattr(sys, "stderr", ReleasedWhenTold(held))
    TOK.save(tmp_path / "mine")  # before the fix: 30 s in silence, then a TimeoutError
    lock = tmp_path / ".bpe-save.lock"
    assert sys.stderr.getvalue() == (f"waiting for another save in {str(tmp_path)!r} to finish "
                                     f"(its lock: {str(lock)!r})\n")
    assert ByteLevelBPE.load(tmp_path / "mine").merges == TOK.merges
    assert sorted(p.name for p in tmp_path.iterdir()) == ["mine.model", "mine.vocab"]


def test_a_folder_where_the_lock_goes_is_named(tmp_path):
    (tmp_path / ".bpe-save.lock").mkdir()  # e.g. the lock folder of an earlier version
    with pytest.raises(FileExistsError, match=r"^'.*\.bpe-save\.lock' is in the way of the save "
                                              r"lock; delete it$"):
        TOK.save(tmp_path / "mine")
    assert sorted(p.name for p in tmp_path.iterdir()) == [".bpe-save.lock"]  # nothing else left
