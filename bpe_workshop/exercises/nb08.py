"""Checkers for notebook 08 (tokenizers in the wild), against the real tokenizers.

cl100k's own cut of each number, GPT-2's and cl100k's token counts of the parallel sentences,
and SentencePiece's decoding rule (a test checks ``reference_decode_pieces`` against the
``sentencepiece`` package). Left out: ``<unk>`` pieces and invalid byte sequences.
"""

from __future__ import annotations

import re

from bpe_workshop.exercises.core import CheckResult, check
from bpe_workshop.files.corpora import load_parallel
from bpe_workshop.files.offline import get_encoding
from bpe_workshop.tokenizers.sentencepiece_bpe import WORD_MARK

BYTE_PIECE = re.compile(r"<0x([0-9A-F]{2})>")  # SentencePiece's byte fallback piece, e.g. <0xE4>
ENCODINGS = ("gpt2", "cl100k_base")  # the encodings costliest_language is checked with


def reference_number_pieces(number: int) -> list[str]:
    """How cl100k cuts the digits of ``number``: the text of each token.

    >>> reference_number_pieces(1234567)
    ['123', '456', '7']
    """
    cl100k = get_encoding("cl100k_base")
    return [cl100k.decode([i]) for i in cl100k.encode(str(number))]


def check_number_pieces(func) -> CheckResult:
    """Check ``func(number) -> [str]``: cl100k's pieces of a non-negative int's digits."""
    inputs = [(n,) for n in (0, 7, 42, 100, 999, 1000, 1234, 2024, 10000, 12345, 123456,
                             1234567, 9876543210)]
    return check(func, reference_number_pieces, inputs,
                 generate=lambda rng, size: (rng.randrange(10 ** rng.randint(1, size + 2)),),
                 hint="cl100k's pattern \\p{N}{1,3} takes at most three digits, from the LEFT: "
                      "groups of three, then what is left (1000 is '100', '0', not '1', '000').")


def reference_costliest_language(sentences: dict[str, str], encoding_name: str) -> str:
    """The language whose sentence takes the most tokens (the first such one on a tie).

    >>> reference_costliest_language({"en": "information", "el": "νερό"}, "gpt2")
    'el'
    """
    encoding = get_encoding(encoding_name)
    return max(sentences, key=lambda code: len(encoding.encode(sentences[code])))


def check_costliest_language(func) -> CheckResult:
    """Check ``func(sentences, encoding_name) -> language code``."""
    parallel = load_parallel()  # language code -> the same two sentences in that language

    def some(*codes):
        return {code: parallel[code] for code in codes}

    inputs = [(sentences, name) for name in ENCODINGS for sentences in (
        {"en": "information", "el": "νερό"},  # more bytes, fewer tokens
        some("ja", "zh", "ar"), parallel,
        some("ja", "ko"), some("ru", "he"))]  # the encodings disagree here: use the one given
    inputs += [({"fr": "Bonjour"}, "gpt2"), (some("ko", "ru", "el"), "gpt2"),
               ({"zz": "cat", "aa": "dog"}, "gpt2"),  # a tie, one token each: the first wins
               ({"en": "a cat", "fr": "un chat", "de": "eine Katze"}, "cl100k_base")]

    def costliest_by(size, pick=max):  # a known wrong answer: the code picked by size(text, name)
        return lambda sentences, name: pick(sentences, key=lambda code: size(sentences[code], name))

    def sentences_and_encoding(rng, size):
        codes = rng.sample(sorted(parallel), rng.randint(1, min(size + 1, len(parallel))))
        return some(*codes), rng.choice(ENCODINGS)

    return check(func, reference_costliest_language, inputs, wrong=[
        (costliest_by(lambda text, _: len(text)), "count TOKENS, not characters."),
        (costliest_by(lambda text, _: len(text.encode())), "count TOKENS, not bytes: a rare "
         "script takes many bytes but may take few tokens."),
        (costliest_by(lambda text, name: len(get_encoding(name).encode(text)), min),
         "the costliest has the MOST tokens (max, not min).")],
        alone="return only the language code: most_common(1) gives [(code, count)]; take [0][0], "
              "or max(sentences, key=...).", generate=sentences_and_encoding,
        hint="count TOKENS with get_encoding(encoding_name); return the code with the most, the "
             "first on a tie.")


def reference_decode_pieces(pieces: list[str]) -> str:
    """SentencePiece's decoding: bytes from ``<0x..>`` pieces, ``▁`` as a space, no first space.

    >>> reference_decode_pieces(["▁Hello", "▁wor", "ld", "▁", "<0xE4>", "<0xBD>", "<0xA0>"])
    'Hello world 你'
    """
    if pieces and pieces[0].startswith(WORD_MARK):
        pieces = [pieces[0][1:], *pieces[1:]]  # subtle: the encoder's space before the text
    text_bytes = b"".join(bytes([int(byte[1], 16)]) if (byte := BYTE_PIECE.fullmatch(piece))
                          else piece.replace(WORD_MARK, " ").encode("utf-8") for piece in pieces)
    return text_bytes.decode("utf-8", errors="replace")  # bytes of a rare character together


def check_decode_pieces(func) -> CheckResult:
    """Check ``func(pieces) -> str``."""
    inputs = [(pieces,) for pieces in (
        [], ["▁a"], ["▁the", "▁cat"], ["▁Hello", "▁wor", "ld", "!"], ["▁", "▁two", "▁", "▁spaces"],
        ["<0x41>"], ["▁", "<0xE4>", "<0xBD>", "<0xA0>", "好"],
        ["▁caf", "é", "▁", "<0xF0>", "<0x9F>", "<0xAB>", "<0xA0>"],
        ["▁2", "0", "2", "4", "▁", "<0xE2>", "<0x82>", "<0xAC>"])]

    def hint(args, expected, got):
        if isinstance(got, str) and WORD_MARK in got:
            return "replace the word mark '▁' (U+2581) by a space."
        if isinstance(got, str) and "<0x" in got:
            return "a piece like '<0xE4>' is one byte, int('E4', 16): collect the bytes."
        if isinstance(got, str) and got.startswith(" "):
            return "take off the space add_dummy_prefix put before the text (first piece only)."
        return ("'▁' is a space, '<0xE4>' the byte int('E4', 16), any other piece its UTF-8 "
                "bytes: join them, decode once (errors='replace'), drop the encoder's one space.")

    groups = (["▁a"], ["b"], ["▁"], ["é"], ["<0x41>"], ["<0xE4>", "<0xBD>", "<0xA0>"], ["▁▁"],
              ["▁你好"], ["<0xC3>", "<0xA9>"])
    return check(func, reference_decode_pieces, inputs, hint=hint,
                 generate=lambda rng, size: ([piece for _ in range(rng.randint(0, size))
                                              for piece in rng.choice(groups)],))
