"""Models that would blow up, and values that are right but of an unexpected kind."""

import numpy as np
import pytest
from memory_limit import load_under_a_memory_limit

from bpe_workshop import ByteLevelBPE


def test_merges_that_double_a_token_each_line_are_refused_under_a_memory_limit(tmp_path):
    # 97 97, then 256 256, 257 257, ...: the 45th token would hold 2**45 bytes
    merges = ["97 97"] + [f"{256 + k} {256 + k}" for k in range(44)]
    model = tmp_path / "doubling.model"
    model.write_text("bpe-workshop byte-level v1\npattern none\nbyte-ids identity\n"
                     f"special-tokens 0\nmerges {len(merges)}\n" + "\n".join(merges) + "\n",
                     encoding="utf-8")
    said = load_under_a_memory_limit(model)
    assert "doubling.model: merge 25, (279, 279) -> 280, makes a token of 33,554,432 bytes" \
        in said and "these merges keep doubling a token" in said


def test_a_special_token_with_a_lone_surrogate_is_refused_before_training():
    with pytest.raises(ValueError, match="holds a lone surrogate, which UTF-8 cannot store"):
        ByteLevelBPE.train("ab ab", 257, special_tokens={"<|\ud800|>": 300})
    with pytest.raises(ValueError, match="holds a lone surrogate"):
        ByteLevelBPE(special_tokens={"\udc00": 300})


def test_any_integer_type_is_a_vocab_size():
    tok = ByteLevelBPE.train("hello hello", np.int64(258))
    assert len(tok.merges) == 2 and all(type(i) is int for i in tok.merges.values())
    with pytest.raises(TypeError, match="vocab_size must be an int, got float 258.0"):
        ByteLevelBPE.train("hello hello", 258.0)


def test_a_hand_built_tokenizer_is_told_how_to_save(tmp_path):
    tok = ByteLevelBPE({(104, 105): 300, (300, 33): 310})
    with pytest.raises(ValueError, match=r"renumber them first: tok = tok.renumbered\(\)"):
        tok.save(tmp_path / "mine")
    renumbered = tok.renumbered()
    renumbered.save(tmp_path / "mine")
    assert ByteLevelBPE.load(tmp_path / "mine").merges == {(104, 105): 256, (256, 33): 257}
    assert renumbered.decode(renumbered.encode("hi!")) == "hi!"
    assert len(renumbered.encode("hi!")) == len(tok.encode("hi!")) == 1
