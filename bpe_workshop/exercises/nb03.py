"""Checkers for notebook 03 (BPE by hand): count pairs, replace a pair, decompress, spot a mistake.

References are ``bpe_workshop.algorithm.by_hand``: a string's characters are its symbols.
"""

from __future__ import annotations

import functools

from bpe_workshop.algorithm.by_hand import count_pairs, decompress_by_hand, replace_pairs_by_hand
from bpe_workshop.exercises.core import CheckResult, check, random_text

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
    """Every ``pair`` in ``text`` replaced by ``symbol``, left to right, no overlaps."""
    return text.replace(pair[0] + pair[1], symbol)


def first_wrong_published_step() -> int:
    """The first step of PUBLISHED_EXAMPLE that differs from ``replace_pairs_by_hand``."""
    real = [(step.step, step.before, step.pair, step.count, step.symbol, step.after)
            for step in replace_pairs_by_hand(PUBLISHED_EXAMPLE[0][1], symbols="XYZ")]
    return next(claimed[0] for claimed in PUBLISHED_EXAMPLE if claimed not in real)


def check_pair_counts(pair_counts) -> CheckResult:
    """Exercise: ``my_pair_counts(text) -> {(left, right): count}``, overlapping pairs included."""
    return check(pair_counts, count_pairs, [(text,) for text in TEXTS], wrong=[
        (functools.partial(count_pairs, overlapping=False), "count every position: 'aaa' holds "
         "('a', 'a') twice (at 0-1 and 1-2); zip(text, text[1:]) gives all adjacent pairs."),
        (lambda text: count_pairs(text[:-1]), "the LAST pair is missing: range(len(text) - 1).")],
        generate=lambda rng, size: (random_text(rng, size, "aab"),),
        hint="keys are (left character, right character) tuples, values how often they occur.")


def check_replace_pair(replace_pair) -> CheckResult:
    """Exercise: ``my_replace_pair(text, pair, symbol) -> str``, left to right, no overlaps."""
    inputs = [*((text, ("a", "a"), "Z") for text in ("", "aa", "aaa", "aaaa", "aaabdaaabac")),
              ("aaabcdaadab", ("a", "a"), "X"), ("abc", ("x", "y"), "Z"),
              ("ZabdZabac", ("a", "b"), "Y"), ("ZYdZYac", ("Z", "Y"), "X")]
    return check(replace_pair, reference_replace_pair, inputs, generate=lambda rng, size: (
        random_text(rng, size, "ab"), (rng.choice("ab"), rng.choice("ab")), "Z"),
        hint="scan left to right; after a match, skip both characters, so 'aaa' with ('a', 'a') "
             "gives 'Za'. str.replace does exactly this.")


def a_compressed_text(rng, size):
    """The last step of a random run: (text after, table), symbols in a random order."""
    steps = replace_pairs_by_hand(random_text(rng, 2 * size, "aabc"),
                                  symbols=rng.sample("PQRSXYZ", 7))
    return (steps[-1].after, steps[-1].table) if steps else ("ab", {})


def check_decompress(decompress) -> CheckResult:
    """Exercise: ``my_decompress(text, table) -> str``, undoing the replacements."""
    inputs = [("", {}), ("abc", {}), ("Za", {"Z": "aa"})]
    # fresh symbols in three orders (Z, Y, X is reverse-alphabetical: sorting would pass it)
    for original, symbols in (("aaabdaaabac", None), ("aaabcdaadab", "PQR"),
                              ("banana bandana", "MAQZ"), ("aaabdaaabac", "ACB")):
        last = replace_pairs_by_hand(original, symbols=symbols)[-1]
        inputs.append((last.after, last.table))
    # the known wrong orders, as tables that decompress_by_hand (last made first) walks wrongly
    return check(decompress, decompress_by_hand, inputs, generate=a_compressed_text, wrong=[
        (lambda text, table: decompress_by_hand(text, dict(reversed(table.items()))),
         "undoing oldest first, or all in one pass, leaves a later symbol's parts (X = ZY) undone: "
         "undo the last replacement first, e.g. reversed(list(table.items())).")],
        hint="replace each symbol by the pair it stands for, the last replacement of the table "
             "first, until only the original letters are left.")


def check_first_wrong_step(first_wrong_step) -> CheckResult:
    """Exercise: the number of the first wrong step of ``PUBLISHED_EXAMPLE`` (an int)."""
    return check(lambda: first_wrong_step, first_wrong_published_step, [()],
                 name="my_first_wrong_step", reveal=False,
                 hint="compare each step with replace_pairs_by_hand('aaabcdaadab', "
                      "symbols='XYZ'): the string, the pair, its count and the result.")
