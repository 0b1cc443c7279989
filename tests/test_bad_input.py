"""Bad input: every mistake raises TypeError or ValueError with a message that says what to do.

The table below is the record of what was tried; ``python tests/test_bad_input.py`` prints it
with the actual messages.
"""

import warnings

import pytest

from bpe_workshop.files.model_file import HEADER
from bpe_workshop.tokenizers.byte_level import ByteLevelBPE

load = ByteLevelBPE.load  # model_file returns plain data; the class builds itself from it


def wiki():
    return ByteLevelBPE.train("aaabdaaabac", 259, special_tokens={"<|endoftext|>": 259})


# (what was tried, call, exception, regex the message must match)
CALLS = [
    ("train on bytes", lambda: ByteLevelBPE.train(b"abc", 512),
     TypeError, r"text must be a str, got bytes \(decode bytes first"),
    ("train on None", lambda: ByteLevelBPE.train(None, 512), TypeError, r"text must be a str, got None"),
    ("vocab_size=100", lambda: ByteLevelBPE.train("abc", 100),
     ValueError, r"vocab_size must be at least 256 .*got 100; pass e.g. vocab_size=512"),
    ('vocab_size="512"', lambda: ByteLevelBPE.train("abc", "512"),
     TypeError, r"vocab_size must be an int, got str '512'; pass e.g. vocab_size=512"),
    ("vocab_size=3.5", lambda: ByteLevelBPE.train("abc", 3.5), TypeError, r"must be an int, got float 3.5"),
    ("vocab_size=True", lambda: ByteLevelBPE.train("abc", True), TypeError, r"must be an int, got bool"),
    ('algorithm="slow"', lambda: ByteLevelBPE.train("abc", 300, algorithm="slow"),
     ValueError, r"algorithm must be 'fast' or 'naive', got 'slow'"),
    ('pattern="(\\p{L}+"', lambda: ByteLevelBPE.train("abc", 300, pattern=r"(\p{L}+"),
     ValueError, r"invalid split pattern r'\(\\p\{L\}\+': missing \).*fix the regex"),
    ("pattern=b'\\s+'", lambda: ByteLevelBPE.train("abc", 300, pattern=rb"\s+"), TypeError, r"pattern must be a str"),
    ("special token id 100 (a byte)", lambda: ByteLevelBPE.train("abc", 300, special_tokens={"<|x|>": 100}),
     ValueError, r"special token '<\|x\|>' has id 100, which collides with the byte and merge ids 0..299; "
                 r"give it an id of its own, e.g. \{'<\|x\|>': 300\}"),
    ("special token id 280 (a merge)", lambda: ByteLevelBPE.train("abc", 300, special_tokens={"<|x|>": 280}),
     ValueError, r"collides with the byte and merge ids 0..299"),
    ("two special tokens, one id", lambda: ByteLevelBPE.train("abc", 300, special_tokens={"<|a|>": 300, "<|b|>": 300}),
     ValueError, r"special tokens '<\|a\|>' and '<\|b\|>' both have id 300; give each one its own id"),
    ('special id "300"', lambda: ByteLevelBPE.train("abc", 300, special_tokens={"<|a|>": "300"}),
     TypeError, r"the id of special token '<\|a\|>' must be an int, got str '300'"),
    ("special_tokens as a list", lambda: ByteLevelBPE.train("abc", 300, special_tokens=["<|a|>"]),
     TypeError, r"special_tokens must be a dict from token text to id"),
    ("encode bytes", lambda: wiki().encode(b"abc"), TypeError, r"text must be a str, got bytes"),
    ("encode '<|endoftext|>' (default: disallowed)", lambda: wiki().encode("a<|endoftext|>"),
     ValueError, r"the text contains '<\|endoftext\|>', which is a special token; pass "
                 r"allowed_special=\{'<\|endoftext\|>'\} \(or \"all\"\) to encode it as the special token, "
                 r"or disallowed_special=\(\) to encode it as plain text"),
    ('allowed_special="<|endoftext|>" (a str)', lambda: wiki().encode("a", allowed_special="<|endoftext|>"),
     TypeError, r"allowed_special must be \"all\" or a set of special token texts, "
                r"e.g. allowed_special=\{'<\|endoftext\|>'\}, got str '<\|endoftext\|>'"),
    ("decode [999]", lambda: wiki().decode([999]),
     ValueError, r"unknown token id 999: valid ids are the ints 0..258 and the special token ids \[259\]"),
    ("decode [-1]", lambda: wiki().decode([-1]), ValueError, r"unknown token id -1"),
    ('decode ["a"]', lambda: wiki().decode(["a"]), TypeError, r"ids must be ints, got str 'a'"),
    ("decode 97 (not a list)", lambda: wiki().decode(97), TypeError, r"ids must be a list of ints, got int; "
     r"pass e.g. \[97\]"),
    ("decode None", lambda: wiki().decode(None), TypeError, r"ids must be a list of ints, got NoneType"),
]


@pytest.mark.parametrize("what, call, error, message", CALLS, ids=[row[0] for row in CALLS])
def test_bad_call(what, call, error, message):
    with pytest.raises(error, match=message):
        call()


def test_empty_text_trains_a_tokenizer_with_no_merges():
    with pytest.warns(UserWarning, match="stopped after 0 of 256 merges"):
        tok = ByteLevelBPE.train("", 512)
    assert tok.merges == {}
    assert tok.stop_message.startswith("training stopped after 0 of 256 merges")
    assert tok.encode("hi") == [104, 105]


# ----- model files ---------------------------------------------------------------------

GOOD = (f"{HEADER}\npattern none\nbyte-ids identity\nspecial-tokens 1\n259 \"<|endoftext|>\"\n"
        f"merges 3\n97 97\n97 98\n256 257\n")

# (what was tried, file bytes, regex the message must match after "<path>, line N: ")
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
    ("merge of an id not made yet", GOOD.replace("256 257", "256 258").encode(), 9,
     r"merge 256 258 uses an id not made yet or repeats a merge"),
    ("merge count too high", GOOD.replace("merges 3", "merges 4").encode(), 10, r"the file ends where merge 4 was expected"),
    ("text after the merges", (GOOD + "1 2\n").encode(), 10, r"unexpected text after the last merge"),
    ("count is not a number", GOOD.replace("merges 3", "merges three").encode(), 6,
     r"expected a count after 'merges', got 'three'"),
    ("pattern not quoted", GOOD.replace("pattern none", "pattern \\s+").encode(), 2,
     r"expected a JSON-quoted string, got '\\\\s\+'"),
    ("invalid pattern", GOOD.replace("pattern none", 'pattern "(a"').encode(), 2, r"invalid split pattern r'\(a'"),
    ("byte-ids repeat an id", GOOD.replace("identity", " ".join(["0"] * 256)).encode(), 3,
     r"byte-ids must hold each id 0..255 once"),
    ("special token colliding with a merge", GOOD.replace("259 \"", "257 \"").encode(), 4,
     r"special token '<\|endoftext\|>' has id 257, which collides with the byte and merge ids 0..258"),
]


@pytest.mark.parametrize("what, data, line, message", MODEL_FILES, ids=[row[0] for row in MODEL_FILES])
def test_bad_model_file(tmp_path, what, data, line, message):
    path = tmp_path / "bad.model"
    path.write_bytes(data)
    with pytest.raises(ValueError, match=rf"^{path}, line {line}: {message}"):
        load(path)


def test_good_model_file_of_the_table_loads(tmp_path):
    path = tmp_path / "good.model"
    path.write_text(GOOD, encoding="utf-8")
    assert load(path).encode("aaabdaaabac<|endoftext|>", allowed_special="all") == [258, 100, 258, 97, 99, 259]


def test_missing_model_file(tmp_path):
    with pytest.raises(FileNotFoundError):
        ByteLevelBPE.load(tmp_path / "nowhere.model")


if __name__ == "__main__":  # print the table of bad inputs and their messages
    import pathlib
    import tempfile

    warnings.simplefilter("ignore")
    for what, call, *_ in CALLS:
        try:
            call()
        except (TypeError, ValueError) as err:
            print(f"| {what} | {type(err).__name__}: {err} |")
    folder = pathlib.Path(tempfile.mkdtemp())
    for what, data, *_ in MODEL_FILES:
        path = folder / "bad.model"
        path.write_bytes(data)
        try:
            load(path)
        except ValueError as err:
            print(f"| model file: {what} | ValueError: {err} |".replace(str(folder) + "/", ""))
