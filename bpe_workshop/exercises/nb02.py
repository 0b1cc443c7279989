"""Checkers for notebook 02 (regex splitting): GPT-2 chunks, GPT-4 digit groups, chunk bytes.

References are ``bpe_workshop.algorithm.patterns.split_text`` with the package's own patterns.
"""

from __future__ import annotations

import regex

from bpe_workshop.algorithm.patterns import GPT2_PATTERN, GPT4_PATTERN, split_text
from bpe_workshop.exercises.core import CheckResult, check, random_text

TEXTS = ("", "Hi", "you'd", "YOU'D", "text123", "split???!!!",
         "Any text that you want to be split.", "to                 be", "I'm 25 today, in 2024!",
         "    if x:\n        return 1\n", "Hello👋, 你好!")
NUMBER_TEXTS = ("", "7", "42", "2024", "12345", "1234567", "pi is 3.14159",
                "call 0800 123 4567", "a1b22c333d4444", "٣٤٥٦٧",
                "½ a cup", "x² + y²", "Chapter Ⅻ", "⅓⅔¾12")  # numbers \d does not match


def reference_gpt2_split(text: str) -> list[str]:
    return split_text(text, GPT2_PATTERN)


def reference_number_chunks(text: str) -> list[str]:
    """The chunks GPT-4's pattern makes from the numbers in ``text``, in order."""
    return [chunk for chunk in split_text(text, GPT4_PATTERN) if regex.fullmatch(r"\p{N}+", chunk)]


def reference_chunk_ids(text: str) -> list[list[int]]:
    """GPT-4 chunks of ``text``, each as its list of UTF-8 byte values."""
    return [list(chunk.encode("utf-8")) for chunk in split_text(text, GPT4_PATTERN)]


def a_text(rng, size):
    return (random_text(rng, size, "aAb 'sd ll?!.\n\t12345½²你👋"),)


def check_gpt2_split(gpt2_split) -> CheckResult:
    """Exercise: ``my_gpt2_split(text) -> list[str]`` with GPT-2's pattern."""
    return check(
        gpt2_split, reference_gpt2_split, [(text,) for text in TEXTS], generate=a_text,
        hint=lambda args, expected, got: (
            "the chunks must join back to the text exactly, every space and character kept."
            if isinstance(got, list) and "".join(map(str, got)) != args[0] else
            "regex.findall(GPT2_PATTERN, text), with the third-party `regex` module."))


def check_number_chunks(number_chunks) -> CheckResult:
    """Exercise: ``my_number_chunks(text) -> list[str]``, numbers cut into groups of 1-3 digits."""
    return check(number_chunks, reference_number_chunks, [(text,) for text in NUMBER_TEXTS], wrong=[
        (lambda text: regex.findall(r"\d{1,3}", text), "\\d matches decimal digits only; \\p{N} "
         "matches every number character, also ½, ² and Ⅻ: use \\p{N}{1,3}.")],
        generate=a_text,
        hint="GPT-4's pattern uses \\p{N}{1,3}: at most three number characters, taken from the "
             "left. \\p{N} also matches ½, ² and the digits of other scripts.")


def check_chunk_ids(chunk_ids) -> CheckResult:
    """Exercise: ``my_chunk_ids(text) -> list[list[int]]``, GPT-4 chunks as UTF-8 byte values."""
    return check(chunk_ids, reference_chunk_ids, [(text,) for text in TEXTS], generate=a_text,
                 hint="split with GPT4_PATTERN, then list(chunk.encode('utf-8')) for each chunk.")
