"""Why is this a token: the merges that built it, down to its bytes, each with its rank.

A byte-level token is one merge of two tokens of lower rank (notebook 06's recover-pair rule);
that rule applied all the way down draws a binary tree. Left out: special tokens (no merge).
"""
import functools

from bpe_workshop.render.style import view
from bpe_workshop.render.tables import token_chip


@functools.lru_cache(maxsize=8)
def _made_of(tok) -> dict[int, tuple[int, int]]:
    return {new_id: pair for pair, new_id in tok.merges.items()}  # new id -> (left id, right id)


def merge_tree(tok, token_id: int) -> tuple:
    """``(rank, token bytes, subtrees)`` of a ``ByteLevelBPE``'s token: the two trees it joins,
    or none for a single byte. In these tokenizers a token's id is its rank.

    >>> from bpe_workshop import ByteLevelBPE
    >>> merge_tree(ByteLevelBPE({(104, 105): 256, (256, 33): 257}), 257)[2][0]
    (256, b'hi', ((104, b'h', ()), (105, b'i', ())))
    """
    pair = _made_of(tok).get(token_id, ())
    return token_id, tok.vocab[token_id], tuple(merge_tree(tok, i) for i in pair)


def merge_tree_html(tree: tuple, include_css: bool = True) -> str:
    """A :func:`merge_tree` drawn top down: each token over the two it joins, its rank under it.

    >>> merge_tree_html((256, b"hi", ((104, b"h", ()), (105, b"i", ()))), False).count("rank")
    6
    """
    def node(tree: tuple, depth: int) -> str:
        rank, token, subtrees = tree
        below = "".join(node(subtree, depth + 1) for subtree in subtrees)
        below = below and f'<div class="bpe-below">{below}</div>'
        return (f'<div class="bpe-node">{token_chip(token, depth, f"rank {rank}: {token!r}")}'
                f'<span class="bpe-id">rank {rank}</span>{below}</div>')
    return view(f'<div class="bpe-tree">{node(tree, 0)}</div>', include_css)
