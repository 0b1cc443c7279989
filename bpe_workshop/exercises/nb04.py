"""Checkers for notebook 04 (byte-level BPE): the retyped cells are checked against ``textbook``.

``reference_encode`` is a second, independent encoder (every merge once, in learned order).
"""

from __future__ import annotations

from bpe_workshop.algorithm.patterns import GPT2_PATTERN, split_text
from bpe_workshop.algorithm.textbook import build_vocab, decode, get_stats, merge
from bpe_workshop.exercises.core import (
    CheckResult,
    Raised,
    a_type,
    check,
    count_total,
    shown,
    values_kind,
)

# Merges learned from b"aaabdaaabac" (Wikipedia's example, our tie rule): aa, ab, aa+ab.
WIKI_MERGES = {(97, 97): 256, (97, 98): 257, (256, 257): 258}  # (left id, right id) -> new id
# A merge table where the leftmost present pair is NOT the one learned first:
# in "abc", (97, 98) comes first in the text but (98, 99) has the lower rank.
RANK_MERGES = {(98, 99): 256, (97, 98): 257, (97, 256): 258}


def reference_encode(text: str, merges: dict[tuple[int, int], int]) -> list[int]:
    """Apply every merge once, in learned order: the ids of lowest-rank-first (nb04, section 8).

    >>> reference_encode("aaabdaaabac", WIKI_MERGES)
    [258, 100, 258, 97, 99]
    """
    ids = list(text.encode("utf-8"))
    for pair, new_id in sorted(merges.items(), key=lambda item: item[1]):
        ids = merge(ids, pair, new_id)
    return ids


def reference_encode_chunks(text: str, merges: dict[tuple[int, int], int],
                            pattern: str) -> list[int]:
    ids = []
    for chunk in split_text(text, pattern):
        ids.extend(reference_encode(chunk, merges))
    return ids


def check_get_stats(func) -> CheckResult:
    """Check ``func(ids) -> {pair: count}`` against ``bpe_workshop.algorithm.textbook.get_stats``.

    >>> def stub(ids):
    ...     raise NotImplementedError
    >>> check_get_stats(stub).attempted
    ⏳ stub: not attempted yet — edit the cell above, then run it and this cell again.
    False
    """
    inputs = [([],), ([7],), ([1, 2],), ([1, 2, 3, 1, 2],), ([97, 97, 97],), ([5, 5, 5, 5],),
              (list(b"aaabdaaabac"),), (list("hello 👋".encode()),)]

    def hint(args, expected, got):
        if values_kind(got):
            return values_kind(got)
        total = count_total(got)
        if total is not None and total < sum(expected.values()):
            return ("every position i with a neighbour i+1 gives one pair; overlapping pairs all "
                    "count, so [97, 97, 97] holds (97, 97) twice. Try zip(ids, ids[1:]).")
        return "return a dict mapping each (left, right) tuple to how often it occurs side by side."

    return check(func, get_stats, inputs, hint=hint)


def check_merge(func) -> CheckResult:
    """Check ``func(ids, pair, new_id) -> list`` against ``bpe_workshop.algorithm.textbook.merge``.

    >>> check_merge(merge).passed
    ✅ merge passed (12 cases)
    True
    """
    # ids of several digits next to the pair catch a merge done on the ids written as text:
    # "11 2" contains "1 2", so a string replace turns [11, 2] into [1256].
    inputs = [([], (1, 2), 256), ([1], (1, 2), 256), ([1, 2], (1, 2), 256),
              ([2, 1], (1, 2), 256), ([1, 2, 3, 1, 2], (1, 2), 4),
              ([11, 2], (1, 2), 256), ([1, 21], (1, 2), 256), ([31, 2, 1, 2, 17], (1, 2), 256),
              ([97, 97, 97], (97, 97), 256), ([97, 97, 97, 97], (97, 97), 256),
              ([2, 2, 8, 9, 5, 3, 8, 9], (8, 9), 257), ([1, 2, 1, 2, 1], (2, 1), 300)]

    def hint(args, expected, got):
        ids, pair, new_id = args
        known = {*ids, new_id}
        strange = [i for i in got if i not in known] if isinstance(got, list) else []
        if strange:
            as_text, pair_text = " ".join(map(str, ids)), f"{pair[0]} {pair[1]}"
            return (f"your answer holds {shown(strange[0])}, which is neither an id of the input "
                    "nor new_id. Did you join the ids into a string and replace there? The text "
                    f"'{as_text}' contains '{pair_text}'. Work on the list, comparing whole ids.")
        if isinstance(got, list) and len(got) < len(expected) and expected[: len(got)] == got:
            return ("the last id went missing: when the loop stops one place before the end, "
                    "copy that final id too.")
        if isinstance(got, list) and len(got) < len(expected):
            return ("after a match, skip BOTH ids of the pair, and do not let a used id start a "
                    "second match: [97, 97, 97] with (97, 97) gives [256, 97].")
        return ("walk left to right; at a match emit new_id and move two places on, otherwise "
                "copy the id and move one place on. Do not forget the last id.")

    return check(func, merge, inputs, hint=hint)


def check_decode(func) -> CheckResult:
    """Check ``func(ids, vocab) -> str`` (vocab maps id -> bytes).

    >>> check_decode(decode).passed
    ✅ decode passed (6 cases)
    True
    """
    vocab_hi = {104: b"h", 105: b"i", 256: b"hi", 257: b" \xf0\x9f", 258: b"\x91\x8b"}
    inputs = [([], {}), ([104], {104: b"h"}), ([256, 105], vocab_hi),
              ([256, 257, 258], vocab_hi), ([128], {128: b"\x80"}),
              ([257], vocab_hi)]

    def hint(args, expected, got):
        if "\ufffd" in expected:
            return ("these bytes are not valid UTF-8 on their own; decode with "
                    "errors=\"replace\" so they become '\\ufffd' instead of raising.")
        return "look up the bytes of every id, join them ALL first, then decode once as UTF-8."

    return check(func, decode, inputs, hint=hint)


def check_encode(func) -> CheckResult:
    """Check ``func(text, merges) -> ids``; merges maps (left, right) -> new id.

    >>> check_encode(reference_encode).passed
    ✅ reference_encode passed (9 cases)
    True
    """
    inputs = [("", WIKI_MERGES), ("a", WIKI_MERGES), ("aa", WIKI_MERGES),
              ("aaa", WIKI_MERGES), ("aaab", WIKI_MERGES), ("aaabdaaabac", WIKI_MERGES),
              ("abc", RANK_MERGES), ("xabcabc", RANK_MERGES), ("hé 👋", WIKI_MERGES)]

    def hint(args, expected, got):
        text = args[0]
        if isinstance(got, list) and got == list(text.encode("utf-8")) and got != expected:
            return ("no merge was applied: look up each present pair in merges and merge the "
                    "best one.")
        return ("start from list(text.encode('utf-8')); repeatedly merge the PRESENT pair with the "
                "smallest rank (merges[pair], the earliest learned), not the leftmost one; stop "
                "when no present pair is in merges.")

    return check(func, reference_encode, inputs, hint=hint)


def check_build_vocab(func) -> CheckResult:
    """Check ``func(merges) -> {id: bytes}`` for ids 0-255 plus one entry per merge.

    >>> check_build_vocab(build_vocab).passed
    ✅ build_vocab passed (4 cases)
    True
    """
    inputs = [({},), ({(104, 105): 256},), (WIKI_MERGES,), (RANK_MERGES,)]

    def hint(args, expected, got):
        how = ("Start from bytes([i]) for i in range(256); then, in merge order, "
               "vocab[new_id] = vocab[left] + vocab[right].")
        if isinstance(got, Raised):
            return how
        if not isinstance(got, dict):
            return f"return a dict, but your function returned {a_type(got)}. {how}"
        for i in expected:
            if got.get(i) != expected[i]:
                return (f"first difference at id {i}: expected {shown(expected[i])}, got "
                        f"{shown(got.get(i))}. {how}")
        return "there are extra ids; one entry per byte and one per merge, nothing else."

    return check(func, build_vocab, inputs, hint=hint)


def check_encode_chunks(func) -> CheckResult:
    """Check ``func(text, merges, pattern) -> ids``: split with the pattern, encode each chunk.

    >>> check_encode_chunks(reference_encode_chunks).passed
    ✅ reference_encode_chunks passed (5 cases)
    True
    """
    # (256, 32) = 'aa ' never occurs inside a GPT-2 chunk (chunks start with the space: ' aa'),
    # so it can only be applied by an encoder that forgets to split first.
    merges = {(97, 97): 256, (256, 32): 257, (32, 256): 258}
    inputs = [("", merges, GPT2_PATTERN), ("aa", merges, GPT2_PATTERN),
              ("aa aa", merges, GPT2_PATTERN), ("aa aa aa", merges, GPT2_PATTERN),
              ("aa, aa!", merges, GPT2_PATTERN)]

    def hint(args, expected, got):
        if isinstance(got, list) and 257 in got:
            return ("(256, 32) merged across a chunk boundary: split the text with the pattern "
                    "first (split_text(text, pattern)) and encode each chunk on its own.")
        return "split_text(text, pattern), encode each chunk with your encode, concatenate the ids."

    return check(func, reference_encode_chunks, inputs, hint=hint)
