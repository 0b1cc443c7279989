"""Merge stepper: precomputed steps agree with encoding under the first merges."""
import re

import pytest

from bpe_workshop.algorithm.patterns import GPT4_PATTERN
from bpe_workshop.files.corpora import load_english
from bpe_workshop.tokenizers.byte_level import ByteLevelBPE
from bpe_workshop.widgets import merge_stepper
from bpe_workshop.widgets.merge_stepper import CACHE_CHARS, WINDOW_BYTES

PASSAGE = ("The quick brown fox jumps over the lazy dog. The dog sleeps; the fox runs. "
           "Then the fox and the dog rest together in the sun. ") * 6 + "你好,世界! 👋"


@pytest.fixture(scope="module")
def stepper():
    return merge_stepper(PASSAGE, vocab_size=300, pattern="gpt4")


def test_widget_merge_stepper_steps_equal_encoding_with_the_first_merges(stepper):
    tok = stepper.tokenizer
    assert tok.pattern == GPT4_PATTERN and stepper.num_steps == 44
    for step in (0, 1, 7, 20, 44):
        first = dict(list(tok.merges.items())[:step])
        expected = ByteLevelBPE(first, tok.pattern).encode_ordinary(PASSAGE)
        assert [i for ids in stepper.ids_at(step) for i in ids] == expected


def test_widget_merge_stepper_slider_changes_tokens_and_merge_shown(stepper):
    stepper.slider.value = 0
    assert "No merges yet" in stepper.info.value
    assert "vocabulary <b>256</b> tokens" in stepper.info.value
    n_bytes = len(PASSAGE.encode())
    assert f"<b>{n_bytes:,}</b> tokens for {n_bytes:,} bytes" in stepper.info.value
    before = stepper.tokens.value
    stepper.slider.value = 1
    record = stepper.tokenizer.records[0]
    assert "Merge 1:" in stepper.info.value
    assert f"counted {record.count:,} times in training" in stepper.info.value
    assert "vocabulary <b>257</b> tokens" in stepper.info.value
    assert stepper.tokens.value != before
    assert f'data-id="{record.new_id}"' in stepper.tokens.value


def test_widget_merge_stepper_pair_counts_highlight_the_next_merge(stepper):
    stepper.slider.value = 5
    counts = stepper.pair_counts_at(5)
    nxt = stepper.tokenizer.records[5]
    assert counts[nxt.pair] == nxt.count  # trained on this passage: counts agree
    assert f"({nxt.pair[0]}, {nxt.pair[1]})" in stepper.pairs.value
    assert 'class="bpe-current"' in stepper.pairs.value


def test_widget_merge_stepper_last_step_and_play_range(stepper):
    assert stepper.play.max == stepper.slider.max == 44
    stepper.slider.value = 44
    assert "all 44 merges are applied" in stepper.info.value


def drawn_bytes(stepper) -> int:
    """Bytes of the passage drawn as coloured tokens (each token's ``data-id``)."""
    ids = [int(i) for i in re.findall(r'data-id="(\d+)"', stepper.tokens.value)]
    return sum(len(stepper.tokenizer.vocab[i]) for i in ids)


def test_widget_merge_stepper_long_passage_shows_a_window():
    long_text = "tokens are fun to watch. " * 400
    stepper = merge_stepper(long_text, vocab_size=270, window_bytes=500)
    n_tokens = sum(len(ids) for ids in stepper.ids_at(0))
    assert f"of {n_tokens:,} tokens (the text is long)" in stepper.tokens.value
    assert 500 <= drawn_bytes(stepper) < 501  # whole tokens, from byte 500 on (1 byte each)
    stepper.slider.value = 14
    assert 500 <= drawn_bytes(stepper) < 500 + max(len(t) for t in stepper.tokenizer.vocab.values())


@pytest.mark.parametrize("pattern", [None, "gpt4"])
def test_widget_merge_stepper_html_per_step_is_bounded_on_the_whole_corpus(pattern):
    # issue 10: with pattern=None the passage is one chunk; it drew all 47 KB (5.7 MB a step)
    corpus = load_english()
    stepper = merge_stepper(corpus, vocab_size=300, pattern=pattern)
    for step in (0, 1, 20, 44):
        stepper.slider.value = step
        assert WINDOW_BYTES <= drawn_bytes(stepper) < WINDOW_BYTES + 64
        assert len(stepper.value) < 300_000  # 1,500 bytes as tokens, the info line, 10 pairs
    assert sum(len(part) for parts in stepper._cache.values() for part in parts) <= CACHE_CHARS


def test_widget_merge_stepper_uses_a_given_tokenizer():
    tok = ByteLevelBPE.train("aaabdaaabac", vocab_size=259)
    stepper = merge_stepper("aaabdaaabac", tokenizer=tok)
    stepper.slider.value = 3
    assert stepper.ids_at(3) == [[258, 100, 258, 97, 99]]
    assert "<b>5</b> tokens for 11 bytes" in stepper.info.value


@pytest.mark.parametrize("text, vocab_size, message", [
    ("", 300, "The passage is empty"),
    ("hello", 100, "vocab_size must be at least 256"),
    ("hello hello", 256, "no merges"),
    ("abcdefg", 300, "training stopped after 0 of 44 merges"),
])
def test_widget_merge_stepper_edge_cases_are_messages(text, vocab_size, message):
    stepper = merge_stepper(text, vocab_size=vocab_size)
    assert message in stepper.value


def test_widget_merge_stepper_counts_repeated_chunks_once_but_weighted(stepper):
    from bpe_workshop.algorithm.textbook import get_stats

    for step in (0, 10, 44):
        counts = {}
        for ids in stepper.ids_at(step):
            get_stats(ids, counts)
        assert stepper.pair_counts_at(step) == counts
    stepper.slider.value = 10
    n_tokens = sum(len(ids) for ids in stepper.ids_at(10))
    assert f"<b>{n_tokens:,}</b> tokens for" in stepper.info.value


def test_widget_merge_stepper_pause_keeps_the_step_and_reset_goes_to_0(stepper):
    stepper.slider.value = 9
    stepper.play.playing = True  # the front end would now advance the slider
    stepper.slider.value = 12
    stepper.pause()
    assert stepper.play.playing is False and stepper.slider.value == 12
    assert "<b>step 12</b>" in stepper.info.value
    stepper.next_button.click()
    assert stepper.slider.value == 13
    stepper.back_button.click()
    stepper.back_button.click()
    assert stepper.slider.value == 11
    stepper.play.playing = True
    stepper.reset_button.click()
    assert stepper.play.playing is False
    assert stepper.slider.value == 0 and stepper.play.value == 0
    assert "<b>step 0</b>" in stepper.info.value


def test_widget_merge_stepper_play_has_no_stop_button_and_the_passage_scrolls(stepper):
    # the Play widget's ■ jumps to step 0: hidden by the stylesheet, reset has its own button
    assert "bpe-play" in stepper.play._dom_classes and stepper.play.show_repeat is False
    assert ".bpe-play > button:nth-child(2) { display: none; }" in stepper.info.value
    assert '<div class="bpe-scroll">' in stepper.tokens.value  # height-capped, scrollable
    assert "<th>ids</th>" not in stepper.pairs.value  # a narrow table beside the passage


def test_widget_merge_stepper_shows_a_stuck_pattern_as_a_message():
    stepper = merge_stepper("tokenization" * 3 + "!", vocab_size=260, pattern=r"(\w|[a-z])+$")
    assert "is stuck" in stepper.info.value and "(\\w|[a-z])+$" in stepper.info.value
    assert stepper.tokens.value == "" and stepper.pairs.value == ""
    assert stepper.tokenizer is None


def test_widget_merge_stepper_bad_arguments_raise():
    with pytest.raises(TypeError, match="window_bytes must be an int"):
        merge_stepper("abc", window_bytes="1k")
    with pytest.raises(TypeError, match="tokenizer must be a ByteLevelBPE"):
        merge_stepper("abc", tokenizer="gpt2")
