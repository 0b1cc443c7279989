"""Checkers for notebook 09 (the other families), against the package's WordPiece and Unigram.

The cases are small vocabularies whose best answers have no ties.
"""

from __future__ import annotations

from bpe_workshop.algorithm.unigram import Unigram
from bpe_workshop.algorithm.wordpiece import WordPiece, split_words
from bpe_workshop.exercises.core import CheckResult, check

TOY = ["un", "##aff", "##able", "a", "##f", "##a", "##b", "##l", "##e", "b", "##le", "[UNK]"]


def reference_greedy_pieces(word: str, vocab: list[str]) -> list[str]:
    """WordPiece's pieces of one word: longest match from the left, ``##`` inside, else [UNK].

    >>> reference_greedy_pieces("unaffable", TOY)
    ['un', '##aff', '##able']
    """
    return WordPiece(vocab).tokenize_word(word)


def reference_unk_words(text: str, vocab: list[str]) -> list[str]:
    """The words of ``text`` (split as BERT splits) that WordPiece turns into ``[UNK]``.

    >>> reference_unk_words("un able, café", TOY)  # the comma is a word of its own
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


def check_greedy_pieces(func) -> CheckResult:
    """Check ``func(word, vocab) -> [pieces]``."""
    inputs = [("a", TOY), ("unaffable", TOY), ("ab", TOY), ("able", TOY), ("unable", TOY),
              ("x", TOY), ("unx", TOY), ("aaa", TOY), ("bel", TOY)]

    def hint(args, expected, got):
        if expected == ["[UNK]"] and isinstance(got, list) and "[UNK]" in got and len(got) > 1:
            return "one character that no piece covers makes the WHOLE word one '[UNK]'."
        if isinstance(got, list) and got and got[0].startswith("##"):
            return "the first piece of a word has no '##'; only the pieces after it do."
        if isinstance(got, list) and len(got) > 1 and not any(p.startswith("##") for p in got):
            return "write '##' in front of the pieces after the first: only the pieces after it."
        return ("at each position take the LONGEST piece in vocab that starts there ('##' + "
                "the rest after the first piece), then continue after it.")

    return check(func, reference_greedy_pieces, inputs, hint=hint)


def check_unk_words(func) -> CheckResult:
    """Check ``func(text, vocab) -> [words]``."""
    inputs = [("", TOY), ("un able", TOY), ("un x", TOY), ("café, un", TOY),
              ("ab!x ba", TOY), ("unable unx x", TOY)]
    hint = ("split with split_words(text) (whitespace AND each punctuation character), then "
            "keep the words whose pieces are exactly ['[UNK]'], in order.")
    return check(func, reference_unk_words, inputs, hint=hint)


def check_best_path(func) -> CheckResult:
    """Check ``func(word, scores) -> [pieces]``."""
    scores = {"▁": -3.0, "h": -4.1, "a": -4.2, "t": -4.3, "s": -4.4, "▁h": -5.5, "at": -3.7,
              "▁hat": -9.9, "hat": -6.6, "▁s": -5.2, "ts": -6.1}
    inputs = [("▁", scores), ("▁a", scores), ("▁hat", scores), ("▁hats", scores),
              ("▁tat", scores), ("▁sat", scores), ("hat", scores), ("▁hathat", scores)]
    hint = ("best[i] = the highest total log probability of any cut of word[:i]; for each end "
            "i, try every piece word[j:i] in scores and keep best[j] + scores[piece]; then walk "
            "back from the end. Greedy longest-first is not the same.")
    return check(func, reference_best_path, inputs, hint=hint)
