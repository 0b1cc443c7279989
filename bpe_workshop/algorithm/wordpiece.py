"""WordPiece, BERT's tokenizer: greedy longest match from the left, and its trainer.

Text is split at whitespace and around each punctuation character; a word is cut from its start
into the longest vocabulary piece, then the longest continuation (prefixed ``##``), and so on;
if no piece fits, the whole word becomes one ``[UNK]``, a cliff byte-level BPE never has.
Training joins pairs like BPE but by the score ``freq(ab) / (freq(a) * freq(b))``.
Lineage: Schuster and Nakajima (2012); BERT (Devlin et al., 2018). ``tokenize`` equals Hugging
Face's ``models.WordPiece`` after ``BertPreTokenizer``. Left out: BERT's normaliser, ids.
"""

from __future__ import annotations

import string
import unicodedata
from collections import Counter, defaultdict
from collections.abc import Collection

from bpe_workshop.algorithm.patterns import code_points
from bpe_workshop.algorithm.textbook import merge
from bpe_workshop.algorithm.unigram import short_words, trie
from bpe_workshop.validation import describe, require_int, require_str

MAX_WORD_LENGTH = 10_000  # characters; the cut is linear in the word (a trie walk from each start)


def is_punctuation(char: str) -> bool:
    """Whether BERT's pre-tokenizer cuts a word around ``char``: ASCII punctuation (``$``,
    ``+``, ``^`` too) or a character of Unicode's punctuation categories (as of Unicode 8.0).

    >>> [is_punctuation(c) for c in "a,$-¿「é"]
    [False, True, True, True, True, True, False]
    """
    if char in string.punctuation or char in _FORMER_PUNCTUATION:
        return True
    return unicodedata.category(char).startswith("P") and ord(char) not in _NEWER_PUNCTUATION


def split_words(text: str) -> list[str]:
    """Split ``text`` at whitespace (dropped) and around each punctuation character (kept).

    >>> split_words("Hey friend!  How's it going?!")
    ['Hey', 'friend', '!', 'How', "'", 's', 'it', 'going', '?', '!']
    """
    words, start = [], 0  # the current word is text[start:i]
    for i, char in enumerate(text):
        space = char.isspace() and char not in _NOT_WHITESPACE
        if space or is_punctuation(char):
            if start < i:
                words.append(text[start:i])
            if not space:
                words.append(char)
            start = i + 1
    return words + [text[start:]] if start < len(text) else words


class WordPiece:
    """A WordPiece tokenizer over a fixed vocabulary.

    ``vocab``: a list of pieces (ids in its order), a set, or a dict piece -> id (BERT's
    ``vocab.txt``). ``unk_token``, which the vocabulary must hold, stands for a word no pieces
    cover, or one over ``max_word_length`` characters (at most ``MAX_WORD_LENGTH``).

    >>> wp = WordPiece(["un", "aff", "##aff", "##able", "a", "##b", "!", "[UNK]"])
    >>> wp.tokenize("unaffable affable!")
    ['un', '##aff', '##able', 'aff', '##able', '!']
    >>> wp.tokenize("ab abc")  # 'c' is not in the vocabulary: the whole word is lost
    ['a', '##b', '[UNK]']
    """

    def __init__(self, vocab: Collection[str] | dict[str, int], unk_token: str = "[UNK]",
                 prefix: str = "##", max_word_length: int = 100) -> None:
        if isinstance(vocab, str) or not isinstance(vocab, Collection):
            raise TypeError(f"vocab must be a collection of pieces, got {describe(vocab)}; "
                            "pass e.g. vocab=['un', '##able', '[UNK]']")
        for piece in vocab:
            require_str(piece, "each piece of vocab", hint="pass e.g. vocab=['un', '##able']")
        self.vocab = dict(vocab) if isinstance(vocab, dict) else dict(
            (piece, i) for i, piece in enumerate(dict.fromkeys(vocab)))
        self.unk_token = require_str(unk_token, "unk_token", hint="pass e.g. unk_token='[UNK]'")
        if unk_token not in self.vocab:
            raise ValueError(f"vocab must hold the unknown token {unk_token!r}, which stands for "
                             f"a word no pieces cover; add it, e.g. vocab=[..., {unk_token!r}]")
        self.prefix = require_str(prefix, "prefix", hint="pass e.g. prefix='##'")
        self.max_word_length = require_int(max_word_length, "max_word_length", minimum=0,
                                           maximum=MAX_WORD_LENGTH, example=100)
        # the pieces that may start a word (any), and those after the first (prefix dropped)
        self._first = trie(dict.fromkeys(filter(None, self.vocab), True))
        self._rest = trie(dict.fromkeys((piece[len(prefix):] for piece in self.vocab
                                         if piece.startswith(prefix) and piece != prefix), True))

    def __repr__(self) -> str:
        return f"WordPiece(<{len(self.vocab)} pieces>, unk_token={self.unk_token!r})"

    def tokenize(self, text: str) -> list[str]:
        """Split ``text`` into words, then each word into pieces (see ``tokenize_word``)."""
        require_str(text, "text")
        return [piece for word in split_words(text) for piece in self.tokenize_word(word)]

    def tokenize_word(self, word: str) -> list[str]:
        """Greedy longest match from the left; ``[unk_token]`` if some part cannot be matched.

        >>> WordPiece(["play", "##ing", "##in", "##g", "[UNK]"]).tokenize_word("playing")
        ['play', '##ing']
        """
        require_str(word, "word")
        if len(word) > self.max_word_length:
            return [self.unk_token]
        pieces, start = [], 0
        while start < len(word):
            node, end = self._first if start == 0 else self._rest, start
            for i in range(start, len(word)):  # walk the trie: the last piece seen is the longest
                found, node = node.get(word[i], (None, None))
                if node is None:
                    break
                if found:
                    end = i + 1
            if end == start:  # no piece starts here, not even one character
                return [self.unk_token]
            pieces.append(word[:end] if start == 0 else self.prefix + word[start:end])
            start = end
        return pieces

    @classmethod
    def train(cls, text: str, vocab_size: int, *, unk_token: str = "[UNK]",
              prefix: str = "##", frequent_first: bool = True) -> WordPiece:
        """Learn ``vocab_size`` pieces (fewer if no pair is left), joining the best-scored pair.

        The vocabulary starts with ``unk_token`` and the alphabet (each character, and with the
        prefix each seen inside a word; kept whole). Ties: the more frequent pair, then the
        first alphabetically. The score alone favours rare pairs (two pieces seen once, only
        together, score 1), so with ``frequent_first`` only pairs seen ``floor`` times compete,
        ``floor`` starting at the top count and halving when no pair reaches it: on held-out
        prose as few pieces as Hugging Face's trainer (the score alone: 1.6 to 1.9 times).
        Words over 100 characters are left out, with a warning.

        >>> text = "hug " * 10 + "pug " * 5 + "pun " * 12 + "bun " * 4 + "hugs " * 5
        >>> list(WordPiece.train(text, 15, frequent_first=False).vocab)[12:]  # the score alone
        ['##gs', 'pu', 'hu']
        >>> list(WordPiece.train(text, 15).vocab)[12:]  # '##ug' is the only pair seen 20 times
        ['##ug', '##un', 'hug']
        """
        require_str(text, "text")
        require_int(vocab_size, "vocab_size", example=1000)  # its lower bound: below
        word_counts = Counter(short_words(split_words(text), 100, "WordPiece cuts a longer "
                                          "word as one [UNK] anyway (max_word_length=100)"))
        splits = {word: [word[0]] + [prefix + c for c in word[1:]] for word in word_counts}
        vocab = dict.fromkeys([unk_token, *sorted({c for w in word_counts for c in w}),
                               *sorted({s for split in splits.values() for s in split[1:]})])
        require_int(vocab_size, "vocab_size", minimum=len(vocab), example=max(len(vocab), 1000),
                    why=f"{unk_token} and each character, alone and after {prefix!r}, are kept")
        pair_counts, piece_counts = Counter(), Counter()
        words_with = defaultdict(set)  # pair -> words in which it may occur

        def count(word: str, sign: int) -> None:  # add (+1) or remove (-1) one word's counts
            split, n = splits[word], sign * word_counts[word]
            for piece in split:
                piece_counts[piece] += n
            for pair in zip(split, split[1:]):
                pair_counts[pair] += n
                words_with[pair].add(word)
                if not pair_counts[pair]:
                    del pair_counts[pair]

        for word in splits:
            count(word, +1)
        # each step recounts only the words that hold the chosen pair
        floor = max(pair_counts.values(), default=0) if frequent_first else 1
        while len(vocab) < vocab_size and pair_counts:
            # only pairs seen at least `floor` times compete; when none is left, halve the floor
            while not (rivals := [p for p in pair_counts if pair_counts[p] >= floor]):
                floor //= 2
            a, b = min(rivals, key=lambda p: (  # the highest score, then the highest count
                -pair_counts[p] / (piece_counts[p[0]] * piece_counts[p[1]]), -pair_counts[p], p))
            joined = a + b.removeprefix(prefix)
            for word in words_with.pop((a, b)):
                count(word, -1)
                splits[word] = merge(splits[word], (a, b), joined)  # BPE's merge, on strings
                count(word, +1)
            vocab[joined] = None
        return cls(list(vocab), unk_token=unk_token, prefix=prefix)


# Unicode details that make split_words exact, character for character.
# Characters that are punctuation (category P*) in Python's Unicode tables but not in the
# Unicode 8.0 tables Hugging Face's pre-tokenizer was built with: added in Unicode 9.0-18.0
# (found by trying every code point on both).
_NEWER_SPANS = (
    "61D 9FD A76 C77 C84 1B4E-1B4F 1B7D-1B7F 2E43-2E4F 2E52-2E5D 2E60-2E63 10D6E 10EAD "
    "10ED0 10F55-10F59 10F86-10F89 113D4-113D5 113D7-113D8 1144B-1144F 1145A-1145B 1145D "
    "11660-1166C 116B9 1183B 11944-11946 119E2 11A3F-11A46 11A9A-11A9C 11A9E-11AA2 "
    "11B00-11B09 11BE1 11C41-11C45 11C70-11C71 11EF7-11EF8 11F43-11F4F 11FFF 12FF1-12FF2 "
    "16D6D-16D6F 16E97-16E9A 16FE2 1E5FF 1E95E-1E95F"
)
_NEWER_PUNCTUATION = frozenset(code_points(_NEWER_SPANS))
# Punctuation in Unicode 8.0 that is no longer: a Canadian syllabics sign and a Sharada mark.
_FORMER_PUNCTUATION = "\u166d\U000111c9"
# Python's str.isspace() also counts these four separators; Unicode's White_Space does not.
_NOT_WHITESPACE = "\x1c\x1d\x1e\x1f"

