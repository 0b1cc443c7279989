"""Byte-level BPE in one sitting: count pairs, merge, train, encode, build the vocabulary, decode.

Read this first, in the order notebook 04 teaches it; the rest of ``bpe_workshop`` is a faster
twin of a function here (``train_fast``, ``encode_fast``: property tests keep them equal) or
the edges around it. Lineage: Gage's 1994 pair replacement on UTF-8 bytes inside regex chunks,
as GPT-2 does and Karpathy's ``minbpe`` writes it. A merge's rank is its new id: the merge
learned first goes first when encoding.

THE tie rule (every trainer's; :func:`pair_order` is its one home): the highest count wins;
among equal counts the smallest pair, left id first. On ``aaabdaaabac``: ``aa``, ``ab``,
``(aa, ab)``, Wikipedia's order. ``tie_rule="greatest_bytes"`` is Stanford CS336's instead:
among equal counts the pair whose bytes compare greatest. Left out: checking input, splitting,
special tokens, speed.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from bpe_workshop.algorithm.records import MergeRecord

Pair = tuple[int, int]
TIE_RULES = ("smallest_ids", "greatest_bytes")  # the first is every trainer's default


# ----- 1. the two steps BPE repeats -----------------------------------------------------------

def get_stats(ids: Iterable[int], counts: dict[Pair, int] | None = None) -> dict[Pair, int]:
    """Count each pair of consecutive ids, overlaps included; add to ``counts`` when given.

    >>> get_stats([1, 2, 3, 1, 2]), get_stats([97, 97, 97])
    ({(1, 2): 2, (2, 3): 1, (3, 1): 1}, {(97, 97): 2})
    >>> get_stats([3, 1], {(3, 1): 5})
    {(3, 1): 6}
    """
    counts = {} if counts is None else counts  # (left id, right id) -> occurrences
    ids = list(ids)
    for pair in zip(ids, ids[1:]):
        counts[pair] = counts.get(pair, 0) + 1
    return counts


def merge(ids: Sequence[int], pair: Pair, new_id: int) -> list[int]:
    """Replace every occurrence of ``pair`` in ``ids`` by ``new_id``, scanning left to right.

    Occurrences do not overlap: in ``aaa`` only the first two ``a`` merge.

    >>> merge([2, 2, 8, 9, 5, 3, 8, 9], (8, 9), 257)
    [2, 2, 257, 5, 3, 257]
    >>> merge([97, 97, 97], (97, 97), 256)
    [256, 97]
    """
    left, right = pair
    out = []
    i, n = 0, len(ids)
    while i < n:
        # a match: emit the new id and skip both halves
        if i + 1 < n and ids[i] == left and ids[i + 1] == right:
            out.append(new_id)
            i += 2
        else:
            out.append(ids[i])
            i += 1
    return out


def pair_order(item: tuple[Pair, int], tie_rule: str = "smallest_ids",
               token: Sequence[bytes] | dict[int, bytes] | None = None) -> tuple:
    """Sort key for ``(pair, count)`` items: THE tie rule, smallest key is best.

    ``"smallest_ids"``: among equal counts the smallest pair of ids. ``"greatest_bytes"``: the
    pair whose bytes ``(token[left], token[right])`` compare greatest, then the smallest ids.

    >>> items = [((5, 1), 2), ((1, 9), 2), ((0, 0), 1)]
    >>> sorted(items, key=pair_order)
    [((1, 9), 2), ((5, 1), 2), ((0, 0), 1)]
    >>> token = {0: b"x", 1: b"a", 5: b"z", 9: b"b"}  # (5, 1) is (b'z', b'a'): the greatest
    >>> sorted(items, key=lambda item: pair_order(item, "greatest_bytes", token))
    [((5, 1), 2), ((1, 9), 2), ((0, 0), 1)]
    """
    (left, right), count = item
    if tie_rule == "smallest_ids":
        return (-count, left, right)
    # subtle: negating every byte and ending with 1 (above any negated byte) turns "greatest
    # bytes first" into "smallest key first": b"b" -> (-98, 1) < b"ab" -> (-97, -98, 1) < b"a"
    return (-count, (*(-b for b in token[left]), 1), (*(-b for b in token[right]), 1),
            left, right)


def best_pair(stats: dict[Pair, int], tie_rule: str = "smallest_ids",
              token: Sequence[bytes] | dict[int, bytes] | None = None) -> Pair:
    """The pair to merge next: highest count, ties broken by ``tie_rule`` (see ``pair_order``).

    >>> best_pair({(256, 97): 2, (97, 98): 2})
    (97, 98)
    >>> best_pair({(256, 97): 2, (97, 98): 2}, "greatest_bytes", {97: b"a", 98: b"b", 256: b"x"})
    (256, 97)
    """
    if not stats:
        raise ValueError("best_pair() needs at least one pair; the ids are shorter than 2")
    return min(stats.items(), key=lambda item: pair_order(item, tie_rule, token))[0]


# ----- 2. training: count, pick, merge, repeat ------------------------------------------------

def learn_merges(
    chunks: list[bytes],
    num_merges: int,
    *,
    progress: Callable[[int, int, MergeRecord], None] | None = None,
    tie_rule: str = "smallest_ids",
) -> list[MergeRecord]:
    """Learn up to ``num_merges`` merges over ``chunks`` (UTF-8 bytes, in text order).

    Each step recounts every pair in every chunk, so a merge costs time proportional to the
    whole text. Stops early, returning fewer records, when no pair occurs at least twice.
    Equal counts are settled by ``tie_rule`` (one of ``TIE_RULES``, see ``pair_order``).

    >>> records = learn_merges([b"aaabdaaabac"], 3)
    >>> [(r.pair, r.new_id, r.count, r.token) for r in records]
    [((97, 97), 256, 4, b'aa'), ((97, 98), 257, 2, b'ab'), ((256, 257), 258, 2, b'aaab')]
    >>> len(learn_merges([b"aaabdaaabac"], 10))  # after 3 merges no pair repeats
    3
    """
    chunk_ids = [list(chunk) for chunk in chunks]  # chunk_ids = [[72, 101], [32, 119, ...]]
    token = {i: bytes([i]) for i in range(256)}  # id -> bytes it stands for
    records = []
    for i in range(num_merges):
        # count every pair in every chunk (pairs never cross chunks)
        stats = {}  # (left id, right id) -> occurrences
        for ids in chunk_ids:
            get_stats(ids, stats)
        # stop when nothing repeats: merging a unique pair compresses nothing
        if not stats or stats[pair := best_pair(stats, tie_rule, token)] < 2:
            break
        # mint the next id and replace the pair everywhere
        new_id = 256 + i
        chunk_ids = [merge(ids, pair, new_id) for ids in chunk_ids]
        # record the merge for viewers
        token[new_id] = token[pair[0]] + token[pair[1]]
        records.append(MergeRecord(step=i + 1, pair=pair, new_id=new_id, count=stats[pair],
                                   token=token[new_id]))
        if progress is not None:
            progress(i + 1, num_merges, records[-1])
    return records


# ----- 3. encoding: merge the learned-first pair, repeat --------------------------------------

def encode_chunk(text_bytes: bytes, merges: dict[Pair, int],
                 byte_ids: Sequence[int] | None = None) -> list[int]:
    """The ids of one chunk: start from its bytes, merge the learned-first pair, repeat.

    ``byte_ids[b]`` is the id of byte ``b`` (GPT-2's order); ``None`` means id = byte value.

    >>> merges = {(97, 97): 256, (97, 98): 257, (256, 257): 258}
    >>> encode_chunk(b"aaabdaaabac", merges)
    [258, 100, 258, 97, 99]
    >>> encode_chunk(b"abc", {(97, 98): 256, (98, 99): 257, (97, 257): 258})  # (a, b) first
    [256, 99]
    """
    ids = list(text_bytes) if byte_ids is None else [byte_ids[b] for b in text_bytes]
    while len(ids) >= 2:
        stats = get_stats(ids)
        # the present pair learned first; pairs never learned count as infinity
        pair = min(stats, key=lambda p: merges.get(p, float("inf")))
        # subtle: when no present pair is in `merges`, every rank is infinity and min() just
        # returned one of them: stop
        if pair not in merges:
            break
        ids = merge(ids, pair, merges[pair])
    return ids


def encode_chunks(chunks: Iterable[str], merges: dict[Pair, int],
                  byte_ids: Sequence[int] | None = None) -> list[int]:
    """The ids of each chunk's UTF-8 bytes, one after the other (merges never cross chunks).

    >>> encode_chunks(["aa", " aa"], {(97, 97): 256})
    [256, 32, 256]
    """
    ids = []
    for chunk in chunks:
        ids.extend(encode_chunk(chunk.encode("utf-8"), merges, byte_ids))
    return ids


# ----- 4. the vocabulary and decoding ---------------------------------------------------------

def build_vocab(merges: dict[Pair, int], byte_ids: Sequence[int] | None = None
                ) -> dict[int, bytes]:
    """Each id's bytes: the 256 single bytes, then each merge joins the bytes of its pair.

    >>> vocab = build_vocab({(97, 97): 256, (97, 98): 257, (256, 257): 258})
    >>> len(vocab), vocab[258]
    (259, b'aaab')
    """
    vocab = {i: bytes([b]) for b, i in enumerate(byte_ids or range(256))}  # id -> bytes
    for (left, right), new_id in merges.items():  # in merge order: both halves exist already
        vocab[new_id] = vocab[left] + vocab[right]
    return vocab


def decode(ids: Iterable[int], vocab: dict[int, bytes]) -> str:
    """The text of ``ids``: join their bytes, then decode once (bad UTF-8 becomes U+FFFD).

    One token need not be a whole character (byte 0xE4 alone is a third of ``你``), which is
    why the bytes are joined before decoding, not decoded token by token.

    >>> vocab = build_vocab({(97, 97): 256})
    >>> decode([256, 98], vocab), decode([0xE4, 0xBD, 0xA0], vocab), decode([0xE4], vocab)
    ('aab', '你', '�')
    """
    return b"".join(vocab[i] for i in ids).decode("utf-8", errors="replace")
