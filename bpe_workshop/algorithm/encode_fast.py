"""Encoding at speed: the same ids as ``textbook``, without recounting every pair.

1. **Ranks updated locally**: ``ranks[i]`` is the rank of the pair at ``i``; a merge changes
   only its neighbours' ranks. Merging the leftmost lowest rank one at a time equals merging
   all of them, as a merge only creates pairs of higher rank (``ByteLevelBPE`` checks it).
2. **A heap for long chunks** (``HEAP_MIN_LEN`` ids or more): of ranks, each merged at all
   its positions in one sweep.
3. **A chunk cache**: each distinct chunk is encoded once, and remembered across calls.

Lineage: tiktoken's ``byte_pair_merge``. Left out: tiktoken's shortcut for a chunk that is a
whole token, exact only where every token encodes back to itself, and costly to check.
"""

from __future__ import annotations

import heapq
from collections import defaultdict
from collections.abc import Sequence
from itertools import chain

Pair = tuple[int, int]

CACHE_MAX_ENTRIES = 100_000  # chunk cache size before it is emptied and starts again
CACHE_MAX_CHUNK = 256  # longer chunks are not cached (with pattern=None the chunk is the text)
HEAP_MIN_LEN = 64  # chunks at least this long use the heap merge loop (same result)
NOT_A_MERGE = 1 << 62  # the rank of a pair never learned: "infinity", above every id


def encode_chunk(text_bytes: bytes, merges: dict[Pair, int],
                 byte_ids: Sequence[int] | bytes) -> list[int]:
    """``textbook.encode_chunk``'s ids, updating only the ranks next to each merge.

    ``byte_ids``: byte value -> id (as ``bytes``, it is used directly as a translation table).

    >>> encode_chunk(b"aaab", {(97, 97): 256, (97, 98): 257, (256, 257): 258}, range(256))
    [258]
    """
    table = byte_ids if isinstance(byte_ids, bytes) else bytes(byte_ids)
    ids = list(text_bytes.translate(table))  # ids = [97, 97, 97, 98]
    if len(ids) >= HEAP_MIN_LEN:
        return merge_with_heap(ids, merges)
    none = NOT_A_MERGE
    # ranks[i] = rank of the pair (ids[i], ids[i + 1]); pairs never learned rank "infinity"
    ranks = [merges.get(pair, none) for pair in zip(ids, ids[1:])]
    while ranks:
        # the present pair that was learned first (the leftmost one on a tie)
        rank = min(ranks)
        # subtle: when no present pair is in `merges`, every rank is infinity: stop
        if rank == none:
            break
        i = ranks.index(rank)
        # merge it: one id replaces two, and only the two neighbouring pairs change
        ids[i:i + 2] = [rank]
        del ranks[i]
        if i > 0:
            ranks[i - 1] = merges.get((ids[i - 1], rank), none)
        if i < len(ranks):
            ranks[i] = merges.get((rank, ids[i + 1]), none)
    return ids


def merge_with_heap(ids: list[int], merges: dict[Pair, int]) -> list[int]:
    """``encode_chunk``'s loop for long chunks: ranks in a heap, each with the positions where
    its pair may start, all merged in one left-to-right sweep; positions linked in a list.

    >>> merge_with_heap([97, 97, 97, 98], {(97, 97): 256, (97, 98): 257, (256, 257): 258})
    [258]
    """
    n = len(ids)
    ids = list(ids)
    nxt = list(range(1, n + 1))  # position -> next live position (n means none)
    prev = list(range(-1, n - 1))  # position -> previous live position (-1 means none)
    starts = defaultdict(list)  # rank -> positions where a pair of that rank may start
    for i, pair in enumerate(zip(ids, ids[1:])):
        if pair in merges:
            starts[merges[pair]].append(i)
    heap = list(starts)  # the ranks present, lowest first
    heapq.heapify(heap)
    while heap:
        rank = heapq.heappop(heap)
        # subtle: a merge makes only pairs of higher rank, so this rank's list is complete
        for i in sorted(starts.pop(rank)):
            j = nxt[i]
            # skip positions made stale by an earlier merge
            if ids[i] is None or j >= n or merges.get((ids[i], ids[j])) != rank:
                continue
            # merge position j into position i
            ids[i], ids[j] = rank, None
            nxt[i] = nxt[j]
            if nxt[j] < n:
                prev[nxt[j]] = i
            # the two pairs the merge created (None at either end of the chunk)
            p, k = prev[i], nxt[i]
            for start, pair in ((p, (ids[p], rank) if p >= 0 else None),
                                (i, (rank, ids[k]) if k < n else None)):
                new_rank = merges.get(pair)
                if new_rank is not None:
                    if new_rank not in starts:
                        heapq.heappush(heap, new_rank)
                    starts[new_rank].append(start)
    return [i for i in ids if i is not None]


def encode_chunks(chunks: list[str], merges: dict[Pair, int], byte_ids: Sequence[int],
                  cache: dict[str, list[int]]) -> list[int]:
    """The ids of every chunk, in order; each distinct chunk is encoded once.

    ``cache`` (chunk text -> ids) is read and filled; it is emptied when it grows past
    ``CACHE_MAX_ENTRIES``, and chunks longer than ``CACHE_MAX_CHUNK`` are not kept.

    >>> cache = {}
    >>> encode_chunks(["aa", " ", "aa"], {(97, 97): 256}, range(256), cache), cache
    ([256, 32, 256], {'aa': [256], ' ': [32]})
    """
    table = bytes(byte_ids)  # byte value -> id, as a table for bytes.translate
    distinct = dict.fromkeys(chunks)  # chunk text -> its ids, filled below
    for chunk in distinct:
        chunk_ids = cache.get(chunk)
        if chunk_ids is None:
            chunk_ids = encode_chunk(chunk.encode("utf-8"), merges, table)
            if len(chunk) <= CACHE_MAX_CHUNK:
                if len(cache) >= CACHE_MAX_ENTRIES:
                    cache.clear()
                cache[chunk] = chunk_ids
        distinct[chunk] = chunk_ids
    # ids = the ids of every chunk, in text order, joined in C
    return list(chain.from_iterable(map(distinct.__getitem__, chunks)))
