"""Checkers of notebooks 00-07 and 09: solutions pass, known wrong answers fail, stubs wait.

The solutions and the untouched stubs are read from the notebooks themselves (what their code
cells define, through ``notebook_files.definitions``), so these tests break when a notebook and
its checker drift apart. Each wrong answer is a mistake a learner makes (or made: the string
``merge``, the ``\\b`` word boundaries and the "lowest maximum rank" recovery once passed); its
verdict must name the smallest input that shows the mistake, and a hint about it.
"""

from __future__ import annotations

import importlib
import re
from collections import Counter

import pytest
import regex
from notebook_files import definitions, notebook_path
from verdicts import assert_smallest

from bpe_workshop import merge
from bpe_workshop.exercises import nb03
from bpe_workshop.exercises.nb04 import reference_encode
from bpe_workshop.files.offline import get_encoding

# (notebook, checker module, exercise): the learner writes my_<exercise>, check_<exercise> checks it
EXERCISES = [
    ("00", "count_tokens"), ("00", "token_pieces"),
    ("01", "count_bytes"), ("01", "utf8_length"), ("01", "encode_utf8"),
    ("02", "gpt2_split"), ("02", "number_chunks"), ("02", "chunk_ids"),
    ("03", "pair_counts"), ("03", "replace_pair"), ("03", "decompress"), ("03", "first_wrong_step"),
    ("04", "get_stats"), ("04", "merge"), ("04", "decode"), ("04", "encode"), ("04", "build_vocab"),
    ("04", "encode_chunks"),
    ("05", "merge_vocab"), ("05", "word_table"), ("05", "apply_merges"),
    ("06", "gpt2_byte_to_char"), ("06", "recover_pair"),
    ("07", "longest_tokens"), ("07", "most_frequent"),
    ("09", "greedy_pieces"), ("09", "unk_words"), ("09", "best_path"),
]
IDS = [f"{nn}-{name}" for nn, name in EXERCISES]


def checker(nn: str, name: str):
    return getattr(importlib.import_module(f"bpe_workshop.exercises.nb{nn}"), f"check_{name}")


def test_every_checker_has_an_exercise_here():
    for nn in sorted({nn for nn, _ in EXERCISES}):
        module = importlib.import_module(f"bpe_workshop.exercises.nb{nn}")
        found = {name[len("check_"):] for name in dir(module) if name.startswith("check_")}
        assert found == {name for n, name in EXERCISES if n == nn}, nn


@pytest.mark.parametrize(("nn", "name"), EXERCISES, ids=IDS)
def test_the_worked_solution_passes(nn, name, capsys):
    solution = definitions(notebook_path(nn, solutions=True))[f"my_{name}"]
    result = checker(nn, name)(solution)
    assert result.passed and result.attempted, result.message
    assert result.message.startswith(f"✅ my_{name} passed (")
    assert result.message in capsys.readouterr().out  # the verdict is printed


@pytest.mark.parametrize(("nn", "name"), EXERCISES, ids=IDS)
def test_the_untouched_stub_is_not_attempted(nn, name, capsys):
    stub = definitions(notebook_path(nn))[f"my_{name}"]
    result = checker(nn, name)(stub)  # must not raise
    assert not result.passed and not result.attempted
    assert result.message.startswith(f"⏳ my_{name}: not attempted yet")
    assert result.message in capsys.readouterr().out


# ----- known wrong answers ---------------------------------------------------------------


def token_pieces_as_text(text, encoding_name):
    enc = get_encoding(encoding_name)
    return [enc.decode([token]) for token in enc.encode(text)]  # str, not bytes


def greedy_pieces_keeping_known_parts(word, vocab):
    pieces, start = [], 0
    while start < len(word):
        for end in range(len(word), start, -1):
            piece = word[start:end] if start == 0 else "##" + word[start:end]
            if piece in vocab:
                pieces.append(piece)
                start = end
                break
        else:
            pieces.append("[UNK]")  # wrong: only this character, not the whole word
            start += 1
    return pieces


def greedy_pieces_without_hashes(word, vocab):
    pieces, start = [], 0
    while start < len(word):
        end = next((e for e in range(len(word), start, -1) if word[start:e] in vocab), None)
        if end is None:
            return ["[UNK]"]
        pieces.append(word[start:end])  # wrong: no ## on the pieces after the first
        start = end
    return pieces


def best_path_longest_first(word, scores):
    pieces, start = [], 0
    while start < len(word):
        end = next(e for e in range(len(word), start, -1) if word[start:e] in scores)
        pieces.append(word[start:end])
        start = end
    return pieces


def decompress_alphabetically(text, table):
    for symbol in sorted(table):  # passes when the symbols are Z, Y, X by chance
        text = text.replace(symbol, table[symbol])
    return text


def pair_counts_off_by_one(text):
    counts = {}
    for i in range(len(text) - 2):  # one short: the last pair is never counted
        counts[text[i], text[i + 1]] = counts.get((text[i], text[i + 1]), 0) + 1
    return counts


def test_a_step_number_given_as_text_is_told_to_return_an_int():
    result = checker("03", "first_wrong_step")("3")
    assert "return an int, not a str ('3')" in result.message


def decompress_oldest_first(text, table):
    for symbol, pair in table.items():  # oldest first: wrong when symbols nest
        text = text.replace(symbol, pair)
    return text


def get_stats_without_overlaps(ids):
    counts = {}
    i = 0
    while i + 1 < len(ids):
        pair = (ids[i], ids[i + 1])
        counts[pair] = counts.get(pair, 0) + 1
        i += 2 if ids[i] == ids[i + 1] else 1
    return counts


def merge_dropping_the_last_id(ids, pair, new_id):
    out, i = [], 0
    while i < len(ids) - 1:
        if (ids[i], ids[i + 1]) == pair:
            out.append(new_id)
            i += 2
        else:
            out.append(ids[i])
            i += 1
    return out


def merge_on_the_ids_as_text(ids, pair, new_id):
    text = " ".join(map(str, ids)).replace(f"{pair[0]} {pair[1]}", str(new_id))
    return [int(i) for i in text.split()]


def decode_strictly(ids, vocab):
    return b"".join(vocab[i] for i in ids).decode("utf-8")


def encode_leftmost_first(text, merges):
    ids = list(text.encode("utf-8"))
    while True:
        for i in range(len(ids) - 1):
            if (ids[i], ids[i + 1]) in merges:
                ids[i:i + 2] = [merges[ids[i], ids[i + 1]]]
                break
        else:
            return ids


def vocab_of_merges_only(merges):
    vocab = {}
    for (left, right), new_id in merges.items():
        left_bytes, right_bytes = vocab.get(left, bytes([left % 256])), vocab.get(right, b"?")
        vocab[new_id] = left_bytes + right_bytes
    return vocab


def encode_chunks_without_splitting(text, merges, pattern):
    return reference_encode(text, merges)


def merge_vocab_with_str_replace(pair, vocab):
    return {word.replace(" ".join(pair), "".join(pair)): n for word, n in vocab.items()}


def merge_vocab_with_word_boundaries(pair, vocab):
    pattern = re.compile(r"\b" + re.escape(" ".join(pair)) + r"\b")
    return {pattern.sub("".join(pair), word): n for word, n in vocab.items()}


def word_table_split_on_single_spaces(text):
    return {" ".join([*word, "</w>"]): n for word, n in Counter(text.split(" ")).items()}


def apply_merges_without_end_of_word(word, merges):
    symbols = list(word)
    for left, right in merges:
        symbols = merge(symbols, (left, right), left + right)
    return symbols


def byte_to_char_ascii_only(byte):
    return chr(byte) if 33 <= byte <= 126 else chr(256 + byte)


def recover_pair_longest_prefix(token, ranks):
    for cut in range(len(token) - 1, 0, -1):
        if token[:cut] in ranks and token[cut:] in ranks:
            return token[:cut], token[cut:]


def recover_pair_lowest_maximum_rank(token, ranks):
    splits = [(token[:cut], token[cut:]) for cut in range(1, len(token))
              if token[:cut] in ranks and token[cut:] in ranks]
    return min(splits, key=lambda pair: max(ranks[pair[0]], ranks[pair[1]]))


def longest_tokens_by_characters(vocab, k):
    return sorted(vocab, key=lambda i: -len(vocab[i].decode("utf-8", errors="replace")))[:k]


def most_frequent_with_most_common(ids, k):
    return Counter(ids).most_common(k)


# (notebook, exercise, wrong answer, the start of the smallest failing call, words of the hint)
WRONG = [
    ("00", "count_tokens", lambda text, encoding_name: len(text.split()), "('Egg.', 'gpt2')",
     "encode(text)"),
    ("00", "token_pieces", token_pieces_as_text, "('Egg.', 'gpt2')", "each item must be a bytes"),
    ("01", "count_bytes", len, "('é')", "number of characters"),
    ("01", "utf8_length",
     lambda cp: 1 if cp < 0x7F else 2 if cp < 0x800 else 3 if cp < 0x10000 else 4, "(127)",
     "1 byte holds 7 bits"),
    ("01", "encode_utf8",
     lambda cp: bytes([cp]) if cp < 0x80 else bytes([0xC0 | cp >> 6, 0x80 | cp & 0x3F]), "(2048)",
     "needs 3 byte(s)"),
    ("02", "gpt2_split", lambda text: text.split(), "(\"YOU'D\")", "findall"),
    ("02", "number_chunks", lambda text: regex.findall(r"\p{N}+", text), "('2024')", "{1,3}"),
    ("02", "chunk_ids", lambda text: list(text.encode("utf-8")), "('Hi')",
     "each item must be a list, but one of yours is an int (72)"),
    ("03", "pair_counts", lambda text: {p: text.count("".join(p)) for p in zip(text, text[1:])},
     "('aaa')", "count every position"),
    ("03", "replace_pair", lambda text, pair, symbol: "".join(
        symbol if text[i:i + 2] == "".join(pair) else text[i] for i in range(len(text))),
     "('aa', ('a', 'a'), 'Z')", "skip both characters"),
    ("03", "decompress", decompress_oldest_first, "('BdBac', {'A': 'aa', 'C': 'ab', 'B': 'AC'})",
     "undo the last replacement first"),
    ("03", "decompress", lambda text, table: "".join(table.get(c, c) for c in text),
     "('BdBac', {'A': 'aa', 'C': 'ab', 'B': 'AC'})", "or all in one pass"),
    ("03", "decompress", lambda text, table: list(text), "('', {})", "return one str, not a list"),
    ("03", "replace_pair", lambda text, pair, symbol: list(text), "('', ('a', 'a'), 'Z')",
     "one str"),
    ("04", "get_stats", get_stats_without_overlaps, "([5, 5, 5, 5])", "overlapping"),
    ("04", "merge", merge_dropping_the_last_id, "([1], (1, 2), 256)", "last id"),
    ("04", "merge", merge_on_the_ids_as_text, "([1, 21], (1, 2), 256)",
     "holds 2561, which is neither an id of the input nor new_id"),
    ("04", "decode", decode_strictly, "([128], {128: b'\\x80'})", "errors=\"replace\""),
    ("04", "encode", encode_leftmost_first, "('abc', {(98, 99): 256", "smallest rank"),
    ("04", "build_vocab", vocab_of_merges_only, "({})", "start from bytes([i]) for i in range"),
    ("04", "encode_chunks", encode_chunks_without_splitting, "('aa aa',", "chunk boundary"),
    ("05", "merge_vocab", merge_vocab_with_str_replace, "(('e', 's'), {'e st </w>': 1})",
     "whole symbols"),
    ("05", "merge_vocab", merge_vocab_with_word_boundaries, "(('\\\\', 'n'), {'\\\\ n </w>': 1})",
     "never after '>'"),
    ("05", "word_table", word_table_split_on_single_spaces, "('')", "text.split()"),
    ("05", "apply_merges", apply_merges_without_end_of_word, "('a', [])", "+ ['</w>']"),
    ("06", "gpt2_byte_to_char", byte_to_char_ascii_only, "(127)", "not printable"),
    ("06", "recover_pair", recover_pair_longest_prefix,
     "(b'abc', {b'a': 0, b'b': 1, b'c': 2, b'bc': 3, b'ab': 4", "LOWER"),
    ("06", "recover_pair", recover_pair_lowest_maximum_rank, "(b'aaa', {b'a': 0",
     "never produced that pair"),
    ("07", "longest_tokens", longest_tokens_by_characters, "({9: b'xyz', 4: b'abc', 1: b'q'}, 2)",
     "smaller id first"),
    ("07", "most_frequent", most_frequent_with_most_common, "([5, 3, 5, 3, 9], 2)",
     "smaller id first"),
    ("02", "number_chunks", lambda text: regex.findall(r"\d{1,3}", text), "('⅓⅔¾12')",
     "also ½, ² and Ⅻ"),
    ("03", "decompress", decompress_alphabetically, "('BdBac',", "the last replacement of the"),
    ("03", "pair_counts", pair_counts_off_by_one, "('ab')", "the LAST pair is missing"),
    ("09", "greedy_pieces", greedy_pieces_keeping_known_parts,
     "('unable', ['un', 'able', '[UNK]'])", "WHOLE word"),
    ("09", "greedy_pieces", greedy_pieces_without_hashes, "('unable', ['un', 'able', '[UNK]'])",
     "write '##' in front"),
    ("09", "unk_words", lambda text, vocab: [w for w in text.split() if w not in vocab],
     "('a_b', [", "each punctuation character"),
    ("09", "best_path", best_path_longest_first, "('▁hat', {", "greedy longest-first"),
]


@pytest.mark.parametrize(("nn", "name", "wrong", "smallest", "hint"), WRONG,
                         ids=[f"{nn}-{name}-{getattr(wrong, '__name__', 'lambda')}"
                              for nn, name, wrong, *_ in WRONG])
def test_a_known_wrong_answer_fails_with_its_smallest_input(nn, name, wrong, smallest, hint,
                                                             capsys):
    def answer(*args):
        return wrong(*args)

    answer.__name__ = f"my_{name}"  # as if the learner had written it under the exercise's name
    result = checker(nn, name)(answer)
    assert result.attempted and not result.passed
    assert result.message.startswith(f"❌ my_{name}{smallest}"), result.message
    assert hint in result.message.split("hint:")[1], result.message
    assert result.message in capsys.readouterr().out
    assert_smallest(importlib.import_module(f"bpe_workshop.exercises.nb{nn}"), answer, name)


def test_the_known_wrong_answers_are_really_wrong_on_gpt2():
    # the two tokens of nb06's new cases, with GPT-2's full ranks
    ranks = get_encoding("gpt2")._mergeable_ranks
    for token, merged in ((b"ress", (b"res", b"s")), (b" her", (b" he", b"r"))):
        assert recover_pair_lowest_maximum_rank(token, ranks) != merged
    assert merge_on_the_ids_as_text([11, 2], (1, 2), 256) == [1256]


def test_a_known_right_answer_of_a_different_shape_still_passes():
    def my_merge(ids, pair, new_id):  # a different way to write it: index arithmetic and a copy
        ids, i = list(ids), 0
        while i < len(ids) - 1:
            if (ids[i], ids[i + 1]) == pair:
                ids[i:i + 2] = [new_id]
            i += 1
        return ids

    assert checker("04", "merge")(my_merge).passed


def test_puzzle_answer_is_not_revealed():
    result = checker("03", "first_wrong_step")(2)
    assert "expected" not in result.message and "got:      2" in result.message


def test_learner_errors_are_reported_not_raised():
    def my_count_bytes(text):
        return 1 / 0

    result = checker("01", "count_bytes")(my_count_bytes)
    assert not result.passed and result.attempted
    assert result.message.startswith(
        "❌ my_count_bytes('') raised ZeroDivisionError: division by zero")
    assert "expected: 0" in result.message


def test_missing_return_is_named():
    def my_count_bytes(text):
        len(text.encode("utf-8"))

    result = checker("01", "count_bytes")(my_count_bytes)
    assert not result.attempted and "is a `return` missing?" in result.message


def test_a_path_without_return_names_the_smallest_such_input():
    def my_utf8_length(code_point):
        if code_point < 0x80:
            return 1
        if code_point < 0x800:
            return 2
        if code_point < 0x10000:
            return 3

    result = checker("01", "utf8_length")(my_utf8_length)
    assert result.attempted and not result.passed
    assert result.message.startswith("❌ my_utf8_length(65536) returned None")


def test_calling_the_function_instead_of_passing_it_is_explained():
    result = checker("01", "count_bytes")(3)
    assert not result.passed and "without calling it" in result.message


def test_published_example_really_holds_a_mistake_at_step_3():
    assert nb03.first_wrong_published_step() == 3


# ----- hints describe what the answer did -------------------------------------------------


def test_a_raising_build_vocab_is_not_told_it_returned_the_wrong_type():
    def my_build_vocab(merges):
        vocab = {i: bytes([i]) for i in range(256)}
        for (left, right), new_id in merges.items():
            vocab[new_id] = vocab[left] + vocab[right + 1000]  # a KeyError
        return vocab

    result = checker("04", "build_vocab")(my_build_vocab)
    assert "raised KeyError" in result.message.splitlines()[0]
    assert "NoneType" not in result.message and "return a dict" not in result.message
    assert "hint: start from bytes([i])" in result.message


def test_a_build_vocab_returning_a_list_is_told_so():
    result = checker("04", "build_vocab")(lambda merges: [bytes([i]) for i in range(256)])
    assert "hint: return a dict, not a list." in result.message


def test_a_lookbehind_answer_that_merges_nothing_gets_a_true_hint():
    def my_merge_vocab(pair, vocab):  # a lookbehind on both sides: the one after never succeeds
        bigram = re.escape(" ".join(pair))
        pattern = re.compile(r"(?<!\S)" + bigram + r"(?<!\S)")
        return {pattern.sub("".join(pair), word): freq for word, freq in vocab.items()}

    result = checker("05", "merge_vocab")(my_merge_vocab)
    assert result.attempted and not result.passed  # edited: a real verdict, not "not attempted"
    hint = result.message.split("hint:")[1]
    assert "nothing was merged" in hint
    assert "looks AHEAD" not in hint and "Read the first lookaround" not in hint


def test_the_copied_lookahead_answer_is_not_attempted():
    stub = definitions(notebook_path("05"))["my_merge_vocab"]
    result = checker("05", "merge_vocab")(stub)
    assert not result.attempted


def test_counts_as_strings_get_a_hint_about_the_type():
    def my_get_stats(ids):
        return {pair: str(n) for pair, n in Counter(zip(ids, ids[1:])).items()}

    result = checker("04", "get_stats")(my_get_stats)
    assert "each value must be an int, but one of yours is a str ('1')" in result.message
