"""The two tie rules: each merge is a most frequent pair, and among equal counts the rule decides.

``"smallest_ids"`` (the default) takes the smallest pair of ids; ``"greatest_bytes"`` (Stanford
CS336's) the pair whose ``(bytes of left, bytes of right)`` compare greatest. The check below
replays a training run with ``textbook``'s ``get_stats`` and ``merge`` and, at every step,
computes the winner from the counts by the rule's own definition.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bpe_workshop.algorithm.patterns import GPT2_PATTERN, split_text
from bpe_workshop.algorithm.textbook import TIE_RULES, get_stats, merge
from bpe_workshop.tokenizers.byte_level import ByteLevelBPE

# our own lines, full of equal counts: "at", "an", " c", " b", ... occur equally often
TIED_TEXT = ("a cat sat on a mat, a bat ate a rat; a cab ran at a fan. " * 3
             + "tab, nab, cat, bat. ")


def replay(text: str, tie_rule: str, num_merges: int) -> int:
    """Train, then redo each step by hand and check the rule; return how many steps were ties."""
    tok = ByteLevelBPE.train(text, 256 + num_merges, pattern=GPT2_PATTERN, tie_rule=tie_rule)
    chunks = [list(piece.encode("utf-8")) for piece in split_text(text, GPT2_PATTERN)]
    token = {i: bytes([i]) for i in range(256)}
    ties = 0
    for record in tok.records:
        stats = {}
        for ids in chunks:
            get_stats(ids, stats)
        top = max(stats.values())
        tied = [pair for pair, count in stats.items() if count == top]
        ties += len(tied) > 1
        # every merge is a most frequent pair, whatever the rule
        assert stats[record.pair] == top == record.count
        if tie_rule == "smallest_ids":
            assert record.pair == min(tied)
        else:
            # compare (vocab[a], vocab[b]) as a tuple of bytes; equal bytes fall back to ids
            greatest = max((token[a], token[b]) for a, b in tied)
            assert (token[record.pair[0]], token[record.pair[1]]) == greatest
            assert record.pair == min(p for p in tied if (token[p[0]], token[p[1]]) == greatest)
        token[record.new_id] = record.token
        chunks = [merge(ids, record.pair, record.new_id) for ids in chunks]
    return ties


@pytest.mark.parametrize("tie_rule", TIE_RULES)
def test_each_merge_follows_its_rule_on_a_text_with_ties(tie_rule):
    assert replay(TIED_TEXT, tie_rule, 20) >= 10  # the text really exercises the rule


def test_the_rules_differ_only_in_ties():
    tokens = {rule: [r.token for r in ByteLevelBPE.train(TIED_TEXT, 276, pattern=GPT2_PATTERN,
                                                           tie_rule=rule).records]
              for rule in TIE_RULES}
    assert tokens["smallest_ids"] != tokens["greatest_bytes"]
    # "ab" and "yz" both occur twice: ids pick (97, 98), bytes pick b"y" + b"z"
    first = {rule: ByteLevelBPE.train("ab.ab.yz.yz", 257, pattern=GPT2_PATTERN,
                                      tie_rule=rule).records[0].token for rule in TIE_RULES}
    assert first == {"smallest_ids": b"ab", "greatest_bytes": b"yz"}


@pytest.mark.filterwarnings("ignore:training stopped")
@settings(max_examples=40, deadline=None)
@given(text=st.text(alphabet="ab c\né", max_size=100), tie_rule=st.sampled_from(TIE_RULES),
       num_merges=st.integers(0, 25))
def test_each_merge_follows_its_rule_on_random_texts(text, tie_rule, num_merges):
    replay(text, tie_rule, num_merges)


@pytest.mark.parametrize("bad", ["greatest", "", None, ["greatest_bytes"]])
def test_an_unknown_tie_rule_is_refused_with_the_choices(bad):
    with pytest.raises(ValueError,
                       match="tie_rule must be 'smallest_ids' or 'greatest_bytes', got "):
        ByteLevelBPE.train("abab", 257, tie_rule=bad)
