"""The textbook encoder: merge the lowest-ranked pair present, until no present pair is a merge.

Lineage: how GPT-2's byte-level BPE encodes a chunk, in the short form of Karpathy's ``minbpe``.
A merge's rank is its new id, so the merge learned first goes first. This is exactly what
notebook 04 teaches; ``encode_fast`` gives the same ids faster (a property test checks it).
Left out: splitting the text (``patterns.split_text``) and special tokens (``byte_level``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from bpe_workshop.algorithm.pairs import get_stats, merge

Pair = tuple[int, int]


def encode_chunk(text_bytes: bytes, merges: dict[Pair, int],
                 byte_ids: Sequence[int] | None = None) -> list[int]:
    """The ids of one chunk: start from its bytes, merge the learned-first pair, repeat.

    ``byte_ids[b]`` is the id of byte ``b`` (GPT-2's order); ``None`` means id = byte value.

    >>> merges = {(97, 97): 256, (97, 98): 257, (256, 257): 258}
    >>> encode_chunk(b"aaabdaaabac", merges)
    [258, 100, 258, 97, 99]
    >>> encode_chunk(b"abc", {(97, 98): 256, (98, 99): 257, (97, 257): 258})  # (a, b) first
    [256, 99]
    """
    ids = list(text_bytes) if byte_ids is None else [byte_ids[b] for b in text_bytes]
    while len(ids) >= 2:
        stats = get_stats(ids)
        # the present pair learned first; pairs never learned count as infinity
        pair = min(stats, key=lambda p: merges.get(p, float("inf")))
        # subtle: when no present pair is in `merges`, every rank is infinity and min() just
        # returned one of them: stop
        if pair not in merges:
            break
        ids = merge(ids, pair, merges[pair])
    return ids


def encode_chunks(chunks: Iterable[str], merges: dict[Pair, int],
                  byte_ids: Sequence[int] | None = None) -> list[int]:
    """The ids of each chunk's UTF-8 bytes, one after the other (merges never cross chunks).

    >>> encode_chunks(["aa", " aa"], {(97, 97): 256})
    [256, 32, 256]
    """
    ids = []
    for chunk in chunks:
        ids.extend(encode_chunk(chunk.encode("utf-8"), merges, byte_ids))
    return ids
