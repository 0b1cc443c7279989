"""Word-level BPE with an end-of-word marker, the subword-NMT variant.

Lineage: Sennrich, Haddow and Birch, "Neural Machine Translation of Rare Words with Subword
Units" (2016). The text is split on whitespace (as ``str.split()`` sees it) and each distinct word
is counted once with its frequency. A word starts as its characters plus the marker ``</w>`` as a
symbol of its own; pair counts are weighted by word frequency, and merges never cross words.
The initial vocabulary is the alphabet of the training text plus ``</w>``; characters never seen
in training become ``<unk>`` when tokenizing. Decoding turns each ``</w>`` back into a space, so
the text comes back with its whitespace normalised to single spaces.

Tie rule: the pair with the highest count wins; among equal counts the smallest pair wins,
comparing the left symbol first, then the right one, as Python compares ``(str, str)`` tuples.
It is the byte-level rule of ``pairs.best_pair`` (the same ``pairs.pair_order`` key), applied to
strings instead of ids: a byte-level merged token sorts by when it was made (its id is above
255), a word-level merged symbol sorts by its text (``"es" < "s"``). On the paper's toy corpus the
three pairs counted 9 times are ``('e', 's') < ('s', 't') < ('t', '</w>')``, so ``es`` comes first.

Also here, for notebook 05: the paper's regex-based ``merge_vocab`` on its ``{'l o w </w>': 5}``
format, and a widely copied variant of it that silently never merges.

Left out: the paper's joint source/target vocabulary, frequency thresholds, dropout, and the
``@@`` continuation marker of later subword-NMT releases.

>>> wl = WordLevelBPE.train("low low lower newest newest widest", num_merges=3)
>>> wl.merges
[('e', 's'), ('es', 't'), ('est', '</w>')]
>>> wl.tokenize("lowest")
['l', 'o', 'w', 'est</w>']
"""

from __future__ import annotations

import heapq
import json
import os
import re
from bisect import bisect_left, bisect_right
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from bpe_workshop.pairs import get_stats, merge, pair_order
from bpe_workshop.text_file import read_text_lines

END_OF_WORD = "</w>"
UNK = "<unk>"
FORMAT_HEADER = "bpe-workshop word-level"
FORMAT_VERSION = 1

Pair = tuple[str, str]


@dataclass(frozen=True)
class WordMergeRecord:
    """What happened at one word-level training step.

    >>> WordMergeRecord(step=1, pair=("e", "s"), new_symbol="es", count=9)
    WordMergeRecord(step=1, pair=('e', 's'), new_symbol='es', count=9)
    """

    step: int  # 1-based
    pair: tuple[str, str]  # (left symbol, right symbol) that was merged
    new_symbol: str  # left + right
    count: int  # occurrences when chosen, weighted by word frequency (overlaps included)


# ---------------------------------------------------------------------------------------------
# The paper's format: {"l o w </w>": 5}, symbols separated by spaces
# ---------------------------------------------------------------------------------------------


def word_vocab(text: str) -> dict[str, int]:
    """Each distinct word of ``text`` as space-separated symbols, with its frequency.

    Words are kept in the order they are first seen.

    >>> word_vocab("this is a test this test is only a test a test this is")
    {'t h i s </w>': 3, 'i s </w>': 3, 'a </w>': 3, 't e s t </w>': 4, 'o n l y </w>': 1}
    """
    return {" ".join(_initial_split(word)): n for word, n in _count_words(text).items()}


def vocab_pair_counts(vocab: dict[str, int]) -> dict[Pair, int]:
    """Count adjacent symbol pairs in a ``word_vocab``-style dict, weighted by frequency.

    >>> vocab_pair_counts({"l o w </w>": 5, "l o w e r </w>": 2})
    {('l', 'o'): 7, ('o', 'w'): 7, ('w', '</w>'): 5, ('w', 'e'): 2, ('e', 'r'): 2, ('r', '</w>'): 2}
    """
    stats = {}  # (left symbol, right symbol) -> count weighted by word frequency
    for word, freq in vocab.items():
        _add_pairs(stats, word.split(), freq)
    return stats


def merge_vocab(pair: Pair, vocab: dict[str, int]) -> dict[str, int]:
    """The paper's merge step: join ``pair`` wherever it stands as two whole symbols.

    The bigram ``"e s"`` must be preceded by no symbol character (``(?<!\\S)``: start of the
    string or a space) and followed by none (``(?!\\S)``), so ``"e s"`` does not match inside
    ``"e st"`` or ``"ne s"``.

    >>> merge_vocab(("e", "s"), {"n e w e s t </w>": 6, "e st </w>": 1})
    {'n e w es t </w>': 6, 'e st </w>': 1}
    """
    bigram = re.escape(" ".join(pair))
    pattern = re.compile(r"(?<!\S)" + bigram + r"(?!\S)")
    return {pattern.sub(lambda _: "".join(pair), word): freq for word, freq in vocab.items()}


def merge_vocab_buggy(pair: Pair, vocab: dict[str, int]) -> dict[str, int]:
    """The widely copied variant with a lookahead where the lookbehind should be. Spot the bug.

    ``(?!\\S)`` in front of the bigram asks that the next character be no symbol character, yet
    the next character is the bigram's own first character, so nothing ever matches and the
    vocabulary comes back unchanged, without an error.

    >>> merge_vocab_buggy(("e", "s"), {"n e w e s t </w>": 6})
    {'n e w e s t </w>': 6}
    """
    bigram = re.escape(" ".join(pair))
    pattern = re.compile(r"(?!\S)" + bigram + r"(?!\S)")
    return {pattern.sub(lambda _: "".join(pair), word): freq for word, freq in vocab.items()}


# ---------------------------------------------------------------------------------------------
# The tokenizer
# ---------------------------------------------------------------------------------------------


class WordLevelBPE:
    """A word-level BPE tokenizer: an alphabet and an ordered list of merges.

    Build one with ``WordLevelBPE.train(text, num_merges)`` or ``WordLevelBPE.load(path)``.
    Vocabulary ids: the alphabet in code-point order, then ``</w>``, then ``<unk>``, then each
    new merged symbol in merge order (a symbol reached by two different merges gets one id).

    >>> wl = WordLevelBPE.train("aaab aaab", num_merges=10)
    >>> wl.merges
    [('a', 'a'), ('a', 'b'), ('aa', 'ab'), ('aaab', '</w>')]
    >>> wl.vocab  # doctest: +NORMALIZE_WHITESPACE
    {0: 'a', 1: 'b', 2: '</w>', 3: '<unk>', 4: 'aa', 5: 'ab', 6: 'aaab',
     7: 'aaab</w>'}
    >>> wl.stop_message
    'stopped after 4 of 10 merges: no pair occurs twice or more'
    >>> wl.encode("aaab ab c")
    [7, 5, 2, 3, 2]
    >>> wl.decode([7, 5, 2, 3, 2])
    'aaab ab <unk>'
    """

    def __init__(
        self,
        alphabet: Iterable[str],
        merges: Iterable[Pair],
        counts: Iterable[int] | None = None,
    ) -> None:
        """Build a tokenizer from an alphabet and merges (``train`` and ``load`` call this).

        ``counts`` gives each merge's training count for ``records`` (0 when not known).
        """
        self.alphabet = sorted(set(alphabet))  # single characters, code-point order
        self.merges = [tuple(pair) for pair in merges]  # (left symbol, right symbol), in order
        counts = [0] * len(self.merges) if counts is None else list(counts)
        assert len(counts) == len(self.merges)
        self.records = [
            WordMergeRecord(step=i + 1, pair=pair, new_symbol=pair[0] + pair[1], count=count)
            for i, (pair, count) in enumerate(zip(self.merges, counts))
        ]
        self.stop_message = None  # str when training stopped early
        self.word_counts = {}  # training word -> frequency, first-seen order (train only)

        # vocabulary: id -> symbol, and back
        symbols = [*self.alphabet, END_OF_WORD, UNK]
        for left, right in self.merges:
            symbols.append(left + right)
        self.vocab = {}  # id -> symbol
        self._ids = {}  # symbol -> id
        for symbol in symbols:
            if symbol not in self._ids:
                self._ids[symbol] = len(self.vocab)
                self.vocab[len(self.vocab)] = symbol

        self._alphabet_set = set(self.alphabet)
        self._ranks = {}  # pair -> every rank (merge index) it has, ascending
        for rank, pair in enumerate(self.merges):
            self._ranks.setdefault(pair, []).append(rank)
        self._cache = {}  # word -> its symbols after all merges
        # per training word: the steps at which its split changed, and the split from then on
        self._history_steps = []  # [[0, 3, 7], ...]
        self._history_splits = []  # [[('l','o','w','</w>'), ('lo','w','</w>'), ...], ...]
        self._changed = []  # _changed[step - 1] = indices of the words merge `step` changed

    def __repr__(self) -> str:
        return (
            f"WordLevelBPE(alphabet={len(self.alphabet)} characters, "
            f"merges={len(self.merges)}, vocab={len(self.vocab)})"
        )

    # -- training ------------------------------------------------------------------------------

    @classmethod
    def train(cls, text: str, num_merges: int) -> WordLevelBPE:
        """Learn up to ``num_merges`` merges from the words of ``text``.

        Each step takes the most frequent pair of adjacent symbols, counted over the distinct
        words and weighted by their frequency (ties: the smallest pair, see the module
        docstring), and merges it in every word. Training stops early, setting
        ``stop_message``, when no pair occurs at least twice.

        >>> wl = WordLevelBPE.train("low " * 5 + "lower " * 2 + "newest " * 6 + "widest " * 3, 5)
        >>> [(r.pair, r.count) for r in wl.records]  # doctest: +NORMALIZE_WHITESPACE
        [(('e', 's'), 9), (('es', 't'), 9), (('est', '</w>'), 9), (('l', 'o'), 7),
         (('lo', 'w'), 7)]
        >>> WordLevelBPE.train("low lower", num_merges=-1)
        Traceback (most recent call last):
        ...
        ValueError: num_merges must be >= 0; got -1
        """
        word_counts = _count_words(text)
        if isinstance(num_merges, bool) or not isinstance(num_merges, int):
            raise TypeError(
                f"num_merges must be an int, e.g. num_merges=100; got {type(num_merges).__name__}"
            )
        if num_merges < 0:
            raise ValueError(f"num_merges must be >= 0; got {num_merges}")
        if not word_counts:
            raise ValueError(
                "text has no words to train on; pass some text with non-space characters"
            )

        words = list(word_counts)  # distinct words, first-seen order
        freqs = [word_counts[word] for word in words]  # freqs[i] = frequency of words[i]
        splits = [_initial_split(word) for word in words]  # current symbols of words[i]
        # splits = [('l', 'o', 'w', '</w>'), ('l', 'o', 'w', 'e', 'r', '</w>'), ...]

        # 1. count every pair once, and remember which words hold it
        stats = {}  # (left symbol, right symbol) -> count weighted by word frequency
        where = {}  # pair -> indices of words that hold or held it (stale entries are skipped)
        for i, split in enumerate(splits):
            _add_pairs(stats, split, freqs[i])
            for pair in zip(split, split[1:]):
                where.setdefault(pair, set()).add(i)
        # a heap of candidates, smallest pair_order first: (-count, left, right)
        heap = [pair_order(item) for item in stats.items()]
        heapq.heapify(heap)

        merges, counts = [], []
        history_steps = [[0] for _ in words]
        history_splits = [[split] for split in splits]
        changed_per_step = []
        stop_message = None
        for step in range(1, num_merges + 1):
            # 2. the best pair: pop heap entries until one matches the current counts
            pair, count = None, 0
            while heap:
                neg_count, left, right = heap[0]
                if stats.get((left, right)) == -neg_count:
                    pair, count = (left, right), -neg_count
                    break
                heapq.heappop(heap)  # stale: that pair's count has changed since
            if pair is None or count < 2:
                stop_message = (
                    f"stopped after {step - 1} of {num_merges} merges: "
                    "no pair occurs twice or more"
                )
                break
            new_symbol = pair[0] + pair[1]
            # 3. merge it in every word that holds it, updating only those words' pair counts
            changed = []
            for i in sorted(where.pop(pair)):
                old = splits[i]
                new = tuple(merge(old, pair, new_symbol))
                if len(new) == len(old):
                    continue  # stale entry: the pair has left this word since
                _add_pairs(stats, old, -freqs[i])
                _add_pairs(stats, new, freqs[i])
                for new_pair in zip(new, new[1:]):
                    if new_pair not in where:
                        where[new_pair] = set()
                    where[new_pair].add(i)
                    heapq.heappush(heap, pair_order((new_pair, stats[new_pair])))
                for old_pair in zip(old, old[1:]):
                    if old_pair in stats:  # its count dropped: offer the new count
                        heapq.heappush(heap, pair_order((old_pair, stats[old_pair])))
                splits[i] = new
                history_steps[i].append(step)
                history_splits[i].append(new)
                changed.append(i)
            assert pair not in stats  # every occurrence was merged
            merges.append(pair)
            counts.append(count)
            changed_per_step.append(changed)

        alphabet = {ch for word in words for ch in word}
        model = cls(alphabet, merges, counts)
        model.stop_message = stop_message
        model.word_counts = word_counts
        model._history_steps = history_steps
        model._history_splits = history_splits
        model._changed = changed_per_step
        # the training words are already tokenized: seed the cache with their final splits
        model._cache = {word: splits[i] for i, word in enumerate(words)}
        return model

    # -- viewing training ----------------------------------------------------------------------

    def word_table_at(self, step: int) -> list[tuple[str, int, list[str]]]:
        """The training words after the first ``step`` merges: (word, frequency, split).

        Words are in first-seen order; ``step`` runs from 0 (characters) to ``len(merges)``.

        >>> wl = WordLevelBPE.train("low low lower", num_merges=2)
        >>> wl.word_table_at(0)
        [('low', 2, ['l', 'o', 'w', '</w>']), ('lower', 1, ['l', 'o', 'w', 'e', 'r', '</w>'])]
        >>> wl.word_table_at(2)
        [('low', 2, ['low', '</w>']), ('lower', 1, ['low', 'e', 'r', '</w>'])]
        """
        self._check_step(step, lowest=0)
        table = []
        for i, (word, freq) in enumerate(self.word_counts.items()):
            # subtle: the split in force at `step` is the last one recorded at or before it
            k = bisect_right(self._history_steps[i], step) - 1
            table.append((word, freq, list(self._history_splits[i][k])))
        return table

    def words_changed_at(self, step: int) -> list[str]:
        """The training words whose split merge number ``step`` (1-based) changed.

        >>> WordLevelBPE.train("low low lower newer", num_merges=3).words_changed_at(3)
        ['lower', 'newer']
        """
        self._check_step(step, lowest=1)
        words = list(self.word_counts)
        return [words[i] for i in self._changed[step - 1]]

    def _check_step(self, step: int, lowest: int) -> None:
        if not self.word_counts:
            raise ValueError(
                "this tokenizer has no training words (it was loaded from a file or built "
                "from merges); train it with WordLevelBPE.train(text, num_merges) to view them"
            )
        if isinstance(step, bool) or not isinstance(step, int):
            raise TypeError(f"step must be an int; got {type(step).__name__}")
        if not lowest <= step <= len(self.merges):
            raise ValueError(f"step must be between {lowest} and {len(self.merges)}; got {step}")

    # -- tokenizing ----------------------------------------------------------------------------

    def tokenize(self, text: str) -> list[str]:
        """Split ``text`` into subword symbols, word by word, applying merges in learned order.

        Characters never seen in training become ``<unk>``; every word ends in ``</w>``
        (on its own or inside the last symbol).

        >>> wl = WordLevelBPE.train("low " * 5 + "lower " * 2 + "newest " * 6 + "widest " * 3, 10)
        >>> wl.tokenize("lower newest")
        ['low', 'e', 'r', '</w>', 'newest</w>']
        >>> wl.tokenize("lowly")
        ['low', 'l', '<unk>', '</w>']
        """
        symbols = []
        for word in _split_words(text):
            symbols.extend(self._tokenize_word(word))
        return symbols

    def _tokenize_word(self, word: str) -> tuple[str, ...]:
        """One word's symbols, by applying the merges in learned order (cached)."""
        if word in self._cache:
            return self._cache[word]
        symbols = tuple(ch if ch in self._alphabet_set else UNK for ch in word) + (END_OF_WORD,)
        next_rank = 0  # merges before this one have been applied
        while len(symbols) > 1:
            # the earliest merge not yet applied whose pair occurs in the word; the merges in
            # between would change nothing, so jumping straight to it equals applying them all
            rank = None
            for pair in set(zip(symbols, symbols[1:])):
                ranks = self._ranks.get(pair)
                if ranks is None:
                    continue
                k = bisect_left(ranks, next_rank)
                if k < len(ranks) and (rank is None or ranks[k] < rank):
                    rank = ranks[k]
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

        >>> wl = WordLevelBPE.train("ab ab", num_merges=2)
        >>> wl.decode([5, 1, 0, 2])
        'ab ba'
        >>> wl.decode([6])
        Traceback (most recent call last):
        ...
        ValueError: unknown token id 6; ids run from 0 to 5 for this vocabulary
        """
        if isinstance(ids, (str, bytes)):
            raise TypeError(f"ids must be a list of ints; got {type(ids).__name__}")
        parts = []
        for token_id in ids:
            if isinstance(token_id, bool) or not isinstance(token_id, int):
                raise TypeError(f"ids must be ints; got {token_id!r} ({type(token_id).__name__})")
            if token_id not in self.vocab:
                raise ValueError(
                    f"unknown token id {token_id}; ids run from 0 to {len(self.vocab) - 1} "
                    "for this vocabulary"
                )
            parts.append(self.vocab[token_id])
        text = "".join(parts).replace(END_OF_WORD, " ")
        return text[:-1] if text.endswith(" ") else text

    # -- saving and loading --------------------------------------------------------------------

    def save(self, path: str | os.PathLike) -> Path:
        """Write the alphabet and merges (with their counts) to a versioned text file.

        The file reads ``bpe-workshop word-level 1``, then ``alphabet [...]``, ``merges N`` and
        one JSON line ``["left", "right", count]`` per merge. Returns the path written.
        """
        path = Path(path)
        lines = [
            f"{FORMAT_HEADER} {FORMAT_VERSION}",
            "alphabet " + json.dumps(self.alphabet),
            f"merges {len(self.merges)}",
        ]
        for record in self.records:
            lines.append(json.dumps([record.pair[0], record.pair[1], record.count]))
        path.write_text("\n".join(lines) + "\n", encoding="ascii")  # json escapes the rest
        return path

    @classmethod
    def load(cls, path: str | os.PathLike) -> WordLevelBPE:
        """Read a file written by ``save``. A damaged file raises ``ValueError`` naming the line."""
        path = Path(path)
        lines = read_text_lines(path, "WordLevelBPE.save") or [""]  # an empty file: one empty line

        def fail(line_no: int, problem: str) -> ValueError:
            return ValueError(
                f"{path}, line {line_no}: {problem}; write the file again with WordLevelBPE.save()"
            )

        header = f"{FORMAT_HEADER} {FORMAT_VERSION}"
        if lines[0] != header:
            if lines[0].startswith(FORMAT_HEADER + " "):
                version = lines[0][len(FORMAT_HEADER) + 1 :]
                raise fail(
                    1, f"unsupported version {version!r} (this code reads version {FORMAT_VERSION})"
                )
            raise fail(1, f"expected {header!r}, not a word-level model file")

        if len(lines) < 2 or not lines[1].startswith("alphabet "):
            raise fail(2, "expected 'alphabet [...]'")
        try:
            alphabet = json.loads(lines[1][len("alphabet "):])
        except json.JSONDecodeError:
            raise fail(2, "the alphabet is not a JSON list") from None
        if not (
            isinstance(alphabet, list)
            and all(isinstance(ch, str) and len(ch) == 1 for ch in alphabet)
            and alphabet == sorted(set(alphabet))
        ):
            raise fail(2, "the alphabet must be a sorted JSON list of distinct single characters")

        if len(lines) < 3 or not re.fullmatch(r"merges (0|[1-9][0-9]*)", lines[2]):
            raise fail(3, "expected 'merges N'")
        num_merges = int(lines[2].split()[1])

        known = {*alphabet, END_OF_WORD}  # symbols a merge may join
        merges, counts = [], []
        for k in range(num_merges):
            line_no = 4 + k
            if line_no > len(lines) or (line_no == len(lines) and lines[-1] == ""):
                raise fail(line_no, f"the file ends after {k} of {num_merges} merges (truncated)")
            try:
                item = json.loads(lines[line_no - 1])
            except json.JSONDecodeError:
                raise fail(line_no, 'expected a merge as ["left", "right", count]') from None
            if not (
                isinstance(item, list)
                and len(item) == 3
                and all(isinstance(symbol, str) for symbol in item[:2])
                and isinstance(item[2], int)
                and not isinstance(item[2], bool)
                and item[2] >= 0
            ):
                raise fail(line_no, 'expected a merge as ["left", "right", count]')
            left, right, count = item
            for symbol in (left, right):
                if symbol not in known:
                    raise fail(line_no, f"merge uses {symbol!r}, which no earlier line defines")
            merges.append((left, right))
            counts.append(count)
            known.add(left + right)
        extra = [n for n, line in enumerate(lines[3 + num_merges:], 4 + num_merges) if line]
        if extra:
            raise fail(extra[0], f"unexpected text after the {num_merges} merges")
        return cls(alphabet, merges, counts)


# ---------------------------------------------------------------------------------------------
# Small helpers shared by the class and the paper-style functions
# ---------------------------------------------------------------------------------------------


def _split_words(text: str) -> list[str]:
    """The words of ``text``, split on whitespace; rejects what cannot round-trip."""
    if not isinstance(text, str):
        raise TypeError(f"text must be a str; got {type(text).__name__} (decode bytes first)")
    if END_OF_WORD in text:
        raise ValueError(
            f"text contains the end-of-word marker {END_OF_WORD!r}, which decoding would turn "
            "into a space; replace it first, e.g. text.replace('</w>', '</ w>')"
        )
    return text.split()


def _count_words(text: str) -> dict[str, int]:
    """word -> frequency, in first-seen order."""
    return dict(Counter(_split_words(text)))


def _initial_split(word: str) -> tuple[str, ...]:
    """A word as its characters plus the end-of-word marker: 'low' -> ('l', 'o', 'w', '</w>')."""
    return (*word, END_OF_WORD)


def _add_pairs(stats: dict[Pair, int], symbols: Iterable[str], weight: int) -> None:
    """Add ``weight`` to ``stats`` for each adjacent pair in ``symbols``; drop pairs that hit 0."""
    for pair, n in get_stats(symbols).items():
        total = stats.get(pair, 0) + n * weight
        if total:
            stats[pair] = total
        else:
            del stats[pair]
