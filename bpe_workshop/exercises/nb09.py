"""Checkers for notebook 09 (the other families), against the package's WordPiece and Unigram.

The fixed cases are small vocabularies whose best answers have no ties; the generated ones are
random vocabularies, words and score tables (a best path with the same score as the reference's
counts as right). Every case is built from tuples, so nothing a learner's code changes reaches it.
"""

from __future__ import annotations

import math

from bpe_workshop.algorithm.unigram import Unigram
from bpe_workshop.algorithm.wordpiece import WordPiece, split_words
from bpe_workshop.exercises.core import CheckResult, check

TOY = ("un", "##aff", "##able", "a", "##f", "##a", "##b", "##l", "##e", "b", "##le", "[UNK]")
SCORES = (("▁", -3.0), ("h", -4.1), ("a", -4.2), ("t", -4.3), ("s", -4.4), ("▁h", -5.5),
          ("at", -3.7), ("▁hat", -9.9), ("hat", -6.6), ("▁s", -5.2), ("ts", -6.1), ("H", -4.5))


def reference_greedy_pieces(word: str, vocab: list[str]) -> list[str]:
    """WordPiece's pieces of one word: longest match from the left, ``##`` inside, else [UNK].

    >>> reference_greedy_pieces("unaffable", list(TOY))
    ['un', '##aff', '##able']
    """
    return WordPiece(vocab).tokenize_word(word)


def reference_unk_words(text: str, vocab: list[str]) -> list[str]:
    """The words of ``text`` (split as BERT splits) that WordPiece turns into ``[UNK]``.

    >>> reference_unk_words("un able, café", list(TOY))  # the comma is a word of its own
    [',', 'café']
    """
    wordpiece = WordPiece(vocab)
    return [word for word in split_words(text) if wordpiece.tokenize_word(word) == ["[UNK]"]]


def reference_best_path(word: str, scores: dict[str, float]) -> list[str]:
    """The highest-scoring way to cut ``word`` into pieces of ``scores`` (Viterbi).

    >>> reference_best_path("▁hat", {"▁": -3, "h": -4, "a": -4, "t": -4, "▁h": -5, "at": -3})
    ['▁h', 'at']
    """
    return Unigram(list(scores.items()))._segment(word)[0]


def a_word(rng, size, letters="abc") -> str:
    return "".join(rng.choice(letters) for _ in range(rng.randint(1, size + 1)))


def a_vocab(rng, size, letters="abc") -> list[str]:
    """Random pieces of 1-3 letters, each bare or with '##', and '[UNK]'."""
    return [*sorted({rng.choice(("", "##")) + a_word(rng, 2, letters)
                     for _ in range(rng.randint(1, 2 * size))}), "[UNK]"]


def greedy_by(inside=("##",)):
    """A greedy WordPiece, longest piece first, that tries the inside forms in ``inside``."""
    def greedy_pieces(word, vocab):
        pieces, start = [], 0
        while start < len(word):
            found = next(((end, mark + word[start:end]) for end in range(len(word), start, -1)
                          for mark in (("",) if start == 0 else inside)
                          if mark + word[start:end] in vocab), None)
            if found is None:
                return ["[UNK]"]
            start, piece = found
            pieces.append(piece)
        return pieces
    return greedy_pieces


def check_greedy_pieces(func) -> CheckResult:
    """Check ``func(word, vocab) -> [pieces]``."""
    inputs = [(word, list(TOY)) for word in ("a", "unaffable", "ab", "able", "unable", "x", "unx",
                                             "aaa", "bel", "Unable")]
    inputs += [("abc", ["ab", "##c", "a", "##bc", "[UNK]"]), ("unable", ["un", "able", "[UNK]"])]

    def hint(args, expected, got):
        if expected == ["[UNK]"] and isinstance(got, list) and "[UNK]" in got and len(got) > 1:
            return "one character that no piece covers makes the WHOLE word one '[UNK]'."
        return "take the LONGEST vocab piece at the start, then where it ended ('##' inside)."

    return check(func, reference_greedy_pieces, inputs, hint=hint, wrong=[
        (greedy_by(inside=("##", "")), "inside a word only the '##' form of a piece counts: "
         "'able' in the vocabulary does not cover the end of 'unable', only '##able' would."),
        (greedy_by(inside=("",)),
         "write '##' in front of later pieces: inside, only '##' counts.")],
        generate=lambda rng, size: (a_word(rng, size, "abcA"), a_vocab(rng, size, "abcA")))


def check_unk_words(func) -> CheckResult:
    """Check ``func(text, vocab) -> [words]``."""
    inputs = [(text, list(TOY)) for text in ("", "un able", "un x", "café, un", "ab!x ba",
                                             "unable unx x", "x un x", "X a", "a_b")]

    def text_and_vocab(rng, size):
        words = [rng.choice((a_word(rng, 2, "abX_"), "!", "a,")) for _ in range(size)]
        return " ".join(words), a_vocab(rng, size, "abX")

    def unknown(words, wordpiece=reference_greedy_pieces):
        return lambda text, vocab: [w for w in words(text) if wordpiece(w, vocab) == ["[UNK]"]]

    return check(func, reference_unk_words, inputs, generate=text_and_vocab, wrong=[
        (unknown(lambda text: list(dict.fromkeys(split_words(text)))), "keep every [UNK] word, "
         "each time it occurs, in order: a word that comes twice is listed twice."),
        (unknown(lambda text: split_words(text.lower())), "keep the words as they are written: "
         "WordPiece here does not lower-case ('X' and 'x' are different words)."),
        (unknown(str.split), "split with split_words(text), not text.split(): each punctuation "
         "character is a word of its own.")],
        hint="split with split_words(text) (whitespace AND each punctuation character), then "
             "keep the words whose pieces are exactly ['[UNK]'], in order.")


def check_best_path(func) -> CheckResult:
    """Check ``func(word, scores) -> [pieces]``."""
    inputs = [(word, dict(SCORES)) for word in ("▁", "▁a", "▁hat", "▁hats", "▁tat", "▁sat",
                                                "hat", "▁hathat", "▁Hat")]
    inputs += [("▁▁hat", {**dict(SCORES), "▁▁ha": -9.0})]  # not greedy, nor the fewest pieces

    def same_score(args, expected, got) -> bool:
        """A cut of the word into pieces of ``scores`` with the best score (ties allowed)."""
        word, scores = args
        return got == expected or (isinstance(got, list) and all(p in scores for p in got)
                                   and "".join(got) == word and math.isclose(
                                       sum(map(scores.get, got)), sum(map(scores.get, expected)),
                                       abs_tol=1e-4))

    def word_and_scores(rng, size):
        """A word of ▁, a, b, every single character scored, and pieces of it up to 6 long."""
        word = "▁" + a_word(rng, size + 1, "abA")
        pieces = {*word, *(word[i:i + rng.randint(2, 6)] for i in
                           (rng.randrange(len(word)) for _ in range(size + 2)))}
        return word, {piece: -round(rng.uniform(1, 3 * len(piece)), 1) for piece in sorted(pieces)}

    return check(func, reference_best_path, inputs, generate=word_and_scores, same=same_score,
                 valid=lambda word, scores: word and set(word) <= set(scores), wrong=[
        (lambda word, scores: reference_best_path(word, dict.fromkeys(scores, -1.0)), "you found "
         "the FEWEST pieces: the best path has the highest total score, maybe with more pieces."),
        (greedy_by(inside=("",)), "greedy longest-first is not the same: the best path may start "
         "with a shorter piece. Keep best[i] for every end i."),
        (lambda word, scores: reference_best_path(word, {
            piece: s for piece, s in scores.items() if len(piece) <= 3}), "your pieces are never "
         "longer than 3 characters: try every piece word[j:i], for every start j < i.")],
        hint="best[i] = the highest total log probability of a cut of word[:i], the max of best[j] "
             "+ scores[word[j:i]]; walk back from the end. Greedy longest-first is not the same.")
