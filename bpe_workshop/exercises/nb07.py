"""Checkers for notebook 07 (train your own): both inspect a trained tokenizer.

The cases are small vocabularies and id lists, so a failing case is easy to read.
"""

from __future__ import annotations

from collections import Counter

from bpe_workshop.exercises.core import CheckResult, check


def reference_longest_tokens(vocab: dict[int, bytes], k: int) -> list[int]:
    """The ids of the ``k`` longest tokens: most bytes first, the smaller id first among equals.

    >>> reference_longest_tokens({0: b"a", 1: b"bcd", 2: b"ef", 3: b"xyz"}, 2)
    [1, 3]
    """
    return sorted(vocab, key=lambda i: (-len(vocab[i]), i))[:k]


def reference_most_frequent(ids: list[int], k: int) -> list[tuple[int, int]]:
    """The ``k`` most frequent ids with their counts: highest count first, smaller id among equals.

    >>> reference_most_frequent([5, 3, 5, 3, 9], 2)
    [(3, 2), (5, 2)]
    """
    return sorted(Counter(ids).items(), key=lambda item: (-item[1], item[0]))[:k]


def check_longest_tokens(func) -> CheckResult:
    """Check ``func(vocab, k) -> [ids]``."""
    inputs = [({}, 3), ({7: b"a"}, 1), ({0: b"a", 1: b"bcd", 2: b"ef"}, 2),
              ({0: b"a", 1: b"bcd", 2: b"ef"}, 5), ({9: b"xyz", 4: b"abc", 1: b"q"}, 2),
              ({0: b"a", 256: "é".encode(), 257: b"ab"}, 1)]

    def vocab_and_k(rng, size):
        ids = rng.sample(range(250, 262), rng.randint(0, min(size + 1, 12)))
        tokens = (b"a", b"ab", b"abc", "é".encode(), b"xy")
        return {i: rng.choice(tokens) for i in ids}, rng.randint(0, 4)

    return check(func, reference_longest_tokens, inputs, generate=vocab_and_k, hint=(
        "sort the ids by token length in BYTES, longest first, the smaller id first among "
        "equals (key=lambda i: (-len(vocab[i]), i)); then keep the first k ([:k])."))


def check_most_frequent(func) -> CheckResult:
    """Check ``func(ids, k) -> [(id, count)]``."""
    inputs = [([], 2), ([4], 1), ([1, 2, 2], 1), ([5, 3, 5, 3, 9], 2), ([5, 3, 5, 3, 9], 9),
              ([3, 5, 3, 5], 2),  # first-seen order is right here: not the larger id first
              ([300, 7, 300, 7, 7, 300, 1], 3)]
    return check(func, reference_most_frequent, inputs, wrong=[
        (lambda ids, k: Counter(ids).most_common(k), "most_common keeps equal counts in "
         "first-seen order: among equal counts the smaller id first.")],
        hint="count with collections.Counter(ids), then sort the (id, count) pairs by count, "
             "highest first, and among equal counts the smaller id first; keep the first k ([:k]).",
        generate=lambda rng, size: ([rng.choice((7, 3, 300, 3)) for _ in range(
            rng.randint(0, 2 * size))], rng.randint(0, 4)))
