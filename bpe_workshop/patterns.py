"""Split patterns (pre-tokenization): the one home of every regex this package uses.

Lineage: GPT-2 splits text into chunks with a regex before BPE, so merges never cross chunk
boundaries (``dog.`` and ``dog!`` share ``dog``); GPT-4's ``cl100k_base`` refines the pattern.
Uses the third-party ``regex`` module, which understands ``\\p{L}`` (letter) and ``\\p{N}``
(number). Left out: Unicode normalization, and the other encodings' patterns (``o200k_base``).
"""

from __future__ import annotations

import functools

import regex

# GPT-2's pattern as published with the model (encoder.py). Contractions are case sensitive.
GPT2_PATTERN = r"""'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+"""

# GPT-4's pattern: tiktoken's cl100k_base pat_str, verbatim (a test checks it against tiktoken).
GPT4_PATTERN = r"""'(?i:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?+\p{L}++|\p{N}{1,3}+| ?[^\s\p{L}\p{N}]++[\r\n]*+|\s++$|\s*[\r\n]|\s+(?!\S)|\s"""

# The simplest useful split: runs of whitespace and runs of everything else.
WHITESPACE_PATTERN = r"""\s+|\S+"""


@functools.lru_cache(maxsize=64)
def compile_pattern(pattern: str) -> regex.Pattern:
    """Compile ``pattern`` with the ``regex`` module (cached per pattern string).

    >>> compile_pattern(WHITESPACE_PATTERN).findall("hi  there")
    ['hi', '  ', 'there']
    >>> compile_pattern("(")
    Traceback (most recent call last):
    ...
    ValueError: invalid split pattern '(': missing ) at position 1; fix the regex (it is compiled with the third-party `regex` module, so \\p{L} and possessive quantifiers are allowed)
    """
    if not isinstance(pattern, str):
        raise TypeError(
            f"a split pattern must be a str (or None for no splitting), got {type(pattern).__name__}"
        )
    try:
        return regex.compile(pattern)
    except regex.error as err:
        raise ValueError(
            f"invalid split pattern {pattern!r}: {err}; fix the regex (it is compiled with the "
            "third-party `regex` module, so \\p{L} and possessive quantifiers are allowed)"
        ) from None


def split_text(text: str, pattern: str | None) -> list[str]:
    """Split ``text`` into chunks with ``pattern``; ``None`` means one chunk (no splitting).

    >>> split_text("Any text that you want to be split.", GPT2_PATTERN)
    ['Any', ' text', ' that', ' you', ' want', ' to', ' be', ' split', '.']
    >>> split_text("you'd text123 split???!!!", GPT2_PATTERN)
    ['you', "'d", ' text', '123', ' split', '???!!!']
    >>> split_text("to   be", GPT2_PATTERN)
    ['to', '  ', ' be']
    >>> split_text("abc", None)
    ['abc']
    >>> split_text("", None)
    []
    """
    if pattern is None:
        return [text] if text else []
    return compile_pattern(pattern).findall(text)
