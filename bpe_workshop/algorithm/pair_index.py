"""The bookkeeping both incremental trainers share: pair counts, their slots, and a lazy heap.

``train_fast`` (byte level, ids) and ``word_train_fast`` (word level, strings) keep the same
three structures, whatever a symbol is:

- ``counts``: pair -> how often it occurs now (weighted by chunk or word frequency);
- ``where``: pair -> the slots where it may start (stale slots are skipped when read);
- a heap of ``(-count, left, right)`` entries, ordered by ``textbook.pair_order``'s tie rule.

A merge only ever lowers the count of an existing pair; pairs that gain occurrences are pushed
again once their counts are final. So every pair has a heap entry stating at least its current
count, and :func:`pop_best_pair` can fix stale entries lazily, when they reach the top.
"""

from __future__ import annotations

import heapq
from collections.abc import Hashable

Pair = tuple[Hashable, Hashable]


def pop_best_pair(heap: list, counts: dict) -> tuple[Pair, int] | None:
    """Pop the pair to merge next and its count, or ``None`` when no pair occurs twice.

    A stale top entry (its count has gone down since it was pushed) goes back in with its
    current count, or leaves when the pair no longer occurs twice.

    >>> counts = {(1, 2): 3, (2, 3): 5}
    >>> heap = [(-5, 1, 2), (-5, 2, 3)]  # (1, 2) was counted 5 times once; 3 now
    >>> pop_best_pair(heap, counts)
    ((2, 3), 5)
    >>> pop_best_pair(heap, counts)
    ((1, 2), 3)
    >>> pop_best_pair(heap, counts) is None
    True
    """
    while heap:
        neg_count, left, right = heap[0]
        count = counts.get((left, right), 0)
        if count == -neg_count:
            heapq.heappop(heap)
            return (left, right), count
        if count >= 2:
            heapq.heapreplace(heap, (-count, left, right))
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
