"""Gage's replacement by hand (notebook 03): the Wikipedia run, the first-seen run, bad input."""

import dataclasses

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bpe_workshop.algorithm.by_hand import (
    HandStep,
    count_pairs,
    decompress_by_hand,
    replace_pairs_by_hand,
)


def test_wikipedia_run_smallest_rule():
    steps = replace_pairs_by_hand("aaabdaaabac")
    assert [(s.before, s.after) for s in steps] == [
        ("aaabdaaabac", "ZabdZabac"),
        ("ZabdZabac", "ZYdZYac"),
        ("ZYdZYac", "XdXac"),
    ]
    assert [(s.pair, s.symbol, s.count) for s in steps] == [
        (("a", "a"), "Z", 4),
        (("a", "b"), "Y", 2),
        (("Z", "Y"), "X", 2),
    ]
    assert [s.step for s in steps] == [1, 2, 3]
    assert steps[-1].table == {"Z": "aa", "Y": "ab", "X": "ZY"}
    # 11 symbols over a 4-letter alphabet become 5 symbols over 7
    assert (len(steps[0].before), len(set(steps[0].before))) == (11, 4)
    assert len(steps[-1].after) == 5
    assert len(set(steps[0].before) | set(steps[-1].table)) == 7


def test_wikipedia_tie_at_step_two():
    second = replace_pairs_by_hand("aaabdaaabac")[1]
    assert second.pair_counts == {
        ("Z", "a"): 2,
        ("a", "b"): 2,
        ("b", "d"): 1,
        ("d", "Z"): 1,
        ("b", "a"): 1,
        ("a", "c"): 1,
    }
    assert list(second.pair_counts)[:2] == [("Z", "a"), ("a", "b")]  # first-seen order
    assert second.ties == (("Z", "a"), ("a", "b"))
    assert second.pair == ("a", "b")


def test_first_seen_rule_picks_za():
    steps = replace_pairs_by_hand("aaabdaaabac", tie_rule="first_seen")
    assert [s.after for s in steps] == ["ZabdZabac", "YbdYbac", "XdXac"]
    assert steps[-1].table == {"Z": "aa", "Y": "Za", "X": "Yb"}
    # the same as minbpe's merges aa, aaa, aaab
    assert decompress_by_hand("Y", steps[-1].table) == "aaa"
    assert decompress_by_hand("X", steps[-1].table) == "aaab"


def test_second_string_with_symbols_from_x():
    steps = replace_pairs_by_hand("aaabcdaadab", symbols="XYZ")
    assert steps[0].pair_counts[("a", "a")] == 3  # overlaps count: aaa holds aa twice
    assert [(s.after, s.symbol, "".join(s.pair)) for s in steps] == [
        ("XabcdXdab", "X", "aa"),
        ("XYcdXdY", "Y", "ab"),
    ]


def test_stop_when_no_pair_repeats():
    assert replace_pairs_by_hand("abcd") == []
    assert replace_pairs_by_hand("") == []
    assert replace_pairs_by_hand("a") == []
    steps = replace_pairs_by_hand("aaabdaaabac")
    assert max(count_pairs(steps[-1].after).values()) == 1


def test_max_steps():
    steps = replace_pairs_by_hand("aaabdaaabac", max_steps=1)
    assert [s.after for s in steps] == ["ZabdZabac"]
    assert replace_pairs_by_hand("aaabdaaabac", max_steps=0) == []


def test_fresh_symbols_skip_letters_in_text():
    steps = replace_pairs_by_hand("ZZYZZY")
    # Z and Y occur in the text, so the first fresh symbols are X then W
    assert [s.symbol for s in steps] == ["X", "W"]
    assert steps[0].pair == ("Z", "Y")  # ZZ and ZY tie; Y sorts before Z
    assert steps[0].after == "ZXZX"
    assert steps[1].after == "WW"
    assert decompress_by_hand(steps[-1].after, steps[-1].table) == "ZZYZZY"


def test_fresh_symbols_order_after_originals():
    # after ab -> z: zc and cd tie; cd holds original characters only, so it is smaller
    steps = replace_pairs_by_hand("abcdabcd", symbols="zyx")
    assert steps[1].ties == (("z", "c"), ("c", "d"))
    # and a fresh symbol sorts by when it was made, not by its letter: z (first) before y
    assert [s.pair for s in steps] == [("a", "b"), ("c", "d"), ("z", "y")]
    assert steps[-1].after == "xx"


def test_count_pairs_overlap_views():
    assert count_pairs("aaaa") == {("a", "a"): 3}
    assert count_pairs("aaaa", overlapping=False) == {("a", "a"): 2}
    assert count_pairs("aaabdaaabac", overlapping=False) == {
        ("a", "a"): 2,
        ("a", "b"): 2,
        ("b", "d"): 1,
        ("d", "a"): 1,
        ("b", "a"): 1,
        ("a", "c"): 1,
    }


def test_handstep_is_frozen():
    step = replace_pairs_by_hand("aaabdaaabac")[0]
    assert isinstance(step, HandStep)
    with pytest.raises(dataclasses.FrozenInstanceError):
        step.symbol = "Q"


def test_table_is_a_copy_per_step():
    steps = replace_pairs_by_hand("aaabdaaabac")
    assert [len(s.table) for s in steps] == [1, 2, 3]


def test_bad_input():
    with pytest.raises(TypeError, match="decode bytes first"):
        replace_pairs_by_hand(b"aaab")
    with pytest.raises(ValueError, match="tie_rule must be one of"):
        replace_pairs_by_hand("aaab", tie_rule="largest")
    with pytest.raises(ValueError, match="max_steps"):
        replace_pairs_by_hand("aaab", max_steps=-1)
    with pytest.raises(ValueError, match="single characters"):
        replace_pairs_by_hand("aaab", symbols=["XY", "Z"])
    with pytest.raises(ValueError, match="must not repeat"):
        replace_pairs_by_hand("aaab", symbols="XX")
    with pytest.raises(ValueError, match="ran out of fresh symbols"):
        replace_pairs_by_hand("aaaaaaaa", symbols="X")
    with pytest.raises(TypeError, match="table must be a dict"):
        decompress_by_hand("XdXac", [("Z", "aa")])


# enough fresh symbols for any 40-character text
MANY_SYMBOLS = "ZYXWVUTSRQPONMLKJIHGFEDCBA0123456789!#$%&*+-=?@^~"


@given(
    st.text(alphabet="abcd", max_size=40),
    st.sampled_from(["smallest", "first_seen"]),
)
def test_decompress_round_trip(text, tie_rule):
    steps = replace_pairs_by_hand(text, tie_rule=tie_rule, symbols=MANY_SYMBOLS)
    final = steps[-1].after if steps else text
    table = steps[-1].table if steps else {}
    assert decompress_by_hand(final, table) == text
    for step in steps:
        assert step.count >= 2
        assert len(step.after) < len(step.before)
        assert decompress_by_hand(step.after, step.table) == text
    assert not any(n > 1 for n in count_pairs(final).values())


@given(st.text(alphabet="abcd", max_size=40))
def test_smallest_rule_matches_byte_level_training(text):
    # the by-hand run and byte-level training make the same choices, fresh symbol k <-> id 256 + k
    from bpe_workshop.algorithm.textbook import learn_merges

    steps = replace_pairs_by_hand(text, symbols=MANY_SYMBOLS)
    records = learn_merges([text.encode("ascii")], len(MANY_SYMBOLS))
    as_id = {symbol: 256 + k for k, symbol in enumerate(steps[-1].table)} if steps else {}
    assert [
        (tuple(as_id.get(s, ord(s)) for s in step.pair), step.count) for step in steps
    ] == [(r.pair, r.count) for r in records]
