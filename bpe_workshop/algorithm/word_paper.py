"""The paper's own functions on its own format: ``{"l o w </w>": 5}``, for notebook 05.

Sennrich, Haddow and Birch (2016) print their loop in the paper, on a dict from each word (its
symbols joined by spaces) to its frequency: build it, count its pairs, the regex ``merge_vocab``,
and a variant that silently never merges (notebook 05). ``WordLevelBPE`` keeps tuples instead.
"""

from __future__ import annotations

import re

from bpe_workshop.algorithm.textbook import get_stats
from bpe_workshop.algorithm.word_records import Pair, count_words, initial_split


def word_vocab(text: str) -> dict[str, int]:
    """Each distinct word of ``text`` as spaced symbols, with its frequency (first seen first).

    >>> word_vocab("this is a test this test is only a test a test this is")
    {'t h i s </w>': 3, 'i s </w>': 3, 'a </w>': 3, 't e s t </w>': 4, 'o n l y </w>': 1}
    """
    return {" ".join(initial_split(word)): n for word, n in count_words(text).items()}


def vocab_pair_counts(vocab: dict[str, int]) -> dict[Pair, int]:
    """Count adjacent symbol pairs in a ``word_vocab``-style dict, weighted by frequency.

    >>> vocab_pair_counts({"l o w </w>": 5, "l o w e r </w>": 2})
    {('l', 'o'): 7, ('o', 'w'): 7, ('w', '</w>'): 5, ('w', 'e'): 2, ('e', 'r'): 2, ('r', '</w>'): 2}
    """
    stats = {}  # (left symbol, right symbol) -> count weighted by word frequency
    for word, freq in vocab.items():
        for pair, n in get_stats(word.split()).items():
            stats[pair] = stats.get(pair, 0) + n * freq
    return stats


def merge_vocab(pair: Pair, vocab: dict[str, int]) -> dict[str, int]:
    """The paper's merge step: join ``pair`` wherever it stands as two whole symbols.

    No symbol character may stand before (``(?<!\\S)``) or after (``(?!\\S)``) the bigram.

    >>> merge_vocab(("e", "s"), {"n e w e s t </w>": 6, "e st </w>": 1})
    {'n e w es t </w>': 6, 'e st </w>': 1}
    """
    bigram = re.escape(" ".join(pair))
    pattern = re.compile(r"(?<!\S)" + bigram + r"(?!\S)")
    return {pattern.sub(lambda _: "".join(pair), word): freq for word, freq in vocab.items()}


def merge_vocab_buggy(pair: Pair, vocab: dict[str, int]) -> dict[str, int]:
    """A variant with a lookahead where the lookbehind should be: it never merges. Spot the bug.

    ``(?!\\S)`` in front of the bigram looks at the bigram's own first character, so nothing ever
    matches: the vocabulary comes back unchanged, without an error.

    >>> merge_vocab_buggy(("e", "s"), {"n e w e s t </w>": 6})
    {'n e w e s t </w>': 6}
    """
    bigram = re.escape(" ".join(pair))
    pattern = re.compile(r"(?!\S)" + bigram + r"(?!\S)")
    return {pattern.sub(lambda _: "".join(pair), word): freq for word, freq in vocab.items()}

