"""Models that would blow up, values that are right but of an unexpected kind, and edits: a
tokenizer's tables are read-only, ``with_merges`` makes an edited one, and a save writes only
what loads back."""

import copy
import pickle

import numpy as np
import pytest
from memory_limit import load_under_a_memory_limit

from bpe_workshop import ByteLevelBPE, WordLevelBPE


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
    with pytest.raises(ValueError, match=r"renumber them first \(the same tokens, new ids\): "
                                         r"tok = tok.renumbered\(\)"):
        tok.save(tmp_path / "mine")
    renumbered = tok.renumbered()
    renumbered.save(tmp_path / "mine")
    assert ByteLevelBPE.load(tmp_path / "mine").merges == {(104, 105): 256, (256, 33): 257}
    assert renumbered.decode(renumbered.encode("hi!")) == "hi!"
    assert len(renumbered.encode("hi!")) == len(tok.encode("hi!")) == 1


# ----- a learner's edit never half-changes a tokenizer, and no save loses a model ----------

def test_the_tables_of_a_byte_level_tokenizer_refuse_edits_and_it_stays_whole():
    tok = ByteLevelBPE.train("aaabdaaabac", vocab_size=259)
    ids = tok.encode("aaabdaaabac")
    with pytest.raises(TypeError, match=r"read-only; make the tokenizer you want with "
                                        r"tok.with_merges\(new_merges\)"):
        tok.merges[(999, 100)] = 259
    for edit in (lambda: tok.merges.pop((97, 97)), lambda: tok.vocab.clear(),
                 lambda: tok.special_tokens.update({"<|x|>": 300})):
        with pytest.raises(TypeError, match="read-only"):
            edit()
    with pytest.raises(AttributeError, match=r"merges cannot be changed in place; .*with_merges"):
        tok.merges = {}
    with pytest.raises(AttributeError, match="cannot be changed in place"):
        del tok.vocab
    assert (tok.vocab_size, repr(tok), tok.encode("aaabdaaabac")) == (
        259, "ByteLevelBPE(vocab_size=259, merges=3, pattern=None, special_tokens=0)", ids)


def test_with_merges_makes_a_whole_new_tokenizer_checked_like_a_new_one():
    tok = ByteLevelBPE.train("aaabdaaabac", vocab_size=259, special_tokens={"<|e|>": 300})
    before = tok.encode("aaabd")  # fills the chunk cache
    with pytest.raises(ValueError, match=r"merge \(999, 100\) -> 259 does not fit"):
        tok.with_merges({**tok.merges, (999, 100): 259})
    longer = tok.with_merges({**tok.merges, (258, 100): 259})
    assert longer.vocab_size == 261 and "merges=4" in repr(longer)
    assert longer.encode("aaabd") == [259] and longer.decode([259]) == "aaabd"
    assert longer.special_tokens == {"<|e|>": 300} and longer.records == ()
    assert tok.encode("aaabd") == before and tok.vocab_size == 260  # the old one is unchanged
    shorter = tok.with_merges(dict(list(tok.merges.items())[:-1]))
    assert shorter.encode("aaab") == [256, 257]
    with pytest.raises(ValueError, match="unknown token id 258: valid ids are the ints 0..257"):
        shorter.decode([258])


def test_word_level_merges_are_a_tuple_and_with_merges_applies_a_new_one():
    wl = WordLevelBPE.train("low low lower", num_merges=1)
    with pytest.raises(AttributeError, match="'tuple' object has no attribute 'append'"):
        wl.merges.append(("lo", "w"))
    with pytest.raises(AttributeError, match=r"wl.with_merges\(new_merges\)"):
        wl.merges = []
    edited = wl.with_merges([*wl.merges, ("lo", "w")])
    assert edited.tokenize("low") == ["low", "</w>"] and wl.tokenize("low") == ["lo", "w", "</w>"]
    assert edited.vocab_size == wl.vocab_size + 1 and edited.decode(edited.encode("low")) == "low"


def test_a_save_that_would_not_load_back_replaces_nothing(tmp_path):
    path = WordLevelBPE.train("low low lower", num_merges=2).save(tmp_path / "words.wordbpe")
    good = path.read_bytes()
    dead = WordLevelBPE(["l", "o", "w"], [("l", "o"), ("x", "y")])  # 'x' is in no alphabet
    with pytest.raises(ValueError, match=r"words.wordbpe would not load back: .*line 5: merge "
                                         r"uses 'x', which no earlier line defines; nothing was "
                                         r"saved"):
        dead.save(path)
    assert path.read_bytes() == good and WordLevelBPE.load(path).merges == (("l", "o"),
                                                                            ("lo", "w"))


def test_renumbered_keeps_the_rank_order_so_the_tokens_stay_the_same(tmp_path):
    # (98, 99) ranks before (97, 98) although it comes second: 'abc' is a + bc, not ab + c
    tok = ByteLevelBPE({(97, 98): 300, (98, 99): 257})
    again = tok.renumbered()
    assert again.merges == {(98, 99): 256, (97, 98): 257}
    assert again.token_bytes(again.encode("abc")) == tok.token_bytes(tok.encode("abc")) == [
        b"a", b"bc"]
    again.save(tmp_path / "mine")
    assert ByteLevelBPE.load(tmp_path / "mine").encode("abc") == again.encode("abc")


def test_a_copied_or_pickled_tokenizer_stays_read_only():
    tok = ByteLevelBPE.train("aaabdaaabac", vocab_size=259)
    for twin in (copy.copy(tok), copy.deepcopy(tok), pickle.loads(pickle.dumps(tok))):
        with pytest.raises(TypeError, match="read-only"):
            twin.merges[(999, 100)] = 259
        assert twin.encode("aaabdaaabac") == tok.encode("aaabdaaabac")
    assert type(dict(tok.merges)) is dict and type(tok.merges.copy()) is dict  # yours to change
