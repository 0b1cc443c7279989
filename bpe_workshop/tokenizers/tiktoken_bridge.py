"""Load tiktoken's GPT-2, GPT-4 and GPT-4o encodings as a ``ByteLevelBPE``, with identical ids.

tiktoken stores no merges, only ``mergeable_ranks`` (token bytes -> rank, also its id). Merges
are recovered in rank order: byte-level BPE on a token's bytes, with only lower-ranked tokens,
stops at exactly two parts, the pair merged to make it. Ranks 0-255 are the single bytes in
GPT-2's order (printable bytes first: ``!`` is 0), so the tokenizer carries ``byte_ids``; the
pattern is the encoding's own ``pat_str``. Recovery takes seconds for o200k's 200,000 tokens,
so ``data/<name>.cuts`` ships its result, one byte per merged token (the length of its left
part), checked against a fresh recovery by the tests and against its SHA-256 here; a missing or
damaged file is recovered again, with a warning. Every call reads the ranks anew from the shipped
files (:func:`mergeable_ranks`), so no caller shares tiktoken's own. Returns plain data
(``load_tiktoken``) for ``ByteLevelBPE.from_tiktoken``. Left out: ``p50k_base`` (``r50k_base``
holds gpt2's ranks).
"""

from __future__ import annotations

import functools
import hashlib
import warnings

from bpe_workshop.files.corpora import data_path
from bpe_workshop.files.offline import encoding_parts
from bpe_workshop.validation import require_choice

SUPPORTED = ("gpt2", "cl100k_base", "o200k_base")
# data/<name>.cuts as shipped (rewrite both with python tests/tokenizers/test_tiktoken_parity.py)
CUTS_SHA256 = {"gpt2": "e2ff5d25561ae97d2fdc48177cb3dddb1c9a2be0c6bb9e9ce1dd3b1351e483e7",
               "cl100k_base": "411552ea5ec9a572475f38b6ee1dacdd1435ec4c502c5af181b019b800a383fc",
               "o200k_base": "d8ce662bbdcc4df6c1f9eaf7d7bf6e79dba3eae7e312bbe079452e4885b5d83e"}


def mergeable_ranks(name: str) -> dict[bytes, int]:
    """tiktoken's ranks of the encoding ``name`` (token bytes -> rank), as a new dict of your own.

    >>> ranks = mergeable_ranks("gpt2")
    >>> del ranks[b" hello"]  # changes this dict only, never what from_tiktoken reads
    >>> mergeable_ranks("gpt2")[b" hello"]
    23748
    """
    return encoding_parts(name)[0]  # any name of OFFLINE_ENCODINGS


def bpe_parts(mergeable_ranks: dict[bytes, int], token: bytes, max_rank: int) -> list[bytes]:
    """Byte-level BPE of ``token`` using only ranks below ``max_rank``: join the two adjacent
    parts whose concatenation has the lowest rank, again and again, as tiktoken merges.

    >>> ranks = {b"a": 0, b"b": 1, b"c": 2, b"ab": 3, b"abc": 4, b"bc": 5}
    >>> bpe_parts(ranks, b"abc", max_rank=4), bpe_parts(ranks, b"abc", max_rank=3)
    ([b'ab', b'c'], [b'a', b'b', b'c'])
    """
    parts = [bytes([b]) for b in token]
    while len(parts) > 1:
        # the lowest rank of two neighbours joined, and where; max_rank if none ranks lower
        rank, i = min((mergeable_ranks.get(parts[i] + parts[i + 1], max_rank), i)
                      for i in range(len(parts) - 1))
        if rank >= max_rank:
            break
        parts[i:i + 2] = [parts[i] + parts[i + 1]]
    return parts


def recover_merges(
    mergeable_ranks: dict[bytes, int], cuts: bytes | None = None,
) -> tuple[list[int], dict[tuple[int, int], int]]:
    """``(byte_ids, merges)`` from tiktoken's ranks: byte value -> id, and pair -> new id.

    Each token of two or more bytes, in rank order, is cut in two by :func:`bpe_parts`, or where
    ``cuts`` says (one byte per token: the length of its left part); both parts must rank lower.

    >>> ranks = {bytes([b]): (b + 1) % 256 for b in range(256)}  # a rotated byte order
    >>> ranks.update({b"ab": 256, b"abc": 257})
    >>> byte_ids, merges = recover_merges(ranks)
    >>> byte_ids[:3], merges, recover_merges(ranks, cuts=bytes([1, 2]))[1] == merges
    ([1, 2, 3], {(98, 99): 256, (256, 100): 257}, True)
    """
    missing = [b for b in range(256) if bytes([b]) not in mergeable_ranks]
    if missing:
        raise ValueError(f"the ranks lack single-byte tokens for bytes {missing[:5]}...")
    byte_ids = [mergeable_ranks[bytes([b])] for b in range(256)]  # byte value -> id
    tokens = sorted((rank, token) for token, rank in mergeable_ranks.items() if len(token) > 1)
    if cuts is not None and len(cuts) != len(tokens):
        raise ValueError(f"{len(cuts)} cuts for {len(tokens)} tokens of two or more bytes")
    merges = {}  # (left id, right id) -> new id, in rank order
    for n, (rank, token) in enumerate(tokens):
        if cuts is None:
            parts = bpe_parts(mergeable_ranks, token, rank)
        else:  # a recovery done earlier: cut where it says
            parts = [token[:cuts[n]], token[cuts[n]:]]
        ids = tuple([mergeable_ranks.get(part, rank) for part in parts])
        if len(ids) != 2 or max(ids) >= rank:
            raise ValueError(f"token {token!r} (rank {rank}) is not one merge of two lower "
                             f"tokens: {parts}")
        merges[ids] = rank
    return byte_ids, merges


@functools.cache
def _recovered(name: str) -> tuple[tuple[int, ...], dict[tuple[int, int], int], str, dict]:
    ranks, pattern, special_tokens = encoding_parts(name)
    try:
        cuts = data_path(f"{name}.cuts").read_bytes()
        if hashlib.sha256(cuts).hexdigest() != CUTS_SHA256[name]:
            raise ValueError("it is not the file shipped: its SHA-256 differs")
        byte_ids, merges = recover_merges(ranks, cuts)
    except (OSError, ValueError) as err:
        warnings.warn(f"{name}.cuts, the merges recovered ahead of time, cannot be used ({err}), "
                      f"so they were recovered from tiktoken's ranks again (same ids, a few "
                      f"seconds more); reinstall bpe_workshop to restore the file", stacklevel=4)
        byte_ids, merges = recover_merges(ranks)
    return tuple(byte_ids), merges, pattern, special_tokens


def load_tiktoken(name: str) -> dict:
    """tiktoken's encoding ``name`` as plain data: ``merges``, ``pattern``, ``special_tokens``
    and ``byte_ids``, the keyword arguments of ``ByteLevelBPE`` (offline; recovered once).

    >>> data = load_tiktoken("gpt2")
    >>> sorted(data), len(data["merges"]), data["special_tokens"]
    (['byte_ids', 'merges', 'pattern', 'special_tokens'], 50000, {'<|endoftext|>': 50256})
    """
    require_choice(name, "name", SUPPORTED)
    byte_ids, merges, pattern, special_tokens = _recovered(name)
    return {"merges": dict(merges), "pattern": pattern,
            "special_tokens": dict(special_tokens), "byte_ids": list(byte_ids)}
