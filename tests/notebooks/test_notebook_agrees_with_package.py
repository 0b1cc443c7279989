"""Notebook 04 writes BPE out for teaching; prove those cells agree with the package.

The cells tagged ``teaching`` in ``notebooks/04_byte_level_bpe.ipynb`` define ``get_stats``,
``merge``, ``train``, ``decode`` and ``encode``. ``notebook_files.definitions`` runs only their
definitions (the cells' example lines need the rest of the notebook), and we compare with
``bpe_workshop.algorithm.pairs`` and ``ByteLevelBPE`` on generated inputs.
"""

from __future__ import annotations

import warnings

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from notebook_files import definitions, notebook_path

from bpe_workshop import ByteLevelBPE
from bpe_workshop.algorithm import textbook

TAUGHT = ("get_stats", "merge", "train", "decode", "encode")


def teaching_functions() -> dict:
    """name -> function, for every ``def`` in notebook 04's cells tagged ``teaching``."""
    namespace = definitions(notebook_path("04"), tag="teaching")
    return {name: namespace[name] for name in TAUGHT if name in namespace}


NB = teaching_functions()


def train_package(text: str, vocab_size: int) -> ByteLevelBPE:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # stopping early warns; here it is expected
        return ByteLevelBPE.train(text, vocab_size)


def test_every_taught_function_is_in_the_notebook():
    assert sorted(NB) == sorted(TAUGHT)


def test_the_worked_examples_of_the_notebook():
    assert NB["get_stats"]([1, 2, 3, 1, 2]) == {(1, 2): 2, (2, 3): 1, (3, 1): 1}
    assert NB["merge"]([2, 2, 8, 9, 5, 3, 8, 9], (8, 9), 257) == [2, 2, 257, 5, 3, 257]
    merges = NB["train"]("aaabdaaabac", 259)
    assert merges == {(97, 97): 256, (97, 98): 257, (256, 257): 258}
    assert NB["encode"]("aaabdaaabac", merges) == [258, 100, 258, 97, 99]


small_ids = st.lists(st.integers(0, 5), max_size=30)
# few distinct characters, so that pairs repeat and merges happen; plus some non-ASCII
texts = st.text(alphabet="ab é👋\n", max_size=40)


@given(small_ids)
def test_get_stats_agrees(ids):
    assert NB["get_stats"](ids) == textbook.get_stats(ids)


@given(small_ids, st.tuples(st.integers(0, 5), st.integers(0, 5)))
def test_merge_agrees(ids, pair):
    assert NB["merge"](ids, pair, 256) == textbook.merge(ids, pair, 256)


@settings(max_examples=60, deadline=None)
@given(texts, st.integers(256, 280))
def test_train_agrees(text, vocab_size):
    learned = list(train_package(text, vocab_size).merges.items())
    assert list(NB["train"](text, vocab_size).items()) == learned


@settings(max_examples=60, deadline=None)
@given(texts, texts)
def test_encode_and_decode_agree(training_text, text):
    tok = train_package(training_text, 270)
    ids = NB["encode"](text, tok.merges)
    assert ids == tok.encode(text)
    assert NB["decode"](ids, tok.vocab) == tok.decode(ids) == text


@given(st.lists(st.integers(0, 269), max_size=12))
def test_decode_agrees_on_any_ids(ids):
    # any ids, including ones that are not valid UTF-8 together (decoded with errors="replace")
    tok = train_package("aaabdaaabac hello hello 👋👋 " * 3, 270)
    ids = [i for i in ids if i in tok.vocab]
    assert NB["decode"](ids, tok.vocab) == tok.decode(ids)


@pytest.mark.parametrize("text", ["", "a", "Hello👋, my name is Ada; 你好👋"])
def test_encode_on_a_tokenizer_trained_on_prose(text):
    from bpe_workshop.files.corpora import load_english

    tok = ByteLevelBPE.train(load_english()[:5000], 300)
    assert NB["encode"](text, tok.merges) == tok.encode(text)
