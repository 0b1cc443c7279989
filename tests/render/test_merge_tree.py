"""Merge trees: every token's tree rebuilds its bytes, merges only lower ranks, ends in bytes."""
import functools
from html.parser import HTMLParser

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bpe_workshop import ByteLevelBPE, get_encoding
from bpe_workshop.files.corpora import load_english
from bpe_workshop.render.tables import merge_tree, merge_tree_html

ENCODINGS = ["gpt2", "cl100k_base", "o200k_base", "trained"]
SAMPLE = ("Tokenization is unbelievably fun, isn't it? 3221 + 2334 = 5555\n"
          "    if x:\n        return 1  # 你好,我是池邦豪! 👋 Ünïcödé")


@functools.cache
def tokenizer(name):
    if name == "trained":
        return ByteLevelBPE.train(load_english()[:20_000], vocab_size=400, pattern="gpt4")
    return ByteLevelBPE.from_tiktoken(name)


def check_tree(tok, tree):
    """The tree rebuilds the token's bytes; each merge joins two lower ranks; leaves are bytes."""
    rank, token, subtrees = tree
    assert token == tok.vocab[rank]
    if not subtrees:
        assert len(token) == 1 and tok.byte_ids[token[0]] == rank
        return 1
    left, right = subtrees
    assert left[1] + right[1] == token
    assert max(left[0], right[0]) < rank
    assert tok.merges[(left[0], right[0])] == rank
    return check_tree(tok, left) + check_tree(tok, right)


@pytest.mark.parametrize("name", ENCODINGS)
def test_the_tree_of_every_token_of_a_sample_text_rebuilds_its_bytes(name):
    tok = tokenizer(name)
    ids = tok.encode(SAMPLE)
    assert len(ids) > 20
    for token_id in ids:
        assert check_tree(tok, merge_tree(tok, token_id)) == len(tok.vocab[token_id])


@pytest.mark.parametrize("name", ENCODINGS)
@settings(max_examples=25)
@given(text=st.text(st.characters(codec="utf-8"), max_size=40))
def test_the_tree_of_every_token_of_any_text_rebuilds_its_bytes(name, text):
    tok = tokenizer(name)
    for token_id in tok.encode(text, disallowed_special=()):
        assert check_tree(tok, merge_tree(tok, token_id)) == len(tok.vocab[token_id])


def test_ids_match_tiktoken_and_a_known_tree_in_o200k():
    tok = tokenizer("o200k_base")
    assert tok.encode(" tokenization") == get_encoding("o200k_base").encode(" tokenization")
    rank, token, (left, right) = merge_tree(tok, tok.encode(" token")[0])
    assert token == b" token" and (left[1], right[1]) == (b" to", b"ken")
    assert rank == get_encoding("o200k_base").encode_single_token(b" token")


class _Nodes(HTMLParser):
    def __init__(self):
        super().__init__()
        self.depth, self.nodes = 0, []  # (depth of the node, its rank label)

    def handle_starttag(self, tag, attrs):
        if tag == "div":
            self.depth += 1
            self.nodes.append([self.depth, dict(attrs).get("class"), ""])

    def handle_endtag(self, tag):
        self.depth -= tag == "div"

    def handle_data(self, data):
        if data.startswith("rank ") and self.nodes:
            self.nodes[-1][2] = data


def test_the_html_shows_every_node_with_its_rank_children_below_their_parent():
    tok = ByteLevelBPE({(104, 105): 256, (256, 33): 257, (257, 257): 258})
    out = merge_tree_html(merge_tree(tok, 258), include_css=False)
    parser = _Nodes()
    parser.feed(out)
    nodes = [(depth, label) for depth, cls, label in parser.nodes if cls == "bpe-node"]
    assert [label for _, label in nodes] == ["rank 258", "rank 257", "rank 256", "rank 104",
                                             "rank 105", "rank 33", "rank 257", "rank 256",
                                             "rank 104", "rank 105", "rank 33"]
    depths = [depth for depth, _ in nodes]
    assert depths[0] < depths[1] < depths[2] < depths[3] == depths[4]  # a level per merge
    assert depths[5] == depths[2] and depths[6] == depths[1]
    assert out.count("bpe-tok") == 11 and "hi!" in out and "&lt;" not in out.split("rank")[0]
