"""Unigram: SentencePiece's default tokenizer, a vocabulary of pieces with probabilities.

Lineage: Kudo (2018), as ``sentencepiece`` runs it with identity normalisation. Unigram scores
every way to cut a word: spaces become ``▁`` with one in front (``▁hi▁you``), a piece holds
``▁`` only at its start; the **lattice** (:meth:`lattice`) holds every piece matching at every
position; **Viterbi** (:meth:`viterbi`) takes the path with the largest sum of log-probabilities
(sums in 32-bit floats, an unknown run scored ``min_score - 10``, the first best path winning a
tie, as in sentencepiece). No piece crosses a ``▁`` (it would have to hold one inside), so every
path passes each ``▁``: Viterbi runs word by word, carrying the score, and a trie gives the
pieces starting at a position: time linear in the text for a fixed vocabulary. Training:
frequent substrings, then EM rounds and pruning of the pieces whose loss costs the likelihood
least. Left out: sampling, byte fallback.
"""

from __future__ import annotations

import math
import numbers
import warnings
from array import array
from collections import Counter

from bpe_workshop.validation import describe, require_int, require_str

WORD_MARK = "▁"
UNK_PENALTY = 10.0  # an unknown character scores this much below the least likely piece
MAX_PIECE_LENGTH = 16  # characters, as sentencepiece's default
MAX_TRAINING_WORD = 4192  # longer words are left out of training (sentencepiece's sentence cap)
NO_WORDS = "text has no words to train on; pass some text with non-space characters"


def f32(x: float) -> float:
    """``x`` rounded to a 32-bit float, the precision sentencepiece adds scores in."""
    return array("f", [x])[0]


def short_words(words: list[str], limit: int, why: str) -> list[str]:
    """The ``words`` of at most ``limit`` characters, to train on; leaving others out warns,
    saying ``why`` (a ValueError if no word is left, or if there was none).

    >>> short_words(["abc"], 2, "keep them short")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: text has no words short enough to train on: 1 word(s) longer than 2 ... short
    """
    if not words:
        raise ValueError(NO_WORDS)
    kept = [word for word in words if len(word) <= limit]
    if len(kept) < len(words):
        longest = max(map(len, words))
        note = (f"{len(words) - len(kept):,} word(s) longer than {limit:,} characters left out "
                f"(the longest: {longest:,}): {why}")
        if not kept:
            raise ValueError(f"text has no words short enough to train on: {note}")
        warnings.warn(note, stacklevel=3)
    return kept


def trie(pieces: dict[str, object]) -> dict:
    """Non-empty pieces as nested dicts: char -> [the value of the piece ending here or None,
    the dict of the next characters].

    >>> trie({"ab": 1, "a": 2})
    {'a': [2, {'b': [1, {}]}]}
    """
    root = {}
    for piece, value in pieces.items():
        node = root
        for char in piece[:-1]:
            node = node.setdefault(char, [None, {}])[1]
        node.setdefault(piece[-1], [None, {}])[0] = value
    return root


def normalize(text: str) -> str:
    """The text Unigram cuts: spaces as ``▁``, one ``▁`` in front.

    >>> normalize("hi you")
    '▁hi▁you'
    """
    return WORD_MARK + text.replace(" ", WORD_MARK)


class Unigram:
    """A Unigram tokenizer from ``[(piece, log_probability), ...]``.

    >>> uni = Unigram([("▁h", -2.0), ("▁hi", -3.0), ("i", -2.0), ("▁", -4.0), ("h", -5.0)])
    >>> uni.tokenize("hi")  # ▁hi alone (-3.0) beats ▁h + i (-4.0)
    ['▁hi']
    >>> uni.tokenize("hi ih")  # no piece for the lone h at the end: it is unknown
    ['▁hi', '▁', 'i', 'h']
    """

    def __init__(self, pieces):
        if isinstance(pieces, (str, bytes, dict)) or not hasattr(pieces, "__iter__"):
            raise TypeError(f"pieces must be a list of (piece, log probability) pairs, e.g. "
                            f"[('▁the', -3.2), ('s', -4.1)], got {describe(pieces)}")
        self.scores = {}  # piece -> log probability (a 32-bit float, as sentencepiece keeps it)
        for item in pieces:
            if not (isinstance(item, tuple) and len(item) == 2 and isinstance(item[0], str)
                    and item[0] and isinstance(item[1], numbers.Real)
                    and not isinstance(item[1], bool)):
                raise TypeError(f"each piece must be a (non-empty str, number) pair such as "
                                f"('▁the', -3.2), got {describe(item)}")
            piece, score = item[0], f32(float(item[1]))
            if not -math.inf < score <= 0:  # NaN fails too
                raise ValueError(f"the score of {piece!r} must be a log probability: a finite "
                                 f"number at most 0 (a probability is at most 1), e.g. -3.2, got "
                                 f"{item[1]!r}")
            if piece in self.scores:
                raise ValueError(f"the piece {piece!r} is given twice; keep one")
            self.scores[piece] = score
        if not self.scores:
            raise ValueError("pieces must not be empty: give at least one (piece, score) pair")
        self.unk_score = f32(min(self.scores.values()) - UNK_PENALTY)
        self._trie = trie(self.scores)
        # split at each ▁ unless some piece holds one inside (then no path need pass it)
        self._by_word = not any(WORD_MARK in piece[1:] for piece in self.scores)

    def lattice(self, text: str) -> list[tuple[int, int, str, float]]:
        """Every piece that matches the normalised text: ``(start, end, piece, score)``.

        >>> Unigram([("▁a", -1.0), ("a", -2.0), ("▁", -3.0)]).lattice("a")
        [(0, 1, '▁', -3.0), (0, 2, '▁a', -1.0), (1, 2, 'a', -2.0)]
        """
        chars = normalize(require_str(text, "text"))
        return [(start, end, chars[start:end], score) for start, end, score in self._edges(chars)]

    def _edges(self, chars: str) -> list[tuple[int, int, float]]:
        """``(start, end, score)`` of every piece in ``chars``, by start, then end: a trie walk."""
        edges = []
        for start in range(len(chars)):
            node = self._trie
            for end in range(start, len(chars)):
                score, node = node.get(chars[end], (None, None))
                if node is None:
                    break
                if score is not None:
                    edges.append((start, end + 1, score))
        return edges

    def viterbi(self, text: str) -> tuple[list[str], float]:
        """The best segmentation of the normalised text and its total log probability.

        >>> Unigram([("▁a", -1.0), ("a", -2.0), ("▁", -3.0)]).viterbi("aa")
        (['▁a', 'a'], -3.0)
        """
        return self._segment(normalize(require_str(text, "text")))

    def _segment(self, chars: str, without: str | None = None) -> tuple[list[str], float]:
        """Viterbi over ``chars`` as given (already normalised), optionally ``without`` a piece:
        word by word, each word's paths starting from the score the words before it reached."""
        cuts = [0]  # where the words start: at each ▁
        while self._by_word and (cut := chars.find(WORD_MARK, cuts[-1] + 1)) > 0:
            cuts.append(cut)
        cuts.append(len(chars))
        pieces, total, unknown = [], 0.0, False  # the pieces so far, their score, last unknown?
        for first, last in zip(cuts, cuts[1:]):
            total, unknown = self._viterbi(chars[first:last], total, without, pieces, unknown)
        return pieces, total

    def _viterbi(self, word: str, total: float, without: str | None, pieces: list[str],
                 joins: bool) -> tuple[float, bool]:
        """Append the best path through ``word`` to ``pieces``, joining runs of unknown
        characters (the first to the last piece if ``joins``); return its score, unknown end?"""
        n, trie, unk_score = len(word), self._trie, self.unk_score
        rounded = array("f", [0.0])  # one 32-bit float, of this call only: storing into it rounds
        best = [total] + [-math.inf] * n  # best[end]: the score of the best path ending at end
        back = [0] * (n + 1)  # where its last piece starts; ~start for an unknown character
        for start in range(n):
            here, covered, node = best[start], False, trie  # covered: a 1-character piece?
            for end in range(start + 1, n + 1):
                entry = node.get(word[end - 1])
                if entry is None:
                    break
                score, node = entry
                if score is not None and (without is None or word[start:end] != without):
                    covered = covered or end == start + 1
                    rounded[0] = here + score
                    # subtle: strictly greater, so of equal paths the first one found stays, as
                    # in sentencepiece (earlier start first, then shorter piece first)
                    if rounded[0] > best[end]:
                        best[end], back[end] = rounded[0], start
            if not covered:
                rounded[0] = here + unk_score
                if rounded[0] > best[start + 1]:
                    best[start + 1], back[start + 1] = rounded[0], ~start
        path, end = [], n
        while end > 0:  # walk back
            start = back[end]
            path.append((word[max(start, ~start):end], start < 0))
            end = max(start, ~start)
        for piece, unknown in reversed(path):
            if unknown and joins:
                pieces[-1] += piece
            else:
                pieces.append(piece)
            joins = unknown
        return best[n], joins

    def tokenize(self, text: str) -> list[str]:
        """The pieces of the best segmentation of ``text`` (see :meth:`viterbi`)."""
        return self.viterbi(text)[0] if text else []

    # ----- training ---------------------------------------------------------------------------

    @classmethod
    def train(cls, text: str, vocab_size: int, *, seed_size: int = 20_000, shrink: float = 0.75,
              em_rounds: int = 2) -> Unigram:
        """Learn ``vocab_size`` pieces from ``text`` (Kudo 2018). ``history`` keeps each EM
        round's ``(vocabulary size, log likelihood per word)``, for plotting.

        >>> uni = Unigram.train("low lower lowest newer newest " * 20, 20)
        >>> len(uni.scores), uni.tokenize("lowest")
        (20, ['▁lowest'])
        """
        require_str(text, "text")
        # the lattice of a word costs its length times the pieces in it
        words = Counter(WORD_MARK + word for word in short_words(
            text.split(), MAX_TRAINING_WORD, "Unigram learns pieces from words, so a text to "
            "learn from needs spaces between its words"))
        alphabet = {char for word in words for char in word}
        vocab_size = require_int(vocab_size, "vocab_size", minimum=len(alphabet) + 1,
                                 example=1000, why="every character, plus one more piece")
        # seed: every character, and the most frequent substrings, scored by count x length
        counts = Counter()
        for word, n in words.items():
            for start in range(len(word)):
                for end in range(start + 2, min(len(word), start + MAX_PIECE_LENGTH) + 1):
                    if WORD_MARK not in word[start + 1:end]:
                        counts[word[start:end]] += n
        seed = {char: 1.0 for char in alphabet}
        for piece, n in sorted(counts.items(), key=lambda item: (-item[1] * len(item[0]),
                                                                 item[0]))[:seed_size]:
            if n > 1:
                seed[piece] = float(n)
        total = sum(seed.values())
        model = cls([(piece, math.log(n / total)) for piece, n in seed.items()])
        history = []
        while True:
            for _ in range(em_rounds):
                expected, likelihood = model._expected_counts(words)
                total = sum(expected.values())
                # M-step: probability = share of the expected counts; unused pieces go, but
                # every character stays (with a tiny count), so any word can still be cut
                model = cls([(piece, math.log(max(n, 1e-6) / total))
                             for piece, n in expected.items() if n > 0 or len(piece) == 1])
                history.append((len(model.scores), likelihood / sum(words.values())))
            if len(model.scores) <= vocab_size:
                break
            model = model._pruned(words, max(vocab_size, int(len(model.scores) * shrink)))
        model.history = history
        return model

    def _expected_counts(self, words: Counter) -> tuple[dict[str, float], float]:
        """E-step: each piece's expected count over all segmentations of every word
        (forward-backward in log space), and the log likelihood of the words."""
        expected = dict.fromkeys(self.scores, 0.0)
        likelihood = 0.0
        for word, n in words.items():
            edges = [(s, e, word[s:e]) for s, e, _ in self._edges(word)]
            alpha = [-math.inf] * (len(word) + 1)
            beta = [-math.inf] * (len(word) + 1)
            alpha[0] = beta[len(word)] = 0.0
            for s, e, piece in edges:  # sorted by start: alpha[s] is final when used
                alpha[e] = _log_add(alpha[e], alpha[s] + self.scores[piece])
            for s, e, piece in reversed(edges):
                beta[s] = _log_add(beta[s], beta[e] + self.scores[piece])
            z = alpha[len(word)]
            likelihood += n * z
            for s, e, piece in edges:
                expected[piece] += n * math.exp(alpha[s] + self.scores[piece] + beta[e] - z)
        return expected, likelihood

    def _pruned(self, words: Counter, keep: int) -> Unigram:
        """Keep the ``keep`` pieces whose removal would cost the likelihood most: a piece's
        cost is its count times how much worse the best way to cut it without it scores."""
        used = Counter()
        for word, n in words.items():
            for piece in self._segment(word)[0]:
                used[piece] += n
        loss = {piece: used[piece] * (score - self._segment(piece, without=piece)[1])
                for piece, score in self.scores.items() if len(piece) > 1}
        singles = [piece for piece in self.scores if len(piece) == 1]  # keep text coverable
        ranked = sorted(loss, key=lambda piece: (-loss[piece], piece))
        kept = singles + ranked[:max(0, keep - len(singles))]
        return Unigram([(piece, self.scores[piece]) for piece in kept])


def _log_add(a: float, b: float) -> float:
    """log(exp(a) + exp(b)), without overflow."""
    if a == -math.inf:
        return b
    high, low = max(a, b), min(a, b)
    return high + math.log1p(math.exp(low - high))
