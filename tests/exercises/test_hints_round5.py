"""Issue 35: every wrong answer a learner wrote in the fifth walk fails, with a hint naming its
mistake (not a mistake it did not make, not only the task restated). Issue 34 dropped the
rarest of those sentences (latest pair first, one merge only, Python's ``re``, dropped
``<0x..>`` pieces): those answers get the checker's general hint, which states the rule they
broke.

Each answer is written here as a learner wrote it, not copied from the checker's own list of
known wrong answers, so a test fails when the checker stops recognising the mistake.
"""

from __future__ import annotations

import re
from collections import Counter

import pytest
from test_exercises import checker

from bpe_workshop import get_stats, merge
from bpe_workshop.algorithm.patterns import split_text
from bpe_workshop.files.offline import get_encoding


def encode_choosing(choose, start=lambda text: list(text.encode("utf-8")), repeat=True):
    """A learner's encode that merges ``choose(stats, merges)`` (None: stop)."""
    def my_encode(text, merges):
        ids = start(text)
        while len(ids) >= 2:
            pair = choose(get_stats(ids), merges)
            if pair is None:
                break
            ids = merge(ids, pair, merges[pair])
            if not repeat:
                break
        return ids
    return my_encode


def learned(stats, merges):
    return [pair for pair in stats if pair in merges]


def lowest_rank(stats, merges):
    return min(learned(stats, merges), key=merges.get, default=None)


def encode_without_the_stop(text, merges):  # the trap notebook 04's section 8 warns about
    ids = list(text.encode("utf-8"))
    while len(ids) >= 2:
        pair = min(get_stats(ids), key=lambda p: merges.get(p, float("inf")))
        ids = merge(ids, pair, merges[pair])
    return ids


def encode_chunk_from_code_points(chunk, merges):
    ids = [ord(c) for c in chunk]  # code points, not UTF-8 bytes: right for ASCII only
    while True:
        pair = lowest_rank(get_stats(ids), merges)
        if pair is None:
            return ids
        ids = merge(ids, pair, merges[pair])


def encode_chunks_from_code_points(text, merges, pattern):
    ids = []
    for chunk in split_text(text, pattern):
        ids += encode_chunk_from_code_points(chunk, merges)
    return ids


def encode_chunks_split_on_spaces(text, merges, pattern):
    return [i for chunk in text.split(" ") for i in encode_choosing(lowest_rank)(chunk, merges)]


def encode_chunks_with_re(text, merges, pattern):
    return [i for chunk in re.findall(pattern, text)
            for i in encode_choosing(lowest_rank)(chunk, merges)]


def word_table_with_the_mark_as_text(text):
    return {" ".join(word + "</w>"): n for word, n in Counter(text.split()).items()}


def apply_merges_with_the_mark_as_text(word, merges):
    symbols = list(word + "</w>")  # '<', '/', 'w', '>': four symbols instead of one
    for left, right in merges:
        out, i = [], 0
        while i < len(symbols):
            if symbols[i:i + 2] == [left, right]:
                out, i = [*out, left + right], i + 2
            else:
                out, i = [*out, symbols[i]], i + 1
        symbols = out
    return symbols


def costliest_by_most_common(sentences, encoding_name):
    encoding = get_encoding(encoding_name)
    return Counter({code: len(encoding.encode(text))
                    for code, text in sentences.items()}).most_common(1)


def decode_pieces_dropping_bytes(pieces):
    text = "".join(piece.replace("▁", " ") for piece in pieces if not piece.startswith("<0x"))
    return text[1:] if pieces and pieces[0].startswith("▁") else text


def best_path_with_fewest_pieces(word, scores):  # a Viterbi that counts pieces, scores ignored
    fewest = [[]] + [None] * len(word)  # fewest[i]: the shortest cut of word[:i]
    for end in range(1, len(word) + 1):
        for start in range(end):
            if word[start:end] in scores and fewest[start] is not None and (
                    fewest[end] is None or len(fewest[start]) + 1 < len(fewest[end])):
                fewest[end] = [*fewest[start], word[start:end]]
    return fewest[-1]


# (notebook, exercise, wrong answer, the start of the failing call, words of the hint)
WRONG = [
    ("04", "encode", encode_without_the_stop, "('Aa', {", "if pair not in merges: break"),
    ("04", "encode", encode_choosing(lowest_rank, start=lambda text: [ord(c) for c in text]),
     "('hé 👋', {", "not ord(c)"),
    ("04", "encode", encode_choosing(lambda stats, merges: max(
        learned(stats, merges), key=stats.get, default=None)), "('abc', {",
     "you merged the most frequent pair"),
    ("04", "encode", encode_choosing(lambda stats, merges: max(
        learned(stats, merges), key=merges.get, default=None)), "('abc', {",
     "repeatedly merge the present pair with the smallest rank"),
    ("04", "encode", encode_choosing(lambda stats, merges: next(iter(learned(stats, merges)),
                                                                None)),
     "('abc', {", "you merged the leftmost pair"),
    ("04", "encode", encode_choosing(lowest_rank, repeat=False), "('abc', {",
     "repeatedly merge the present pair with the smallest rank"),
    ("04", "encode_chunks", encode_chunks_from_code_points, "('aé aa', {", "not ord(c)"),
    ("04", "encode_chunks", encode_chunks_split_on_spaces, "('aa aa', {", "you split on ' '"),
    ("04", "encode_chunks", encode_chunks_with_re, "('', {", "split_text(text, pattern)"),
    ("05", "word_table", word_table_with_the_mark_as_text, "('a')", "not word + '</w>'"),
    ("05", "apply_merges", apply_merges_with_the_mark_as_text, "('a', [])", "not word + '</w>'"),
    ("08", "costliest_language", costliest_by_most_common, "({'fr': 'Bonjour'}, 'gpt2')",
     "most_common(1) gives [(code, count)]"),
    ("08", "decode_pieces", decode_pieces_dropping_bytes, "(['<0x41>'])",
     "'<0xE4>' the byte int('E4', 16)"),
    ("09", "best_path", best_path_with_fewest_pieces, "('▁hat', {", "the FEWEST pieces"),
]


@pytest.mark.parametrize(("nn", "name", "wrong", "call", "hint"), WRONG,
                         ids=[f"{nn}-{name}-{k}" for k, (nn, name, *_) in enumerate(WRONG)])
def test_a_wrong_answer_gets_the_hint_that_names_its_mistake(nn, name, wrong, call, hint, capsys):
    wrong.__name__ = f"my_{name}"
    result = checker(nn, name)(wrong)
    assert result.attempted and not result.passed, result.message
    assert result.message.startswith(f"❌ my_{name}{call}"), result.message
    assert hint in result.message.split("hint:")[1], result.message
    assert result.message in capsys.readouterr().out


def test_an_encode_chunks_from_code_points_passes_every_ascii_text():
    """The mistake only shows on non-ASCII text, which the checker now has in its cases."""
    merges = {(97, 97): 256, (32, 256): 257}
    for text in ("aa aa", "a, aa!", "aaa  aa"):
        assert encode_chunks_from_code_points(text, merges, r"\S+|\s+") == [
            i for chunk in split_text(text, r"\S+|\s+")
            for i in encode_choosing(lowest_rank)(chunk, merges)]
    assert encode_chunks_from_code_points("é", {}, r"\S+") == [233]  # one id, not 195 169
    assert Counter(encode_choosing(lowest_rank)("é", {})) == Counter([195, 169])


def recover_pair_from_characters(token, ranks):
    """Replays the merges, lowest rank first, but from whole characters instead of bytes."""
    parts = [c.encode("utf-8") for c in token.decode("utf-8")]
    while len(parts) > 2:
        _, i = min((ranks.get(a + b, len(ranks)), i)
                   for i, (a, b) in enumerate(zip(parts, parts[1:])))
        parts[i:i + 2] = [parts[i] + parts[i + 1]]
    return tuple(parts)


def test_a_recover_pair_that_starts_from_characters_fails_on_a_token_that_splits_one():
    recover_pair_from_characters.__name__ = "my_recover_pair"
    result = checker("06", "recover_pair")(recover_pair_from_characters)
    assert not result.passed, result.message
    assert result.message.startswith("❌ my_recover_pair(b' \\xe8\\xa3\\x8f', "), result.message
