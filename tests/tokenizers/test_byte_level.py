"""ByteLevelBPE: training, encoding, decoding and special tokens, on numbers checkable by hand."""

import warnings

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bpe_workshop.algorithm import encode_fast
from bpe_workshop.algorithm.chunking import encodable
from bpe_workshop.algorithm.patterns import GPT2_PATTERN, GPT4_PATTERN, split_text
from bpe_workshop.algorithm.textbook import merge
from bpe_workshop.files.corpora import load_english, load_multilingual
from bpe_workshop.tokenizers.byte_level import ByteLevelBPE

# English prose, twelve scripts with emoji, and a little code with tabs and newlines
MIXED_TEXT = (load_english()[:12_000] + load_multilingual()
              + "def f(x):\n    return x ** 2  # square\n\tΔ = λ·x — done.\n" * 3)


@pytest.fixture(scope="module")
def trained():
    """Tokenizers trained once on MIXED_TEXT, without and with a split pattern."""
    return {
        None: ByteLevelBPE.train(MIXED_TEXT, 400),
        GPT4_PATTERN: ByteLevelBPE.train(MIXED_TEXT, 400, pattern=GPT4_PATTERN),
    }


def replay_merges(tok, text):
    """Encode by applying every merge in training order: slow, obviously right."""
    ids = []
    for chunk in split_text(text, tok.pattern):
        chunk_ids = list(chunk.encode("utf-8"))
        for pair, new_id in tok.merges.items():
            chunk_ids = merge(chunk_ids, pair, new_id)
        ids += chunk_ids
    return ids


# ----- the Wikipedia example -------------------------------------------------------------

def test_wikipedia_example():
    tok = ByteLevelBPE.train("aaabdaaabac", vocab_size=259)
    assert tok.merges == {(97, 97): 256, (97, 98): 257, (256, 257): 258}
    assert tok.encode("aaabdaaabac") == [258, 100, 258, 97, 99]
    assert tok.decode([258, 100, 258, 97, 99]) == "aaabdaaabac"
    assert [tok.vocab[i] for i in (256, 257, 258)] == [b"aa", b"ab", b"aaab"]
    assert [r.count for r in tok.records] == [4, 2, 2]
    assert tok.stop_message is None
    assert tok.vocab_size == 259


@pytest.mark.parametrize("algorithm", ["naive", "fast"])
def test_wikipedia_example_both_algorithms(algorithm):
    tok = ByteLevelBPE.train("aaabdaaabac", 259, algorithm=algorithm)
    assert tok.encode("aaabdaaabac") == [258, 100, 258, 97, 99]


def test_fast_and_naive_learn_the_same_merges():
    for pattern in (None, GPT2_PATTERN):
        naive = ByteLevelBPE.train(MIXED_TEXT, 350, pattern=pattern, algorithm="naive")
        fast = ByteLevelBPE.train(MIXED_TEXT, 350, pattern=pattern, algorithm="fast")
        assert fast.records == naive.records


def test_stops_early_with_a_message():
    with pytest.warns(UserWarning, match="stopped after 3 of 44 merges"):
        tok = ByteLevelBPE.train("aaabdaaabac", 300)
    assert len(tok.merges) == 3
    assert "no pair of adjacent tokens occurs twice" in tok.stop_message
    assert tok.encode("aaabdaaabac") == [258, 100, 258, 97, 99]


def test_vocab_size_256_learns_nothing_and_says_nothing():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        tok = ByteLevelBPE.train("hello", 256)
    assert tok.merges == {} and tok.stop_message is None
    assert tok.encode("hi") == [104, 105]


def test_progress_callback():
    calls = []
    ByteLevelBPE.train("aaabdaaabac", 259,
                       progress=lambda step, total, r: calls.append((step, total, r.token)))
    assert calls == [(1, 3, b"aa"), (2, 3, b"ab"), (3, 3, b"aaab")]


def test_vocab_is_derived_from_merges():
    tok = ByteLevelBPE.train(MIXED_TEXT, 300, algorithm="naive")
    assert all(tok.vocab[b] == bytes([b]) for b in range(256))
    for (left, right), new_id in tok.merges.items():
        assert tok.vocab[new_id] == tok.vocab[left] + tok.vocab[right]
    assert list(tok.merges.values()) == list(range(256, 300))


def test_pattern_keeps_merges_inside_chunks():
    text = "dog. dog! dog? " * 20
    split = ByteLevelBPE.train(text, 259, pattern=GPT2_PATTERN, algorithm="naive")
    # every learned token lies inside one GPT-2 chunk
    for token in split.vocab.values():
        assert len(split_text(token.decode("utf-8", "replace"), GPT2_PATTERN)) <= 1
    assert [r.token for r in split.records] == [b"do", b"dog", b" dog"]


# ----- encoding and decoding -------------------------------------------------------------

# text without lone surrogates (those become U+FFFD, see the next tests)
any_text = st.text(alphabet=st.characters(blacklist_categories=("Cs",)))


@given(text=any_text)
def test_round_trip_without_pattern(trained, text):
    tok = trained[None]
    assert tok.decode(tok.encode(text)) == text


@given(text=any_text)
def test_round_trip_with_pattern(trained, text):
    tok = trained[GPT4_PATTERN]
    assert tok.decode(tok.encode(text)) == text


@given(text=any_text | st.sampled_from(["the ", "and ", "ing", "你好", "👋"]).map(lambda s: s * 40))
def test_round_trip_of_text_made_of_learned_tokens(trained, text):
    for tok in trained.values():
        assert tok.decode(tok.encode(text)) == text


@given(text=st.text())
def test_round_trip_with_lone_surrogates(trained, text):
    for tok in trained.values():
        assert tok.decode(tok.encode(text)) == encodable(text)


def test_round_trip_multilingual(trained):
    text = "Hello👋, my name is Ada; 你好👋 — ça va? Ελληνικά, русский, हिन्दी, 🇺🇳"
    for tok in trained.values():
        ids = tok.encode(text)
        assert tok.decode(ids) == text
        assert len(ids) < len(text.encode("utf-8"))


@given(st.text(alphabet="ab dé👋\n", max_size=300))
def test_encode_equals_replaying_merges_in_training_order(text):
    # long chunks (>= 64 bytes) take the heap loop, short ones the simple loop
    tok = ByteLevelBPE.train("ab ab abba dé dé👋👋\n" * 20, 276, algorithm="naive")
    assert tok.encode(text) == replay_merges(tok, text)


@given(train_text=st.text(alphabet="abcx y\n", max_size=200), vocab_size=st.integers(256, 300),
       pattern=st.sampled_from([None, GPT2_PATTERN]))
def test_every_learned_token_encodes_to_itself(train_text, vocab_size, pattern):
    # the property tiktoken's whole-token shortcut relies on; true of trained tables
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        tok = ByteLevelBPE.train(train_text, vocab_size, pattern=pattern, algorithm="naive")
    for i, token in tok.vocab.items():
        assert tok.encode_chunk(token) == [i]


def test_heap_loop_and_simple_loop_agree(trained):
    tok = trained[None]
    text_bytes = MIXED_TEXT[:3000].encode("utf-8")
    assert len(text_bytes) >= encode_fast.HEAP_MIN_LEN
    simple = []
    for i in range(0, len(text_bytes), 40):  # pieces short enough for the simple loop
        simple.append(tok.encode_chunk(text_bytes[i:i + 40]))
    heap = tok.encode_chunk(text_bytes)
    assert heap == replay_merges(tok, MIXED_TEXT[:3000])
    assert tok.decode_bytes(heap) == text_bytes


def test_encode_uses_and_bounds_the_chunk_cache(trained, monkeypatch):
    tok = trained[GPT4_PATTERN]
    first = tok.encode(MIXED_TEXT)
    assert tok._cache  # chunks were cached
    assert tok.encode(MIXED_TEXT) == first == replay_merges(tok, MIXED_TEXT)
    monkeypatch.setattr(encode_fast, "CACHE_MAX_ENTRIES", 5)
    tok.encode(" ".join(f"w{i}" for i in range(50)))
    assert len(tok._cache) <= 5


def test_decode_replaces_invalid_utf8():
    tok = ByteLevelBPE()
    assert tok.decode([128]) == "\ufffd"
    assert tok.decode_bytes([128]) == b"\x80"
    assert tok.token_bytes([104, 128]) == [b"h", b"\x80"]
    # a character split over two ids decodes once the ids are together
    ids = tok.encode("你")
    assert [tok.decode([i]) for i in ids] == ["\ufffd"] * 3
    assert tok.decode(ids) == "你"


def test_lone_surrogates_become_replacement_characters():
    tok = ByteLevelBPE()
    assert tok.decode(tok.encode("a\ud800b")) == "a\ufffdb"
    # a surrogate pair written as two code points is the character it stands for
    assert tok.encode("\ud83d\ude00") == tok.encode("😀")


def test_training_text_with_lone_surrogates():
    with_surrogates = ByteLevelBPE.train("a\ud800 b\udfff " * 10, 260, pattern=GPT2_PATTERN)
    replaced = ByteLevelBPE.train("a\ufffd b\ufffd " * 10, 260, pattern=GPT2_PATTERN)
    assert with_surrogates.records == replaced.records and len(replaced.records) == 4


def test_empty_text(trained):
    for tok in trained.values():
        assert tok.encode("") == []
        assert tok.decode([]) == ""


def test_byte_order_other_than_identity():
    byte_ids = list(reversed(range(256)))  # byte b has id 255 - b
    tok = ByteLevelBPE({(255 - 97, 255 - 98): 256}, byte_ids=byte_ids)
    assert tok.encode("abc") == [256, 255 - 99]
    assert tok.decode([256, 255 - 99]) == "abc"
    assert tok.vocab[255] == b"\x00"


# ----- special tokens --------------------------------------------------------------------

@pytest.fixture
def special():
    return ByteLevelBPE.train("ab ab ab", 257, special_tokens={"<|end|>": 300, "<|pad|>": 301})


def test_special_tokens_in_vocab(special):
    assert special.special_tokens == {"<|end|>": 300, "<|pad|>": 301}
    assert special.vocab[300] == b"<|end|>"
    assert special.decode([256, 300]) == "ab<|end|>"


def test_allowed_special(special):
    assert special.encode("ab<|end|><|pad|>", allowed_special="all") == [256, 300, 301]
    assert special.encode("ab<|end|>", allowed_special={"<|end|>"}) == [256, 300]


def test_special_tokens_disallowed_by_default(special):
    with pytest.raises(ValueError, match=r"allowed_special=\{'<\|pad\|>'\}"):
        special.encode("ab<|pad|>")
    # allowing one token leaves the others disallowed
    with pytest.raises(ValueError, match="<\\|pad\\|>"):
        special.encode("<|end|><|pad|>", allowed_special={"<|end|>"})


def test_special_tokens_as_plain_text(special):
    plain = special.encode("<|end|>", disallowed_special=())
    assert 300 not in plain and special.decode(plain) == "<|end|>"
    assert special.encode_ordinary("<|end|>") == plain
    # disallow only <|pad|>: <|end|> is then plain text
    assert special.encode("<|end|>", disallowed_special={"<|pad|>"}) == plain


def test_special_tokens_are_left_out_of_training():
    text = "x<|end|>y" * 50
    tok = ByteLevelBPE.train(text, 257, special_tokens={"<|end|>": 1000})
    assert tok.records[0].token == b"yx"
    assert all(b"<|" not in token for i, token in tok.vocab.items() if i != 1000)
