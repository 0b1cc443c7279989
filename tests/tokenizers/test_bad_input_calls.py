"""Bad calls: every mistake raises TypeError or ValueError with a message that says what to do.

The table below is the record of what was tried; ``python tests/tokenizers/test_bad_input_calls.py``
prints it with the actual messages.
"""

import warnings

import pytest

from bpe_workshop.tokenizers.byte_level import ByteLevelBPE


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
                r"e.g. allowed_special=\{'<\|endoftext\|>'\} or \(\), got str '<\|endoftext\|>'"),
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


if __name__ == "__main__":  # print the table of bad calls and their messages
    warnings.simplefilter("ignore")
    for what, call, *_ in CALLS:
        try:
            call()
        except (TypeError, ValueError) as err:
            print(f"| {what} | {type(err).__name__}: {err} |")
