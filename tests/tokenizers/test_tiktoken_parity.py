"""from_tiktoken: our encoder with GPT-2's, GPT-4's and GPT-4o's recovered merges gives
tiktoken's ids."""

import functools
import hashlib

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bpe_workshop.algorithm.textbook import build_vocab
from bpe_workshop.files.corpora import data_path, load_multilingual, load_stdlib_code
from bpe_workshop.files.offline import get_encoding
from bpe_workshop.tokenizers import tiktoken_bridge
from bpe_workshop.tokenizers.byte_level import ByteLevelBPE
from bpe_workshop.tokenizers.tiktoken_bridge import bpe_parts, mergeable_ranks, recover_merges

NAMES = ["gpt2", "cl100k_base", "o200k_base"]


@pytest.fixture(scope="module", params=NAMES)
def pair(request):
    """(our tokenizer, tiktoken's encoding) for one encoding name."""
    return ByteLevelBPE.from_tiktoken(request.param), get_encoding(request.param)


@pytest.fixture(scope="module")
def stdlib_slice():
    return load_stdlib_code(max_bytes=300_000)


@pytest.mark.parametrize("name, text, ids", [
    ("gpt2", "hello world", [31373, 995]),
    ("gpt2", "Akwirw ier", [33901, 86, 343, 86, 220, 959]),
    ("cl100k_base", "hello world", [15339, 1917]),
    ("o200k_base", "hello world", [24912, 2375]),
])
def test_known_ids(name, text, ids):
    assert ByteLevelBPE.from_tiktoken(name).encode(text) == ids


def test_unknown_word_falls_back_to_pieces():
    tok = ByteLevelBPE.from_tiktoken("gpt2")
    assert [tok.decode([i]) for i in tok.encode("someunknownPlace")] == ["some", "unknown", "Place"]
    assert [tok.decode([i]) for i in tok.encode("Akwirw ier")] == ["Ak", "w", "ir", "w", " ", "ier"]


def test_special_tokens_match():
    gpt2 = ByteLevelBPE.from_tiktoken("gpt2")
    cl100k = ByteLevelBPE.from_tiktoken("cl100k_base")
    assert gpt2.special_tokens == {"<|endoftext|>": 50256} and gpt2.vocab_size == 50257
    assert cl100k.encode("<|endoftext|>hello world", allowed_special="all") == [100257, 15339, 1917]
    with pytest.raises(ValueError, match="<\\|endoftext\\|>"):
        cl100k.encode("<|endoftext|>hello world")
    o200k = ByteLevelBPE.from_tiktoken("o200k_base")
    assert o200k.encode("<|endoftext|>hello world", allowed_special="all") == [199999, 24912, 2375]


def test_gpt2_bytes_are_not_in_byte_order():
    tok = ByteLevelBPE.from_tiktoken("gpt2")
    assert tok.byte_ids[ord("!")] == 0 and tok.byte_ids[ord(" ")] == 220
    assert tok.encode(" ") == [220] and tok.decode([220]) == " "


def test_vocab_equals_tiktokens_token_bytes(pair):
    tok, enc = pair
    for i, token in tok.vocab.items():
        assert enc.decode_single_token_bytes(i) == token
    assert len(tok.vocab) == len(enc._mergeable_ranks) + len(enc._special_tokens)


def test_every_token_encodes_to_itself(pair):
    # so taking a chunk that is one whole token as that token (tiktoken's shortcut) changes nothing
    tok, _ = pair
    for i, token in tok.vocab.items():
        if i not in tok.special_tokens.values():
            assert tok.encode_chunk(token) == [i]


def test_pattern_is_the_encodings_own(pair):
    tok, enc = pair
    assert tok.pattern == enc._pat_str


def test_stdlib_code_slice(pair, stdlib_slice):
    tok, enc = pair
    assert len(stdlib_slice.encode("utf-8")) > 250_000
    ids = tok.encode_ordinary(stdlib_slice)
    assert ids == enc.encode_ordinary(stdlib_slice)
    assert tok.decode(ids) == enc.decode(ids) == stdlib_slice


def test_multilingual_text_and_emoji(pair):
    tok, enc = pair
    text = load_multilingual()
    assert tok.encode(text) == enc.encode(text)


@pytest.mark.parametrize("text", ["\ud800", "a\udc00\ud800b", "a\ud83d\ude00b", "x\udfff y \ud800"])
def test_lone_surrogates_as_tiktoken(pair, text):
    tok, enc = pair
    assert tok.encode(text) == enc.encode(text)
    assert tok.decode(tok.encode(text)) == enc.decode(enc.encode(text))


@given(text=st.text())
def test_any_text(pair, text):
    tok, enc = pair
    assert tok.encode(text, disallowed_special=()) == enc.encode(text, disallowed_special=())


@given(text=st.lists(st.sampled_from(list(" \n\t\r'sdmtlvrLa1é你👋!.")
                                     + ["<|endoftext|>", "'S", "  "])).map("".join))
def test_whitespace_contractions_and_special_tokens(pair, text):
    tok, enc = pair
    assert tok.encode(text, allowed_special="all") == enc.encode(text, allowed_special="all")
    ids = tok.encode(text, disallowed_special=())
    assert ids == enc.encode(text, disallowed_special=())
    assert tok.decode(ids) == enc.decode(ids)


@functools.cache
def gpt2_pair():
    """Built once for the property test below, not once per example (50,000 merges)."""
    return ByteLevelBPE.from_tiktoken("gpt2"), get_encoding("gpt2")


@given(ids=st.lists(st.integers(0, 50256)))
def test_decode_any_ids_gpt2(ids):
    tok, enc = gpt2_pair()
    assert tok.decode(ids) == enc.decode(ids)
    assert tok.decode_bytes(ids) == enc.decode_bytes(ids)


def test_recovery_on_a_small_made_up_vocabulary():
    ranks = {bytes([b]): b for b in range(256)}
    ranks.update({b"ab": 256, b"cd": 257, b"abcd": 258})
    assert bpe_parts(ranks, b"abcd", 258) == [b"ab", b"cd"]
    byte_ids, merges = recover_merges(ranks)
    assert byte_ids == list(range(256))
    assert merges == {(97, 98): 256, (99, 100): 257, (256, 257): 258}


def test_unsupported_encoding_name():
    with pytest.raises(ValueError, match="name must be 'gpt2', 'cl100k_base' or 'o200k_base', "
                                         "got 'p50k_base'"):
        ByteLevelBPE.from_tiktoken("p50k_base")


def fresh_cuts(name: str) -> bytes:
    """What ``data/<name>.cuts`` must hold: each merge's left length, recovered by BPE."""
    byte_ids, merges = recover_merges(get_encoding(name)._mergeable_ranks)
    vocab = build_vocab(merges, byte_ids)
    return bytes(len(vocab[left]) for left, _ in merges)


@pytest.mark.parametrize("name", NAMES)
def test_shipped_cuts_are_the_recovered_merges(name):
    data = data_path(f"{name}.cuts").read_bytes()
    assert data == fresh_cuts(name), (
        f"data/{name}.cuts is stale: rewrite it with python {__file__}")
    assert hashlib.sha256(data).hexdigest() == tiktoken_bridge.CUTS_SHA256[name], (
        f"CUTS_SHA256[{name!r}] in tiktoken_bridge.py must be the new file's SHA-256")


def test_cuts_that_do_not_fit_the_ranks_are_refused():
    ranks = get_encoding("gpt2")._mergeable_ranks
    cuts = data_path("gpt2.cuts").read_bytes()
    with pytest.raises(ValueError, match="49999 cuts for 50000 tokens"):
        recover_merges(ranks, cuts[:-1])
    with pytest.raises(ValueError, match=r"token b' t' \(rank 256\) is not one merge"):
        recover_merges(ranks, bytes([0]) + cuts[1:])


@pytest.fixture
def cuts_in(tmp_path, monkeypatch):
    """Copies of the shipped *.cuts files in tmp_path, read by from_tiktoken instead."""
    for name in NAMES:
        (tmp_path / f"{name}.cuts").write_bytes(data_path(f"{name}.cuts").read_bytes())
    monkeypatch.setattr(tiktoken_bridge, "data_path", lambda name: tmp_path / name)
    tiktoken_bridge._recovered.cache_clear()
    yield tmp_path
    tiktoken_bridge._recovered.cache_clear()


def one_byte_changed(data):  # the case found: offset 15 of o200k, 2 -> 1
    assert data[15] == 2
    return data[:15] + bytes([1]) + data[16:]


@pytest.mark.parametrize("name, damage, why", [
    ("o200k_base", one_byte_changed, "its SHA-256 differs"),
    ("gpt2", lambda data: data[: len(data) // 2], "its SHA-256 differs"),  # truncated
    ("gpt2", lambda data: bytes(len(data)), "its SHA-256 differs"),  # zeroed
    ("gpt2", None, "No such file"),
], ids=["one byte changed", "truncated", "zeroed", "missing"])
def test_a_damaged_cuts_file_is_recovered_with_a_warning_and_tiktokens_ids(cuts_in, name,
                                                                          damage, why):
    path = cuts_in / f"{name}.cuts"
    if damage is None:
        path.unlink()
    else:
        path.write_bytes(damage(path.read_bytes()))
    with pytest.warns(UserWarning, match=rf"{name}.cuts, the merges recovered ahead of time, "
                                         rf"cannot be used \(.*{why}.*\), so they were "
                                         rf"recovered from tiktoken's ranks again"):
        tok = ByteLevelBPE.from_tiktoken(name)
    enc = get_encoding(name)
    text = "    indented\n        twice   " + load_multilingual()[:2000]
    assert tok.encode("   ") == enc.encode("   ") and tok.encode(text) == enc.encode(text)


def test_the_ranks_a_learner_gets_are_a_copy_that_changes_nothing_else():
    ranks = mergeable_ranks("gpt2")
    assert ranks == get_encoding("gpt2")._mergeable_ranks
    assert ranks is not get_encoding("gpt2")._mergeable_ranks
    ranks[b"A"], ranks[b"B"] = ranks[b"B"], ranks[b"A"]  # what notebook 06's learner may try
    del ranks[b" hello"]
    tiktoken_bridge._recovered.cache_clear()  # as in a kernel that had not loaded it yet
    try:
        tok = ByteLevelBPE.from_tiktoken("gpt2")
    finally:
        tiktoken_bridge._recovered.cache_clear()
    assert tok.encode("AB hello") == get_encoding("gpt2").encode("AB hello")
    assert mergeable_ranks("gpt2")[b" hello"] == 23748


if __name__ == "__main__":  # rewrite data/<name>.cuts after a change to tiktoken's files
    for encoding_name in NAMES:
        data_path(f"{encoding_name}.cuts").write_bytes(fresh_cuts(encoding_name))
