"""The word-level BPE training loop of Sennrich et al. (2016), written to be read.

Each distinct word is counted once with its frequency; every step counts all pairs over all
words (weighted by frequency), merges the best (``textbook.best_pair``'s rule, on strings) in
every word, and repeats. Each merge walks all the text: ``word_train_fast`` is its quick twin.
"""

from __future__ import annotations

from itertools import accumulate

from bpe_workshop.algorithm.textbook import best_pair, get_stats, merge
from bpe_workshop.algorithm.word_records import WordMergeRecord, WordTraining, initial_split


def learn_word_merges(word_counts: dict[str, int], num_merges: int) -> WordTraining:
    """Learn up to ``num_merges`` merges from ``word_counts`` (word -> frequency).

    Stops early, returning fewer records, when no pair occurs at least twice.

    >>> training = learn_word_merges({"low": 5, "lower": 2, "newest": 6, "widest": 3}, 3)
    >>> [(r.pair, r.count) for r in training.records]
    [(('e', 's'), 9), (('es', 't'), 9), (('est', '</w>'), 9)]
    >>> training.joined_at[2]  # newest: s joined at step 1, t at step 2, </w> at step 3
    [0, 0, 0, 0, 1, 2, 3]
    >>> len(learn_word_merges({"abc": 1}, 5).records)  # no pair occurs twice
    0
    """
    words = list(word_counts)  # distinct words, in first-seen order
    splits = [initial_split(word) for word in words]  # splits = [('l', 'o', 'w', '</w>'), ...]
    joined_at = [[0] * len(split) for split in splits]
    records = []
    for step in range(1, num_merges + 1):
        # count every pair in every word, weighted by how often the word occurs
        stats = {}  # (left symbol, right symbol) -> occurrences
        for word, split in zip(words, splits):
            for pair, n in get_stats(split).items():
                stats[pair] = stats.get(pair, 0) + n * word_counts[word]
        # stop when nothing repeats: merging a unique pair compresses nothing
        if not stats or stats[pair := best_pair(stats)] < 2:
            break
        # replace the pair in every word, and note which symbols were joined onto their left
        new_symbol = pair[0] + pair[1]
        for i, split in enumerate(splits):
            new = tuple(merge(split, pair, new_symbol))
            if len(new) < len(split):
                for k in _starts(split) - _starts(new):
                    joined_at[i][k] = step
                splits[i] = new
        records.append(WordMergeRecord(step=step, pair=pair, new_symbol=new_symbol,
                                       count=stats[pair]))
    return WordTraining(records=records, joined_at=joined_at)


def _starts(split: tuple[str, ...]) -> set[int]:
    """Where each symbol starts, counted in starting symbols (only ``</w>``, last, is longer).

    >>> sorted(_starts(("lo", "w", "</w>")))
    [0, 2, 3]
    """
    return set(accumulate(map(len, split[:-1]), initial=0))
