"""Merge-tree explorer: a click (a button's value) or a typed token shows its trees and ranks."""
import re

import pytest

from bpe_workshop import ByteLevelBPE, get_encoding
from bpe_workshop.widgets import merge_tree_explorer


def ranks_shown(html):
    return [int(n) for n in re.findall(r'<span class="bpe-id">rank (\d+)</span>', html)]


def test_it_opens_on_the_first_token_and_a_click_shows_that_tokens_tree():
    explorer = merge_tree_explorer("The tokenizer runs on Kubernetes", ("o200k_base", "gpt2"))
    o200k = get_encoding("o200k_base")
    pieces = [o200k.decode_single_token_bytes(i) for i in o200k.encode(explorer.text.value)]
    assert [label for label, _ in explorer.tokens.options] == [
        p.decode().replace(" ", "⋅") for p in pieces]
    assert explorer.chosen == pieces[0] and explorer.tokens.value == 0
    explorer.tokens.value = 1  # a click on the second button
    assert explorer.chosen == b" tokenizer"
    o200k_column, gpt2_column = explorer.value.split('<div class="bpe-column">')[1:]
    assert "o200k_base: 1 token" in o200k_column
    assert ranks_shown(o200k_column)[0] == o200k.encode_single_token(b" tokenizer")
    gpt2 = get_encoding("gpt2")
    gpt2_ids = gpt2.encode(" tokenizer")
    assert f"gpt2: {len(gpt2_ids)} tokens" in gpt2_column and len(gpt2_ids) > 1
    assert [r for r in ranks_shown(gpt2_column) if r in gpt2_ids] == gpt2_ids  # each tree's top
    # a tree of n bytes has 2n - 1 nodes, each with its rank
    assert len(ranks_shown(o200k_column)) == 2 * len(b" tokenizer") - 1


def test_a_typed_token_your_own_tokenizer_and_the_edge_cases():
    mine = ByteLevelBPE.train("low lower lowest " * 20, vocab_size=262)
    explorer = merge_tree_explorer("lowest", encodings=(), extra={"mine": mine})
    assert mine.token_bytes(mine.encode("lowest")) == [b"low", b"e", b"st"]
    assert explorer.chosen == b"low" and len(explorer.tokens.options) == 3
    top = mine.encode("low")[0]
    assert ranks_shown(explorer.value)[0] == top >= 256
    explorer.token.value = "low"
    assert explorer.chosen == b"low" and "mine: 1 token" in explorer.value
    explorer.token.value = "你"  # three bytes no merge joins: three one-byte trees
    assert "mine: 3 tokens" in explorer.value and ranks_shown(explorer.value) == [228, 189, 160]
    explorer.text.value = ""
    assert explorer.tokens.options == () and "click one of its tokens" in explorer.value
    with pytest.raises(TypeError, match=r"extra\['x'\] must be a ByteLevelBPE"):
        merge_tree_explorer(extra={"x": get_encoding("gpt2")})
    with pytest.raises(ValueError, match="pass an encoding"):
        merge_tree_explorer(encodings=())
