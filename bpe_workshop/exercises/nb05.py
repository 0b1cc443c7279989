"""Checkers for notebook 05 (word-level BPE with ``</w>``): ``check_<exercise>(your_function)``.

Learners import them by name: ``from bpe_workshop.exercises.nb05 import check_word_table``.
Expected values come from ``bpe_workshop.word_level``. Each checker prints one verdict and never
raises. The "spot the bug" exercise starts from a copy of the buggy function, so its checker
calls an unchanged copy "not attempted" rather than wrong.
Left out: checking how fast a learner's function is.
"""

from __future__ import annotations

from bpe_workshop.exercises.core import CheckResult, check, shown
from bpe_workshop.word_level import (
    END_OF_WORD,
    WordLevelBPE,
    merge_vocab,
    merge_vocab_buggy,
    word_vocab,
)

PAPER_VOCAB = {"l o w </w>": 5, "l o w e r </w>": 2, "n e w e s t </w>": 6, "w i d e s t </w>": 3}


def _apply_merges_reference(word: str, merges: list[tuple[str, str]]) -> list[str]:
    """A word's symbols after applying ``merges`` in order (characters + ``</w>`` first).

    >>> _apply_merges_reference("lowest", [("e", "s"), ("es", "t"), ("est", "</w>")])
    ['l', 'o', 'w', 'est</w>']
    """
    return WordLevelBPE(set(word), merges).tokenize(word)


def check_word_table(func) -> CheckResult:
    """Check ``func(text) -> {"t h i s </w>": 3, ...}`` against ``word_level.word_vocab``.

    >>> check_word_table(word_vocab).passed
    ✅ word_vocab passed (6 cases)
    True
    """
    inputs = [("",), ("a",), ("low low",), ("low lower",), ("  low\n low\tlower ",),
              ("this is a test this test is only a test a test this is",)]

    def hint(args, expected, got):
        if isinstance(got, dict) and any(END_OF_WORD not in key for key in got):
            return "every word ends with the marker: 'low' becomes 'l o w </w>'."
        if isinstance(got, dict) and sum(got.values()) != sum(expected.values()):
            return ("count every occurrence of a word; split on any whitespace with text.split() "
                    "(not text.split(' '), which keeps empty strings).")
        return ("one key per distinct word, in first-seen order: its characters and '</w>' joined "
                "by single spaces; the value is how often the word occurs.")

    return check(func, word_vocab, inputs, hint=hint)


def check_apply_merges(func) -> CheckResult:
    """Check ``func(word, merges) -> symbols``: characters plus ``</w>``, merges in order.

    >>> check_apply_merges(_apply_merges_reference).passed
    ✅ _apply_merges_reference passed (7 cases)
    True
    """
    paper = [("e", "s"), ("es", "t"), ("est", "</w>"), ("l", "o"), ("lo", "w")]
    inputs = [("a", []), ("low", paper), ("lowest", paper), ("newest", paper),
              ("aaa", [("a", "a")]), ("aaaa", [("a", "a"), ("aa", "aa")]),
              ("stest", [("s", "t"), ("t", "e"), ("e", "st")])]

    def hint(args, expected, got):
        if isinstance(got, list) and got and got[-1] != expected[-1] and END_OF_WORD not in got[-1]:
            return "start from list(word) + ['</w>']: the end-of-word marker is a symbol too."
        return ("apply each merge once, in the order given, to the whole word (left to right, "
                "no overlaps: 'aaa' with ('a', 'a') gives ['aa', 'a', '</w>']); a later merge may "
                "use symbols made by earlier ones.")

    return check(func, _apply_merges_reference, inputs, hint=hint)


def check_merge_vocab(func) -> CheckResult:
    """Check a fixed ``func(pair, vocab)`` against the paper's ``merge_vocab``.

    A function that still behaves exactly like ``merge_vocab_buggy`` is "not attempted yet".

    >>> check_merge_vocab(merge_vocab_buggy).attempted
    ⏳ merge_vocab_buggy: not attempted yet — it still behaves like the copied version: it returns every word unchanged. Find the bug, fix it, then run it and this cell again.
    False
    >>> check_merge_vocab(merge_vocab).passed
    ✅ merge_vocab passed (6 cases)
    True
    """
    inputs = [(("e", "s"), {"e s": 1}), (("e", "s"), {"n e w e s t </w>": 6}),
              (("e", "s"), {"ne st </w>": 1}), (("e", "s"), {"e st </w>": 1}),
              (("l", "o"), PAPER_VOCAB), (("s", "t"), {"s t s t </w>": 2, "t e s t </w>": 4})]
    name = getattr(func, "__name__", "your function")
    try:
        unchanged = all(func(*_copy(args)) == merge_vocab_buggy(*_copy(args)) for args in inputs)
    except Exception:  # noqa: BLE001 - the real check below reports the error
        unchanged = False
    if unchanged:
        message = (f"⏳ {name}: not attempted yet — it still behaves like the copied version: it "
                   "returns every word unchanged. Find the bug, fix it, then run it and this cell "
                   "again.")
        print(message)
        return CheckResult(passed=False, message=message, attempted=False)

    def hint(args, expected, got):
        pair, vocab = args
        if got == vocab:
            return ("nothing was merged. Read the first lookaround: (?!\\S) looks AHEAD, at the "
                    "bigram's own first character. Before the bigram you need a lookbehind.")
        return (f"{shown(' '.join(pair))} may only match as two whole symbols: no symbol "
                "character just before it (?<!\\S) and none just after it (?!\\S).")

    return check(func, merge_vocab, inputs, hint=hint)


def _copy(args):
    pair, vocab = args
    return tuple(pair), dict(vocab)
