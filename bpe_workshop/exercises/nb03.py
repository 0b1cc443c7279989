"""Checkers for notebook 03 (BPE by hand): count pairs, replace a pair, decompress, spot a mistake.

References are ``bpe_workshop.algorithm.by_hand``: a string's characters are its symbols.
"""

from __future__ import annotations

from bpe_workshop.algorithm.by_hand import count_pairs, decompress_by_hand, replace_pairs_by_hand
from bpe_workshop.algorithm.textbook import merge
from bpe_workshop.exercises.core import CheckResult, a_type, check, count_total, shown, values_kind

TEXTS = ("", "a", "ab", "aaa", "aaaa", "abab", "aaabdaaabac", "aaabcdaadab", "banana bandana",
         "ZabdZabac")

# A worked example of "aaabcdaadab" as it might appear in a blog post: one step is wrong.
# (step, string before, pair claimed most frequent, its claimed count, symbol, string after)
PUBLISHED_EXAMPLE = (
    (1, "aaabcdaadab", ("a", "a"), 3, "X", "XabcdXdab"),
    (2, "XabcdXdab", ("a", "b"), 2, "Y", "XYcdXdY"),
    (3, "XYcdXdY", ("d", "X"), 2, "Z", "XYcZdY"),
)


def reference_replace_pair(text: str, pair: tuple[str, str], symbol: str) -> str:
    ids = merge([ord(ch) for ch in text], (ord(pair[0]), ord(pair[1])), ord(symbol))
    return "".join(chr(i) for i in ids)


def first_wrong_published_step() -> int:
    """The first step of PUBLISHED_EXAMPLE that differs from ``replace_pairs_by_hand``."""
    text = PUBLISHED_EXAMPLE[0][1]
    real = replace_pairs_by_hand(text, symbols="XYZ")
    for k, (_, before, pair, count, symbol, after) in enumerate(PUBLISHED_EXAMPLE):
        if k >= len(real):
            return k + 1  # the real run had already stopped
        step = real[k]
        if (step.before, step.pair, step.count, step.symbol, step.after) != (
                before, pair, count, symbol, after):
            return k + 1
    raise AssertionError("the published example was meant to hold a mistake")


def check_pair_counts(pair_counts) -> CheckResult:
    """Exercise: ``my_pair_counts(text) -> {(left, right): count}``, overlapping pairs included."""

    def hint(args, expected, got):
        if values_kind(got):
            return values_kind(got)
        total = count_total(got)
        text = args[0]
        last = (text[-2], text[-1]) if len(text) > 1 else None
        off_by_one = count_pairs(text[:-1]) if text else {}
        overlap_less = {pair: text.count("".join(pair)) for pair in expected}
        if got == off_by_one and got != overlap_less and last:
            return ("the LAST pair is missing: a text of n characters has n - 1 pairs, so the "
                    "start positions run over range(len(text) - 1).")
        if total is not None and total < sum(expected.values()):
            return ("count every position: 'aaa' holds ('a', 'a') twice (positions 0-1 and 1-2). "
                    "zip(text, text[1:]) walks over all adjacent pairs.")
        return "keys are (left character, right character) tuples, values how often they occur."

    return check(pair_counts, count_pairs, [(text,) for text in TEXTS], hint=hint)


def check_replace_pair(replace_pair) -> CheckResult:
    """Exercise: ``my_replace_pair(text, pair, symbol) -> str``, left to right, no overlaps."""
    inputs = [("", ("a", "a"), "Z"), ("aa", ("a", "a"), "Z"), ("aaa", ("a", "a"), "Z"),
              ("aaaa", ("a", "a"), "Z"), ("abc", ("x", "y"), "Z"),
              ("aaabdaaabac", ("a", "a"), "Z"), ("ZabdZabac", ("a", "b"), "Y"),
              ("ZYdZYac", ("Z", "Y"), "X"), ("aaabcdaadab", ("a", "a"), "X")]
    def hint(args, expected, got):
        if not isinstance(got, str):
            return "return the new text as one str (join a list of pieces with ''.join)."
        return ("scan left to right; after a match, skip both characters, so 'aaa' with "
                "('a', 'a') gives 'Za'. str.replace does exactly this.")

    return check(replace_pair, reference_replace_pair, inputs, hint=hint)


def check_decompress(decompress) -> CheckResult:
    """Exercise: ``my_decompress(text, table) -> str``, undoing the replacements."""
    inputs = [("", {}), ("abc", {}), ("Za", {"Z": "aa"})]
    # fresh symbols in three orders (Z, Y, X is reverse-alphabetical: sorting would pass it)
    for original, symbols in (("aaabdaaabac", None), ("aaabcdaadab", "PQR"),
                              ("banana bandana", "MAQZ"), ("aaabdaaabac", "ACB")):
        last = replace_pairs_by_hand(original, symbols=symbols)[-1]
        inputs.append((last.after, last.table))
    def hint(args, expected, got):
        text, table = args
        oldest_first = text
        for symbol, pair in table.items():
            oldest_first = oldest_first.replace(symbol, pair)
        if got == oldest_first:
            return ("you undid the oldest replacement first, so symbols made later (X = ZY) "
                    "still hold earlier ones: walk the table in reverse order, e.g. "
                    "reversed(list(table.items())).")
        if table and list(table) != sorted(table, reverse=True):
            return ("the table's order is the order the symbols were made, whatever their "
                    "letters: undo them last-made first, reversed(list(table.items())), "
                    "not in alphabetical order.")
        return ("replace each symbol by the pair it stands for, the last replacement of the "
                "table first, until only the original letters are left.")

    return check(decompress, decompress_by_hand, inputs, hint=hint)


def check_first_wrong_step(first_wrong_step) -> CheckResult:
    """Exercise: the number of the first wrong step of ``PUBLISHED_EXAMPLE`` (an int)."""

    def hint(args, expected, got):
        if not isinstance(got, int) or isinstance(got, bool):
            return f"give the step number as an int, e.g. 2, not {a_type(got)} ({shown(got)})."
        return ("compare each step with replace_pairs_by_hand('aaabcdaadab', symbols='XYZ'): "
                "the string, the pair, its count and the result.")

    return check(lambda: first_wrong_step, first_wrong_published_step, [()],
                 name="my_first_wrong_step", reveal=False, hint=hint)
