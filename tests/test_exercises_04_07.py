"""Exercise checkers of notebooks 04-07: solutions pass, known wrong answers fail, stubs wait.

The solutions and the untouched stubs are read from the notebooks themselves (the function
definitions of their code cells), so these tests break when a notebook and its checker drift
apart. Each wrong answer is a mistake a learner makes; its verdict must name the smallest input
that shows the mistake.
"""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import nbformat
import pytest

NOTEBOOKS = Path(__file__).resolve().parents[1] / "notebooks"


def functions_in(path: Path) -> dict:
    """name -> function for every ``def`` (and the imports) in a notebook's code cells."""
    nb = nbformat.read(path, as_version=4)
    namespace = {}
    for cell in nb.cells:
        if cell.cell_type != "code" or cell.source.lstrip().startswith("%"):
            continue
        try:
            tree = ast.parse(cell.source)
        except SyntaxError:  # a cell with IPython magics (the Colab setup cell)
            continue
        keep = (ast.FunctionDef, ast.Import, ast.ImportFrom)
        tree.body = [node for node in tree.body if isinstance(node, keep)]
        exec(compile(tree, path.name, "exec"), namespace)  # noqa: S102
    return namespace


# (notebook stem, checker module, checker name, function name in the notebooks)
EXERCISES = [
    ("04_byte_level_bpe", "nb04", "check_get_stats", "my_get_stats"),
    ("04_byte_level_bpe", "nb04", "check_merge", "my_merge"),
    ("04_byte_level_bpe", "nb04", "check_decode", "my_decode"),
    ("04_byte_level_bpe", "nb04", "check_encode", "my_encode"),
    ("04_byte_level_bpe", "nb04", "check_build_vocab", "my_build_vocab"),
    ("04_byte_level_bpe", "nb04", "check_encode_chunks", "my_encode_chunks"),
    ("05_word_level_bpe", "nb05", "check_merge_vocab", "my_merge_vocab"),
    ("05_word_level_bpe", "nb05", "check_word_table", "my_word_table"),
    ("05_word_level_bpe", "nb05", "check_apply_merges", "my_apply_merges"),
    ("06_compare_with_tiktoken", "nb06", "check_gpt2_byte_to_char", "my_gpt2_byte_to_char"),
    ("06_compare_with_tiktoken", "nb06", "check_recover_pair", "my_recover_pair"),
    ("07_train_your_own", "nb07", "check_longest_tokens", "my_longest_tokens"),
    ("07_train_your_own", "nb07", "check_most_frequent", "my_most_frequent"),
]
IDS = [f"{stem[:2]}-{func}" for stem, _, _, func in EXERCISES]


def checker(module: str, name: str):
    return getattr(importlib.import_module(f"bpe_workshop.exercises.{module}"), name)


@pytest.mark.parametrize("stem, module, check_name, func", EXERCISES, ids=IDS)
def test_the_worked_solution_passes(stem, module, check_name, func, capsys):
    solutions = functions_in(NOTEBOOKS / "solutions" / f"{stem}_solutions.ipynb")
    result = checker(module, check_name)(solutions[func])
    assert result.passed, result.message
    assert "✅" in capsys.readouterr().out


@pytest.mark.parametrize("stem, module, check_name, func", EXERCISES, ids=IDS)
def test_the_untouched_stub_is_not_attempted(stem, module, check_name, func, capsys):
    stubs = functions_in(NOTEBOOKS / f"{stem}.ipynb")
    result = checker(module, check_name)(stubs[func])  # must not raise
    assert not result.passed and not result.attempted
    assert "not attempted yet" in capsys.readouterr().out


# ----- known wrong answers, one per exercise ---------------------------------------------


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
        vocab[new_id] = vocab.get(left, bytes([left % 256])) + vocab.get(right, bytes([right % 256]))
    return vocab


def encode_chunks_without_splitting(text, merges, pattern):
    from bpe_workshop.exercises.nb04 import _encode_in_training_order

    return _encode_in_training_order(text, merges)


def merge_vocab_with_str_replace(pair, vocab):
    return {word.replace(" ".join(pair), "".join(pair)): n for word, n in vocab.items()}


def word_table_split_on_single_spaces(text):
    from collections import Counter

    return {" ".join([*word, "</w>"]): n for word, n in Counter(text.split(" ")).items()}


def apply_merges_without_end_of_word(word, merges):
    from bpe_workshop import merge

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


def longest_tokens_by_characters(vocab, k):
    return sorted(vocab, key=lambda i: -len(vocab[i].decode("utf-8", errors="replace")))[:k]


def most_frequent_with_most_common(ids, k):
    from collections import Counter

    return Counter(ids).most_common(k)


WRONG = [
    ("nb04", "check_get_stats", get_stats_without_overlaps, "[97, 97, 97]", "overlapping"),
    ("nb04", "check_merge", merge_dropping_the_last_id, "([1], (1, 2), 256)", "last id"),
    ("nb04", "check_decode", decode_strictly, "([128], {128: b'\\x80'})", "errors=\"replace\""),
    ("nb04", "check_encode", encode_leftmost_first, "('abc', {(98, 99): 256", "smallest rank"),
    ("nb04", "check_build_vocab", vocab_of_merges_only, "vocab_of_merges_only({})", "first difference at id 0"),
    ("nb04", "check_encode_chunks", encode_chunks_without_splitting, "('aa aa',", "chunk boundary"),
    ("nb05", "check_merge_vocab", merge_vocab_with_str_replace, "{'e st </w>': 1}", "whole symbols"),
    ("nb05", "check_word_table", word_table_split_on_single_spaces, "split_on_single_spaces('')",
     "text.split()"),
    ("nb05", "check_apply_merges", apply_merges_without_end_of_word, "end_of_word('a', [])",
     "+ ['</w>']"),
    ("nb06", "check_gpt2_byte_to_char", byte_to_char_ascii_only, "ascii_only(127)", "not printable"),
    ("nb06", "check_recover_pair", recover_pair_longest_prefix,
     "(b'abc', {b'a': 0, b'b': 1, b'c': 2, b'bc': 3, b'ab': 4", "LOWER"),
    ("nb07", "check_longest_tokens", longest_tokens_by_characters, "({9: b'xyz', 4: b'abc', 1: b'q'}, 2)",
     "smaller id first"),
    ("nb07", "check_most_frequent", most_frequent_with_most_common, "([5, 3, 5, 3, 9], 2)",
     "smaller id first"),
]


@pytest.mark.parametrize("module, check_name, wrong, smallest, hint", WRONG,
                         ids=[w[2].__name__ for w in WRONG])
def test_a_known_wrong_answer_fails_with_its_smallest_input(module, check_name, wrong, smallest,
                                                             hint, capsys):
    result = checker(module, check_name)(wrong)
    assert result.attempted and not result.passed
    assert "❌" in result.message
    assert smallest in result.message
    assert hint in result.message
    assert result.message in capsys.readouterr().out
