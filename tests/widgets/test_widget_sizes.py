"""Projector-sized output: no fixed pixel font sizes and no inline styles in any HTML we draw.

Every renderer and widget is built here on a small example and all the HTML it produces is
scanned: a ``font-size`` in ``px`` would not grow with JupyterLab's font-size settings or the
browser's zoom (issue 11). The width side (no horizontal scrollbar at 1280x720, zoom 150 %) needs
a real browser; see the browser tests.
"""
import re

import pytest

from bpe_workshop.algorithm.records import MergeRecord
from bpe_workshop.render import (
    CSS,
    chunks_html,
    encoded_bytes_html,
    merge_table_html,
    message_html,
    pair_counts_html,
    replacement_table_html,
    token_chip,
    tokens_html,
    utf8_table_html,
    word_table_html,
)
from bpe_workshop.tokenizers.byte_level import ByteLevelBPE
from bpe_workshop.widgets import (
    merge_stepper,
    split_explorer,
    token_playground,
    training_progress,
    utf8_explorer,
    wikipedia_stepper,
    word_stepper,
)

PX_FONT = re.compile(r"font-size\s*:\s*[\d.]+\s*px", re.I)
PX_ANYWHERE_IN_FONT = re.compile(r"font(-size)?\s*:[^;}\"]*\d\s*px", re.I)


def renderer_outputs() -> dict[str, str]:
    records = [MergeRecord(1, (101, 32), 256, 9, b"e "), MergeRecord(2, (116, 256), 257, 3, b"te ")]
    return {
        "tokens_html": tokens_html(["你好 hi\n".encode()[:2], "你好 hi\n".encode()[2:]], ids=[1, 2],
                                   show_ids=True),
        "chunks_html": chunks_html(["Hello", " world"]),
        "utf8_table_html": utf8_table_html("aé你👋"),
        "encoded_bytes_html": encoded_bytes_html("hi"),
        "pair_counts_html": pair_counts_html({(97, 98): 3, (98, 99): 1}),
        "merge_table_html": merge_table_html(records),
        "replacement_table_html": replacement_table_html({"Z": "aa"}),
        "word_table_html": word_table_html([("low", 5, ["lo", "w", "</w>"])], merged="lo"),
        "message_html": message_html("nothing here"),
        "token_chip": token_chip(b"ab"),
    }


def widget_outputs() -> dict[str, str]:
    tok = ByteLevelBPE.train("aaabdaaabac", vocab_size=259)
    stepper = merge_stepper("the cat sat on the mat. " * 20, vocab_size=270)
    stepper.slider.value = 3
    progress = training_progress(5, mode="widget", display=False)
    progress(5, 5, tok.records[0])
    progress.finish("training stopped after 5 of 5 merges")
    return {
        "token_playground": token_playground("hi 你好", extra={"mine": tok}).value,
        "utf8_explorer": utf8_explorer("aé").value,
        "split_explorer": split_explorer("Hello world!").value,
        "wikipedia_stepper": wikipedia_stepper().value,
        "merge_stepper": stepper.value,
        "word_stepper": word_stepper("low lower newest widest " * 3, 5).value,
        "training_progress": progress.label.value + progress.message.value,
    }


def test_the_stylesheet_has_no_pixel_font_sizes():
    assert "font-size" in CSS  # the check below looks at real rules
    assert not PX_FONT.search(CSS) and not PX_ANYWHERE_IN_FONT.search(CSS)
    assert "var(--jp-content-font-size1" in CSS  # follows JupyterLab's font-size setting


@pytest.mark.parametrize("name, out", [*renderer_outputs().items(), *widget_outputs().items()])
def test_no_output_sets_a_pixel_font_size_or_an_inline_style(name, out):
    assert out, f"{name} drew nothing"
    assert not PX_FONT.search(out), f"{name}: {PX_FONT.search(out).group()}"
    body = out.replace(CSS, "")  # the stylesheet is the one place where look is set
    assert "style=" not in body, f"{name} carries an inline style"
    assert "<style" not in body, f"{name} carries a stylesheet of its own"


def test_long_outputs_are_capped():
    long_text = "word " * 5000
    assert tokens_html([b"x"] * 10_000).count('class="bpe-tok ') == 1500
    assert utf8_table_html(long_text).count("<tr>") <= 201
    play = token_playground(long_text, encodings=["gpt2"])
    assert play.value.count('class="bpe-tok ') == 1500 and "more)" in play.value
    assert len(split_explorer(long_text).value) < 400_000
