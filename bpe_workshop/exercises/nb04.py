"""Checkers for notebook 04 (byte-level BPE): the retyped cells are checked against ``textbook``."""

from __future__ import annotations

from bpe_workshop.algorithm.patterns import GPT2_PATTERN, GPT4_PATTERN, split_text
from bpe_workshop.algorithm.textbook import build_vocab, decode, encode_chunk, get_stats, merge
from bpe_workshop.exercises.core import CheckResult, Raised, check, random_text, shown

# Merges learned from b"aaabdaaabac" (Wikipedia's example, our tie rule): aa, ab, aa+ab.
WIKI_MERGES = {(97, 97): 256, (97, 98): 257, (256, 257): 258}  # (left id, right id) -> new id
# A merge table where the leftmost present pair is NOT the one learned first:
# in "abc", (97, 98) comes first in the text but (98, 99) has the lower rank.
RANK_MERGES = {(98, 99): 256, (97, 98): 257, (97, 256): 258}
UTF8 = ("start from the UTF-8 bytes, list(text.encode('utf-8')), not ord(c): 'é' is one code "
        "point, 233, but two bytes, 195 169, and merges join bytes.")
PATTERNS = (GPT2_PATTERN, GPT4_PATTERN, r"\S+|\s+", r"[^,]+|,")  # for generated cases


def reference_encode(text: str, merges: dict[tuple[int, int], int]) -> list[int]:
    """The ids of ``text``: its UTF-8 bytes, the present pair learned first merged, repeated.

    >>> reference_encode("aaabdaaabac", WIKI_MERGES)
    [258, 100, 258, 97, 99]
    """
    return encode_chunk(text.encode("utf-8"), merges)


def reference_encode_chunks(text: str, merges: dict[tuple[int, int], int],
                            pattern: str) -> list[int]:
    return [i for chunk in split_text(text, pattern) for i in reference_encode(chunk, merges)]


def random_merges(rng, size) -> dict[tuple[int, int], int]:
    """Up to ``size`` merges over a, b, c, space, the bytes of é and the ids made before each."""
    merges, known = {}, [97, 98, 99, 32, 195, 169]
    for _ in range(rng.randint(0, size)):
        pair = (rng.choice(known), rng.choice(known))
        if pair not in merges:
            merges[pair] = 256 + len(merges)
            known.append(merges[pair])
    return merges


def some_ids(rng, size):
    return [rng.choice((1, 2, 2, 3)) for _ in range(rng.randint(0, 2 * size))]


def check_get_stats(func) -> CheckResult:
    """Check ``func(ids) -> {pair: count}`` against ``textbook.get_stats``."""
    inputs = [([],), ([7],), ([1, 2],), ([1, 2, 3, 1, 2],), ([97, 97, 97],), ([5, 5, 5, 5],),
              (list(b"aaabdaaabac"),), (list("hello 👋".encode()),)]
    overlap = "overlapping pairs all count: [97, 97, 97] holds (97, 97) twice; zip(ids, ids[1:])."
    return check(func, get_stats, inputs, wrong=[
        (lambda ids: {p: len(ids) - len(merge(ids, p, -1)) for p in get_stats(ids)}, overlap),
        (lambda ids: get_stats(ids[:-1]), "the last pair (ids[-2], ids[-1]) is missing.")],
        generate=lambda rng, size: (some_ids(rng, size),),
        hint=f"every position i with a neighbour i+1 gives one pair; {overlap}")


def merge_matching(matches, step=2):
    """A known wrong merge: ``matches(ids, i, pair)`` says where a match is, ``step`` how far
    it moves on after one."""
    def merge(ids, pair, new_id):
        out, i = [], 0
        while i < len(ids):
            if i + 1 < len(ids) and matches(ids, i, pair):
                out, i = [*out, new_id], i + step
            else:
                out, i = [*out, ids[i]], i + 1
        return out
    return merge


def check_merge(func) -> CheckResult:
    """Check ``func(ids, pair, new_id) -> list`` against ``textbook.merge``."""
    # ids of several digits next to the pair catch a merge done on the ids written as text:
    # "11 2" contains "1 2", so a string replace turns [11, 2] into [1256].
    inputs = [*((ids, (1, 2), 256) for ids in ([], [1], [1, 2], [2, 1], [11, 2], [1, 21],
                                                [31, 2, 1, 2, 17])),
              ([97, 97, 97], (97, 97), 256), ([97, 97, 97, 97], (97, 97), 256),
              ([1, 2, 3, 1, 2], (1, 2), 4), ([2, 2, 8, 9, 5, 3, 8, 9], (8, 9), 257),
              ([1, 2, 1, 2, 1], (2, 1), 300)]

    def hint(args, expected, got):
        ids, pair, new_id = args
        strange = [i for i in got if i not in {*ids, new_id}] if isinstance(got, list) else []
        if strange:
            return (f"your answer holds {shown(strange[0])}, which is neither an id of the input "
                    "nor new_id: emit new_id at a match and copy every other id.")
        if isinstance(got, list) and len(got) < len(expected) and expected[: len(got)] == got:
            return "the last id went missing: copy it when the loop stops one place short."
        return ("walk left to right: at a match emit new_id and move two places on, else copy the "
                "id and move one. Keep the last id.")

    both = "a match needs BOTH ids in the pair's order: ids[i] == pair[0] and ids[i + 1] == pair[1]"
    return check(func, merge, inputs, hint=hint, wrong=[
        (merge_matching(lambda ids, i, pair: ids[i] == pair[0]),
         f"you matched on the left id alone: {both}."),
        (merge_matching(lambda ids, i, pair: {ids[i], ids[i + 1]} == set(pair)),
         f"you matched the pair in either order: {both}."),
        (merge_matching(lambda ids, i, pair: (ids[i], ids[i + 1]) == pair, step=1),
         "after a match skip BOTH ids: [97, 97, 97] with (97, 97) gives [256, 97].")],
        generate=lambda rng, size: (some_ids(rng, size), (rng.choice((1, 2)), 2), 256))


def check_decode(func) -> CheckResult:
    """Check ``func(ids, vocab) -> str`` (vocab maps id -> bytes)."""
    vocab_hi = {104: b"h", 105: b"i", 256: b"hi", 257: b" \xf0\x9f", 258: b"\x91\x8b"}
    inputs = [([], {}), ([104], {104: b"h"}), ([256, 105], vocab_hi),
              ([256, 257, 258], vocab_hi), ([128], {128: b"\x80"}), ([257], vocab_hi)]

    def ids_and_vocab(rng, size):
        vocab = {i: rng.choice((b"a", b"b c", b"\xc3", b"\xa9", b"\xf0\x9f", b"\x91\x8b"))
                 for i in rng.sample(range(250, 262), rng.randint(1, 4))}
        return [rng.choice(list(vocab)) for _ in range(rng.randint(0, size))], vocab

    return check(func, decode, inputs, generate=ids_and_vocab, wrong=[
        (lambda ids, vocab, errors=errors: b"".join(map(vocab.get, ids)).decode("utf-8", errors),
         "decode with errors=\"replace\": a byte that is not UTF-8 becomes '\\ufffd', a sign that "
         "something was lost.") for errors in ("ignore", "backslashreplace")],
        hint=lambda args, expected, got: (
            "these bytes are not valid UTF-8 on their own; decode with errors=\"replace\" so they "
            "become '\\ufffd' instead of raising."
            if isinstance(got, Raised) and got.name == "UnicodeDecodeError" else
            "look up the bytes of every id, join them ALL first, then decode once as UTF-8."))


def encode_by(pick=lambda pairs, ids, merges: min(pairs, key=merges.get),
              start=lambda text: list(text.encode("utf-8"))):
    """A known wrong encode: merges ``pick(pairs, ids, merges)`` of the present pairs in merges."""
    def encode(text, merges):
        ids = start(text)
        while pairs := [pair for pair in get_stats(ids) if pair in merges]:
            pair = pick(pairs, ids, merges)
            ids = merge(ids, pair, merges[pair])
        return ids
    return encode


from_code_points = encode_by(start=lambda text: [ord(c) for c in text])  # right for ASCII only


def check_encode(func) -> CheckResult:
    """Check ``func(text, merges) -> ids``; merges maps (left, right) -> new id."""
    inputs = [*((text, WIKI_MERGES) for text in ("", "a", "aa", "aaa", "aaab", "aaabdaaabac",
                                                 "hé 👋", "Aa")),
              ("abc", RANK_MERGES), ("xabcabc", RANK_MERGES),  # below: the leftmost, the most
              ("bcabcb", {(97, 98): 256, (98, 99): 257, (99, 97): 258}),  # frequent and the
              ("cabbba", {(98, 98): 256, (98, 97): 257, (97, 98): 258})]  # latest pair differ

    smallest = "merge the present pair with the smallest rank (merges[pair], the earliest learned)"
    return check(func, reference_encode, inputs, wrong=[
        (from_code_points, UTF8),
        (encode_by(lambda pairs, ids, merges: max(pairs, key=get_stats(ids).get)),
         f"you merged the most frequent pair: {smallest}, however often it occurs."),
        (encode_by(lambda pairs, ids, merges: pairs[0]),
         f"you merged the leftmost pair that is in merges: {smallest}, wherever it stands.")],
        generate=lambda rng, size: (random_text(rng, size, "aAbc é"), random_merges(rng, size)),
        hint=lambda args, expected, got: (
            "when no present pair is in merges, every rank is infinity and min() still returns "
            "one of them: check `if pair not in merges: break` before merges[pair]."
            if isinstance(got, Raised) and got.name == "KeyError" else
            f"from list(text.encode('utf-8')), repeatedly {smallest} until none is in merges."))


def check_build_vocab(func) -> CheckResult:
    """Check ``func(merges) -> {id: bytes}`` for ids 0-255 plus one entry per merge."""
    inputs = [({},), ({(104, 105): 256},), (WIKI_MERGES,), (RANK_MERGES,)]
    return check(func, build_vocab, inputs, generate=lambda rng, size: (random_merges(rng, size),),
                 hint="start from bytes([i]) for i in range(256); then, in merge order, "
                      "vocab[new_id] = vocab[left] + vocab[right].")


def check_encode_chunks(func) -> CheckResult:
    """Check ``func(text, merges, pattern) -> ids``: split with the pattern, encode each chunk."""
    # (256, 32) = 'aa ' never occurs inside a GPT-2 chunk (chunks start with the space: ' aa'),
    # so it can only be applied by an encoder that forgets to split first.
    merges = {(97, 97): 256, (256, 32): 257, (32, 256): 258, (195, 169): 259}  # 259: é
    inputs = [*((text, merges, GPT2_PATTERN) for text in ("", "aa", "aa aa", "aa aa aa", "aa, aa!",
                                                          "café 你")),
              ("aa aa", merges, r"\S+|\s+"), ("aé aa", merges, r"\S+|\s+")]
    return check(func, reference_encode_chunks, inputs, wrong=[
        (lambda text, merges, pattern: reference_encode(text, merges),
         "a merge crossed a chunk boundary: encode each chunk of split_text(text, pattern) alone."),
        (lambda text, merges, pattern: [i for chunk in text.split(" ")
                                        for i in reference_encode(chunk, merges)],
         "you split on ' ', losing the spaces: split_text(text, pattern)."),
        (lambda text, merges, pattern: [i for chunk in split_text(text, pattern)
                                        for i in from_code_points(chunk, merges)], UTF8)],
        generate=lambda rng, size: (random_text(rng, size, "aab ,é你"), random_merges(rng, size),
                                    rng.choice(PATTERNS)),
        hint="split_text(text, pattern), encode each chunk with your encode, concatenate the ids.")
