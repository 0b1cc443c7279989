"""Bad model files: each is refused with a ValueError naming the file, the line and the fix.

The table below is the record of what was tried; ``python tests/files/test_bad_input_model_files.py``
prints it with the actual messages.
"""

import re
import warnings

import pytest

from bpe_workshop.files.model_file import BYTE_LEVEL_HEADER as HEADER
from bpe_workshop.tokenizers.byte_level import ByteLevelBPE

load = ByteLevelBPE.load  # model_file returns plain data; the class builds itself from it

GOOD = (f"{HEADER}\npattern none\nbyte-ids identity\nspecial-tokens 1\n259 \"<|endoftext|>\"\n"
        f"merges 3\n97 97\n97 98\n256 257\n")

# (what was tried, file bytes, line N, regex the message must match after "<path>, line N: ";
#  line None: a rule of the tokenizer, checked by its constructor, after "<path>: ")
MODEL_FILES = [
    ("truncated in the merges", GOOD.encode()[:-9], 9, r"the file ends where merge 3 was expected \(truncated\?\)"),
    ("cut after the header", (HEADER + "\n").encode(), 2, r"the file ends where 'pattern \.\.\.' was expected"),
    ("empty file", b"", 1, r"the file ends where the header line was expected"),
    ("wrong version", GOOD.replace(" v1", " v2").encode(), 1,
     r"this file is format 'bpe-workshop byte-level v2', but this version of bpe_workshop reads only "
     r"'bpe-workshop byte-level v1'"),
    ("not a model file", b"hello\nworld\n", 1, r"expected the header 'bpe-workshop byte-level v1', got 'hello'"),
    ("a pickle", b"\x80\x04\x95\x00", 1, r"not UTF-8 text \(byte 0x80\)"),
    ("non-UTF-8 on line 7", GOOD.replace("97 97", "97 \xe9").encode("latin-1"), 7, r"not UTF-8 text \(byte 0xe9\)"),
    ("merge line with letters", GOOD.replace("97 98", "97 b").encode(), 8,
     r"expected 2 whole numbers separated by spaces, got '97 b'"),
    ("merge of an id not made yet", GOOD.replace("256 257", "256 258").encode(), None,
     r"merge \(256, 258\) -> 258 does not fit: each merge must combine ids that exist already"),
    ("merge given twice", GOOD.replace("256 257", "97 97").encode(), 9, r"merge 97 97 repeats merge 1"),
    ("merge count too high", GOOD.replace("merges 3", "merges 4").encode(), 10, r"the file ends where merge 4 was expected"),
    ("text after the merges", (GOOD + "1 2\n").encode(), 10, r"unexpected text after the last merge"),
    ("count is not a number", GOOD.replace("merges 3", "merges three").encode(), 6,
     r"expected a count after 'merges', got 'three'"),
    ("pattern not quoted", GOOD.replace("pattern none", "pattern \\s+").encode(), 2,
     r"expected a JSON-quoted string, got '\\\\s\+'"),
    ("invalid pattern", GOOD.replace("pattern none", 'pattern "(a"').encode(), None, r"invalid split pattern r'\(a'"),
    ("byte-ids repeat an id", GOOD.replace("identity", " ".join(["0"] * 256)).encode(), None,
     r"byte_ids must list the ids 0..255, each once"),
    ("special token colliding with a merge", GOOD.replace("259 \"", "257 \"").encode(), None,
     r"special token '<\|endoftext\|>' has id 257, which collides with the byte and merge ids 0..258"),
]


@pytest.mark.parametrize("what, data, line, message", MODEL_FILES, ids=[row[0] for row in MODEL_FILES])
def test_bad_model_file(tmp_path, what, data, line, message):
    path = tmp_path / "bad.model"
    path.write_bytes(data)
    where = f"{path}: " if line is None else f"{path}, line {line}: "
    with pytest.raises(ValueError, match="^" + re.escape(where) + message):
        load(path)


def test_good_model_file_of_the_table_loads(tmp_path):
    path = tmp_path / "good.model"
    path.write_text(GOOD, encoding="utf-8")
    assert load(path).encode("aaabdaaabac<|endoftext|>", allowed_special="all") == [258, 100, 258, 97, 99, 259]


def test_missing_model_file(tmp_path):
    with pytest.raises(FileNotFoundError):
        ByteLevelBPE.load(tmp_path / "nowhere.model")


if __name__ == "__main__":  # print the table of bad model files and their messages
    import pathlib
    import tempfile

    warnings.simplefilter("ignore")
    folder = pathlib.Path(tempfile.mkdtemp())
    for what, data, *_ in MODEL_FILES:
        path = folder / "bad.model"
        path.write_bytes(data)
        try:
            load(path)
        except ValueError as err:
            print(f"| model file: {what} | ValueError: {err} |".replace(str(folder) + "/", ""))
