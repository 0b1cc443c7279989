"""Word-level trainers: the incremental one learns exactly what the paper's loop learns."""

from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from bpe_workshop.algorithm import word_train_fast, word_train_naive
from bpe_workshop.algorithm.word_records import initial_split, split_at
from bpe_workshop.files.corpora import load_english


def both(word_counts, num_merges):
    naive = word_train_naive.learn_word_merges(word_counts, num_merges)
    fast = word_train_fast.learn_word_merges(word_counts, num_merges)
    return naive, fast


def counted(words):
    return dict(Counter(words))


# small alphabets make many ties; "<" and "." sort before letters, "</w>" is a symbol too
short_words = st.text(alphabet="ab.<", min_size=1, max_size=8)
long_words = st.text(alphabet="abc", min_size=20, max_size=300)
repeated = st.lists(st.sampled_from(["low", "lower", "newest", "widest", "aaa", "a"]),
                    min_size=1, max_size=30)


@settings(max_examples=150, deadline=None)
@given(st.lists(short_words, min_size=1, max_size=15), st.integers(0, 40))
def test_fast_equals_naive_on_small_alphabets(words, num_merges):
    naive, fast = both(counted(words), num_merges)
    assert fast == naive


@settings(max_examples=60, deadline=None)
@given(st.lists(long_words, min_size=1, max_size=3), st.integers(0, 80))
def test_fast_equals_naive_on_long_words(words, num_merges):
    naive, fast = both(counted(words), num_merges)
    assert fast == naive


@settings(max_examples=60, deadline=None)
@given(repeated, st.lists(short_words, max_size=5), st.integers(0, 30))
def test_fast_equals_naive_on_repeated_words(words, extra, num_merges):
    naive, fast = both(counted(words + extra), num_merges)
    assert fast == naive


@settings(max_examples=60, deadline=None)
@given(st.lists(short_words, min_size=1, max_size=10), st.integers(0, 30))
def test_joined_at_replays_the_merges(words, num_merges):
    """The split drawn from joined_at at every step is the one the merges give, word by word."""
    word_counts = counted(words)
    training = word_train_fast.learn_word_merges(word_counts, num_merges)
    for word, joined in zip(word_counts, training.joined_at):
        split = list(initial_split(word))
        assert split_at(initial_split(word), joined, 0) == split
        for record in training.records:
            merged, k = [], 0
            while k < len(split):  # merge left to right, as textbook.merge does
                if k + 1 < len(split) and (split[k], split[k + 1]) == record.pair:
                    merged.append(record.new_symbol)
                    k += 2
                else:
                    merged.append(split[k])
                    k += 1
            split = merged
            assert split_at(initial_split(word), joined, record.step) == split


def test_overlapping_pairs_count_and_merge_as_pairs_merge_does():
    naive, fast = both({"aaaaa": 2, "aa": 1}, 10)
    assert fast == naive
    # a a a a a </w>: (a, a) 4 times per word, twice, plus once in "aa"; then aa|aa|a|</w>
    # twice and aa|</w> once: three pairs counted 2, and ('a', '</w>') is the smallest
    assert [(r.pair, r.count) for r in fast.records] == [
        (("a", "a"), 9), (("a", "</w>"), 2), (("aa", "a</w>"), 2), (("aa", "aaa</w>"), 2)]
    assert split_at(initial_split("aaaaa"), fast.joined_at[0], 1) == ["aa", "aa", "a", "</w>"]


def test_one_long_unspaced_word():
    word = "".join(load_english().split())[:3000]  # English with its spaces taken out
    naive, fast = both({word: 1}, 60)
    assert fast == naive
    assert len(fast.records) == 60
    final = split_at(initial_split(word), fast.joined_at[0], 60)
    assert "".join(final) == word + "</w>"
    assert len(final) < len(word) * 0.8  # 60 merges shortened it


def test_stops_when_no_pair_repeats():
    naive, fast = both({"abc": 1, "abd": 1}, 10)
    assert fast == naive
    assert [(r.pair, r.count) for r in fast.records] == [(("a", "b"), 2)]
    assert fast.joined_at == [[0, 1, 0, 0], [0, 1, 0, 0]]
