"""Checkers for notebook 05 (word-level BPE with ``</w>``), against ``tokenizers.word_level``.

The "spot the bug" exercise starts from a copy of the buggy function, so its checker calls an
unchanged copy "not attempted" rather than wrong.
"""

from __future__ import annotations

from bpe_workshop.algorithm.word_paper import merge_vocab, merge_vocab_buggy, word_vocab
from bpe_workshop.exercises import core
from bpe_workshop.exercises.core import (
    CheckResult,
    Raised,
    check,
    count_total,
    guarded,
    shown,
)
from bpe_workshop.tokenizers.word_level import END_OF_WORD, WordLevelBPE

PAPER_VOCAB = {"l o w </w>": 5, "l o w e r </w>": 2, "n e w e s t </w>": 6, "w i d e s t </w>": 3}


def reference_apply_merges(word: str, merges: list[tuple[str, str]]) -> list[str]:
    """A word's symbols after applying ``merges`` in order (characters + ``</w>`` first).

    >>> reference_apply_merges("lowest", [("e", "s"), ("es", "t"), ("est", "</w>")])
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
        if isinstance(got, dict) and not all(isinstance(key, str) for key in got):
            odd = next(k for k in got if not isinstance(k, str))
            return ("the keys must be strings such as 'l o w </w>' (the word's symbols joined by "
                    f"spaces); one of yours is {shown(odd)}.")
        if isinstance(got, dict) and any(END_OF_WORD not in key for key in got):
            return "every word ends with the marker: 'low' becomes 'l o w </w>'."
        total = count_total(got)
        if isinstance(got, dict) and total is None:
            return "the values must be ints: how often each word occurs."
        if total is not None and total != sum(expected.values()):
            return ("count every occurrence of a word; split on any whitespace with text.split() "
                    "(not text.split(' '), which keeps empty strings).")
        return ("one key per distinct word, in first-seen order: its characters and '</w>' joined "
                "by single spaces; the value is how often the word occurs.")

    return check(func, word_vocab, inputs, hint=hint)


def check_apply_merges(func) -> CheckResult:
    """Check ``func(word, merges) -> symbols``: characters plus ``</w>``, merges in order.

    >>> check_apply_merges(reference_apply_merges).passed
    ✅ reference_apply_merges passed (7 cases)
    True
    """
    paper = [("e", "s"), ("es", "t"), ("est", "</w>"), ("l", "o"), ("lo", "w")]
    inputs = [("a", []), ("low", paper), ("lowest", paper), ("newest", paper),
              ("aaa", [("a", "a")]), ("aaaa", [("a", "a"), ("aa", "aa")]),
              ("stest", [("s", "t"), ("t", "e"), ("e", "st")])]

    def hint(args, expected, got):
        if isinstance(got, list) and not all(isinstance(symbol, str) for symbol in got):
            return ("return a list of str symbols, like ['l', 'o', 'w', 'est</w>']; yours holds "
                    f"{shown(next(s for s in got if not isinstance(s, str)))}.")
        if isinstance(got, list) and got and got[-1] != expected[-1] and END_OF_WORD not in got[-1]:
            return "start from list(word) + ['</w>']: the end-of-word marker is a symbol too."
        return ("apply each merge once, in the order given, to the whole word (left to right, "
                "no overlaps: 'aaa' with ('a', 'a') gives ['aa', 'a', '</w>']); a later merge may "
                "use symbols made by earlier ones.")

    return check(func, reference_apply_merges, inputs, hint=hint)


def check_merge_vocab(func) -> CheckResult:
    r"""Check a fixed ``func(pair, vocab)`` against the paper's ``merge_vocab``.

    A function that still behaves exactly like ``merge_vocab_buggy`` and still has the copied
    lookahead ``(?!\S)`` in front is "not attempted yet". Pairs ending in ``</w>`` catch word
    boundaries ``\b``: there is none after the ``>`` of ``</w>``.

    >>> check_merge_vocab(merge_vocab_buggy).attempted  # doctest: +ELLIPSIS
    ⏳ merge_vocab_buggy: not attempted yet — it still behaves like the copied version: ...
    False
    >>> check_merge_vocab(merge_vocab).passed
    ✅ merge_vocab passed (9 cases)
    True
    """
    inputs = [(("e", "s"), {"e s": 1}), (("e", "s"), {"n e w e s t </w>": 6}),
              (("e", "s"), {"ne st </w>": 1}), (("e", "s"), {"e st </w>": 1}),
              (("l", "o"), PAPER_VOCAB), (("s", "t"), {"s t s t </w>": 2, "t e s t </w>": 4}),
              (("t", "</w>"), {"t e s t </w>": 4}), (("est", "</w>"), {"n e w est </w>": 6}),
              (("w", "</w>"), {"l o w </w>": 5, "l o w e r </w>": 2})]
    name = getattr(func, "__name__", "your function")
    if callable(func) and _still_the_copy(func, inputs):
        message = (f"⏳ {name}: not attempted yet — it still behaves like the copied version: it "
                   "returns every word unchanged. Find the bug, fix it, then run it and this cell "
                   "again.")
        print(message)
        return CheckResult(passed=False, message=message, attempted=False)

    def hint(args, expected, got):
        pair, vocab = args
        if isinstance(got, Raised):
            return ("build the pattern from re.escape(' '.join(pair)) with (?<!\\S) before it "
                    "and (?!\\S) after it, and apply it with pattern.sub to every word.")
        if got == vocab and not pair[-1][-1:].isalnum():
            return (f"{shown(' '.join(pair))} was not merged: it ends in '>', and a word boundary "
                    "\\b only stands between a letter or digit and something else, never after "
                    "'>'. Say 'a space or the edge of the word' instead: (?<!\\S) before, "
                    "(?!\\S) after.")
        if got == vocab:
            return ("nothing was merged here, although the pair stands in it as two whole "
                    "symbols: one of your two lookarounds never succeeds. Each must accept a "
                    "space or the edge of the word: before the bigram the lookbehind (?<!\\S), "
                    "after it the lookahead (?!\\S). (A lookahead written in front of the bigram "
                    "would look at the bigram's own first character.)")
        return (f"{shown(' '.join(pair))} may only match as two whole symbols: no symbol "
                "character just before it (?<!\\S) and none just after it (?!\\S).")

    return check(func, merge_vocab, inputs, hint=hint)


def _still_the_copy(func, inputs) -> bool:
    """Whether ``func`` returns what the copied buggy version returns on every input, and its
    code still holds the copied lookahead and no lookbehind (so an edited answer that happens to
    merge nothing gets a real verdict)."""
    try:
        # a short limit: a loop that never ends is reported by the real check below
        limit = min(1.0, core.TIME_LIMIT)
        same = all(core.is_plain(got := guarded(func, *_copy(args), time_limit=limit))
                   and merge_vocab_buggy(*_copy(args)) == got for args in inputs)
    except KeyboardInterrupt:
        raise
    except BaseException:  # noqa: BLE001 - the real check below reports what went wrong
        return False
    texts = _string_constants(getattr(func, "__code__", None))
    return same and not any("(?<" in text for text in texts)


def _string_constants(code) -> list[str]:
    """Every str constant in a code object and the code objects nested in it."""
    if code is None:
        return []
    found = []
    for const in code.co_consts:
        if isinstance(const, str):
            found.append(const)
        elif hasattr(const, "co_consts"):
            found.extend(_string_constants(const))
    return found


def _copy(args):
    pair, vocab = args
    return tuple(pair), dict(vocab)
