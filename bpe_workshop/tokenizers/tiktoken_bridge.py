"""Load tiktoken's GPT-2, GPT-4 and GPT-4o encodings as a ``ByteLevelBPE``, with identical ids.

tiktoken stores no merges, only ``mergeable_ranks`` (token bytes -> rank, also its id). Merges
are recovered in rank order: byte-level BPE on a token's bytes, with only lower-ranked tokens,
stops at exactly two parts, the pair merged to make it. Ranks 0-255 are the single bytes in
GPT-2's order (printable bytes first: ``!`` is 0), so the tokenizer carries ``byte_ids``; the
pattern is the encoding's own ``pat_str``. Returns plain data (``load_tiktoken``) for
``ByteLevelBPE.from_tiktoken``. Left out: ``p50k_base`` (``r50k_base`` holds gpt2's ranks).
"""

from __future__ import annotations

import functools

from bpe_workshop.files.offline import get_encoding

SUPPORTED = ("gpt2", "cl100k_base", "o200k_base")


def bpe_parts(mergeable_ranks: dict[bytes, int], token: bytes, max_rank: int) -> list[bytes]:
    """Byte-level BPE of ``token`` using only ranks below ``max_rank``: join the two adjacent
    parts whose concatenation has the lowest rank, again and again, as tiktoken merges.

    >>> ranks = {b"a": 0, b"b": 1, b"c": 2, b"ab": 3, b"abc": 4, b"bc": 5}
    >>> bpe_parts(ranks, b"abc", max_rank=4), bpe_parts(ranks, b"abc", max_rank=3)
    ([b'ab', b'c'], [b'a', b'b', b'c'])
    """
    parts = [bytes([b]) for b in token]
    while len(parts) > 1:
        best_rank, best_i = None, None
        for i in range(len(parts) - 1):
            rank = mergeable_ranks.get(parts[i] + parts[i + 1])
            if rank is not None and rank < max_rank and (best_rank is None or rank < best_rank):
                best_rank, best_i = rank, i
        if best_rank is None:
            break
        parts[best_i:best_i + 2] = [parts[best_i] + parts[best_i + 1]]
    return parts


def recover_merges(
    mergeable_ranks: dict[bytes, int],
) -> tuple[list[int], dict[tuple[int, int], int]]:
    """``(byte_ids, merges)`` from tiktoken's ranks: byte value -> id, and pair -> new id.

    >>> ranks = {bytes([b]): (b + 1) % 256 for b in range(256)}  # a rotated byte order
    >>> ranks.update({b"ab": 256, b"abc": 257})
    >>> byte_ids, merges = recover_merges(ranks)
    >>> byte_ids[:3], merges
    ([1, 2, 3], {(98, 99): 256, (256, 100): 257})
    """
    missing = [b for b in range(256) if bytes([b]) not in mergeable_ranks]
    if missing:
        raise ValueError(f"the ranks lack single-byte tokens for bytes {missing[:5]}...")
    byte_ids = [mergeable_ranks[bytes([b])] for b in range(256)]  # byte value -> id
    merges = {}  # (left id, right id) -> new id, in rank order
    for token, rank in sorted(mergeable_ranks.items(), key=lambda item: item[1]):
        if len(token) == 1:
            continue
        parts = bpe_parts(mergeable_ranks, token, max_rank=rank)
        if len(parts) != 2:
            raise ValueError(f"token {token!r} (rank {rank}) is not one merge of two lower "
                             f"tokens; BPE of its bytes gives {len(parts)} parts")
        merges[mergeable_ranks[parts[0]], mergeable_ranks[parts[1]]] = rank
    return byte_ids, merges


@functools.cache
def _recovered(name: str) -> tuple[tuple[int, ...], dict[tuple[int, int], int], str, dict]:
    enc = get_encoding(name)
    byte_ids, merges = recover_merges(enc._mergeable_ranks)
    return tuple(byte_ids), merges, enc._pat_str, dict(enc._special_tokens)


def load_tiktoken(name: str) -> dict:
    """tiktoken's encoding ``name`` as plain data: ``merges``, ``pattern``, ``special_tokens``
    and ``byte_ids``, the keyword arguments of ``ByteLevelBPE`` (offline; recovered once).

    >>> data = load_tiktoken("gpt2")
    >>> sorted(data), len(data["merges"]), data["special_tokens"]
    (['byte_ids', 'merges', 'pattern', 'special_tokens'], 50000, {'<|endoftext|>': 50256})
    """
    if name not in SUPPORTED:
        raise ValueError(f"from_tiktoken supports {SUPPORTED}, got {name!r}")
    byte_ids, merges, pattern, special_tokens = _recovered(name)
    return {"merges": dict(merges), "pattern": pattern,
            "special_tokens": dict(special_tokens), "byte_ids": list(byte_ids)}
