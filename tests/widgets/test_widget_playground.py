"""Token playground: drive the text box and checkboxes, read the HTML."""
import pytest

from bpe_workshop.tokenizers.byte_level import ByteLevelBPE
from bpe_workshop.widgets import token_playground


def test_widget_playground_shows_gpt2_cl100k_and_o200k_side_by_side_with_counts():
    play = token_playground("3221 + 2334 = 5555")
    # the syllabus' facts: 3|221| +| 233|4| =| 5|555 and 322|1| +| |233|4| =| |555|5
    assert play.results["gpt2"] == [18, 26115, 1343, 30435, 19, 796, 642, 31046]
    assert len(play.results["cl100k_base"]) == 10
    assert "<b>8 tokens</b> · 18 bytes" in play.value
    assert "<b>10 tokens</b> · 18 bytes" in play.value
    assert len(play.results["o200k_base"]) == 10 and ">o200k_base<" in play.value
    assert play.value.count("<style>") == 1


def test_widget_playground_updates_when_text_changes():
    play = token_playground("hello world")
    assert play.results == {"gpt2": [31373, 995], "cl100k_base": [15339, 1917],
                            "o200k_base": [24912, 2375]}
    play.text.value = "你好,我是池邦豪! 👋"
    assert len(play.results["gpt2"]) == 20 and len(play.results["cl100k_base"]) == 14
    assert "= 你" in play.value  # partial UTF-8 tokens grouped under their character
    assert "hello" not in play.value


def test_widget_playground_checkboxes_choose_columns():
    play = token_playground("hi")
    play.checkboxes["gpt2"].value = False
    assert ">gpt2<" not in play.value and ">cl100k_base<" in play.value
    play.checkboxes["cl100k_base"].value = False
    play.checkboxes["o200k_base"].value = False
    assert "Tick at least one encoding" in play.value


def test_widget_playground_show_ids_toggle():
    play = token_playground("hello world", show_ids=True)
    assert '<span class="bpe-id">31373</span>' in play.value
    play.show_ids.value = False
    assert '<span class="bpe-id">' not in play.value
    assert "ids: [31373, 995]" in play.value  # the id list stays


def test_widget_playground_takes_a_trained_tokenizer():
    tok = ByteLevelBPE.train("aaabdaaabac", vocab_size=259)
    play = token_playground("aaabdaaabac", extra={"mine": tok})
    assert play.results["mine"] == [258, 100, 258, 97, 99]
    assert ">mine<" in play.value


def test_widget_playground_special_token_and_empty_text():
    play = token_playground("<|endoftext|>hello world", encodings=["cl100k_base"])
    assert play.results["cl100k_base"] == [100257, 15339, 1917]
    play.text.value = ""
    assert "The text is empty" in play.value


def test_widget_playground_long_text_shows_a_window():
    play = token_playground("word" * 3000, encodings=["gpt2"], max_tokens=200)
    assert len(play.results["gpt2"]) == 3000  # 'word' is one gpt2 token
    assert "Showing the first 200 of 3,000 tokens" in play.value
    assert "more)" in play.value  # the id list is cut too


def test_widget_playground_bad_encoder_raises_at_once():
    with pytest.raises(TypeError, match=r"cannot show tokens of object .*extra\['broken'\]"):
        token_playground("hi", encodings=["gpt2"], extra={"broken": object()})


def test_widget_playground_encoding_error_is_a_message_naming_the_column():
    play = token_playground("<|endoftext|>", encodings=["gpt2"], allowed_special=set())
    assert "gpt2: " in play.value and "endoftext" in play.value
    assert play.results == {}
    play.text.value = "hello"
    assert play.results == {"gpt2": [31373]}
