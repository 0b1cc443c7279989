"""Pair helpers, the tie rule, split patterns and the naive trainer: numbers checkable by hand."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bpe_workshop.algorithm.patterns import (
    GPT2_PATTERN,
    GPT4_PATTERN,
    O200K_PATTERN,
    WHITESPACE_PATTERN,
    compile_pattern,
    split_text,
)
from bpe_workshop.algorithm.records import MergeRecord
from bpe_workshop.algorithm.textbook import best_pair, get_stats, learn_merges, merge
from bpe_workshop.files.offline import get_encoding


def test_get_stats_syllabus_example():
    assert get_stats([1, 2, 3, 1, 2]) == {(1, 2): 2, (2, 3): 1, (3, 1): 1}


def test_get_stats_counts_overlapping_pairs():
    assert get_stats(b"aaa") == {(97, 97): 2}
    assert get_stats([]) == {} and get_stats([5]) == {}


def test_get_stats_adds_to_given_counts():
    counts = {(1, 2): 10}
    assert get_stats([1, 2], counts) is counts
    assert counts == {(1, 2): 11}


def test_merge_syllabus_example():
    assert merge([2, 2, 8, 9, 5, 3, 8, 9], (8, 9), 257) == [2, 2, 257, 5, 3, 257]


def test_merge_is_left_to_right_and_non_overlapping():
    assert merge([97, 97, 97], (97, 97), 256) == [256, 97]
    assert merge([97, 97, 97, 97], (97, 97), 256) == [256, 256]


def test_merge_leaves_its_input_alone():
    ids = [1, 2, 1, 2]
    merge(ids, (1, 2), 9)
    assert ids == [1, 2, 1, 2]


def test_tie_rule_highest_count_then_smallest_pair():
    assert best_pair({(9, 9): 3, (1, 1): 2}) == (9, 9)
    assert best_pair({(256, 97): 2, (97, 98): 2}) == (97, 98)
    assert best_pair({(5, 7): 2, (5, 6): 2}) == (5, 6)


def test_best_pair_of_nothing_is_an_error():
    with pytest.raises(ValueError, match="at least one pair"):
        best_pair({})


@given(st.lists(st.integers(0, 5), max_size=30), st.integers(0, 5), st.integers(0, 5))
def test_merge_removes_one_id_per_occurrence(ids, left, right):
    merged = merge(ids, (left, right), 99)
    assert len(merged) == len(ids) - merged.count(99)
    # undoing the merge gives the ids back
    undone = [x for i in merged for x in ((left, right) if i == 99 else (i,))]
    assert undone == ids


def test_wikipedia_example_merges_and_counts():
    records = learn_merges([b"aaabdaaabac"], 10)
    assert [(r.step, r.pair, r.new_id, r.count, r.token) for r in records] == [
        (1, (97, 97), 256, 4, b"aa"),
        (2, (97, 98), 257, 2, b"ab"),
        (3, (256, 257), 258, 2, b"aaab"),
    ]


def test_naive_merges_never_cross_chunks():
    # "ab" occurs twice, but only across the boundary between chunks in the second case
    assert learn_merges([b"ab", b"ab"], 5)[0].pair == (97, 98)
    assert learn_merges([b"a", b"ba", b"b"], 5) == []


def test_naive_progress_callback_sees_every_merge():
    seen = []
    learn_merges([b"aaabdaaabac"], 3,
                 progress=lambda step, total, r: seen.append((step, total, r.new_id)))
    assert seen == [(1, 3, 256), (2, 3, 257), (3, 3, 258)]


def test_records_are_frozen():
    record = MergeRecord(step=1, pair=(1, 2), new_id=256, count=2, token=b"\x01\x02")
    with pytest.raises(AttributeError):
        record.count = 3


def test_gpt4_and_gpt4o_patterns_are_tiktokens():
    assert get_encoding("cl100k_base")._pat_str == GPT4_PATTERN
    assert get_encoding("o200k_base")._pat_str == O200K_PATTERN


@pytest.mark.parametrize("text, chunks", [
    ("Any text that you want to be split.",
     ["Any", " text", " that", " you", " want", " to", " be", " split", "."]),
    ("you'd", ["you", "'d"]),
    ("text123", ["text", "123"]),
    ("split???!!!", ["split", "???!!!"]),
    ("to" + " " * 17 + "be", ["to", " " * 16, " be"]),
    ("YOU'D", ["YOU", "'", "D"]),  # GPT-2's contractions are case sensitive
])
def test_gpt2_pattern_pieces(text, chunks):
    assert split_text(text, GPT2_PATTERN) == chunks


def test_gpt4_pattern_differences():
    assert split_text("YOU'D", GPT4_PATTERN) == ["YOU", "'D"]
    assert split_text("1234567", GPT4_PATTERN) == ["123", "456", "7"]


def test_whitespace_pattern_and_no_pattern():
    assert split_text("hi  there\n", WHITESPACE_PATTERN) == ["hi", "  ", "there", "\n"]
    assert split_text("hi  there", None) == ["hi  there"]


@given(st.text())
def test_splits_cover_the_text(text):
    for pattern in (GPT2_PATTERN, GPT4_PATTERN, WHITESPACE_PATTERN, None):
        assert "".join(split_text(text, pattern)) == text


def test_compile_pattern_is_cached_and_checks_the_regex():
    assert compile_pattern(GPT2_PATTERN) is compile_pattern(GPT2_PATTERN)
    with pytest.raises(ValueError, match=r"invalid split pattern r'\[a-': .*fix the regex"):
        compile_pattern("[a-")
    with pytest.raises(TypeError, match="must be a str"):
        compile_pattern(b"abc")
