"""The fast trainer learns exactly the naive trainer's merges, record for record."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bpe_workshop.algorithm import textbook, train_fast
from bpe_workshop.algorithm.patterns import (
    GPT2_PATTERN,
    GPT4_PATTERN,
    WHITESPACE_PATTERN,
    split_text,
)
from bpe_workshop.algorithm.records import MergeRecord
from bpe_workshop.files.corpora import load_english

PATTERNS = [None, GPT2_PATTERN, GPT4_PATTERN, WHITESPACE_PATTERN]


def both(chunks: list[bytes], num_merges: int, tie_rule: str = "smallest_ids"
         ) -> list[MergeRecord]:
    """Run both trainers, assert they agree, return the records."""
    naive = textbook.learn_merges(chunks, num_merges, tie_rule=tie_rule)
    fast = train_fast.learn_merges(chunks, num_merges, tie_rule=tie_rule)
    assert fast == naive
    return fast


def chunks_of(text: str, pattern: str | None) -> list[bytes]:
    return [piece.encode("utf-8") for piece in split_text(text, pattern)]


# -- pinned cases a reader can check by hand --------------------------------------------------

def test_wikipedia_example():
    records = both([b"aaabdaaabac"], 10)
    assert [(r.pair, r.new_id, r.count, r.token) for r in records] == [
        ((97, 97), 256, 4, b"aa"),
        ((97, 98), 257, 2, b"ab"),
        ((256, 257), 258, 2, b"aaab"),
    ]


def test_run_of_one_byte_counts_overlaps_and_merges_left_to_right():
    # "aaaaaaa": (a, a) occurs 6 times (overlapping), merging leaves [aa, aa, aa, a]
    records = both([b"a" * 7], 10)
    assert [(r.pair, r.count, r.token) for r in records] == [
        ((97, 97), 6, b"aa"),
        ((256, 256), 2, b"aaaa"),
    ]


def test_long_run_doubles_each_merge():
    records = both([b"a" * 64], 10)
    assert [r.token for r in records] == [b"a" * 2**n for n in range(1, 6)]
    assert [r.count for r in records] == [63, 31, 15, 7, 3]


def test_empty_input_learns_nothing():
    assert both([], 5) == []
    assert both([b""], 5) == []
    assert both([b"", b""], 5) == []


def test_single_byte_learns_nothing():
    assert both([b"x"], 5) == []
    assert both([b"x"] * 100, 5) == []  # pairs never cross chunks


def test_zero_merges():
    assert both([b"aaaa"], 0) == []


def test_repeated_chunks_count_with_their_frequency():
    records = both([b" the"] * 3 + [b" cat", b" the"], 3)
    # " t", "th", "he" all occur 4 times; ties go to the smallest pair: (32, 116) < (104, 101)
    assert [(r.token, r.count) for r in records] == [(b" t", 4), (b"he", 4), (b" the", 4)]


def test_ties_go_to_the_smallest_pair():
    # (98, 97) and (97, 98) both occur twice in "abab" + "ba": the smaller pair (97, 98) wins
    records = both([b"abab", b"ba"], 1)
    assert records[0].pair == (97, 98)


def test_progress_called_after_every_merge():
    seen = []
    def progress(step, total, record):
        seen.append((step, total, record))

    records = train_fast.learn_merges([b"aaabdaaabac"], 10, progress=progress)
    assert seen == [(r.step, 10, r) for r in records]
    assert [step for step, _, _ in seen] == [1, 2, 3]


def test_steps_ids_and_tokens_are_consistent():
    text = "the theory of the thesis: there, then, then."
    records = both(chunks_of(text, GPT2_PATTERN), 30)
    vocab = {i: bytes([i]) for i in range(256)}
    for n, record in enumerate(records, start=1):
        assert record.step == n and record.new_id == 255 + n
        vocab[record.new_id] = vocab[record.pair[0]] + vocab[record.pair[1]]
        assert record.token == vocab[record.new_id]


@pytest.mark.parametrize("chunks, kind", [
    (["not bytes"], "str"),
    ([b"ok", bytearray(b"ab")], "bytearray"),
    ([[97, 98]], "list"),
])
def test_chunks_that_are_not_bytes_are_rejected_with_the_fix(chunks, kind):
    with pytest.raises(TypeError, match=f"must be a list of bytes, got {kind}; encode each"):
        train_fast.learn_merges(chunks, 3)


# -- properties: fast == naive on random texts, patterns and merge counts ----------------------

small_alphabet = st.text(alphabet="ab", max_size=80)
words = st.text(alphabet="ab c\n", max_size=120)
unicode_text = st.text(max_size=60)
repeats = st.lists(st.sampled_from(["the", " the", "aa", "aaa", "é", " ", "\n", "ab"]),
                   max_size=40).map("".join)
any_text = st.one_of(small_alphabet, words, unicode_text, repeats)


tie_rules = st.sampled_from(textbook.TIE_RULES)


@settings(max_examples=300, deadline=None)
@given(text=any_text, pattern=st.sampled_from(PATTERNS), num_merges=st.integers(0, 40),
       tie_rule=tie_rules)
def test_fast_equals_naive(text, pattern, num_merges, tie_rule):
    both(chunks_of(text, pattern), num_merges, tie_rule)


@settings(max_examples=60, deadline=None)
@given(chunks=st.lists(st.binary(max_size=12), max_size=25), num_merges=st.integers(0, 30),
       tie_rule=tie_rules)
def test_fast_equals_naive_on_raw_byte_chunks(chunks, num_merges, tie_rule):
    both(chunks, num_merges, tie_rule)


@settings(max_examples=40, deadline=None)
@given(text=small_alphabet, copies=st.integers(1, 4), num_merges=st.integers(0, 30))
def test_fast_equals_naive_on_repeated_chunks(text, copies, num_merges):
    # the same chunks many times, in different orders: frequencies must weight the counts
    chunks = chunks_of(text, WHITESPACE_PATTERN) or [b""]
    both(chunks * copies + chunks[::-1], num_merges)


@settings(max_examples=25, deadline=None)
@given(text=st.text(alphabet="abc \n", min_size=200, max_size=600),
       pattern=st.sampled_from(PATTERNS), num_merges=st.integers(40, 120), tie_rule=tie_rules)
def test_fast_equals_naive_on_longer_texts(text, pattern, num_merges, tie_rule):
    # long enough that counts fall to 1 and training stops early
    both(chunks_of(text, pattern), num_merges, tie_rule)


@pytest.mark.parametrize("tie_rule", textbook.TIE_RULES)
@pytest.mark.parametrize("pattern", PATTERNS)
def test_fast_equals_naive_on_real_prose(pattern, tie_rule):
    text = load_english()[:3000]
    records = both(chunks_of(text, pattern), 120, tie_rule)
    assert len(records) == 120  # real text still has repeating pairs after 120 merges
