"""Model files edited by hand: accepted as a person would expect, or a clear error naming the line.

Accepted: a UTF-8 byte order mark, Windows line ends, blank lines at the end. Rejected with the
file and line named: malformed numbers (letters, other scripts' digits, absurd lengths),
JSON nested too deeply, and a special token given twice (which used to drop one id silently).
Every loader reads through one guard: a regular file only, under a size cap, header first.
``python tests/files/test_bad_input_files.py`` prints the table of cases and messages.
"""

import os
import signal
import tracemalloc

import pytest

from bpe_workshop.tokenizers.byte_level import ByteLevelBPE
from bpe_workshop.tokenizers.word_level import WordLevelBPE

BYTE = ('bpe-workshop byte-level v1\npattern none\nbyte-ids identity\nspecial-tokens 1\n'
        '259 "<|endoftext|>"\nmerges 3\n97 97\n97 98\n256 257\n')
WORD = ('bpe-workshop word-level v1\nalphabet ["a", "b"]\nmerges 2\n["a", "b", 3]\n'
        '["ab", "</w>", 2]\n')
DEEP = "[" * 100_000  # json.loads would hit Python's recursion limit


def write(tmp_path, data, name="edited.model"):
    path = tmp_path / name
    path.write_bytes(data if isinstance(data, bytes) else data.encode("utf-8"))
    return path


# ----- accepted ------------------------------------------------------------------------------

ACCEPTED_BYTE = [
    ("a byte order mark", b"\xef\xbb\xbf" + BYTE.encode()),
    ("a trailing blank line", BYTE + "\n"),
    ("trailing blank lines with spaces", BYTE + "\n   \n\t\n"),
    ("Windows line ends and a blank line", BYTE.replace("\n", "\r\n") + "\r\n"),
    ("no final newline", BYTE.rstrip("\n")),
    ("two spaces between ids", BYTE.replace("97 98", "97  98")),
]


@pytest.mark.parametrize("what, data", ACCEPTED_BYTE, ids=[row[0] for row in ACCEPTED_BYTE])
def test_hand_edited_byte_level_file_is_accepted(tmp_path, what, data):
    tok = ByteLevelBPE.load(write(tmp_path, data))
    assert tok.merges == {(97, 97): 256, (97, 98): 257, (256, 257): 258}
    assert tok.encode("aaab<|endoftext|>", allowed_special="all") == [258, 259]


@pytest.mark.parametrize("data", [b"\xef\xbb\xbf" + WORD.encode(), WORD + "\n\n",
                                  WORD.replace("\n", "\r\n") + " \r\n"])
def test_hand_edited_word_level_file_is_accepted(tmp_path, data):
    wl = WordLevelBPE.load(write(tmp_path, data, "edited.wordbpe"))
    assert wl.merges == (("a", "b"), ("ab", "</w>"))
    assert [r.count for r in wl.records] == [3, 2]


# ----- rejected, naming the file and line ----------------------------------------------------

# (what was tried, loader, file text, line, the message after "<path>, line N: ")
REJECTED = [
    ("merge ids in Arabic-Indic digits", ByteLevelBPE.load,
     BYTE.replace("97 98", "\u0669\u0667 98"), 8,
     "expected 2 whole numbers separated by spaces, got '\u0669\u0667 98'"),
    ("a merge id with 5,000 digits", ByteLevelBPE.load,
     BYTE.replace("97 98", "9" * 5000 + " 98"), 8,
     "expected 2 whole numbers separated by spaces, got '9999"),
    ("a negative merge id", ByteLevelBPE.load, BYTE.replace("97 98", "-97 98"),
     8, "expected 2 whole numbers separated by spaces, got '-97 98'"),
    ("a merge count written 3.0", ByteLevelBPE.load, BYTE.replace("merges 3", "merges 3.0"),
     6, "expected a count after 'merges', got '3.0'"),
    ("a merge count with superscript digits", ByteLevelBPE.load,
     BYTE.replace("merges 3", "merges \u00b3"), 6, "expected a count after 'merges', got '\u00b3'"),
    ("a merge count with 5,000 digits", ByteLevelBPE.load,
     BYTE.replace("merges 3", "merges " + "9" * 5000), 6,
     "expected a count after 'merges', got '9999"),
    ("a special token id in words", ByteLevelBPE.load, BYTE.replace('259 "', 'two "'),
     5, "expected a whole number, got 'two'"),
    ("deeply nested JSON as the pattern", ByteLevelBPE.load,
     BYTE.replace("pattern none", "pattern " + DEEP), 2,
     "expected a JSON-quoted string, got '[[[["),
    ("deeply nested JSON as a special token", ByteLevelBPE.load,
     BYTE.replace('"<|endoftext|>"', DEEP), 5, "expected a JSON-quoted string, got '[[[["),
    ("a special token given twice", ByteLevelBPE.load,
     BYTE.replace("special-tokens 1", "special-tokens 2").replace(
         '259 "<|endoftext|>"\n', '259 "<|endoftext|>"\n260 "<|endoftext|>"\n'),
     6, "the special token '<|endoftext|>' is given twice, on lines 5 and 6; keep one line "
        "per special token, with its id"),
    ("two special tokens with one id", ByteLevelBPE.load,
     BYTE.replace("special-tokens 1", "special-tokens 2").replace(
         '259 "<|endoftext|>"\n', '259 "<|endoftext|>"\n259 "<|pad|>"\n'),
     None, "special tokens '<|endoftext|>' and '<|pad|>' both have id 259; give each one its own id"),
    ("an empty special token", ByteLevelBPE.load, BYTE.replace('"<|endoftext|>"', '""'),
     None, "a special token text must not be empty; use e.g. '<|endoftext|>'"),
    ("a word-level file given to ByteLevelBPE", ByteLevelBPE.load, WORD,
     1, "expected the header 'bpe-workshop byte-level v1', got 'bpe-workshop word-level v1'; "
        "this is a word-level model file: load it with WordLevelBPE.load"),
    ("word level: deeply nested JSON as the alphabet", WordLevelBPE.load,
     WORD.replace('["a", "b"]\n', DEEP + "\n"), 2,
     "expected a sorted JSON list of distinct single characters, got '[[[["),
    ("word level: deeply nested JSON as a merge", WordLevelBPE.load,
     WORD.replace('["a", "b", 3]', DEEP), 4, 'expected a merge as ["left", "right", count]'),
    ("word level: a count with 5,000 digits", WordLevelBPE.load,
     WORD.replace('["a", "b", 3]', '["a", "b", ' + "9" * 5000 + "]"), 4,
     'expected a merge as ["left", "right", count]'),
    ("word level: merges in Devanagari digits", WordLevelBPE.load,
     WORD.replace("merges 2", "merges \u0968"), 3, "expected a count after 'merges', got '\u0968'"),
    ("a byte-level file given to WordLevelBPE", WordLevelBPE.load, BYTE,
     1, "expected the header 'bpe-workshop word-level v1', got 'bpe-workshop byte-level v1'; "
        "this is a byte-level model file: load it with ByteLevelBPE.load"),
]


@pytest.mark.parametrize("what, load, data, line, message", REJECTED,
                         ids=[row[0] for row in REJECTED])
def test_hand_edited_file_is_rejected_naming_file_and_line(tmp_path, what, load, data, line,
                                                           message):
    path = write(tmp_path, data)
    with pytest.raises(ValueError) as info:
        load(path)
    where = f"{path}: " if line is None else f"{path}, line {line}: "  # None: a rule, not a line
    assert str(info.value).startswith(where + message)


def interrupted_after(seconds: int, call):
    """``call()``, or a failure naming the wait if it blocks (opening a pipe waits for a writer):
    an alarm interrupts it, so a regression fails the test instead of hanging the suite."""
    def stop(signum, frame):
        pytest.fail(f"still reading after {seconds} s: the file was opened, not refused unread")
    previous = signal.signal(signal.SIGALRM, stop)
    signal.alarm(seconds)
    try:
        return call()
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


@pytest.mark.parametrize("load", [ByteLevelBPE.load, WordLevelBPE.load])
def test_a_folder_a_device_or_a_pipe_is_refused_unread(tmp_path, load):
    pipe = tmp_path / "pipe.model"
    os.mkfifo(pipe)  # opening it to read would wait for a writer forever
    for path, kind in [(tmp_path, "a folder"), ("/dev/zero", "a pipe, a device or a socket"),
                       (pipe, "a pipe, a device or a socket")]:
        writer = load.__qualname__.replace("load", "save")
        with pytest.raises(ValueError, match=rf"is not a file \({kind}\); pass a model file "
                                             rf"written by {writer}"):
            interrupted_after(10, lambda path=path: load(path))


@pytest.mark.parametrize("load", [ByteLevelBPE.load, WordLevelBPE.load])
def test_a_big_junk_file_is_refused_after_its_first_line(tmp_path, load):
    path = tmp_path / "junk.model"
    with open(path, "wb") as file:
        file.write(b"junk " * 100 + b"\n")
        file.truncate(60 * 2**20)  # 60 MB (sparse: no disk used), under the 64 MB cap
    tracemalloc.start()
    with pytest.raises(ValueError, match=r"junk.model, line 1: expected the header"):
        load(path)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert peak < 2**20  # read whole, the file alone would take 60 MB


def test_a_file_over_the_cap_is_refused_before_reading(tmp_path):
    path = tmp_path / "huge.wordbpe"
    with open(path, "wb") as file:
        file.truncate(65 * 2**20)
    with pytest.raises(ValueError, match=r"is 68,157,440 bytes, more than a model file may be "
                                         r"\(67,108,864\); pass a model file written by "
                                         r"WordLevelBPE.save"):
        WordLevelBPE.load(path)


if __name__ == "__main__":  # print the table of rejected files and their messages
    import pathlib
    import tempfile

    with tempfile.TemporaryDirectory() as name:
        folder = pathlib.Path(name)
        for what, load, data, *_ in REJECTED:
            path = write(folder, data)
            try:
                load(path)
            except ValueError as err:
                shown = str(err).replace(str(folder) + "/", "")
                print(f"| {what} | ValueError: {shown[:160]} |")
