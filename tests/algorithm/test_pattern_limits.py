"""Patterns that backtrack forever come back with an error; patterns that drop text say so."""

import time
import warnings

import pytest

from bpe_workshop.algorithm.patterns import (
    Deadline,
    DroppedTextWarning,
    PatternTimeoutError,
    iter_chunks,
    left_out,
    split_text,
    time_budget,
)
from bpe_workshop.tokenizers.byte_level import ByteLevelBPE

# Each letter can be \w or [a-z], and the "$" fails at "!": 2**30 ways to try.
CATASTROPHIC = r"(\w|[a-z])+$"
WORD = "ok " + "a" * 30 + "!"
STALL = (r"the split pattern r'\(\\w\|\[a-z\]\)\+\$' is stuck: it ran for more than 2 s on the "
         r"text from position 0 \('ok a+![^)]*\)\. It backtracks catastrophically")


def test_split_text_and_iter_chunks_raise_instead_of_hanging():
    with pytest.raises(PatternTimeoutError, match=STALL):
        split_text(WORD, CATASTROPHIC)
    with pytest.raises(ValueError, match=STALL):  # widgets catch ValueError
        list(iter_chunks(WORD, CATASTROPHIC))


def test_training_with_a_catastrophic_pattern_raises():
    with pytest.raises(PatternTimeoutError, match=STALL):
        ByteLevelBPE.train(WORD * 3, 300, pattern=CATASTROPHIC)


def test_encoding_with_a_catastrophic_pattern_raises():
    tok = ByteLevelBPE({(97, 97): 256}, pattern=CATASTROPHIC)
    with pytest.raises(PatternTimeoutError, match=STALL):
        tok.encode(WORD)


def test_a_loaded_model_with_a_catastrophic_pattern_raises_on_encode(tmp_path):
    model, _ = ByteLevelBPE({(97, 97): 256}, pattern=CATASTROPHIC).save(tmp_path / "stuck")
    tok = ByteLevelBPE.load(model)  # loading is fine: the pattern is a valid regex
    assert tok.pattern == CATASTROPHIC
    with pytest.raises(PatternTimeoutError, match=STALL):
        tok.encode(WORD)


def test_the_budget_grows_with_the_text():
    assert time_budget("") == 2.0
    assert time_budget("x" * 8_000_000) == 18.0


def test_a_pattern_that_drops_text_warns_on_every_call_once():
    tok = ByteLevelBPE(pattern=r"\w+", special_tokens={"<|s|>": 256})
    with pytest.warns(DroppedTextWarning, match=r"the split pattern r'\\w\+' leaves out ' ', '!'"):
        ids = tok.encode("hello world!")
    assert tok.decode(ids) == "helloworld"
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("default")  # Python's own: once per place, unless told otherwise
        for _ in range(3):
            tok.encode("a, b<|s|>c, d!", allowed_special="all")  # three pieces drop text
        tok.encode_ordinary("again, more text dropped!")
    assert [str(w.message).split(":")[0] for w in caught] == (
        ["the split pattern r'\\w+' leaves out ', ', '!'"] * 3
        + ["the split pattern r'\\w+' leaves out ', ', ' ', '!'"])
    assert {w.filename for w in caught} == {__file__}


def test_a_pattern_matching_only_empty_text_warns():
    tok = ByteLevelBPE(pattern="a*")
    with pytest.warns(DroppedTextWarning, match=r"leaves out 'b'.*decode\(encode\(text\)\) loses"):
        assert tok.encode("bbb") == []


def test_training_with_a_pattern_that_drops_text_warns():
    with pytest.warns(DroppedTextWarning, match=r"leaves out ' ', '! '"):
        tok = ByteLevelBPE.train("hello world! " * 5, 260, pattern=r"\w+")
    assert len(tok.merges) == 4


def test_patterns_that_cover_the_text_never_warn():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for pattern in (None, "gpt2", "gpt4", "whitespace", r"\w+|\W+"):
            ByteLevelBPE(pattern=pattern).encode("hello world!")


def test_one_budget_covers_every_piece_between_special_tokens():
    # each piece backtracks for about 0.3 s (2**20 ways), well under the 2 s budget; 40 of them
    # between special tokens must not each get a fresh budget (minutes in all)
    slow_piece = "a" * 20 + "!"
    text = "<|sep|>".join([slow_piece] * 40)
    with pytest.raises(PatternTimeoutError, match="is stuck"):
        ByteLevelBPE.train(text, 300, pattern=CATASTROPHIC, special_tokens={"<|sep|>": 300})


def test_the_dropped_text_check_shares_the_splits_deadline():
    deadline = Deadline(seconds=2.0, at=time.monotonic())  # already used up by the split
    with pytest.raises(PatternTimeoutError, match="ran for more than 2 s"):
        left_out(WORD, [], CATASTROPHIC, deadline)


@pytest.mark.parametrize("pattern, words", [
    ("a{100000000}", "repeats fixed counts to 100,000,000 elements"),
    ("(?:(?:ab){1000}){1000}", r"repeats fixed counts to [0-9],[0-9]{3},[0-9]{3} elements"),
    (r"(?r)\w+|\s+", r"reverse flag \(\?r\).*remove the r flag"),
    (r"\w+(?ir)", r"reverse flag"),
])
def test_patterns_that_would_exhaust_memory_or_reverse_the_text_are_refused(pattern, words):
    for make in (lambda: ByteLevelBPE(pattern=pattern),
                 lambda: ByteLevelBPE.train("hello world", 260, pattern=pattern),
                 lambda: split_text("hello", pattern)):
        with pytest.raises(ValueError, match=words):
            make()


def test_counts_that_regex_does_not_write_out_are_allowed():
    assert split_text("a" * 5, "a{1,100000}") == ["aaaaa"]
    assert split_text("12345", r"\p{N}{1,3}") == ["123", "45"]
    assert split_text("{{{", r"[{]{3}|\{") == ["{{{"]
