"""Word-level BPE with an end-of-word marker, the subword-NMT variant.

Lineage: Sennrich, Haddow and Birch, "Neural Machine Translation of Rare Words with Subword
Units" (2016). Each distinct word (split on whitespace) counts once with its frequency and
starts as its characters plus ``</w>``; merges never cross words. Unseen characters become
``<unk>``; decoding turns each ``</w>`` into a space. Ties: ``textbook.pair_order`` on strings
(``('e', 's')`` first of the paper's three pairs counted 9 times). Trainers: ``word_train_naive``
and its twin ``word_train_fast``; the paper's own functions: ``algorithm.word_paper``.
Left out: joint vocabularies, thresholds, the ``@@`` marker.

>>> wl = WordLevelBPE.train("low low lower newest newest widest", num_merges=3)
>>> wl.merges, wl.tokenize("lowest")
((('e', 's'), ('es', 't'), ('est', '</w>')), ['l', 'o', 'w', 'est</w>'])
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path

from bpe_workshop.algorithm import word_train_fast, word_train_naive
from bpe_workshop.algorithm.textbook import merge
from bpe_workshop.algorithm.unigram import NO_WORDS
from bpe_workshop.algorithm.word_records import (
    END_OF_WORD,
    WordMergeRecord,
    count_words,
    initial_split,
    split_at,
    split_words,
)
from bpe_workshop.files import model_file
from bpe_workshop.validation import (
    ReadOnlyDict,
    describe,
    read_only,
    require_choice,
    require_ids,
    require_int,
    require_str,
)

UNK = "<unk>"
TRAINERS = {"fast": word_train_fast.learn_word_merges, "naive": word_train_naive.learn_word_merges}
__all__ = ["END_OF_WORD", "UNK", "WordLevelBPE", "WordMergeRecord"]

Pair = tuple[str, str]
REMAKE = "make the tokenizer you want with wl.with_merges(new_merges)"


class WordLevelBPE:
    """A word-level BPE tokenizer: an alphabet and an ordered list of merges.

    Ids: the alphabet in code-point order, ``</w>``, ``<unk>``, then each new merged symbol.
    Its tables are read-only: :meth:`with_merges` makes a changed tokenizer.

    >>> wl = WordLevelBPE.train("aaab aaab", num_merges=10)
    >>> wl.merges
    (('a', 'a'), ('a', 'b'), ('aa', 'ab'), ('aaab', '</w>'))
    >>> wl.vocab  # doctest: +NORMALIZE_WHITESPACE
    {0: 'a', 1: 'b', 2: '</w>', 3: '<unk>', 4: 'aa', 5: 'ab', 6: 'aaab',
     7: 'aaab</w>'}
    >>> wl.stop_message
    'stopped after 4 of 10 merges: no pair occurs twice or more'
    >>> wl.encode("aaab ab c"), wl.decode([7, 5, 2, 3, 2])
    ([7, 5, 2, 3, 2], 'aaab ab <unk>')
    """

    def __init__(
        self,
        alphabet: Iterable[str],
        merges: Iterable[Pair],
        counts: Iterable[int] | None = None,
        *,
        word_counts: dict[str, int] | None = None,
        joined_at: list[list[int]] | None = None,
        stop_message: str | None = None,
    ) -> None:
        """Build a tokenizer from what training produced (``train`` and ``load`` call this).

        ``counts``: each merge's training count (0 when not known); ``word_counts`` and
        ``joined_at`` (``word_records.WordTraining``) let ``word_table_at`` replay training.

        >>> WordLevelBPE(["a", "b"], [("a", "b")], counts=[3, 2])
        Traceback (most recent call last):
        ...
        ValueError: counts must give one count per merge: got 2 counts for 1 merges
        """
        self._alphabet = _check_alphabet(alphabet)  # single characters, code-point order
        self._merges = _check_merges(merges)  # (left symbol, right symbol), in order
        counts = [0] * len(self.merges) if counts is None else _check_counts(counts, self.merges)
        self._records = tuple(WordMergeRecord(step=i + 1, pair=pair, new_symbol=pair[0] + pair[1],
                                              count=count)
                              for i, (pair, count) in enumerate(zip(self.merges, counts)))
        if stop_message is not None:
            require_str(stop_message, "stop_message")
        self.stop_message = stop_message  # str when training stopped early
        # training word -> frequency, first-seen order, and when each starting symbol was joined
        self._word_counts, self._joined_at = _check_training(word_counts, joined_at, self.merges)
        # symbol -> id: the alphabet, </w>, <unk>, then each merged symbol not seen before
        self._ids = {symbol: i for i, symbol in enumerate(dict.fromkeys(
            [*self.alphabet, END_OF_WORD, UNK, *(a + b for a, b in self.merges)]))}
        self._vocab = ReadOnlyDict({i: symbol for symbol, i in self._ids.items()}, REMAKE)
        self._alphabet_set = set(self.alphabet)
        self._ranks = {}  # pair -> every rank (merge index) it has, ascending
        for rank, pair in enumerate(self.merges):
            self._ranks.setdefault(pair, []).append(rank)
        self._cache = {}  # word -> its symbols after all merges

    alphabet = read_only("alphabet", REMAKE)
    merges = read_only("merges", REMAKE)
    vocab = read_only("vocab", REMAKE)
    records = read_only("records", "they are what training did; train again to change them")
    word_counts = read_only("word_counts", "they are what training read; train again")

    def __repr__(self) -> str:
        return (f"WordLevelBPE(alphabet={len(self.alphabet)} characters, "
                f"merges={len(self.merges)}, vocab={len(self.vocab)})")

    @property
    def vocab_size(self) -> int:
        """Number of symbols with an id: alphabet, ``</w>``, ``<unk>`` and merged symbols."""
        return len(self.vocab)

    # -- training ------------------------------------------------------------------------------

    @classmethod
    def train(cls, text: str, num_merges: int, algorithm: str = "fast") -> WordLevelBPE:
        """Learn up to ``num_merges`` merges from the words of ``text``.

        Each step merges the most frequent pair (weighted by word frequency; ties:
        ``textbook.pair_order``) in every word; training stops early, setting ``stop_message``,
        when no pair occurs twice. ``algorithm="naive"`` runs the paper's loop, ``"fast"`` its
        twin: the same merges.

        >>> wl = WordLevelBPE.train("low " * 5 + "lower " * 2 + "newest " * 6 + "widest " * 3, 5)
        >>> [(r.pair, r.count) for r in wl.records]  # doctest: +NORMALIZE_WHITESPACE
        [(('e', 's'), 9), (('es', 't'), 9), (('est', '</w>'), 9), (('l', 'o'), 7),
         (('lo', 'w'), 7)]
        >>> WordLevelBPE.train("low lower", num_merges=-1)
        Traceback (most recent call last):
        ...
        ValueError: num_merges must be at least 0, got -1; pass e.g. num_merges=100
        """
        word_counts = count_words(text)
        require_int(num_merges, "num_merges", minimum=0, example=100)
        require_choice(algorithm, "algorithm", tuple(TRAINERS))
        if not word_counts:
            raise ValueError(NO_WORDS)
        training = TRAINERS[algorithm](word_counts, num_merges)
        stop_message = None
        if len(training.records) < num_merges:
            stop_message = (f"stopped after {len(training.records)} of {num_merges} merges: "
                            "no pair occurs twice or more")
        return cls({ch for word in word_counts for ch in word},
                   [record.pair for record in training.records],
                   [record.count for record in training.records], word_counts=word_counts,
                   joined_at=training.joined_at, stop_message=stop_message)

    # -- viewing training ----------------------------------------------------------------------

    def word_table_at(self, step: int) -> list[tuple[str, int, list[str]]]:
        """The training words after the first ``step`` merges: (word, frequency, split).

        >>> wl = WordLevelBPE.train("low low lower", num_merges=2)
        >>> wl.word_table_at(0)
        [('low', 2, ['l', 'o', 'w', '</w>']), ('lower', 1, ['l', 'o', 'w', 'e', 'r', '</w>'])]
        >>> wl.word_table_at(2)
        [('low', 2, ['low', '</w>']), ('lower', 1, ['low', 'e', 'r', '</w>'])]
        """
        self._check_step(step, lowest=0)
        return [(word, freq, split_at(initial_split(word), joined, step))
                for (word, freq), joined in zip(self.word_counts.items(), self._joined_at)]

    def words_changed_at(self, step: int) -> list[str]:
        """The training words whose split merge number ``step`` (1-based) changed.

        >>> WordLevelBPE.train("low low lower newer", num_merges=3).words_changed_at(3)
        ['lower', 'newer']
        """
        self._check_step(step, lowest=1)
        return [word for word, joined in zip(self.word_counts, self._joined_at) if step in joined]

    def _check_step(self, step: int, lowest: int) -> None:
        if not self.word_counts:
            raise ValueError("this tokenizer has no training words (it was loaded from a file or "
                             "built from merges); train it with WordLevelBPE.train(text, "
                             "num_merges) to view them")
        require_int(step, "step", minimum=lowest, maximum=len(self.merges))

    # -- tokenizing ----------------------------------------------------------------------------

    def tokenize(self, text: str) -> list[str]:
        """Split ``text`` into symbols, word by word, applying merges in learned order.

        >>> wl = WordLevelBPE.train("low " * 5 + "lower " * 2 + "newest " * 6 + "widest " * 3, 10)
        >>> wl.tokenize("lower newest"), wl.tokenize("lowly")  # 'y' was never seen
        (['low', 'e', 'r', '</w>', 'newest</w>'], ['low', 'l', '<unk>', '</w>'])
        """
        return [symbol for word in split_words(text) for symbol in self._tokenize_word(word)]

    def _tokenize_word(self, word: str) -> tuple[str, ...]:
        """One word's symbols, by applying the merges in learned order (cached)."""
        if word in self._cache:
            return self._cache[word]
        symbols = tuple(ch if ch in self._alphabet_set else UNK for ch in word) + (END_OF_WORD,)
        next_rank = 0  # merges before this one have been applied
        while len(symbols) > 1:
            # the earliest merge not yet applied whose pair occurs in the word; the merges in
            # between would change nothing, so jumping straight to it equals applying them all
            rank = min((later for pair in set(zip(symbols, symbols[1:]))
                        for later in self._ranks.get(pair, ()) if later >= next_rank), default=None)
            if rank is None:
                break
            pair = self.merges[rank]
            symbols = tuple(merge(symbols, pair, pair[0] + pair[1]))
            next_rank = rank + 1
        self._cache[word] = symbols
        return symbols

    def encode(self, text: str) -> list[int]:
        """The ids of ``tokenize(text)``.

        >>> wl = WordLevelBPE.train("ab ab", num_merges=2)
        >>> wl.vocab
        {0: 'a', 1: 'b', 2: '</w>', 3: '<unk>', 4: 'ab', 5: 'ab</w>'}
        >>> wl.encode("ab ba")
        [5, 1, 0, 2]
        """
        return [self._ids[symbol] for symbol in self.tokenize(text)]

    def decode(self, ids: Iterable[int]) -> str:
        """Join the symbols of ``ids``; each ``</w>`` becomes a space, the final one is dropped.

        >>> WordLevelBPE.train("ab ab", num_merges=2).decode([5, 1, 0, 2])
        'ab ba'
        >>> WordLevelBPE.train("ab ab", num_merges=2).decode([6])
        Traceback (most recent call last):
        ...
        ValueError: unknown token id 6: valid ids are the ints 0..5
        """
        ids = require_ids(ids, self.vocab, f"0..{len(self.vocab) - 1}", example="[4, 5]")
        text = "".join(self.vocab[i] for i in ids).replace(END_OF_WORD, " ")
        return text[:-1] if text.endswith(" ") else text

    # -- saving and loading --------------------------------------------------------------------

    def save(self, path: str | os.PathLike) -> Path:
        """Write the alphabet and merges, with their counts, to ``path``; return the path."""
        return model_file.save_word_level(path, alphabet=self.alphabet, merges=self.merges,
                                          counts=[record.count for record in self.records])

    def with_merges(self, merges: Iterable[Pair]) -> WordLevelBPE:
        """A new tokenizer with this alphabet and these merges, checked like any new one
        (training counts and words are not carried over).

        >>> wl = WordLevelBPE.train("low low lower", num_merges=2)
        >>> wl.with_merges([*wl.merges, ("low", "</w>")]).tokenize("low lower")
        ['low</w>', 'low', 'e', 'r', '</w>']
        """
        return WordLevelBPE(self.alphabet, merges)

    @classmethod
    def load(cls, path: str | os.PathLike) -> WordLevelBPE:
        """Read a file written by ``save``. A damaged file raises ``ValueError`` naming the line."""
        return cls(**model_file.load_word_level(path))


# ----- checks of what the constructor receives ----------------------------------------------


def _check_alphabet(alphabet: object) -> tuple[str, ...]:
    if isinstance(alphabet, str) or not isinstance(alphabet, Iterable):
        raise TypeError(f"alphabet must be a list or set of single characters, e.g. ['a', 'b'], "
                        f"got {describe(alphabet)}")
    alphabet = list(alphabet)
    for ch in alphabet:
        require_str(ch, "each character of the alphabet")
        if len(ch) != 1:
            raise ValueError(f"alphabet must hold single characters, e.g. ['a', 'b'], got {ch!r}")
    return tuple(sorted(set(alphabet)))


def _check_merges(merges: object) -> tuple[Pair, ...]:
    if isinstance(merges, (str, dict)) or not isinstance(merges, Iterable):
        raise TypeError(f"merges must be a list of (left, right) pairs of symbols, e.g. "
                        f"[('a', 'b')], got {describe(merges)}")
    pairs = []
    for pair in merges:
        if not (isinstance(pair, (tuple, list)) and len(pair) == 2
                and all(isinstance(symbol, str) and symbol for symbol in pair)):
            raise TypeError(f"each merge must be a pair of non-empty str, e.g. ('a', 'b'), "
                            f"got {pair!r}")
        pairs.append((pair[0], pair[1]))
    return tuple(pairs)


def _check_counts(counts: object, merges: list[Pair]) -> list[int]:
    if isinstance(counts, (str, bytes)) or not isinstance(counts, Iterable):
        raise TypeError(f"counts must be a list of ints, one per merge, got {describe(counts)}")
    counts = [require_int(count, f"counts[{i}]", minimum=0) for i, count in enumerate(counts)]
    if len(counts) != len(merges):
        raise ValueError(f"counts must give one count per merge: got {len(counts)} counts for "
                         f"{len(merges)} merges")
    return counts


def _check_training(word_counts: object, joined_at: object, merges: list[Pair]):
    """``word_counts`` and ``joined_at`` as training returns them, or both None."""
    if word_counts is None and joined_at is None:
        return ReadOnlyDict(), []
    if not isinstance(word_counts, dict) or not isinstance(joined_at, list):
        raise TypeError("word_counts (a dict word -> frequency) and joined_at (a list per word) "
                        "come together from training; pass both or neither")
    if len(joined_at) != len(word_counts):
        raise ValueError(f"joined_at must hold one list per word: got {len(joined_at)} for "
                         f"{len(word_counts)} words")
    last = len(merges)
    for (word, freq), joined in zip(word_counts.items(), joined_at):
        require_str(word, "each training word")
        require_int(freq, f"word_counts[{word!r:.40}]", minimum=1)
        if not isinstance(joined, (list, tuple)) or len(joined) != len(word) + 1:
            raise ValueError(f"joined_at must hold one step per character and </w> of each "
                             f"word: {len(word) + 1} for {word!r:.40}, got {joined!r:.60}")
        for step in joined:  # the message is built only for a bad step: words can be long
            if isinstance(step, bool) or not isinstance(step, int) or not 0 <= step <= last:
                require_int(step, f"a step in joined_at[{word!r:.40}]", minimum=0, maximum=last)
    return ReadOnlyDict(word_counts), [list(joined) for joined in joined_at]
