"""Saving never destroys the previous model: a save that fails part-way changes nothing.

The failure is real, not simulated: a child process saves under a file-size limit
(``RLIMIT_FSIZE``, with ``SIGXFSZ`` ignored so that the write raises ``OSError`` instead of
killing the process), over a model saved before. Afterwards the old files must be
byte-identical and load, and nothing else may be left in the folder.
"""

import os
import subprocess
import sys
import textwrap
import threading
from pathlib import Path

import pytest

from bpe_workshop.tokenizers.byte_level import ByteLevelBPE
from bpe_workshop.tokenizers.word_level import WordLevelBPE

ROOT = Path(__file__).resolve().parents[2]
PAPER_TEXT = "low " * 5 + "lower " * 2 + "newest " * 6 + "widest " * 3

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="resource limits are POSIX")

CHILD = """
import resource, signal, sys
from pathlib import Path
from bpe_workshop.tokenizers.byte_level import ByteLevelBPE
from bpe_workshop.files.corpora import load_english
from bpe_workshop.tokenizers.word_level import WordLevelBPE

kind, target, limit = sys.argv[1], Path(sys.argv[2]), int(sys.argv[3])
text = load_english()[:20000]
if kind == "byte-vocab":  # the big file is the .vocab, written first
    tok = ByteLevelBPE.train(text, 600)
elif kind == "byte-model":  # a long pattern makes the .model the big one, written second
    tok = ByteLevelBPE.train(text, 258, pattern="|".join(["x"] * 6000) + r"|\\w+|\\W")
else:
    tok = WordLevelBPE.train(text, 400)
signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
try:
    tok.save(target)
except OSError as err:
    print("OSError", err.errno, err)
else:
    print("saved")
"""


def run_child(kind, target, limit):
    result = subprocess.run([sys.executable, "-c", textwrap.dedent(CHILD), kind, str(target),
                             str(limit)], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    return result.stdout.strip()


def snapshot(folder):
    return {path.name: path.read_bytes() for path in sorted(folder.iterdir())}


@pytest.mark.parametrize("kind", ["byte-vocab", "byte-model"])
def test_failed_byte_level_save_leaves_the_old_pair(tmp_path, kind):
    old = ByteLevelBPE.train(PAPER_TEXT, 266)
    model_path, vocab_path = old.save(tmp_path / "book")
    before = snapshot(tmp_path)
    # the limit lets the old files' sizes through but not the new, bigger file
    limit = max(len(data) for data in before.values()) + 1000
    said = run_child(kind, tmp_path / "book", limit)
    assert said.startswith("OSError 27 ")  # EFBIG: file too large
    assert f"could not save in the folder {str(tmp_path)!r}; the files there are unchanged" in said
    assert snapshot(tmp_path) == before  # same names, same bytes: no temporary file left
    assert ByteLevelBPE.load(model_path).merges == old.merges


def test_the_same_save_succeeds_without_the_limit(tmp_path):
    ByteLevelBPE.train(PAPER_TEXT, 266).save(tmp_path / "book")
    before = snapshot(tmp_path)
    assert run_child("byte-model", tmp_path / "book", 10**9) == "saved"
    after = snapshot(tmp_path)
    assert sorted(after) == ["book.model", "book.vocab"]
    assert after != before
    assert len(ByteLevelBPE.load(tmp_path / "book").merges) == 2


def test_failed_word_level_save_leaves_the_old_file(tmp_path):
    path = WordLevelBPE.train(PAPER_TEXT, 5).save(tmp_path / "words.wordbpe")
    before = snapshot(tmp_path)
    assert run_child("word", path, len(before["words.wordbpe"]) + 200).startswith("OSError 27 ")
    assert snapshot(tmp_path) == before
    assert len(WordLevelBPE.load(path).merges) == 5


def test_saving_again_replaces_the_files_with_ordinary_permissions(tmp_path):
    ByteLevelBPE.train(PAPER_TEXT, 266).save(tmp_path / "book")
    model_path, vocab_path = ByteLevelBPE.train(PAPER_TEXT, 258).save(tmp_path / "book")
    assert len(ByteLevelBPE.load(model_path).merges) == 2
    plain = tmp_path / "plain.txt"
    plain.write_text("x")  # what any other file written here gets
    for path in (model_path, vocab_path):
        assert os.stat(path).st_mode == os.stat(plain).st_mode
    plain.unlink()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["book.model", "book.vocab"]


def test_prefix_with_or_without_the_model_suffix(tmp_path):
    tok = ByteLevelBPE.train(PAPER_TEXT, 260)
    assert tok.save(tmp_path / "a.model") == (tmp_path / "a.model", tmp_path / "a.vocab")
    assert tok.save(str(tmp_path / "b")) == (tmp_path / "b.model", tmp_path / "b.vocab")
    for name in ("a", "a.model", "b", "b.model"):
        assert ByteLevelBPE.load(tmp_path / name).merges == tok.merges
    with pytest.raises(ValueError, match=r"a\.vocab is the vocabulary for people to read; "
                                         r"load the model file .*a\.model instead"):
        ByteLevelBPE.load(tmp_path / "a.vocab")
    with pytest.raises(FileNotFoundError, match=r"no model file .*c or .*c\.model"):
        ByteLevelBPE.load(tmp_path / "c")


@pytest.mark.parametrize(
    "save, error, message",
    [
        (lambda folder: ByteLevelBPE().save(""), ValueError,
         r"prefix must name a file to write, e.g. ByteLevelBPE.save\('models/my_tokenizer'\), "
         r"got ''"),
        (lambda folder: ByteLevelBPE().save(folder), ValueError,
         r"is a folder; name a file inside it, e.g. '.*/tokenizer'"),
        (lambda folder: ByteLevelBPE().save(str(folder) + "/"), ValueError,
         r"prefix must name a file to write"),
        (lambda folder: ByteLevelBPE().save(folder / ".model"), ValueError,
         r"prefix must name a file to write"),
        (lambda folder: ByteLevelBPE().save(folder / "missing" / "tok"), FileNotFoundError,
         r"the folder '.*missing' does not exist; create it first, e.g. "
         r"Path\('.*missing'\).mkdir\(parents=True\)"),
        (lambda folder: ByteLevelBPE().save(None), TypeError,
         r"prefix must be a str or a pathlib.Path, e.g. ByteLevelBPE.save\('models/my_tokenizer'"
         r"\), got NoneType"),
        (lambda folder: WordLevelBPE(["a"], []).save(""), ValueError,
         r"path must name a file to write, e.g. WordLevelBPE.save\('models/my_words.wordbpe'\)"),
        (lambda folder: WordLevelBPE(["a"], []).save(folder), ValueError, r"is a folder"),
    ],
    ids=["empty", "folder", "trailing slash", "only the suffix", "missing folder", "None",
         "word-level empty", "word-level folder"],
)
def test_bad_save_targets(tmp_path, save, error, message):
    with pytest.raises(error, match=message):
        save(tmp_path)
    assert list(tmp_path.iterdir()) == []  # nothing written anywhere


def test_a_failed_second_rename_puts_the_first_file_back(tmp_path, monkeypatch):
    old = ByteLevelBPE.train(PAPER_TEXT, 266)
    old.save(tmp_path / "book")
    before = snapshot(tmp_path)
    real_replace, calls = os.replace, []

    def replace_then_fail(source, target):  # the .vocab goes in, then the .model fails
        calls.append(target)
        if len(calls) == 2:
            raise OSError(5, "Input/output error")
        real_replace(source, target)

    monkeypatch.setattr(os, "replace", replace_then_fail)
    with pytest.raises(OSError, match="could not save in the folder"):
        ByteLevelBPE.train(PAPER_TEXT, 258).save(tmp_path / "book")
    assert [path.name for path in calls] == ["book.vocab", "book.model"]
    assert snapshot(tmp_path) == before  # the old .vocab is back beside the old .model


def test_concurrent_saves_to_one_prefix_leave_a_matching_pair(tmp_path):
    models = [ByteLevelBPE.train(PAPER_TEXT, size) for size in (258, 266)]
    start, done = threading.Barrier(3), threading.Barrier(3)  # two savers and this test
    rounds = 200

    def save_many(tok):
        for _ in range(rounds):
            start.wait()
            tok.save(tmp_path / "shared")
            done.wait()

    threads = [threading.Thread(target=save_many, args=(tok,)) for tok in models]
    for thread in threads:
        thread.start()
    mismatched = 0
    for _ in range(rounds):
        start.wait()
        done.wait()  # both saves of this round are over: the pair must agree
        merges = len(ByteLevelBPE.load(tmp_path / "shared").merges)
        vocab = (tmp_path / "shared.vocab").read_text(encoding="utf-8")
        mismatched += len(vocab.splitlines()) != 1 + 256 + merges  # one line per id
    for thread in threads:
        thread.join()
    assert mismatched == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["shared.model", "shared.vocab"]


def test_home_folder_long_names_and_a_stale_lock(tmp_path, monkeypatch):
    monkeypatch.setenv("HOME", str(tmp_path))
    tok = ByteLevelBPE.train(PAPER_TEXT, 260)
    assert tok.save("~/mine")[0] == tmp_path / "mine.model"  # ~ is the home folder
    assert ByteLevelBPE.load("~/mine.model").merges == tok.merges
    long_name = "n" * 244  # + ".model" is 250 bytes, near the 255 most file systems allow
    tok.save(tmp_path / long_name)
    assert ByteLevelBPE.load(tmp_path / long_name).merges == tok.merges
    (tmp_path / ".bpe-save.lock").touch()  # left by a save that was killed
    tok.save(tmp_path / "mine")
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(
        ["mine.model", "mine.vocab", long_name + ".model", long_name + ".vocab"])
