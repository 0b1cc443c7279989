"""What tables and plots share about pairs: their order and how a pair member is labelled.

A pair is two ids (read through a ``vocab``) or two str symbols (by hand, word level); tables
and figures order them by :func:`sorted_pairs` and name them with :func:`symbol_label`.
"""
from __future__ import annotations

from collections.abc import Mapping

from bpe_workshop.algorithm.textbook import pair_order
from bpe_workshop.token_text import bytes_label, visible_text


def sorted_pairs(counts: Mapping[tuple, int]) -> list[tuple[tuple, int]]:
    """``(pair, count)`` items, most frequent first; ties: ``textbook.pair_order`` for ids,
    first seen first for str symbols.

    >>> sorted_pairs({(98, 99): 2, (97, 98): 2, (99, 99): 5})
    [((99, 99), 5), ((97, 98), 2), ((98, 99), 2)]
    >>> sorted_pairs({("b", "c"): 2, ("a", "b"): 2})
    [(('b', 'c'), 2), (('a', 'b'), 2)]
    """
    items = list(counts.items())
    if items and all(isinstance(s, int) for s in items[0][0]):
        return sorted(items, key=pair_order)
    return sorted(items, key=lambda item: -item[1])  # stable: first seen first among ties


def symbol_token(symbol: int | str, vocab: Mapping[int, bytes] | None = None) -> bytes | str:
    """What a pair member stands for: the bytes of an id, or the str symbol itself.

    >>> symbol_token(97), symbol_token(256, {256: b"aa"}), symbol_token("lo")
    (b'a', b'aa', 'lo')
    """
    if isinstance(symbol, str):
        return symbol
    if vocab is not None and symbol in vocab:
        return vocab[symbol]
    if 0 <= symbol < 256:
        return bytes([symbol])
    raise ValueError(f"id {symbol} is not a byte and not in vocab; pass vocab=tok.vocab")


def symbol_label(token: bytes | str) -> str:
    """A token or symbol as readable text: whitespace visible, partial UTF-8 in hex.

    >>> symbol_label(b"e "), symbol_label(b"\\xe4\\xbd"), symbol_label("est</w>")
    ('e⋅', '<e4 bd>', 'est</w>')
    """
    if isinstance(token, (bytes, bytearray)):
        return bytes_label(bytes(token))
    return visible_text(token)


def id_text(pair: tuple) -> str:
    """``"(97, 98)"`` for a pair of ids, ``""`` for a pair of str symbols.

    >>> id_text((97, 98)), id_text(("a", "b"))
    ('(97, 98)', '')
    """
    if all(isinstance(s, int) for s in pair):
        return f"({pair[0]}, {pair[1]})"
    return ""
