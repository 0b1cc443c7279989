"""Model files written by the first release (0.1.0) still load, with the same merges and ids.

The files in ``tests/fixtures/`` were written once by that release and are never rewritten:
- ``paper_byte_level.model``/``.vocab``: ``ByteLevelBPE.train(PAPER_TEXT, 266,
  pattern=GPT4_PATTERN, special_tokens={"<|endoftext|>": 266})``;
- ``gpt2_first_10_merges.model``/``.vocab``: GPT-2's first 10 merges, its byte order and its
  pattern, with ``<|endoftext|>`` moved to id 266;
- ``paper_word_level.wordbpe``: ``WordLevelBPE.train(PAPER_TEXT + " naïve", 10)``.
The expected values below are written out by hand so a reader can check them: the byte ids are
ASCII codes (101 'e', 115 's', 116 't', 108 'l', 111 'o', 119 'w', 32 ' ', 110 'n').
"""

import shutil
from pathlib import Path

import pytest

from bpe_workshop.algorithm.patterns import GPT4_PATTERN
from bpe_workshop.tokenizers.byte_level import ByteLevelBPE
from bpe_workshop.tokenizers.word_level import WordLevelBPE

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
PAPER_TEXT = "low " * 5 + "lower " * 2 + "newest " * 6 + "widest " * 3  # Sennrich et al.'s corpus

PAPER_BYTE_MERGES = {
    (101, 115): 256,  # e s -> es
    (256, 116): 257,  # es t -> est
    (108, 111): 258,  # l o -> lo
    (258, 119): 259,  # lo w -> low
    (32, 110): 260,  # ' ' n -> ' n'
    (32, 259): 261,  # ' ' low -> ' low'
    (101, 119): 262,  # e w -> ew
    (260, 262): 263,  # ' n' ew -> ' new'
    (263, 257): 264,  # ' new' est -> ' newest'
    (32, 119): 265,  # ' ' w -> ' w'
}

# GPT-2's byte order: its printable bytes first ('!' is id 0), so 'a' (97) is id 64 and the
# space (32) is id 220; merges 256-265 are GPT-2's own: ' t', ' a', 'he', 'in', 're', 'on',
# ' the', 'er', ' s', 'at'
GPT2_TIKTOKEN_PATTERN = (  # tiktoken's spelling of GPT-2's pattern, possessive quantifiers
    r"'(?:[sdmt]|ll|ve|re)| ?\p{L}++| ?\p{N}++| ?[^\s\p{L}\p{N}]++|\s++$|\s+(?!\S)|\s"
)
GPT2_MERGES = {
    (220, 83): 256, (220, 64): 257, (71, 68): 258, (72, 77): 259, (81, 68): 260,
    (78, 77): 261, (256, 258): 262, (68, 81): 263, (220, 82): 264, (64, 83): 265,
}

PAPER_WORD_MERGES = [
    (("e", "s"), 9), (("es", "t"), 9), (("est", "</w>"), 9), (("l", "o"), 7), (("lo", "w"), 7),
    (("e", "w"), 6), (("ew", "est</w>"), 6), (("n", "ewest</w>"), 6), (("low", "</w>"), 5),
    (("d", "est</w>"), 3),
]


def test_paper_byte_level_file_loads_with_the_same_merges_and_ids():
    tok = ByteLevelBPE.load(FIXTURES / "paper_byte_level.model")
    assert tok.merges == PAPER_BYTE_MERGES
    assert list(tok.merges) == list(PAPER_BYTE_MERGES)  # merge order too
    assert tok.pattern == GPT4_PATTERN
    assert tok.special_tokens == {"<|endoftext|>": 266}
    assert tok.byte_ids == tuple(range(256))
    assert tok.vocab[264] == b" newest"
    # low|est| new|e|r|<|endoftext|>
    assert tok.encode("lowest newer<|endoftext|>", allowed_special="all") == [
        259, 257, 263, 101, 114, 266]


def test_gpt2_byte_order_file_loads_with_the_same_merges_and_ids():
    tok = ByteLevelBPE.load(FIXTURES / "gpt2_first_10_merges.model")
    assert tok.merges == GPT2_MERGES
    assert tok.pattern == GPT2_TIKTOKEN_PATTERN
    assert tok.special_tokens == {"<|endoftext|>": 266}
    assert tok.byte_ids[32] == 220 and tok.byte_ids[97] == 64 and tok.byte_ids[33] == 0
    assert [tok.vocab[i] for i in range(256, 266)] == [
        b" t", b" a", b"he", b"in", b"re", b"on", b" the", b"er", b" s", b"at"]
    # ' the| |o|t|he|r| |he|r|o|<|endoftext|>: GPT-2's own ids for these pieces
    assert tok.encode(" the other hero<|endoftext|>", allowed_special="all") == [
        262, 220, 78, 83, 258, 81, 220, 258, 81, 78, 266]


@pytest.mark.parametrize("name", ["paper_byte_level", "gpt2_first_10_merges"])
def test_saving_an_old_byte_level_file_again_writes_the_same_bytes(tmp_path, name):
    tok = ByteLevelBPE.load(FIXTURES / f"{name}.model")
    model_path, vocab_path = tok.save(tmp_path / name)
    assert model_path.read_bytes() == (FIXTURES / f"{name}.model").read_bytes()
    assert vocab_path.read_bytes() == (FIXTURES / f"{name}.vocab").read_bytes()


def test_paper_word_level_file_loads_with_the_same_merges_and_ids(tmp_path):
    path = FIXTURES / "paper_word_level.wordbpe"
    assert path.read_text("utf-8").startswith("bpe-workshop word-level 1\n")  # the old header
    wl = WordLevelBPE.load(path)
    assert [(r.pair, r.count) for r in wl.records] == PAPER_WORD_MERGES
    assert wl.merges == tuple(pair for pair, _ in PAPER_WORD_MERGES)
    assert wl.alphabet == tuple("adeilnorstvwï")
    # ids: the alphabet 0-12, </w> 13, <unk> 14, then one per new symbol in merge order
    assert wl.vocab == {
        0: "a", 1: "d", 2: "e", 3: "i", 4: "l", 5: "n", 6: "o", 7: "r", 8: "s", 9: "t",
        10: "v", 11: "w", 12: "ï", 13: "</w>", 14: "<unk>", 15: "es", 16: "est", 17: "est</w>",
        18: "lo", 19: "low", 20: "ew", 21: "ewest</w>", 22: "newest</w>", 23: "low</w>",
        24: "dest</w>",
    }
    assert wl.tokenize("lowest newer naïve") == [
        "low", "est</w>", "n", "ew", "e", "r", "</w>", "n", "a", "ï", "v", "e", "</w>"]
    assert wl.encode("lowest newer naïve") == [19, 17, 5, 20, 2, 7, 13, 5, 0, 12, 10, 2, 13]
    # and what this release writes back loads to the same tokenizer
    copy = tmp_path / "copy.wordbpe"
    shutil.copyfile(path, copy)
    again = WordLevelBPE.load(wl.save(copy))
    assert again.records == wl.records and again.vocab == wl.vocab
