"""Checkers for notebook 05 (word-level BPE with ``</w>``), against ``tokenizers.word_level``.

The "spot the bug" exercise starts from a copy of the buggy function, so its checker calls an
unchanged copy "not attempted" rather than wrong. Hints name the known wrong answer that gives
what the learner's function gave.
"""

from __future__ import annotations

import functools
import marshal
import re
from collections import Counter

from bpe_workshop.algorithm.word_paper import merge_vocab, word_vocab
from bpe_workshop.exercises import core
from bpe_workshop.exercises.core import CheckResult, check, guarded
from bpe_workshop.tokenizers.word_level import WordLevelBPE

PAPER_VOCAB = {"l o w </w>": 5, "l o w e r </w>": 2, "n e w e s t </w>": 6, "w i d e s t </w>": 3}
SYMBOLS = ("a", "E", "e", "s", "t", "n", "es", "st", ".", "\\", "</w>")  # for generated cases
MARK = "'</w>' is one symbol: [*word, '</w>'], not word + '</w>' (split into '<', '/', 'w', '>')."


def reference_apply_merges(word: str, merges: list[tuple[str, str]]) -> list[str]:
    """A word's symbols after applying ``merges`` in order (characters + ``</w>`` first).

    >>> reference_apply_merges("lowest", [("e", "s"), ("es", "t"), ("est", "</w>")])
    ['l', 'o', 'w', 'est</w>']
    """
    return WordLevelBPE(set(word), merges).tokenize(word)


def check_word_table(func) -> CheckResult:
    """Check ``func(text) -> {"t h i s </w>": 3, ...}`` against ``word_paper.word_vocab``."""
    inputs = [(text,) for text in ("", "a", "low low", "low lower", "  low\n low\tlower ",
                                   "c b b a", "The end. the end!",
                                   "this is a test this test is only a test a test this is")]
    words = ("low", "Low", "low.", "new", "a", "it's", "b")

    def table_by(order=None, split=str.split, spell=lambda word: [*word, "</w>"]):
        """A known wrong word table: the words of ``split(text)``, each key ``spell(word)``
        joined by spaces, the keys put in ``order``."""
        def word_table(text):
            table = {" ".join(spell(word)): n for word, n in Counter(split(text)).items()}
            return dict(sorted(table.items(), key=order)) if order else table
        return word_table

    return check(func, word_vocab, inputs, wrong=[
        (table_by(split=lambda text: text.split(" ")), "split on any whitespace with text.split() "
         "(text.split(' ') keeps empty strings and line breaks)."),
        (table_by(lambda item: -item[1]), "keep the words in first-seen order (a dict keeps the "
         "order you insert; most_common() sorts by count)."),
        (table_by(split=lambda text: text.lower().split()),
         "keep the text as it is: 'The' and 'the' are two different words here."),
        (table_by(spell=lambda word: word + "</w>"), MARK)],
        same=lambda args, expected, got: expected == got and list(expected) == list(got),
        generate=lambda rng, size: ("".join(rng.choice(words) + rng.choice("  \n\t")
                                            for _ in range(rng.randint(0, size))),),
        hint="one key per distinct word, in first-seen order: its characters and '</w>' joined by "
             "single spaces; the value is how often the word occurs.")


def check_apply_merges(func) -> CheckResult:
    """Check ``func(word, merges) -> symbols``: characters plus ``</w>``, merges in order."""
    paper = [("e", "s"), ("es", "t"), ("est", "</w>"), ("l", "o"), ("lo", "w")]
    inputs = [("a", []), ("low", paper), ("lowest", paper), ("newest", paper),
              ("aaa", [("a", "a")]), ("aaaa", [("a", "a"), ("aa", "aa")]),
              ("stest", [("s", "t"), ("t", "e"), ("e", "st")]), ("Lowest", paper)]

    def word_and_merges(rng, size):
        merges, known = [], ["e", "s", "t", "T", "</w>"]
        for _ in range(rng.randint(0, size)):
            merges.append((rng.choice(known[:-1]), rng.choice(known)))
            known.insert(0, "".join(merges[-1]))
        return "".join(rng.choice("esTt") for _ in range(rng.randint(1, size + 1))), merges

    def merged_from(first):  # known wrong starts: no '</w>', or '</w>' as four characters
        return lambda word, merges: functools.reduce(lambda text, pair: [*merge_vocab(
            pair, {text: 1})][0], merges, " ".join(first(word))).split()

    return check(func, reference_apply_merges, inputs, generate=word_and_merges, wrong=[
        (merged_from(list), "start from list(word) + ['</w>']: '</w>' is a symbol too."),
        (merged_from(lambda word: word + "</w>"), MARK)],
        hint="apply each merge in order to the WHOLE word, left to right, no overlaps ('aaa' with "
             "('a', 'a') gives ['aa', 'a', '</w>']); later merges may use earlier ones' symbols.")


def merge_vocab_by(before=r"(?<!\S)", after=r"(?!\S)", escape=re.escape, glue=""):
    """The paper's merge step written one known wrong way (the defaults give the right one)."""
    def merge_vocab(pair, vocab):
        pattern = re.compile(before + escape(" ".join(pair)) + after)
        return {pattern.sub(lambda _: glue.join(pair), word): n for word, n in vocab.items()}
    return merge_vocab


def check_merge_vocab(func) -> CheckResult:
    r"""Check a fixed ``func(pair, vocab)`` against the paper's ``merge_vocab``.

    A function that still behaves exactly like ``merge_vocab_buggy`` and still has the copied
    lookahead ``(?!\S)`` in front is "not attempted yet". Pairs ending in ``</w>`` catch word
    boundaries ``\b``: there is none after the ``>`` of ``</w>``.

    >>> from bpe_workshop.algorithm.word_paper import merge_vocab_buggy
    >>> check_merge_vocab(merge_vocab_buggy).attempted  # doctest: +ELLIPSIS
    ⏳ merge_vocab_buggy: not attempted yet — it still behaves like the copied version: ...
    False
    """
    inputs = [*((("e", "s"), {word: 1}) for word in ("e s", "ne st </w>", "e st </w>", "ne s </w>",
                                                     "E s t </w>")),
              (("e", "s"), {"n e w e s t </w>": 6}), ((".", "</w>"), {"x </w>": 1, ". </w>": 2}),
              (("l", "o"), PAPER_VOCAB), (("s", "t"), {"s t s t </w>": 2, "t e s t </w>": 4}),
              (("t", "</w>"), {"t e s t </w>": 4}), (("est", "</w>"), {"n e w est </w>": 6}),
              (("w", "</w>"), {"l o w </w>": 5, "l o w e r </w>": 2}),
              (("s", "t"), {"s t </w>": 1, "a </w>": 3}), (("\\", "n"), {"\\ n </w>": 1}),
              (("s", "t"), {"s t a s t </w>": 1})]

    def pair_and_vocab(rng, size):
        words = {" ".join(rng.choice(SYMBOLS[:-1]) for _ in range(rng.randint(1, size)))
                 + " </w>" for _ in range(rng.randint(1, 3))}
        return (rng.choice(SYMBOLS[:-1]), rng.choice(SYMBOLS)), {w: len(w) for w in words}

    nothing = ("nothing was merged, though the pair stands here as two whole symbols: the "
               "replacement puts the space back (''.join(pair), not ' '.join), or a lookaround "
               "never succeeds. Each must accept a space or the word's edge: (?<!\\S) before, "
               "(?!\\S) after the bigram (a lookahead in front sees the bigram's first character).")
    return check(func, merge_vocab, inputs, waiting=_still_the_copy, wrong=[
        (merge_vocab_by(before=""), "only the lookahead is left: the bigram may start inside a "
         "symbol ('ne s' becomes 'nes'); put the lookbehind (?<!\\S) in front of it."),
        (merge_vocab_by(escape=str), "re.escape is missing: '.' is any character (('.', '</w>') "
         "also joins 'x </w>'), '\\\\' starts an escape; build it from re.escape(' '.join(pair))."),
        (merge_vocab_by(before=r"\b", after=r"\b"), "\\b needs a letter or digit on one side only: "
         "never after '>' (</w>) nor beside '\\\\' or '.'. Use (?<!\\S) before, (?!\\S) after."),
        (merge_vocab_by(glue=" "), nothing),
        (merge_vocab_by(before="", after=""), "the pair may only match as two whole symbols: no "
         "symbol character just before it (?<!\\S) and none just after it (?!\\S).")],
        generate=pair_and_vocab, hint=lambda args, expected, got: (
            "the words are right, but not their counts: keep each word's count."
            if type(got) is dict and got.keys() == expected.keys() else
            "build the pattern from re.escape(' '.join(pair)) with (?<!\\S) before it and (?!\\S) "
            "after it, and apply it with pattern.sub to every word."))


def _still_the_copy(func) -> str:
    """Why ``func`` is not attempted (like the copied buggy version, it returns the paper's
    vocabulary unchanged, and its code still holds no lookbehind), or '' (an edited answer that
    happens to merge nothing gets a real verdict). ``check`` runs it guarded: one that raises
    gets ''; a loop that never ends is reported by the real check."""
    got = guarded(func, ("l", "o"), dict(PAPER_VOCAB), time_limit=min(1.0, core.TIME_LIMIT))
    if type(got) is not dict or got != PAPER_VOCAB or b"(?<" in marshal.dumps(func.__code__):
        return ""  # it merges, or its code (str constants, nested too) has a lookbehind
    return ("it still behaves like the copied version: it returns every word unchanged. Find "
            "the bug, fix it, then run it and this cell again.")
