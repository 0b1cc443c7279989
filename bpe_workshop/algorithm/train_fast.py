"""Incremental BPE training: the same merges as ``textbook``, without recounting.

Merging ``(a, b)`` into ``c`` changes the text only where ``a b`` stands: ``x a b y`` becomes
``x c y``, so ``(x, a)``, ``(a, b)``, ``(b, y)`` lose one occurrence and ``(x, c)``, ``(c, y)``
gain one. So the module keeps: each distinct chunk once, with its frequency (8 MB of standard-
library code: 2 million chunks, under 40,000 distinct); a doubly linked list over positions
(``nxt``/``prv``, one slot per byte), so a merge rewrites one slot and unlinks the next; an
index from each pair to the positions where it may start, so a merge costs what its occurrences
cost; and a heap of pairs keyed by ``textbook.pair_order``, THE tie rule of ``best_pair``
(``(-count, left, right)`` by default). The slots are arrays of machine ints (about 25 bytes
per byte of text).

Why the lazy heap is exact: a pair gains occurrences only while the merge that mints its newer
id runs (bytes: while the chunks are counted); afterwards its count only falls. So an entry
never understates its pair's count: an exact top entry beats every other pair, and a stale one
is pushed back with its current count.

Lineage: Re-Pair (Larsson and Moffat 1999: the list, the index, the queue); ``learn_bpe``
(Sennrich et al. 2016: each word once); Hugging Face ``tokenizers`` (a heap re-checked when
popped). Left out: threads and any approximation.
"""

from __future__ import annotations

import heapq
from array import array
from collections import Counter, defaultdict
from collections.abc import Callable
from functools import partial

from bpe_workshop.algorithm.pair_index import credit, discount, pop_best_pair
from bpe_workshop.algorithm.records import MergeRecord
from bpe_workshop.algorithm.textbook import pair_order


def learn_merges(
    chunks: list[bytes],
    num_merges: int,
    *,
    progress: Callable[[int, int, MergeRecord], None] | None = None,
    tie_rule: str = "smallest_ids",
) -> list[MergeRecord]:
    """Learn up to ``num_merges`` merges over ``chunks``: exactly ``textbook.learn_merges``.

    ``chunks``: the pieces of the text as UTF-8 bytes, repeats included. Stops early when no
    pair occurs twice; ``progress(step, num_merges, record)`` is called after every merge;
    ``tie_rule`` settles equal counts (``textbook.pair_order``).

    >>> records = learn_merges([b"aaabdaaabac"], 3)
    >>> [(r.pair, r.new_id, r.count, r.token) for r in records]
    [((97, 97), 256, 4, b'aa'), ((97, 98), 257, 2, b'ab'), ((256, 257), 258, 2, b'aaab')]

    >>> [(r.pair, r.count) for r in learn_merges([b"ab", b"ab", b"ba"], 5)]  # never across
    [((97, 98), 2)]
    """
    kinds = sorted({type(chunk).__name__ for chunk in chunks if not isinstance(chunk, bytes)})
    if kinds:
        raise TypeError(f"chunks must be a list of bytes, got {', '.join(kinds)}; encode each "
                        "piece first, e.g. [piece.encode('utf-8') for piece in pieces], or "
                        "bytes(piece) for a bytearray")
    # count each distinct chunk once, with how often it occurs
    chunk_counts = Counter(chunks)  # chunk bytes -> occurrences in the text

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
        nxt.extend([*range(start + 1, end), -1])
        prv.extend([-1, *range(start, end - 1)])
        weight.extend([freq] * len(chunk))
        # note where each of the chunk's pairs starts
        for pos, pair in enumerate(zip(chunk, chunk[1:]), start):
            where[pair].append(pos)
    # a pair's count: one per position, weighted by how often that position's chunk occurs
    counts = defaultdict(int)  # (left id, right id) -> occurrences, as get_stats counts them
    for pair, positions in where.items():
        counts[pair] = sum(map(weight.__getitem__, positions))

    token = [bytes([i]) for i in range(256)]  # id -> bytes it stands for
    # heap entries: pair_order's key, e.g. (-count, left id, right id); only pairs occurring
    # twice or more can merge
    heap = [pair_order(item, tie_rule, token) for item in counts.items() if item[1] >= 2]
    heapq.heapify(heap)

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
                discount(counts, where, (sym[p], left), w)
                credit(counts, where, (sym[p], new_id), w, p, created)
            if k != -1:
                discount(counts, where, (right, sym[k]), w)
                credit(counts, where, (new_id, sym[k]), w, i, created)
            # rewrite slot i as c and unlink slot j
            sym[i], sym[j], nxt[i] = new_id, -1, k
            if k != -1:
                prv[k] = i
        assert pair not in counts, "every occurrence of the merged pair was found and merged"
        token.append(token[left] + token[right])

        # the new pairs' counts are final now: they will only go down from here
        for gained in created:
            if counts.get(gained, 0) >= 2:
                heapq.heappush(heap, pair_order((gained, counts[gained]), tie_rule, token))

        # record the merge for viewers
        records.append(MergeRecord(step=step, pair=pair, new_id=new_id, count=merged_count,
                                   token=token[new_id]))
        if progress is not None:
            progress(step, num_merges, records[-1])
    return records

