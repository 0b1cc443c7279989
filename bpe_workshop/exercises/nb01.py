"""Checkers for notebook 01 (Unicode and UTF-8): bytes per text, bytes per code point, encoding.

References are Python's own UTF-8 codec: the learner rebuilds what ``str.encode`` does.
"""

from __future__ import annotations

from bpe_workshop.exercises.core import CheckResult, check, random_text

TEXTS = ("", "a", "é", "hello", "naïve café", "你好", "👋", "Hello👋, 你好!")
# One code point from each end of each UTF-8 length class (1, 2, 3 and 4 bytes).
CODE_POINTS = (0x00, 0x41, 0x7F, 0x80, 0xE9, 0x7FF, 0x800, 0x4F60, 0xFFFD, 0xFFFF,
               0x10000, 0x1F44B, 0x10FFFF)


def reference_count_bytes(text: str) -> int:
    return len(text.encode("utf-8"))


def reference_encode_utf8(code_point: int) -> bytes:
    return chr(code_point).encode("utf-8", errors="surrogatepass")


def reference_utf8_length(code_point: int) -> int:
    return len(reference_encode_utf8(code_point))


def a_code_point(rng, size):
    """A random code point, from a random one of the four length classes."""
    return (rng.randrange(*rng.choice(((0, 0x80), (0x80, 0x800), (0x800, 0x10000),
                                       (0x10000, 0x110000)))),)


def check_count_bytes(count_bytes) -> CheckResult:
    """Exercise: ``my_count_bytes(text) -> int``, the length of ``text`` in UTF-8."""
    return check(count_bytes, reference_count_bytes, [(text,) for text in TEXTS], wrong=[
        (len, "that is the number of characters; encode the text to UTF-8 bytes first.")],
        generate=lambda rng, size: (random_text(rng, size),),
        hint="text.encode('utf-8') gives a bytes object; count its items.")


def check_utf8_length(utf8_length) -> CheckResult:
    """Exercise: ``my_utf8_length(code_point) -> int`` from the bit-layout table alone."""
    return check(utf8_length, reference_utf8_length, [(cp,) for cp in CODE_POINTS],
                 generate=a_code_point,
                 hint="1 byte holds 7 bits (up to 0x7F), 2 bytes 11 bits (0x7FF), "
                      "3 bytes 16 bits (0xFFFF), 4 bytes 21 bits (0x10FFFF).")


def check_encode_utf8(encode_utf8) -> CheckResult:
    """Exercise: ``my_encode_utf8(code_point) -> bytes`` built with bit operations."""
    return check(encode_utf8, reference_encode_utf8, [(cp,) for cp in CODE_POINTS],
                 generate=a_code_point, hint=lambda args, expected, got: (
                     f"{args[0]:#x} needs {len(expected)} byte(s): "
                     f"{' '.join(f'{byte:08b}' for byte in expected)}. The first byte carries "
                     "the length prefix; every later byte starts with 10 and carries 6 bits."))
