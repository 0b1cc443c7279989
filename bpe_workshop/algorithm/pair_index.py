"""The bookkeeping both incremental trainers share: pair counts, their slots, and a lazy heap.

``train_fast`` (ids) and ``word_train_fast`` (strings) keep ``counts`` (pair -> occurrences now,
weighted by frequency), ``where`` (pair -> slots where it may start; stale ones skipped) and a
heap of ``textbook.pair_order`` keys (``(-count, ..., left, right)``: the count first, the pair
last). Counts only fall, except for pairs pushed again once final, so :func:`pop_best_pair`
fixes stale entries at the top.
"""

from __future__ import annotations

import heapq
from collections.abc import Hashable

Pair = tuple[Hashable, Hashable]


def pop_best_pair(heap: list, counts: dict) -> tuple[Pair, int] | None:
    """Pop the pair to merge next and its count, or ``None`` when no pair occurs twice.

    A stale top entry goes back in with its current count, or leaves when under two.

    >>> counts = {(1, 2): 3, (2, 3): 5}
    >>> heap = [(-5, 1, 2), (-5, 2, 3)]  # (1, 2) was counted 5 times once; 3 now
    >>> pop_best_pair(heap, counts), pop_best_pair(heap, counts), pop_best_pair(heap, counts)
    (((2, 3), 5), ((1, 2), 3), None)
    """
    while heap:
        entry = heap[0]
        pair = entry[-2:]  # (left, right)
        count = counts.get(pair, 0)
        if count == -entry[0]:
            heapq.heappop(heap)
            return pair, count
        if count >= 2:
            heapq.heapreplace(heap, (-count, *entry[1:]))  # the same tie-breaking key
        else:
            heapq.heappop(heap)
    return None


def credit(counts: dict, where: dict, pair: Pair, weight: int, slot: int, gained: set) -> None:
    """Add ``weight`` occurrences of ``pair`` starting at ``slot``; note that it gained.

    >>> from collections import defaultdict
    >>> counts, where, gained = defaultdict(int), defaultdict(list), set()
    >>> credit(counts, where, (256, 32), 3, 10, gained)
    >>> dict(counts), dict(where), gained
    ({(256, 32): 3}, {(256, 32): [10]}, {(256, 32)})
    """
    counts[pair] += weight
    where[pair].append(slot)
    gained.add(pair)


def discount(counts: dict, where: dict, pair: Pair, weight: int) -> None:
    """Remove ``weight`` occurrences of ``pair``; forget its slots once none are left.

    >>> counts, where = {("e", "s"): 9}, {("e", "s"): [4, 11]}
    >>> discount(counts, where, ("e", "s"), 9)
    >>> counts, where
    ({}, {})
    """
    remaining = counts[pair] - weight
    if remaining:
        counts[pair] = remaining
    else:
        # every slot listed for it is stale now
        del counts[pair]
        where.pop(pair, None)
