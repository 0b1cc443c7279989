"""The two pure helpers that carry byte-level BPE, plus the tie rule.

Lineage: Gage's 1994 pair replacement, as used by GPT-2's byte-level BPE. ``get_stats`` counts
adjacent pairs, ``merge`` replaces one pair by a new id, ``best_pair`` picks the pair to merge.
Left out: anything incremental (see ``train_fast``) and any notion of chunks.

THE tie rule (used by every trainer in this package): the pair with the highest count wins;
among equal counts the smallest pair wins, comparing the left id first, then the right id.
On ``aaabdaaabac`` this gives Wikipedia's order: ``aa``, then ``ab``, then ``(aa, ab)``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

Pair = tuple[int, int]


def get_stats(ids: Iterable[int], counts: dict[Pair, int] | None = None) -> dict[Pair, int]:
    """Count each pair of consecutive ids; add to ``counts`` when given.

    Overlapping occurrences all count: ``aaa`` holds the pair ``(a, a)`` twice.

    >>> get_stats([1, 2, 3, 1, 2])
    {(1, 2): 2, (2, 3): 1, (3, 1): 1}
    >>> get_stats([97, 97, 97])
    {(97, 97): 2}
    >>> get_stats([3, 1], {(3, 1): 5})
    {(3, 1): 6}
    """
    counts = {} if counts is None else counts  # (left id, right id) -> occurrences
    ids = list(ids)
    for pair in zip(ids, ids[1:]):
        counts[pair] = counts.get(pair, 0) + 1
    return counts


def merge(ids: Sequence[int], pair: Pair, new_id: int) -> list[int]:
    """Replace every occurrence of ``pair`` in ``ids`` by ``new_id``, scanning left to right.

    Occurrences do not overlap: in ``aaa`` only the first two ``a`` merge.

    >>> merge([2, 2, 8, 9, 5, 3, 8, 9], (8, 9), 257)
    [2, 2, 257, 5, 3, 257]
    >>> merge([1, 2, 3, 1, 2], (1, 2), 4)
    [4, 3, 4]
    >>> merge([97, 97, 97], (97, 97), 256)
    [256, 97]
    """
    left, right = pair
    out = []
    i, n = 0, len(ids)
    while i < n:
        # a match: emit the new id and skip both halves
        if i + 1 < n and ids[i] == left and ids[i + 1] == right:
            out.append(new_id)
            i += 2
        else:
            out.append(ids[i])
            i += 1
    return out


def pair_order(item: tuple[Pair, int]) -> tuple[int, int, int]:
    """Sort key for ``(pair, count)`` items: THE tie rule, smallest key is best.

    >>> sorted([((5, 1), 2), ((1, 9), 2), ((0, 0), 1)], key=pair_order)
    [((1, 9), 2), ((5, 1), 2), ((0, 0), 1)]
    """
    (left, right), count = item
    return (-count, left, right)


def best_pair(stats: dict[Pair, int]) -> Pair:
    """The pair to merge next: highest count, ties broken by the smallest pair.

    >>> best_pair({(1, 2): 2, (2, 3): 1, (3, 1): 1})
    (1, 2)
    >>> best_pair({(256, 97): 2, (97, 98): 2})
    (97, 98)
    """
    if not stats:
        raise ValueError("best_pair() needs at least one pair; the ids are shorter than 2")
    return min(stats.items(), key=pair_order)[0]
