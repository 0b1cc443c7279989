"""Incremental word-level BPE training: the same merges as ``word_train_naive``, no recounting.

``train_fast``'s idea on words: merging ``(a, b)`` changes only the words where ``a b`` stands.
The module keeps the distinct words end to end, one slot per starting symbol, linked inside each
word (``nxt``/``prv``); an index from each pair to the slots where it starts (a 30,000-character
unspaced word is not walked for every merge); and a heap keyed by ``textbook.pair_order``.
The lazy heap is exact: a count goes up only where a merge creates the pair next to the new
symbol, and those pairs are pushed again once the merge is done, so every pair has an entry
stating at least its count (even when two merges make the same symbol, as strings may).
Lineage: Re-Pair (Larsson and Moffat 1999); ``learn_bpe`` (Sennrich et al. 2016).
"""

from __future__ import annotations

import heapq
from array import array
from collections import defaultdict

from bpe_workshop.algorithm.pair_index import credit, discount, pop_best_pair
from bpe_workshop.algorithm.textbook import pair_order
from bpe_workshop.algorithm.word_records import WordMergeRecord, WordTraining, initial_split


def learn_word_merges(word_counts: dict[str, int], num_merges: int) -> WordTraining:
    """Learn up to ``num_merges`` merges from ``word_counts``: exactly ``word_train_naive``.

    >>> training = learn_word_merges({"low": 5, "lower": 2, "newest": 6, "widest": 3}, 3)
    >>> [(r.pair, r.count) for r in training.records]
    [(('e', 's'), 9), (('es', 't'), 9), (('est', '</w>'), 9)]
    >>> learn_word_merges({"aaaa": 1}, 5).records[0].count  # overlaps count: a a a a
    3
    """
    # lay the distinct words end to end, one slot per starting symbol
    sym = []  # slot -> symbol at that slot ('' once merged into the slot before it)
    nxt = array("i")  # slot -> next live slot in the same word (-1 at the word's end)
    prv = array("i")  # slot -> previous live slot in the same word (-1 at its start)
    weight = array("q")  # slot -> frequency of the word it belongs to
    word_starts = []  # word index -> its first slot
    where = defaultdict(list)  # (left, right) -> slots where the pair may start
    counts = defaultdict(int)  # (left, right) -> occurrences, weighted by word frequency
    for word, freq in word_counts.items():
        symbols = initial_split(word)
        start, end = len(sym), len(sym) + len(symbols)
        word_starts.append(start)
        sym.extend(symbols)
        nxt.extend([*range(start + 1, end), -1])
        prv.extend([-1, *range(start, end - 1)])
        weight.extend([freq] * len(symbols))
        for slot, pair in enumerate(zip(symbols, symbols[1:]), start):
            where[pair].append(slot)
            counts[pair] += freq
    joined = array("i", bytes(4 * len(sym)))  # slot -> step that joined it to its left, or 0

    heap = [pair_order(item) for item in counts.items() if item[1] >= 2]  # (-count, l, r)
    heapq.heapify(heap)
    records = []
    for step in range(1, num_merges + 1):
        # take the best pair (stale heap entries are fixed on the way)
        best = pop_best_pair(heap, counts)
        if best is None:
            break  # no pair occurs twice: stop, as the naive loop does
        pair, merged_count = best
        left, right = pair
        new = left + right
        gained = set()  # pairs that gained occurrences, pushed once their counts are final

        # subtle: left to right, like merge(): in "a a a" the first two a's merge, not the last two
        for i in sorted(where.pop(pair)):
            j = nxt[i]
            if sym[i] != left or j == -1 or sym[j] != right:
                continue  # this slot no longer holds the pair
            w = weight[i]
            p, k = prv[i], nxt[j]
            # x a b y -> x ab y: (x, a), (a, b), (b, y) lose an occurrence; (x, ab), (ab, y) gain
            discount(counts, where, pair, w)
            if p != -1:
                discount(counts, where, (sym[p], left), w)
                credit(counts, where, (sym[p], new), w, p, gained)
            if k != -1:
                discount(counts, where, (right, sym[k]), w)
                credit(counts, where, (new, sym[k]), w, i, gained)
            # rewrite slot i as the new symbol and unlink slot j
            sym[i], sym[j], nxt[i] = new, "", k
            joined[j] = step
            if k != -1:
                prv[k] = i
        assert pair not in counts, "every occurrence of the merged pair was found and merged"
        for gain in gained:
            if counts.get(gain, 0) >= 2:
                heapq.heappush(heap, pair_order((gain, counts[gain])))
        records.append(WordMergeRecord(step=step, pair=pair, new_symbol=new, count=merged_count))

    ends = [*word_starts[1:], len(sym)]
    joined_at = [joined[start:end].tolist() for start, end in zip(word_starts, ends)]
    return WordTraining(records=records, joined_at=joined_at)

