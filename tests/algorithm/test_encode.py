"""Encoding: the textbook loop (textbook.encode_chunks) and encode_fast give the same ids.

Property tests on merge tables built at random (with tokens their own merges can never reach),
on random texts, and on GPT-2's and GPT-4's merges; plus the hand-built table of issue 9.
"""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bpe_workshop.algorithm import encode_fast, textbook
from bpe_workshop.algorithm.patterns import (
    GPT2_PATTERN,
    GPT4_PATTERN,
    WHITESPACE_PATTERN,
    split_text,
)
from bpe_workshop.files.corpora import load_english, load_multilingual
from bpe_workshop.tokenizers.byte_level import ByteLevelBPE

LETTERS = b"abcd "


@st.composite
def merge_tables(draw):
    """{pair: new id} over the letters a-d and space, new ids rising (gaps allowed)."""
    ids = list(LETTERS)
    merges = {}
    next_id = 256
    for _ in range(draw(st.integers(0, 30))):
        pair = (draw(st.sampled_from(ids)), draw(st.sampled_from(ids)))
        if pair in merges:
            continue
        next_id += draw(st.integers(0, 3))  # gaps between ids are allowed
        merges[pair] = next_id
        ids.append(next_id)
        next_id += 1
    return merges


texts = st.text(alphabet="abcd ", max_size=150)


def naive_encode(tok, text):
    """The textbook's ids for ``text`` with ``tok``'s merges, pattern and byte order."""
    return textbook.encode_chunks(split_text(text, tok.pattern), tok.merges, tok.byte_ids)


def test_the_hand_built_table_of_issue_9_follows_the_textbook_rule():
    # (a, b) is learned first, so it merges first; "abc" is never reached through (a, bc)
    tok = ByteLevelBPE({(97, 98): 256, (98, 99): 257, (97, 257): 258})
    assert tok.encode("abc") == [256, 99]
    assert tok.encode_chunk(b"abc") == [256, 99]
    assert textbook.encode_chunk(b"abc", tok.merges) == [256, 99]
    assert tok.encode("bc") == [257]


def test_a_merge_whose_id_is_below_its_parts_is_refused():
    # (300, 97) -> 256 would rank before the merge that makes 300: no order could be textbook
    with pytest.raises(ValueError, match=r"merge \(300, 97\) -> 256 does not fit: its new id must "
                                         r"be above both ids it joins.*e\.g\. \(300, 97\) -> 301"):
        ByteLevelBPE({(97, 97): 300, (300, 97): 256})


@given(merges=merge_tables(), text=texts,
       pattern=st.sampled_from([None, WHITESPACE_PATTERN, GPT2_PATTERN]))
def test_fast_equals_naive_on_random_tables(merges, text, pattern):
    tok = ByteLevelBPE(merges, pattern)
    naive = naive_encode(tok, text)
    assert tok.encode(text) == naive
    assert tok.encode(text) == naive  # again, from the chunk cache
    assert tok.decode(naive) == text


@given(merges=merge_tables(), text=st.binary(min_size=encode_fast.HEAP_MIN_LEN, max_size=300)
       .map(lambda data: bytes(LETTERS[b % 5] for b in data)))
def test_heap_loop_equals_naive_on_random_tables(merges, text):
    expected = textbook.encode_chunk(text, merges)
    assert encode_fast.encode_chunk(text, merges, range(256)) == expected
    assert encode_fast.merge_with_heap(list(text), merges) == expected


@pytest.fixture(scope="module", params=["gpt2", "cl100k_base"])
def gpt(request):
    return ByteLevelBPE.from_tiktoken(request.param)


@settings(max_examples=40)
@given(text=st.text(max_size=80))
def test_fast_equals_naive_on_gpt_merges_random_text(gpt, text):
    assert gpt.encode_ordinary(text) == naive_encode(gpt, text)


@pytest.mark.parametrize("source", [load_english, load_multilingual])
def test_fast_equals_naive_on_gpt_merges_corpora(gpt, source):
    text = source()[:3000]
    assert gpt.encode_ordinary(text) == naive_encode(gpt, text)


def test_naive_and_fast_without_a_pattern_on_a_long_chunk():
    tok = ByteLevelBPE.train(load_english()[:5000], 300)
    text = load_english()[5000:6000]
    assert tok.encode(text) == naive_encode(tok, text)


def test_training_algorithm_must_be_fast_or_naive():
    with pytest.raises(ValueError, match=r"algorithm must be 'fast' or 'naive', got 'quick'"):
        ByteLevelBPE.train("a", 256, algorithm="quick")
    with pytest.raises(ValueError, match=r"algorithm must be 'fast' or 'naive', got \['fast'\]"):
        ByteLevelBPE.train("a", 256, algorithm=["fast"])


def test_patterns_named_in_the_engine_as_in_the_widgets():
    code = "def f(x): return x  # twice\n" * 20
    tok = ByteLevelBPE.train(code, 266, pattern="gpt4")
    assert tok.pattern == GPT4_PATTERN
    assert len(tok.merges) == 10  # as a literal regex "gpt4" matched nothing: 0 merges
    assert tok.decode(tok.encode("def f(x): ...")) == "def f(x): ..."
    assert "pattern='gpt4'" in repr(tok)
    assert ByteLevelBPE(pattern="GPT2").pattern == GPT2_PATTERN
    assert "pattern='whitespace'" in repr(ByteLevelBPE(pattern="whitespace"))
    assert "pattern=None" in repr(ByteLevelBPE())
    assert "pattern='[a-z]+|[^a-z]+'" in repr(ByteLevelBPE(pattern="[a-z]+|[^a-z]+"))
    assert "pattern='(?:[a-z]+|[0-9]+|[^a-z0-9]+|x...'" in repr(
        ByteLevelBPE(pattern="(?:[a-z]+|[0-9]+|[^a-z0-9]+|xyz)"))
    assert "pattern='gpt2'" in repr(ByteLevelBPE.from_tiktoken("gpt2"))
