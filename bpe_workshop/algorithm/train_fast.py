"""Incremental BPE training: the same merges as ``textbook``, without recounting.

The naive loop recounts every pair of the whole text for every merge. But a merge of
``(a, b)`` into ``c`` only changes the text where ``a b`` stands: around each occurrence,
``x a b y`` becomes ``x c y``, so the pairs ``(x, a)``, ``(a, b)``, ``(b, y)`` lose one
occurrence and ``(x, c)``, ``(c, y)`` gain one. Nothing else moves. This module keeps

1. **the distinct chunks once each, with their frequency.** Text split by GPT-2's pattern
   repeats the same chunks (`` the``, ``,``, `` self``) again and again: 8 MB of standard-library
   code is 2 million chunks but fewer than 40,000 distinct ones. An occurrence inside a
   chunk that appears 900 times counts 900.
2. **a doubly linked list over positions.** The distinct chunks are laid end to end, one
   slot per byte; ``nxt``/``prv`` link each live slot to its neighbours inside its chunk,
   so a merge rewrites one slot and unlinks the other, in constant time.
3. **an index from each pair to the positions where it starts**, so a merge visits only its
   occurrences: its cost is proportional to how often the pair occurs, not to the text size.
   Positions are only ever appended; one that no longer holds the pair is skipped when met.
4. **a max-heap of pairs** keyed by ``(-count, left, right)``: the smallest key is THE tie rule of
   ``textbook.best_pair`` (highest count, then smallest pair). Entries are checked lazily when
   they reach the top.

The same structure serves both uses: with a split pattern there are many short chunks,
without one (``pattern=None``) there is a single long chunk, and the linked list makes
either cost only what the merges touch. There is no switch between two algorithms. The slots
live in arrays of machine integers, about 25 bytes per byte of distinct chunk text in all
(a list of Python ints would take five times that).

Why the lazy heap is exact: a pair can only gain occurrences during the merge that mints its
newer id (a pair of two bytes: while the chunks are first counted), since every pair created
later contains an even newer id. After that its count only goes down. So once pushed, a heap
entry never understates its pair's count: when the top entry is still exact no other pair can
beat it, and when it is stale we push it back with its current count.

Lineage: Larsson and Moffat's Re-Pair compression (1999) introduced the linked list, the
pair -> occurrences index and the priority queue; Sennrich et al.'s ``learn_bpe`` (2016) counts
each word once with its frequency and updates only the words a merge touches; Hugging Face
``tokenizers`` trains BPE with a heap whose entries are re-checked when popped.
Left out: multiple threads, and any approximation (every count is exactly what
``textbook.get_stats`` would count on the current ids, overlaps included).
"""

from __future__ import annotations

import heapq
from array import array
from collections import Counter, defaultdict
from collections.abc import Callable
from functools import partial

from bpe_workshop.algorithm.pair_index import credit, discount, pop_best_pair
from bpe_workshop.algorithm.records import MergeRecord


def learn_merges(
    chunks: list[bytes],
    num_merges: int,
    *,
    progress: Callable[[int, int, MergeRecord], None] | None = None,
) -> list[MergeRecord]:
    """Learn up to ``num_merges`` merges over ``chunks``: exactly ``train_naive.learn_merges``.

    ``chunks`` are the pre-split pieces of the text as UTF-8 bytes, in text order, repeats
    included. Stops early, returning fewer records, when no pair occurs at least twice.
    ``progress(step, num_merges, record)`` is called after every merge.

    >>> records = learn_merges([b"aaabdaaabac"], 3)
    >>> [(r.pair, r.new_id, r.count, r.token) for r in records]
    [((97, 97), 256, 4, b'aa'), ((97, 98), 257, 2, b'ab'), ((256, 257), 258, 2, b'aaab')]

    A chunk that repeats counts once per repeat; pairs never cross chunks:

    >>> [(r.pair, r.count) for r in learn_merges([b"ab", b"ab", b"ba"], 5)]
    [((97, 98), 2)]
    >>> learn_merges([b"abc"], 5)  # no pair occurs twice
    []
    """
    # count each distinct chunk once, with how often it occurs
    try:
        chunk_counts = Counter(chunks)  # chunk bytes -> occurrences in the text
    except TypeError:  # an unhashable chunk, such as a bytearray
        chunk_counts = None
    if chunk_counts is None or not all(isinstance(chunk, bytes) for chunk in chunk_counts):
        kinds = sorted({type(chunk).__name__ for chunk in chunks if not isinstance(chunk, bytes)})
        raise TypeError(
            f"chunks must be a list of bytes, got {', '.join(kinds)}; encode each piece first, "
            "e.g. [piece.encode('utf-8') for piece in pieces], or bytes(piece) for a bytearray"
        )

    # lay the distinct chunks end to end, one slot per byte; arrays of machine integers
    # (4 or 8 bytes a slot) rather than lists of int objects use about a fifth of the memory
    sym = array("i")  # position -> id at that position (-1 once merged away)
    nxt = array("i")  # position -> next live position in the same chunk (-1 at the chunk's end)
    prv = array("i")  # position -> previous live position in the same chunk (-1 at its start)
    weight = array("q")  # position -> frequency of the chunk it belongs to
    where = defaultdict(partial(array, "i"))  # (left id, right id) -> positions where it may start
    for chunk, freq in chunk_counts.items():
        start, end = len(sym), len(sym) + len(chunk)
        if start == end:
            continue
        sym.extend(chunk)
        nxt.extend(range(start + 1, end))
        nxt.append(-1)
        prv.append(-1)
        prv.extend(range(start, end - 1))
        weight.extend([freq] * len(chunk))
        # note where each of the chunk's pairs starts
        for pos, pair in enumerate(zip(chunk, chunk[1:]), start):
            where[pair].append(pos)
    # a pair's count: one per position, weighted by how often that position's chunk occurs
    counts = defaultdict(int)  # (left id, right id) -> occurrences, as get_stats counts them
    for pair, positions in where.items():
        counts[pair] = sum(map(weight.__getitem__, positions))
    del chunk_counts

    # heap entries: (-count, left id, right id); only pairs occurring twice or more can merge
    heap = [(-count, *pair) for pair, count in counts.items() if count >= 2]
    heapq.heapify(heap)

    token = [bytes([i]) for i in range(256)]  # id -> bytes it stands for
    records = []
    for step in range(1, num_merges + 1):
        # take the best pair (stale heap entries are fixed on the way)
        best = pop_best_pair(heap, counts)
        if best is None:
            break  # no pair occurs twice: stop, as the naive loop does
        pair, merged_count = best
        left, right = pair

        new_id = 255 + step
        created = set()  # pairs containing new_id, pushed once their counts are final

        # subtle: left to right, like merge(): in "a a a" the first two a's merge, not the last two
        for i in sorted(where.pop(pair)):
            # skip positions that no longer hold the pair (merged away or changed since)
            j = nxt[i]
            if sym[i] != left or j == -1 or sym[j] != right:
                continue
            w = weight[i]
            p, k = prv[i], nxt[j]
            # x a b y -> x c y: (x, a), (a, b), (b, y) lose an occurrence; (x, c), (c, y) gain one
            discount(counts, where, pair, w)
            if p != -1:
                x = sym[p]
                discount(counts, where, (x, left), w)
                credit(counts, where, (x, new_id), w, p, created)
            if k != -1:
                y = sym[k]
                discount(counts, where, (right, y), w)
                credit(counts, where, (new_id, y), w, i, created)
            # rewrite slot i as c and unlink slot j
            sym[i] = new_id
            sym[j] = -1
            nxt[i] = k
            if k != -1:
                prv[k] = i
        assert pair not in counts, "every occurrence of the merged pair was found and merged"

        # the new pairs' counts are final now: they will only go down from here
        for gained in created:
            count = counts.get(gained, 0)
            if count >= 2:
                heapq.heappush(heap, (-count, *gained))

        # record the merge for viewers
        token.append(token[left] + token[right])
        record = MergeRecord(step=step, pair=pair, new_id=new_id, count=merged_count,
                             token=token[new_id])
        records.append(record)
        if progress is not None:
            progress(step, num_merges, record)
    return records

