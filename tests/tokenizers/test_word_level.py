"""Word-level BPE (notebook 05): the syllabus corpora, the paper's merge_vocab, round trips."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bpe_workshop.algorithm.textbook import best_pair, merge
from bpe_workshop.algorithm.word_paper import (
    merge_vocab,
    merge_vocab_buggy,
    vocab_pair_counts,
    word_vocab,
)
from bpe_workshop.tokenizers.word_level import END_OF_WORD, UNK, WordLevelBPE, WordMergeRecord

SYLLABUS_SENTENCES = ["this is a test", "this test is only a test", "a test this is"]
TOY_VOCAB = {"l o w </w>": 5, "l o w e r </w>": 2, "n e w e s t </w>": 6, "w i d e s t </w>": 3}
TOY_TEXT = "low " * 5 + "lower " * 2 + "newest " * 6 + "widest " * 3

# Worked by hand: counts per step, ties to the smallest (left, right) pair.
TOY_MERGES = [
    (("e", "s"), 9),  # es, st, t</w> all 9; ('e','s') is smallest
    (("es", "t"), 9),
    (("est", "</w>"), 9),
    (("l", "o"), 7),  # lo and ow 7
    (("lo", "w"), 7),
    (("e", "w"), 6),  # ew, ne, w est</w> all 6
    (("ew", "est</w>"), 6),
    (("n", "ewest</w>"), 6),
    (("low", "</w>"), 5),
    (("d", "est</w>"), 3),
    (("i", "dest</w>"), 3),
    (("w", "idest</w>"), 3),
    (("e", "r"), 2),
    (("er", "</w>"), 2),
    (("low", "er</w>"), 2),
]


def paper_loop(vocab, num_merges):
    """The paper's training loop on its own format, with the series' tie rule."""
    merges = []
    for _ in range(num_merges):
        stats = vocab_pair_counts(vocab)
        if not stats:
            break
        pair = best_pair(stats)
        if stats[pair] < 2:
            break
        vocab = merge_vocab(pair, vocab)
        merges.append((pair, stats[pair]))
    return merges, vocab


def apply_in_order(word, merges):
    """Reference tokenizer: every merge, one after the other, in learned order."""
    symbols = [*word, END_OF_WORD]
    for pair in merges:
        symbols = merge(symbols, pair, pair[0] + pair[1])
    return symbols


# -- the syllabus facts ---------------------------------------------------------------------------


def test_syllabus_word_table():
    assert word_vocab(" ".join(SYLLABUS_SENTENCES)) == {
        "t h i s </w>": 3,
        "i s </w>": 3,
        "a </w>": 3,
        "t e s t </w>": 4,
        "o n l y </w>": 1,
    }
    assert word_vocab("\n".join(SYLLABUS_SENTENCES)) == word_vocab(" ".join(SYLLABUS_SENTENCES))


def test_syllabus_word_table_through_the_class():
    wl = WordLevelBPE.train("\n".join(SYLLABUS_SENTENCES), num_merges=0)
    table = {" ".join(split): freq for word, freq, split in wl.word_table_at(0)}
    assert table == word_vocab(" ".join(SYLLABUS_SENTENCES))
    assert wl.alphabet == ("a", "e", "h", "i", "l", "n", "o", "s", "t", "y")
    assert wl.stop_message is None
    assert wl.merges == ()


def test_toy_corpus_word_table():
    assert word_vocab(TOY_TEXT) == TOY_VOCAB


def test_toy_corpus_merges_pinned():
    wl = WordLevelBPE.train(TOY_TEXT, num_merges=20)
    assert [(r.pair, r.count) for r in wl.records] == TOY_MERGES
    assert wl.merges == tuple(pair for pair, _ in TOY_MERGES)
    assert wl.records[0] == WordMergeRecord(step=1, pair=("e", "s"), new_symbol="es", count=9)
    assert [r.step for r in wl.records] == list(range(1, 16))
    assert wl.stop_message == "stopped after 15 of 20 merges: no pair occurs twice or more"


def test_toy_corpus_tokenize():
    wl = WordLevelBPE.train(TOY_TEXT, num_merges=10)
    assert wl.tokenize("lower newest") == ["low", "e", "r", "</w>", "newest</w>"]
    # er</w> at the end of a word is its own symbol once learned
    wl = WordLevelBPE.train(TOY_TEXT, num_merges=14)
    assert wl.tokenize("newer") == ["n", "ew", "er</w>"]
    assert wl.tokenize("erw") == ["er", "w", "</w>"]  # inside a word: er, not er</w>


# -- the paper's merge_vocab and the buggy copy --------------------------------------------------


def test_merge_vocab_matches_training_on_toy_corpus():
    merges, final_vocab = paper_loop(TOY_VOCAB, 20)
    assert merges == TOY_MERGES
    wl = WordLevelBPE.train(TOY_TEXT, num_merges=20)
    assert final_vocab == {
        " ".join(split): freq for _, freq, split in wl.word_table_at(len(wl.merges))
    }


def test_merge_vocab_buggy_never_merges():
    vocab = dict(TOY_VOCAB)
    for pair, _ in TOY_MERGES:
        assert merge_vocab_buggy(pair, vocab) == vocab
        vocab = merge_vocab(pair, vocab)  # the correct one moves on; the buggy one still sits
    assert vocab != TOY_VOCAB


def test_merge_vocab_whole_symbols_only():
    vocab = {"e s t </w>": 1, "e st </w>": 1, "ne s </w>": 1, "x e s </w>": 2}
    assert merge_vocab(("e", "s"), vocab) == {
        "es t </w>": 1,
        "e st </w>": 1,
        "ne s </w>": 1,
        "x es </w>": 2,
    }
    # regex metacharacters in symbols are escaped
    assert merge_vocab(("a.", "*"), {"a. * </w>": 1, "ab * </w>": 1}) == {
        "a.* </w>": 1,
        "ab * </w>": 1,
    }


# -- training against the paper's loop on random text --------------------------------------------

words = st.text(alphabet="ab.<", min_size=1, max_size=6)
texts = st.lists(words, min_size=1, max_size=12).map(" ".join)


@settings(max_examples=60, deadline=None)
@given(texts, st.integers(min_value=0, max_value=25))
def test_training_equals_paper_loop(text, num_merges):
    wl = WordLevelBPE.train(text, num_merges)
    merges, final_vocab = paper_loop(word_vocab(text), num_merges)
    assert [(r.pair, r.count) for r in wl.records] == merges
    assert {" ".join(split): f for _, f, split in wl.word_table_at(len(wl.merges))} == final_vocab
    assert (wl.stop_message is None) == (len(merges) == num_merges)


@settings(max_examples=40, deadline=None)
@given(texts, st.integers(min_value=0, max_value=25))
def test_word_table_at_every_step(text, num_merges):
    wl = WordLevelBPE.train(text, num_merges)
    vocab = word_vocab(text)
    for step in range(len(wl.merges) + 1):
        if step:
            vocab = merge_vocab(wl.merges[step - 1], vocab)
        table = wl.word_table_at(step)
        assert {" ".join(split): f for _, f, split in table} == vocab
        assert [(w, f) for w, f, _ in table] == list(wl.word_counts.items())
    for step in range(1, len(wl.merges) + 1):
        before = {w: s for w, _, s in wl.word_table_at(step - 1)}
        after = {w: s for w, _, s in wl.word_table_at(step)}
        assert wl.words_changed_at(step) == [w for w in wl.word_counts if before[w] != after[w]]


# -- word table viewer ---------------------------------------------------------------------------


def test_word_table_at_steps():
    wl = WordLevelBPE.train(TOY_TEXT, num_merges=20)
    assert wl.word_table_at(0) == [
        ("low", 5, ["l", "o", "w", "</w>"]),
        ("lower", 2, ["l", "o", "w", "e", "r", "</w>"]),
        ("newest", 6, ["n", "e", "w", "e", "s", "t", "</w>"]),
        ("widest", 3, ["w", "i", "d", "e", "s", "t", "</w>"]),
    ]
    assert wl.word_table_at(3)[2] == ("newest", 6, ["n", "e", "w", "est</w>"])
    assert wl.word_table_at(15) == [
        ("low", 5, ["low</w>"]),
        ("lower", 2, ["lower</w>"]),
        ("newest", 6, ["newest</w>"]),
        ("widest", 3, ["widest</w>"]),
    ]
    assert wl.words_changed_at(1) == ["newest", "widest"]
    assert wl.words_changed_at(4) == ["low", "lower"]


def test_word_table_bad_steps():
    wl = WordLevelBPE.train(TOY_TEXT, num_merges=3)
    with pytest.raises(ValueError, match="step must be (at most 3|between 0 and 3), got 4"):
        wl.word_table_at(4)
    with pytest.raises(ValueError, match="step must be (at least 0|between 0 and 3), got -1"):
        wl.word_table_at(-1)
    with pytest.raises(ValueError, match="step must be (at least 1|between 1 and 3), got 0"):
        wl.words_changed_at(0)
    with pytest.raises(TypeError, match="step must be an int"):
        wl.word_table_at(1.0)


def test_word_table_on_the_english_corpus():
    from pathlib import Path

    text = (Path(__file__).resolve().parents[2] / "data" / "english.txt").read_text("utf-8")
    wl = WordLevelBPE.train(text, num_merges=300)
    assert len(wl.merges) == 300
    final = wl.word_table_at(300)
    assert len(final) == len(set(text.split()))
    assert all(wl.tokenize(word) == split for word, _, split in final)
    # a tokenizer built from the merges alone, with no training words to look up, agrees
    fresh = WordLevelBPE(wl.alphabet, wl.merges)
    assert all(fresh.tokenize(word) == split for word, _, split in final[:2000])
    assert sum(f for _, f, _ in final) == len(text.split())


# -- tokenize, encode, decode --------------------------------------------------------------------


def test_vocab_ids_order():
    wl = WordLevelBPE.train("ab ab ba", num_merges=5)
    assert wl.merges == (("a", "b"), ("ab", "</w>"))
    assert wl.vocab == {0: "a", 1: "b", 2: END_OF_WORD, 3: UNK, 4: "ab", 5: "ab</w>"}


def test_unknown_characters_become_unk():
    wl = WordLevelBPE.train(TOY_TEXT, num_merges=15)
    assert wl.tokenize("lowz") == ["low", UNK, "</w>"]
    assert wl.tokenize("日本") == [UNK, UNK, "</w>"]
    ids = wl.encode("low 日")
    ids_of = {symbol: i for i, symbol in wl.vocab.items()}
    assert ids == [ids_of["low</w>"], ids_of[UNK], ids_of[END_OF_WORD]]
    assert wl.decode(ids) == "low <unk>"


def test_tokenize_follows_learned_order_not_lowest_rank():
    # ('ab', 'c') is listed before ('a', 'b'): applying merges in order never reaches it
    wl = WordLevelBPE(["a", "b", "c"], [("ab", "c"), ("a", "b")])
    assert wl.tokenize("abc") == ["ab", "c", "</w>"]
    assert wl.tokenize("abc") == apply_in_order("abc", wl.merges)


def test_same_symbol_from_two_merges_gets_one_id():
    wl = WordLevelBPE(["a", "b", "c"], [("a", "b"), ("b", "c"), ("ab", "c"), ("a", "bc")])
    assert list(wl.vocab.values()) == ["a", "b", "c", "</w>", "<unk>", "ab", "bc", "abc"]
    assert wl.tokenize("abc abbc") == ["abc", "</w>", "ab", "bc", "</w>"]
    assert wl.decode(wl.encode("abc abbc")) == "abc abbc"


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.tuples(st.sampled_from(["a", "b", "ab", "ba", "aab", "</w>", "b</w>"]),
                       st.sampled_from(["a", "b", "ab", "bb", "</w>"])), max_size=12),
    st.text(alphabet="ab", min_size=1, max_size=10),
)
def test_tokenize_equals_merges_applied_one_by_one(merges, word):
    wl = WordLevelBPE(["a", "b"], merges)
    assert wl.tokenize(word) == apply_in_order(word, merges)


seen_chars = "lowernstid"
seen_texts = st.lists(st.text(alphabet=seen_chars, min_size=1, max_size=8), max_size=10).flatmap(
    lambda ws: st.tuples(st.just(ws), st.lists(st.sampled_from([" ", "\n", "\t", "  "]),
                                                min_size=len(ws) + 1, max_size=len(ws) + 1))
).map(lambda wp: wp[1][0] + "".join(w + sep for w, sep in zip(wp[0], wp[1][1:])))


@settings(max_examples=80, deadline=None)
@given(seen_texts, st.integers(min_value=0, max_value=40))
def test_encode_decode_round_trip(text, num_merges):
    wl = WordLevelBPE.train(TOY_TEXT, num_merges)
    ids = wl.encode(text)
    assert all(i in wl.vocab for i in ids)
    assert wl.decode(ids) == " ".join(text.split())


@settings(max_examples=80, deadline=None)
@given(seen_texts, st.integers(min_value=0, max_value=40))
def test_tokenize_never_crosses_words(text, num_merges):
    wl = WordLevelBPE.train(TOY_TEXT, num_merges)
    symbols = wl.tokenize(text)
    assert symbols == [s for word in text.split() for s in wl.tokenize(word)]
    # each word's symbols end with the marker, and the marker only ever closes a symbol
    assert sum(s.endswith(END_OF_WORD) for s in symbols) == len(text.split())
    assert all(END_OF_WORD not in s[: -len(END_OF_WORD)] for s in symbols)


def test_decode_errors():
    wl = WordLevelBPE.train(TOY_TEXT, num_merges=3)
    with pytest.raises(ValueError, match="unknown token id 99: valid ids are the ints 0..14"):
        wl.decode([0, 99])
    with pytest.raises(ValueError, match="unknown token id -1"):
        wl.decode([-1])
    with pytest.raises(TypeError, match="list of ints"):
        wl.decode("low")
    with pytest.raises(TypeError, match="ids must be a list of ints, got int; pass e.g. \\[5\\]"):
        wl.decode(5)
    # one phrasing for both tokenizers (validation.require_ids)
    with pytest.raises(TypeError, match=r"ids must be ints, got bool True at position 0"):
        wl.decode([True])
    with pytest.raises(TypeError, match=r"ids must be ints, got float 1.0 at position 1"):
        wl.decode([0, 1.0])
    assert wl.decode([]) == ""


# -- bad input to train ---------------------------------------------------------------------------


def test_train_bad_input():
    with pytest.raises(TypeError, match="decode bytes first"):
        WordLevelBPE.train(b"low lower", 10)
    with pytest.raises(TypeError, match="num_merges must be an int"):
        WordLevelBPE.train("low lower", "10")
    with pytest.raises(TypeError, match="num_merges must be an int"):
        WordLevelBPE.train("low lower", True)
    with pytest.raises(ValueError, match="num_merges must be at least 0, got -5"):
        WordLevelBPE.train("low lower", -5)
    with pytest.raises(ValueError, match="no words"):
        WordLevelBPE.train(" \n\t ", 10)
    with pytest.raises(ValueError, match="end-of-word marker"):
        WordLevelBPE.train("low</w> lower", 10)
    wl = WordLevelBPE.train("low lower", 1)
    with pytest.raises(ValueError, match="end-of-word marker"):
        wl.tokenize("a</w>")
    with pytest.raises(TypeError, match="text must be a str"):
        wl.encode(None)


def test_stop_message():
    wl = WordLevelBPE.train("abc abd", 10)
    assert wl.merges == (("a", "b"),)
    assert wl.stop_message == "stopped after 1 of 10 merges: no pair occurs twice or more"
    assert WordLevelBPE.train("abc abd", 1).stop_message is None
    assert WordLevelBPE.train("xyz", 5).stop_message.startswith("stopped after 0 of 5")


# -- save and load -------------------------------------------------------------------------------


def test_save_load_round_trip(tmp_path):
    wl = WordLevelBPE.train(TOY_TEXT + " naïve 日本語 \U0001f600", num_merges=12)
    path = wl.save(tmp_path / "toy.wordbpe")
    assert path == tmp_path / "toy.wordbpe"
    lines = path.read_text("ascii").splitlines()
    assert lines[0] == "bpe-workshop word-level v1"
    assert lines[2] == "merges 12"
    assert lines[3] == '["e", "s", 9]'
    loaded = WordLevelBPE.load(str(path))
    assert loaded.alphabet == wl.alphabet
    assert loaded.merges == wl.merges
    assert loaded.records == wl.records
    assert loaded.vocab == wl.vocab
    text = "lowest newer naïve 日本 zz"
    assert loaded.encode(text) == wl.encode(text)
    assert loaded.tokenize(text) == wl.tokenize(text)
    with pytest.raises(ValueError, match="no training words"):
        loaded.word_table_at(0)


def corrupt(tmp_path, content):
    path = tmp_path / "model.wordbpe"
    path.write_bytes(content if isinstance(content, bytes) else content.encode("utf-8"))
    return path


GOOD = (
    'bpe-workshop word-level 1\nalphabet ["a", "b"]\nmerges 2\n["a", "b", 3]\n["ab", "</w>", 2]\n'
)


@pytest.mark.parametrize(
    "content, line, message",
    [
        ("", 1, "the file ends where the header line was expected"),
        ("bpe-workshop byte-level v1\n", 1,
         "expected the header 'bpe-workshop word-level v1', got 'bpe-workshop byte-level v1'; "
         "this is a byte-level model file: load it with ByteLevelBPE.load"),
        (GOOD.replace("level 1", "level v2"), 1, "this file is format 'bpe-workshop word-level "
         "v2', but this version of bpe_workshop reads only 'bpe-workshop word-level v1'"),
        (GOOD.replace("alphabet", "alphabets"), 2, "expected 'alphabet ...', got 'alphabets"),
        (GOOD.replace('["a", "b"]\n', '["a", "b"\n'), 2, "expected a sorted JSON list"),
        (GOOD.replace('["a", "b"]\n', '["b", "a"]\n'), 2,
         "expected a sorted JSON list of distinct single characters, got '[\"b\", \"a\"]'"),
        (GOOD.replace('["a", "b"]\n', '["ab"]\n'), 2, "single characters"),
        (GOOD.replace('["a", "b"]\n', "[" * 100_000 + "\n"), 2, "expected a sorted JSON list"),
        (GOOD.replace("merges 2", "merges two"), 3, "expected a count after 'merges', got 'two'"),
        (GOOD.replace("merges 2", "merges \u0662"), 3, "expected a count after 'merges'"),
        (GOOD.replace("merges 2", "merges 3"), 6, "the file ends where merge 3 was expected"),
        (GOOD.replace('["a", "b", 3]', '["a", "b"]'), 4, "expected a merge"),
        (GOOD.replace('["a", "b", 3]', '["a", "b", -3]'), 4, "expected a merge"),
        (GOOD.replace('["a", "b", 3]', '["a", "b", 3.0]'), 4, "expected a merge"),
        (GOOD.replace('["a", "b", 3]', '["a", "b", ' + "9" * 5000 + "]"), 4, "expected a merge"),
        (GOOD.replace('["a", "b", 3]', "a b 3"), 4, "expected a merge"),
        (GOOD.replace('["a", "b", 3]', "[" * 100_000), 4, "expected a merge"),
        (GOOD.replace('["ab", "</w>", 2]', '["ba", "</w>", 2]'), 5, "'ba', which no earlier"),
        (GOOD.replace('["a", "b", 3]', '["a", "<unk>", 3]'), 4, "'<unk>', which no earlier"),
        (GOOD + "extra\n", 6, "unexpected text after the 2 merges"),
        (GOOD.encode() + b"\xff\n", 6, "not UTF-8"),
    ],
)
def test_load_corrupt_files(tmp_path, content, line, message):
    path = corrupt(tmp_path, content)
    with pytest.raises(ValueError) as info:
        WordLevelBPE.load(path)
    assert str(info.value).startswith(f"{path}, line {line}: ")
    assert message in str(info.value)


def test_load_good_file(tmp_path):
    wl = WordLevelBPE.load(corrupt(tmp_path, GOOD))
    assert wl.merges == (("a", "b"), ("ab", "</w>"))
    assert [r.count for r in wl.records] == [3, 2]
    assert wl.tokenize("ab abc") == ["ab</w>", "ab", "<unk>", "</w>"]
    assert WordLevelBPE.load(corrupt(tmp_path, GOOD.rstrip("\n"))).merges == wl.merges
    new_header = GOOD.replace("word-level 1", "word-level v1")
    assert WordLevelBPE.load(corrupt(tmp_path, new_header)).records == wl.records
    # edited by hand: a byte order mark, Windows line ends, blank lines at the end
    edited = b"\xef\xbb\xbf" + new_header.replace("\n", "\r\n").encode() + b"\r\n\n  \n"
    assert WordLevelBPE.load(corrupt(tmp_path, edited)).records == wl.records


def test_load_missing_file(tmp_path):
    with pytest.raises(FileNotFoundError):
        WordLevelBPE.load(tmp_path / "nope.wordbpe")


# -- the constructor and the choice of trainer ----------------------------------------------


def test_naive_and_fast_give_the_same_tokenizer():
    naive = WordLevelBPE.train(TOY_TEXT + " lowest newer", 20, algorithm="naive")
    fast = WordLevelBPE.train(TOY_TEXT + " lowest newer", 20, algorithm="fast")
    assert naive.records == fast.records and naive.vocab == fast.vocab
    assert naive.stop_message == fast.stop_message
    for step in range(len(fast.merges) + 1):
        assert naive.word_table_at(step) == fast.word_table_at(step)
    with pytest.raises(ValueError, match="algorithm must be 'fast' or 'naive', got 'slow'"):
        WordLevelBPE.train(TOY_TEXT, 5, algorithm="slow")


@pytest.mark.parametrize(
    "args, kwargs, error, message",
    [
        ((["a", "b"], [("a", "b")], [3, 2]), {}, ValueError,
         "counts must give one count per merge: got 2 counts for 1 merges"),
        ((["a", "b"], [("a", "b")], [-1]), {}, ValueError, "counts[0] must be at least 0, got -1"),
        ((["a", "b"], [("a", "b")], [2.0]), {}, TypeError, "counts[0] must be an int, got float"),
        ((["a", "b"], [("a", "b")], "3"), {}, TypeError, "counts must be a list of ints"),
        (("ab", [("a", "b")]), {}, TypeError, "alphabet must be a list or set"),
        ((["a", "bc"], []), {}, ValueError, "alphabet must hold single characters"),
        ((["a", 5], []), {}, TypeError, "each character of the alphabet must be a str, got int 5"),
        ((["a", "b"], [("a",)]), {}, TypeError, "each merge must be a pair of non-empty str"),
        ((["a", "b"], [("a", "")]), {}, TypeError, "each merge must be a pair of non-empty str"),
        ((["a", "b"], {("a", "b"): 5}), {}, TypeError, "merges must be a list of (left, right)"),
        ((["a"], []), {"word_counts": {"a": 2}}, TypeError, "pass both or neither"),
        ((["a"], []), {"word_counts": {"a": 2}, "joined_at": [[0]]}, ValueError,
         "joined_at must hold one step per character and </w> of each word: 2 for 'a'"),
        ((["a"], []), {"word_counts": {"a": 2}, "joined_at": [[0, 1]]}, ValueError,
         "a step in joined_at['a'] must be a"),
        ((["a"], []), {"word_counts": {"a": 0}, "joined_at": [[0, 0]]}, ValueError,
         "word_counts['a'] must be at least 1, got 0"),
        ((["a"], []), {"stop_message": 5}, TypeError, "stop_message must be a str, got int 5"),
    ],
)
def test_constructor_bad_input(args, kwargs, error, message):
    with pytest.raises(error) as info:
        WordLevelBPE(*args, **kwargs)
    assert message in str(info.value)


def test_constructor_takes_what_training_produced():
    wl = WordLevelBPE.train(TOY_TEXT, 4)
    rebuilt = WordLevelBPE(wl.alphabet, wl.merges, [r.count for r in wl.records],
                           word_counts=wl.word_counts,
                           joined_at=[[0, 4, 0, 0], [0, 4, 0, 0, 0, 0], [0] * 4 + [1, 2, 3],
                                      [0] * 4 + [1, 2, 3]],
                           stop_message=None)
    assert rebuilt.word_table_at(4) == wl.word_table_at(4)
    assert rebuilt.words_changed_at(4) == ["low", "lower"]
