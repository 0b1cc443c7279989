"""The textbook BPE training loop, written to be read.

Lineage: Gage's pair replacement applied to UTF-8 bytes, within regex chunks (GPT-2).
Each step recounts every pair in every chunk, so it is slow: a merge costs time proportional
to the whole text. ``train_fast`` learns exactly the same merges incrementally.
Left out: special tokens and the vocabulary (see ``byte_level``), any speed tricks.
"""

from __future__ import annotations

from collections.abc import Callable

from bpe_workshop.algorithm.pairs import best_pair, get_stats, merge
from bpe_workshop.algorithm.records import MergeRecord


def learn_merges(
    chunks: list[bytes],
    num_merges: int,
    *,
    progress: Callable[[int, int, MergeRecord], None] | None = None,
) -> list[MergeRecord]:
    """Learn up to ``num_merges`` merges over ``chunks`` (UTF-8 bytes, in text order).

    Stops early, returning fewer records, when no pair occurs at least twice.

    >>> records = learn_merges([b"aaabdaaabac"], 3)
    >>> [(r.pair, r.new_id, r.count, r.token) for r in records]
    [((97, 97), 256, 4, b'aa'), ((97, 98), 257, 2, b'ab'), ((256, 257), 258, 2, b'aaab')]
    >>> len(learn_merges([b"aaabdaaabac"], 10))  # after 3 merges no pair repeats
    3
    """
    chunk_ids = [list(chunk) for chunk in chunks]  # chunk_ids = [[72, 101], [32, 119, ...]]
    token = {i: bytes([i]) for i in range(256)}  # id -> bytes it stands for
    records = []
    for i in range(num_merges):
        # count every pair in every chunk (pairs never cross chunks)
        stats = {}  # (left id, right id) -> occurrences
        for ids in chunk_ids:
            get_stats(ids, stats)
        # stop when nothing repeats: merging a unique pair compresses nothing
        if not stats:
            break
        pair = best_pair(stats)
        if stats[pair] < 2:
            break
        # mint the next id and replace the pair everywhere
        new_id = 256 + i
        chunk_ids = [merge(ids, pair, new_id) for ids in chunk_ids]
        # record the merge for viewers
        token[new_id] = token[pair[0]] + token[pair[1]]
        record = MergeRecord(step=i + 1, pair=pair, new_id=new_id, count=stats[pair],
                             token=token[new_id])
        records.append(record)
        if progress is not None:
            progress(i + 1, num_merges, record)
    return records
