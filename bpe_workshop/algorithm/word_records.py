"""What word-level training starts from and what it returns.

Training starts from the distinct words (split on whitespace) with their frequencies, each word
its characters plus the symbol ``</w>``. Trainers return a ``WordTraining``: one
``WordMergeRecord`` per merge, and for each word the step that joined each starting symbol onto
the one before: any word's split at any step, in memory proportional to the words.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from bpe_workshop.validation import require_str

END_OF_WORD = "</w>"

Pair = tuple[str, str]


def split_words(text: str) -> list[str]:
    """The words of ``text``, split on whitespace; rejects what cannot round-trip."""
    require_str(text, "text")
    if END_OF_WORD in text:
        raise ValueError(f"text contains the end-of-word marker {END_OF_WORD!r}, which "
                         "decoding would turn into a space; replace it first, e.g. "
                         "text.replace('</w>', '</ w>')")
    return text.split()


def count_words(text: str) -> dict[str, int]:
    """word -> frequency, in first-seen order.

    >>> count_words("low lower  low")
    {'low': 2, 'lower': 1}
    """
    return dict(Counter(split_words(text)))


def initial_split(word: str) -> tuple[str, ...]:
    """A word as its characters plus the end-of-word marker.

    >>> initial_split("low")
    ('l', 'o', 'w', '</w>')
    """
    return (*word, END_OF_WORD)


@dataclass(frozen=True)
class WordMergeRecord:
    """What happened at one word-level training step."""

    step: int  # 1-based
    pair: Pair  # (left symbol, right symbol) that was merged
    new_symbol: str  # left + right
    count: int  # occurrences when chosen, weighted by word frequency (overlaps included)


@dataclass(frozen=True)
class WordTraining:
    """All that training produced: the merges, and when each word's symbols were joined.

    ``joined_at[i][k]``: the step that joined starting symbol ``k`` of word ``i`` onto the one
    before, or 0. With merges ``('l', 'o')`` then ``('lo', 'w')``, ``low`` has ``[0, 1, 2, 0]``.

    >>> split_at(initial_split("low"), [0, 1, 2, 0], 1)
    ['lo', 'w', '</w>']
    """

    records: list[WordMergeRecord]
    joined_at: list[list[int]]  # one list per distinct word, in first-seen order


def split_at(symbols: tuple[str, ...], joined_at: list[int], step: int) -> list[str]:
    """A word's split after the first ``step`` merges, from its starting symbols.

    >>> split_at(("l", "o", "w", "</w>"), [0, 1, 2, 0], 2), split_at(("l", "o", "w"), [0, 0, 0], 0)
    (['low', '</w>'], ['l', 'o', 'w'])
    """
    # a symbol starts wherever no merge of the first `step` joined it to its left neighbour
    starts = [k for k, joined in enumerate(joined_at) if not 0 < joined <= step]
    ends = [*starts[1:], len(symbols)]
    return ["".join(symbols[start:end]) for start, end in zip(starts, ends)]
