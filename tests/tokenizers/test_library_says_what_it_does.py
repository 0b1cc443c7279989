"""The library does what it is asked, or says why not: no argument silently ignored or eaten."""

import itertools

import pytest

from bpe_workshop import ByteLevelBPE, validation

END = {"<|end|>": 300}


@pytest.fixture(scope="module")
def tok():
    return ByteLevelBPE.train("ab ab ab", 257, special_tokens=END)


def test_allowed_and_disallowed_special_take_any_iterable(tok):
    # a generator is read once: the check that it holds texts must not use it up
    assert tok.encode("ab<|end|>", allowed_special=(t for t in END)) == [256, 300]
    assert tok.encode("ab<|end|>", allowed_special=iter(["<|end|>"])) == [256, 300]
    plain = tok.encode("<|end|>", disallowed_special=iter(()))  # as ordinary text
    assert tok.decode(plain) == "<|end|>" and 300 not in plain
    with pytest.raises(ValueError, match=r"^the text contains '<\|end\|>', which is a special"):
        tok.encode("<|end|>", disallowed_special=(t for t in END))


def test_a_str_that_is_no_special_token_is_not_offered_back_as_a_set(tok):
    with pytest.raises(TypeError) as caught:
        tok.encode("ab", allowed_special="none")
    assert str(caught.value) == (
        "allowed_special must be \"all\" or a set of special token texts, "
        "e.g. allowed_special={'<|endoftext|>'} or (), got str 'none'")
    with pytest.raises(TypeError, match=r"e\.g\. allowed_special=\{'<\|end\|>'\} or \(\)"):
        tok.encode("ab", allowed_special="<|end|>")  # a token's text: the set it belongs in


def test_decoding_an_endless_iterator_stops(tok, monkeypatch):
    with pytest.raises(ValueError, match="^unknown token id 257:"):  # 0, 1, 2, ... stops there
        tok.decode(itertools.count())
    monkeypatch.setattr(validation, "MAX_IDS", 1000)
    with pytest.raises(ValueError, match=r"^ids holds more than 1,000 ids; decode them in "
                                         r"slices, e\.g\. itertools\.islice\(ids, 1_000_000\)$"):
        tok.decode(itertools.repeat(97))
    assert tok.decode(itertools.repeat(97, 1000)) == "a" * 1000


def test_a_pattern_nested_too_deep_for_the_regex_engine_is_refused_by_name():
    deep = "(" * 20_000 + "a" + ")" * 20_000
    with pytest.raises(ValueError, match=r"^the split pattern r'\(\(\(.*\.\.\.' nests groups too "
                                         r"deeply for the regex module to compile; use fewer"):
        ByteLevelBPE(pattern=deep)
