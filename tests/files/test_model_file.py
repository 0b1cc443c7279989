"""Saving and loading: the model file gives back a tokenizer with identical ids."""

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bpe_workshop.algorithm.patterns import GPT2_PATTERN, GPT4_PATTERN
from bpe_workshop.files.corpora import load_english, load_multilingual
from bpe_workshop.files.model_file import BYTE_LEVEL_HEADER as HEADER
from bpe_workshop.tokenizers.byte_level import ByteLevelBPE

TEXT = load_english()[:8000] + load_multilingual()
odd_pattern = "\n|\"quoted\"|\\p{L}+|[^\\p{L}\n]+"  # a newline and quotes inside the pattern


@pytest.fixture(scope="module")
def tokenizers():
    specials = {"<|endoftext|>": 400, "[PAD]\n": 401}
    return [
        ByteLevelBPE.train(TEXT, 300),
        ByteLevelBPE.train(TEXT, 350, pattern=GPT4_PATTERN, special_tokens=specials),
        ByteLevelBPE.train(TEXT, 300, pattern=odd_pattern),
    ]


def test_wikipedia_model_file_is_readable(tmp_path):
    tok = ByteLevelBPE.train("aaabdaaabac", 259, pattern=GPT2_PATTERN,
                             special_tokens={"<|endoftext|>": 259})
    model_path, vocab_path = tok.save(tmp_path / "wiki")
    assert model_path == tmp_path / "wiki.model" and vocab_path == tmp_path / "wiki.vocab"
    lines = model_path.read_text(encoding="utf-8").splitlines()
    assert lines[0] == HEADER == "bpe-workshop byte-level v1"
    assert lines[1].startswith('pattern "\'s|\'t|')
    assert lines[2:] == ["byte-ids identity", "special-tokens 1", '259 "<|endoftext|>"',
                         "merges 3", "97 97", "97 98", "256 257"]
    vocab_lines = vocab_path.read_text(encoding="utf-8").splitlines()
    assert vocab_lines[1].split() == ["0", "\\x00", "byte", "0x00"]
    assert vocab_lines[-2].split() == ["258", "aaab", "<-", "256", "aa", "+", "257", "ab"]
    assert vocab_lines[-1].split() == ["259", "<|endoftext|>", "special", "token"]


def test_load_gives_the_same_tokenizer(tokenizers, tmp_path):
    for n, tok in enumerate(tokenizers):
        model_path, _ = tok.save(tmp_path / f"tok{n}")
        loaded = ByteLevelBPE.load(model_path)
        assert loaded.merges == tok.merges
        assert list(loaded.merges) == list(tok.merges)  # merge order too
        assert loaded.vocab == tok.vocab
        assert loaded.pattern == tok.pattern
        assert loaded.special_tokens == tok.special_tokens
        assert loaded.encode(TEXT, allowed_special="all") == tok.encode(TEXT, allowed_special="all")


@settings(suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
          max_examples=30)
@given(train_text=st.text(min_size=0, max_size=300), vocab_size=st.integers(256, 300),
       pattern=st.sampled_from([None, GPT2_PATTERN, GPT4_PATTERN]), text=st.text())
def test_save_then_load_gives_identical_ids(tmp_path, train_text, vocab_size, pattern, text):
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # small texts stop early, on purpose
        tok = ByteLevelBPE.train(train_text, vocab_size, pattern=pattern)
    model_path, _ = tok.save(tmp_path / "prop")
    loaded = ByteLevelBPE.load(model_path)
    assert loaded.encode(text) == tok.encode(text)
    assert loaded.decode(loaded.encode(text)) == tok.decode(tok.encode(text))


def test_gpt2_byte_order_survives_save_and_load(tmp_path):
    tok = ByteLevelBPE.from_tiktoken("gpt2")
    model_path, vocab_path = tok.save(tmp_path / "gpt2")
    loaded = ByteLevelBPE.load(model_path)
    assert loaded.byte_ids == tok.byte_ids != list(range(256))
    assert loaded.encode("hello world") == [31373, 995]
    assert loaded.encode("<|endoftext|>hi", allowed_special="all")[0] == 50256
    assert " 31373  hello  <- " in vocab_path.read_text(encoding="utf-8")


def test_vocab_file_has_one_line_per_id(tokenizers, tmp_path):
    tok = tokenizers[1]  # its special token "[PAD]\n" holds a newline
    _, vocab_path = tok.save(tmp_path / "lines")
    lines = vocab_path.read_text(encoding="utf-8").splitlines()
    assert len(lines) == 1 + len(tok.vocab)
    assert lines[-1].split() == ["401", "[PAD]\\n", "special", "token"]


def test_windows_line_endings_are_accepted(tmp_path):
    tok = ByteLevelBPE.train("aaabdaaabac", 259)
    model_path, _ = tok.save(tmp_path / "crlf")
    model_path.write_bytes(model_path.read_bytes().replace(b"\n", b"\r\n"))
    assert ByteLevelBPE.load(model_path).encode("aaabdaaabac") == [258, 100, 258, 97, 99]


def test_model_file_is_never_a_pickle(tmp_path):
    model_path, _ = ByteLevelBPE.train("aaabdaaabac", 259).save(tmp_path / "plain")
    assert model_path.read_bytes()[:2] != b"\x80\x04"
    model_path.read_bytes().decode("ascii")  # plain text all the way


# ----- plain data in, plain data out ---------------------------------------------------------


def test_model_file_imports_no_tokenizer_class():
    """model_file knows formats only: no import of the classes it serves (no cycle to dodge)."""
    import ast
    from pathlib import Path

    import bpe_workshop.files.model_file as model_file

    tree = ast.parse(Path(model_file.__file__).read_text(encoding="utf-8"))
    imported = {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
    imported |= {alias.name for node in ast.walk(tree) if isinstance(node, ast.Import)
                 for alias in node.names}
    assert not imported & {"bpe_workshop.tokenizers.byte_level",
                            "bpe_workshop.tokenizers.word_level",
                           "bpe_workshop.tokenizers.tiktoken_bridge"}


def test_load_byte_level_returns_the_constructor_arguments(tokenizers, tmp_path):
    from bpe_workshop.files.model_file import load_byte_level

    tok = tokenizers[1]
    tok.save(tmp_path / "gpt4")
    data = load_byte_level(tmp_path / "gpt4")
    assert data == {"merges": tok.merges, "pattern": tok.pattern,
                    "special_tokens": tok.special_tokens, "byte_ids": list(range(256))}
    assert ByteLevelBPE(**data).vocab == tok.vocab


def test_load_word_level_returns_the_constructor_arguments(tmp_path):
    from bpe_workshop.files.model_file import load_word_level
    from bpe_workshop.tokenizers.word_level import WordLevelBPE

    wl = WordLevelBPE.train("low low lower newest newest widest", 6)
    data = load_word_level(wl.save(tmp_path / "words.wordbpe"))
    assert data == {"alphabet": list(wl.alphabet), "merges": list(wl.merges),
                    "counts": [r.count for r in wl.records]}
    assert WordLevelBPE(**data).vocab == wl.vocab


def test_saving_a_table_with_ids_out_of_order_is_refused(tmp_path):
    tok = ByteLevelBPE({(97, 98): 257, (98, 99): 256})
    with pytest.raises(ValueError, match=r"only merges minting ids 256, 257, \.\.\. in order"):
        tok.save(tmp_path / "odd")
    assert list(tmp_path.iterdir()) == []
