"""Bad input to the byte-level engine: each case a clear TypeError or ValueError with the fix.

Ids must be ints (never bool, never float), at least 0 and at most ``MAX_ID``; the arguments
that take a function or a set of special tokens say so when given something else.
"""

import re

import pytest

from bpe_workshop.algorithm.special_tokens import MAX_ID
from bpe_workshop.tokenizers.byte_level import ByteLevelBPE

HUGE = 10**12


def tok():
    return ByteLevelBPE.train("ab ab ab", 257, special_tokens={"<|e|>": 300})


CASES = [
    # merges
    ("merge new id -1", lambda: ByteLevelBPE({(97, 98): -1}), ValueError,
     "the new id of merge (97, 98) -> -1 must be at least 0, got -1"),
    ("merge right id -98", lambda: ByteLevelBPE({(97, -98): 256}), ValueError,
     "the right id of merge (97, -98) -> 256 must be at least 0, got -98"),
    ("merge new id 256.0", lambda: ByteLevelBPE({(97, 98): 256.0}), TypeError,
     "the new id of merge (97, 98) -> 256.0 must be an int, got float 256.0"),
    ("merge new id True", lambda: ByteLevelBPE({(97, 98): True}), TypeError,
     "the new id of merge (97, 98) -> True must be an int, got bool True"),
    ("merge left id True", lambda: ByteLevelBPE({(True, 98): 256}), TypeError,
     "the left id of merge (True, 98) -> 256 must be an int, got bool True"),
    ("merge new id 10**12", lambda: ByteLevelBPE({(97, 98): HUGE}), ValueError,
     f"the new id of merge (97, 98) -> {HUGE} must be at most {MAX_ID}, got {HUGE}"),
    ("merge key of three ids", lambda: ByteLevelBPE({(97, 98, 99): 256}), TypeError,
     "each key of merges must be a pair of ids such as (97, 98), got tuple (97, 98, 99)"),
    ("merge key a str", lambda: ByteLevelBPE({"ab": 256}), TypeError,
     "each key of merges must be a pair of ids such as (97, 98), got str 'ab'"),
    ("merges a list", lambda: ByteLevelBPE([((97, 98), 256)]), TypeError,
     "merges must be a dict from (left id, right id) to new id, e.g. {(97, 98): 256}, got list"),
    ("merge id below its parts", lambda: ByteLevelBPE({(97, 97): 300, (300, 97): 256}),
     ValueError, "merge (300, 97) -> 256 does not fit: its new id must be above both ids it joins"),
    # byte_ids
    ("byte_ids with True", lambda: ByteLevelBPE(byte_ids=[True, *range(1, 256)]), TypeError,
     "each of byte_ids must be an int, got bool True"),
    ("byte_ids with -1", lambda: ByteLevelBPE(byte_ids=[-1, *range(1, 256)]), ValueError,
     "byte_ids must list the ids 0..255, each once (one per byte value)"),
    ("byte_ids of floats", lambda: ByteLevelBPE(byte_ids=[float(i) for i in range(256)]),
     TypeError, "each of byte_ids must be an int, got float 0.0"),
    ("byte_ids a str", lambda: ByteLevelBPE(byte_ids="abc"), TypeError,
     "byte_ids must be a list of 256 ints, got str 'abc'"),
    # special tokens
    ("special id -5", lambda: ByteLevelBPE(special_tokens={"<|e|>": -5}), ValueError,
     "special token '<|e|>' has id -5, which collides with the byte and merge ids 0..255; "
     "give it an id of its own, e.g. {'<|e|>': 256}"),
    ("special id 10**12", lambda: ByteLevelBPE(special_tokens={"<|e|>": HUGE}), ValueError,
     f"the id of special token '<|e|>' must be at most {MAX_ID}, got {HUGE}"),
    ("special id True", lambda: ByteLevelBPE(special_tokens={"<|e|>": True}), TypeError,
     "the id of special token '<|e|>' must be an int, got bool True"),
    ("special id 300.0", lambda: ByteLevelBPE(special_tokens={"<|e|>": 300.0}), TypeError,
     "the id of special token '<|e|>' must be an int, got float 300.0"),
    ("special token text empty", lambda: ByteLevelBPE(special_tokens={"": 256}), ValueError,
     "a special token text must not be empty; use e.g. '<|endoftext|>'"),
    ("special token text bytes", lambda: ByteLevelBPE(special_tokens={b"<|e|>": 256}), TypeError,
     "each special token text must be a str, got bytes"),
    # decode
    ("decode [True]", lambda: tok().decode([True]), TypeError,
     "ids must be ints, got bool True at position 0; pass e.g. [104, 105]"),
    ("decode [97.0]", lambda: tok().decode([97, 97.0]), TypeError,
     "ids must be ints, got float 97.0 at position 1; pass e.g. [104, 105]"),
    ("decode [-1]", lambda: tok().decode([-1]), ValueError,
     "unknown token id -1: valid ids are the ints 0..256 and the special token ids [300]"),
    ("decode [2**70]", lambda: tok().decode([2**70]), ValueError, f"unknown token id {2**70}"),
    # encode
    ("allowed_special=None", lambda: tok().encode("a", allowed_special=None), TypeError,
     "allowed_special must be \"all\" or a set of special token texts, "
     "e.g. allowed_special={'<|endoftext|>'} or (), got None"),
    ("disallowed_special=None", lambda: tok().encode("a", disallowed_special=None), TypeError,
     "disallowed_special must be \"all\" or a set of special token texts, "
     "e.g. disallowed_special={'<|endoftext|>'} or (), got None"),
    ("allowed_special=[1]", lambda: tok().encode("a", allowed_special=[1]), TypeError,
     "allowed_special must be \"all\" or a set of special token texts, "
     "e.g. allowed_special={'<|endoftext|>'} or (), got list [1]"),
    ("encode bytes", lambda: tok().encode(b"ab"), TypeError,
     "text must be a str, got bytes (decode bytes first, e.g. data.decode('utf-8'))"),
    ("encode_chunk a str", lambda: tok().encode_chunk("ab"), TypeError,
     "text_bytes must be bytes, got str 'ab'; pass e.g. text.encode('utf-8')"),
    ("train algorithm='quick'", lambda: ByteLevelBPE.train("a", 256, algorithm="quick"),
     ValueError, "algorithm must be 'fast' or 'naive', got 'quick'"),
    # train
    ("progress=5", lambda: ByteLevelBPE.train("abab", 260, progress=5), TypeError,
     "progress must be a function (something callable), got int 5; "
     "pass e.g. progress=lambda step, total, record: print(record.log_line(total))"),
    ("progress='print'", lambda: ByteLevelBPE.train("abab", 260, progress="print"), TypeError,
     "progress must be a function (something callable), got str 'print'"),
    ("vocab_size=10**12", lambda: ByteLevelBPE.train("abab", HUGE), ValueError,
     f"vocab_size must be at most {MAX_ID}, got {HUGE}; pass e.g. vocab_size=512"),
    ("vocab_size=512.0", lambda: ByteLevelBPE.train("abab", 512.0), TypeError,
     "vocab_size must be an int, got float 512.0; pass e.g. vocab_size=512"),
    ("vocab_size=True", lambda: ByteLevelBPE.train("abab", True), TypeError,
     "vocab_size must be an int, got bool True; pass e.g. vocab_size=512"),
    ("train algorithm='quick'", lambda: ByteLevelBPE.train("abab", 260, algorithm="quick"),
     ValueError, "algorithm must be 'fast' or 'naive', got 'quick'"),
    ("pattern=5", lambda: ByteLevelBPE(pattern=5), TypeError,
     "pattern must be a str, got int 5; pass a regex, one of the names whitespace, gpt2, gpt4, "
     "cl100k_base, o200k_base, or None"),
]


@pytest.mark.parametrize("case, call, error, message", CASES, ids=[c[0] for c in CASES])
def test_bad_input_gives_a_clear_error(case, call, error, message):
    with pytest.raises(error, match=re.escape(message)):
        call()


def test_good_ids_still_work():
    assert tok().decode([97, 300]) == "a<|e|>"
    assert ByteLevelBPE({(97, 98): MAX_ID}).encode("ab") == [MAX_ID]
