"""The save lock: a killed save's lock is taken over, a wait is told, a stray file is named."""

import io
import os
import shutil
import subprocess
import sys

import pytest

from bpe_workshop.tokenizers.byte_level import ByteLevelBPE

TOK = ByteLevelBPE.train("low lower newest widest " * 3, 260)


def dead_pid() -> int:
    """The id of a process that has ended (the system does not reuse it at once)."""
    child = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                           capture_output=True, text=True, check=True)
    return int(child.stdout)


@pytest.mark.skipif(os.name != "posix", reason="a process is asked for by its id on POSIX only")
def test_a_fresh_lock_left_by_a_killed_save_is_taken_over_at_once(tmp_path, capsys):
    lock = tmp_path / ".bpe-save.lock"
    lock.mkdir()
    (lock / str(dead_pid())).touch()  # fresh: a minute ago the save was running
    TOK.save(tmp_path / "mine")  # before the fix: 30 s of waiting, then a TimeoutError
    assert ByteLevelBPE.load(tmp_path / "mine").merges == TOK.merges
    assert sorted(p.name for p in tmp_path.iterdir()) == ["mine.model", "mine.vocab"]
    assert capsys.readouterr().err == ""  # no wait to tell of


class ReleasedWhenTold(io.StringIO):
    """A stderr whose first line releases the lock: the other save ends when the wait is told."""

    def __init__(self, lock):
        super().__init__()
        self.lock = lock

    def write(self, text):
        shutil.rmtree(self.lock, ignore_errors=True)
        return super().write(text)


def test_a_save_waiting_on_a_live_lock_says_so_naming_it(tmp_path, monkeypatch):
    lock = tmp_path / ".bpe-save.lock"
    lock.mkdir()
    (lock / str(os.getpid())).touch()  # this process: alive, so the lock is honoured
    monkeypatch.setattr(sys, "stderr", ReleasedWhenTold(lock))
    TOK.save(tmp_path / "mine")  # before the fix: 30 s in silence, then a TimeoutError
    assert sys.stderr.getvalue() == (f"waiting for another save in {str(tmp_path)!r} to finish "
                                     f"(its lock: {str(lock)!r})\n")
    assert ByteLevelBPE.load(tmp_path / "mine").merges == TOK.merges


def test_a_file_where_the_lock_goes_is_named(tmp_path):
    (tmp_path / ".bpe-save.lock").write_text("not a lock")
    with pytest.raises(FileExistsError, match=r"^'.*\.bpe-save\.lock' is in the way of the save "
                                              r"lock; delete it$"):
        TOK.save(tmp_path / "mine")
    assert sorted(p.name for p in tmp_path.iterdir()) == [".bpe-save.lock"]  # nothing else left
