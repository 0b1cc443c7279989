"""Checkers for notebook 06 (comparison with tiktoken), against the real files.

GPT-2's ``encoder.json`` (``offline.read_shipped``) beside tiktoken's ranks, and
``tiktoken_bridge.bpe_parts``. Left out: encodings other than gpt2.
"""

from __future__ import annotations

import functools
import json

from bpe_workshop.exercises.core import CheckResult, check, shown
from bpe_workshop.files.offline import read_shipped
from bpe_workshop.tokenizers.tiktoken_bridge import bpe_parts, mergeable_ranks


@functools.lru_cache(maxsize=1)
def _gpt2_alphabet() -> dict[int, str]:
    """byte value -> the character that stands for it in GPT-2's ``vocab.bpe``/``encoder.json``.

    Read from the data, not computed: the single-byte token with id ``i`` in tiktoken's ranks is
    the ``encoder.json`` key whose value is ``i``.

    >>> _gpt2_alphabet()[32], _gpt2_alphabet()[10], _gpt2_alphabet()[65]
    ('Ġ', 'Ċ', 'A')
    """
    encoder = json.loads(read_shipped("encoder.json"))  # str in the file -> id
    char_of_id = {i: token for token, i in encoder.items()}  # id -> str in the file
    ranks = mergeable_ranks("gpt2")  # bytes -> id
    return {b: char_of_id[ranks[bytes([b])]] for b in range(256)}


def reference_gpt2_byte_to_char(byte: int) -> str:
    return _gpt2_alphabet()[byte]


def check_gpt2_byte_to_char(func) -> CheckResult:
    """Check ``func(byte) -> str``: the character GPT-2's files use for one byte (all 256)."""
    def hint(args, expected, got):
        (byte,) = args
        if expected == chr(byte):
            return f"byte {byte} is printable ('!'..'~', '¡'..'¬', '®'..'ÿ'): it stands for itself."
        return (f"byte {byte} is not printable: number those bytes 0, 1, 2, ... in byte order; "
                "number n becomes chr(256 + n): space is number 32, chr(288) 'Ġ'.")

    return check(func, reference_gpt2_byte_to_char, [(b,) for b in range(256)], hint=hint)


def reference_recover_pair(token: bytes, ranks: dict[bytes, int]) -> tuple[bytes, bytes]:
    """The two parts merged to make ``token``.

    >>> reference_recover_pair(b"abc", {b"a": 0, b"b": 1, b"c": 2, b"bc": 3, b"abc": 4})
    (b'a', b'bc')
    """
    parts = bpe_parts(ranks, token, max_rank=ranks[token])
    assert len(parts) == 2, "every multi-byte token in these tables is one merge"
    return tuple(parts)


def sound(token: bytes, ranks: dict[bytes, int]) -> bool:
    """Whether ``ranks`` holds ``token`` and is a table BPE can make: every byte of its tokens
    ranked, each longer token two parts that the lower ranks, replayed, leave.

    >>> sound(b"ab", {b"a": 0, b"b": 1, b"ab": 2}), sound(b"ab", {b"a": 0, b"ab": 2})
    (True, False)
    """
    return token in ranks and all(bytes([b]) in ranks for t in ranks for b in t) and all(
        len(bpe_parts(ranks, t, max_rank=rank)) == 2 for t, rank in ranks.items() if len(t) > 1)


def token_and_ranks(rng, size):
    """The last token of a random sound ranks table over a, b, c and the two bytes of é, with the
    ranks of its pieces."""
    ranks = {b"a": 0, b"b": 1, b"c": 2, b"\xc3": 3, b"\xa9": 4}
    for _ in range(size + 1):
        token = rng.choice(list(ranks)) + rng.choice(list(ranks))
        if token not in ranks and len(bpe_parts(ranks, token, max_rank=len(ranks))) == 2:
            ranks[token] = len(ranks)  # only a token the ranks below it can make
    token = max(ranks, key=ranks.get)
    return token, {piece: rank for piece, rank in ranks.items() if piece in token}


def check_recover_pair(func) -> CheckResult:
    """Check ``func(token, ranks) -> (left bytes, right bytes)``."""
    abc, gpt2 = {b"a": 0, b"b": 1, b"c": 2}, mergeable_ranks("gpt2")
    inputs = [(max(ranks, key=ranks.get), ranks) for ranks in (  # the token: the last one ranked
        {**abc, b"ab": 3}, {**abc, b"ab": 3, b"abc": 4}, {**abc, b"bc": 3, b"abc": 4},
        {**abc, b"bc": 3, b"ab": 4, b"abc": 5},  # not the longest known prefix
        {b"a": 0, b"aa": 1, b"aaaa": 2},
        {b"a": 0, b"aa": 1, b"aaa": 2},  # the leftmost of two equal pairs first
        {b" ": 0, b"t": 1, b"h": 2, b"e": 3, b"he": 4, b" t": 5, b" the": 6})]
    # GPT-2's own ranks of each token's pieces (all a recovery needs, in rank order). In b'ress'
    # and b' her' the split whose larger half has the lowest rank is not the merge: b'ress' is
    # b'res' + b's' (not b'r' + b'ess'), b' her' is b' he' + b'r'; and bytes of characters:
    # ' café' is b' caf' + 'é', and ' 裏' splits inside the character
    inputs += [(token, {piece: rank for piece, rank in gpt2.items() if piece in token})
               for token in (b"ress", b" her", " café".encode(), " 裏".encode())]

    replay = ("repeatedly join the adjacent pair whose joined bytes rank lowest (the leftmost "
              "if that pair stands twice), using only ranks LOWER than the token's own")

    def hint(args, expected, got):
        token, ranks = args
        splits = [(token[:i], token[i:]) for i in range(1, len(token))]
        if got in splits and set(got) <= ranks.keys():  # a split into two tokens, not BPE's
            return (f"{shown(got[0])} + {shown(got[1])} are both tokens, but BPE never produced "
                    f"that pair: lower-ranked merges had grouped the bytes differently; {replay}.")
        return (f"run byte-level BPE on the token's bytes: {replay}. Exactly two parts remain; "
                "return them as a tuple. (The longest known prefix is not always the answer.)")

    return check(func, reference_recover_pair, inputs, hint=hint, generate=token_and_ranks,
                 valid=sound)
