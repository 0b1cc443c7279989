"""Checkers for notebook 00 (why tokenization): counting tokens and looking at their bytes.

References use tiktoken through ``bpe_workshop.files.offline.get_encoding``, so they work offline.
"""

from __future__ import annotations

from bpe_workshop.exercises.core import CheckResult, check, random_text
from bpe_workshop.files.offline import get_encoding

ENCODINGS = ("gpt2", "cl100k_base")
TEXTS = ("", "egg.", "Egg.", "hello world", "3221 + 2334 = 5555", "I have an Egg.",
         "你好,我是池邦豪! 👋", "    if x:\n        return 1")
CASES = tuple((text, name) for text in TEXTS for name in ENCODINGS)


def reference_count_tokens(text: str, encoding_name: str) -> int:
    """How many tokens ``text`` costs in ``encoding_name``."""
    return len(get_encoding(encoding_name).encode(text))


def reference_token_pieces(text: str, encoding_name: str) -> list[bytes]:
    """The bytes of each token of ``text``, in order."""
    enc = get_encoding(encoding_name)
    return [enc.decode_single_token_bytes(token) for token in enc.encode(text)]


def text_and_encoding(rng, size):
    return random_text(rng, size), rng.choice(ENCODINGS)


def check_count_tokens(count_tokens) -> CheckResult:
    """Exercise: ``my_count_tokens(text, encoding_name) -> int``."""
    return check(count_tokens, reference_count_tokens, CASES, generate=text_and_encoding,
                 hint="get_encoding(encoding_name).encode(text) gives the ids; count them.")


def check_token_pieces(token_pieces) -> CheckResult:
    """Exercise: ``my_token_pieces(text, encoding_name) -> list[bytes]``."""
    return check(token_pieces, reference_token_pieces, CASES, generate=text_and_encoding,
                 hint="encode, then turn each id into its bytes with "
                      "enc.decode_single_token_bytes(id): a token can be part of a character.")
