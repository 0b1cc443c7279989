"""Training progress: a progress= callback with a bar or a text line."""
import io
import warnings

import pytest

from bpe_workshop.files.corpora import load_english
from bpe_workshop.tokenizers.byte_level import ByteLevelBPE
from bpe_workshop.widgets import training_progress


def test_widget_progress_bar_follows_training():
    progress = training_progress(200, mode="widget", display=False)
    tok = ByteLevelBPE.train(load_english()[:5000], vocab_size=456, progress=progress)
    assert len(tok.records) == 200 and progress.step == 200
    assert progress.bar.value == 200 and progress.bar.bar_style == "success"
    assert progress.redraws == 50  # every 4th merge: cheap
    assert progress.label.value.startswith(f"{progress.bar.value:,} / 200")
    assert progress.message.value == ""  # nothing to say: training ran to the end


def test_widget_progress_redraws_are_capped():
    progress = training_progress(5000, mode="widget", display=False)
    for step in range(1, 5001):
        progress(step, 5000, None)
    assert progress.redraws == 50 and progress.bar.value == 5000


def test_widget_progress_text_mode_outside_jupyter():
    out = io.StringIO()
    progress = training_progress(10, stream=out)  # plain pytest is not Jupyter
    assert progress.mode == "text"
    for step in range(1, 11):
        progress(step, 10, None)
    assert out.getvalue().rstrip().endswith("merges: 10 / 10")
    progress.finish("stopped early")
    assert out.getvalue().endswith("merges: 10 / 10 · done\nstopped early\n")


def test_widget_progress_rejects_bad_options():
    with pytest.raises(ValueError, match="mode must be one of"):
        training_progress(10, mode="bar")
    with pytest.raises(ValueError, match="total must be at least 0"):
        training_progress(-1)
    with pytest.raises(TypeError, match="updates must be an int"):
        training_progress(10, updates=2.5)


def test_widget_progress_early_stop_finishes_the_bar_and_says_why_once():
    # 20 repeated words learn far fewer merges than asked (notebook 07 at VOCAB_SIZE=16384)
    text = " ".join(f"word{i} word{i}" for i in range(20))
    with warnings.catch_warnings(record=True) as leaked:
        warnings.simplefilter("always")
        with training_progress(4000, mode="widget", display=False) as progress:
            tok = ByteLevelBPE.train(text, vocab_size=4256, pattern="gpt4", progress=progress)
    learned = len(tok.records)
    assert 0 < learned < 4000 and tok.stop_message
    assert progress.step == learned
    assert progress.bar.value == progress.bar.max == learned  # full, at the real end
    assert progress.bar.bar_style == "success" and progress.finished
    assert "stopped early (4,000 asked for)" in progress.label.value
    assert progress.message.value.count("no pair of adjacent tokens occurs twice") == 1
    assert tok.stop_message in progress.message.value  # in full, not cut off
    assert leaked == []  # shown in the widget, not as a warning under the cell
    progress.finish(tok.stop_message)  # notebook code that finishes it again: still once
    assert progress.message.value.count("occurs twice") == 1


def test_widget_progress_early_stop_in_text_mode_says_why_once():
    out = io.StringIO()
    with training_progress(500, stream=out) as progress:
        tok = ByteLevelBPE.train("abab abab", vocab_size=756, progress=progress)
    progress.finish(tok.stop_message)
    assert out.getvalue().count(tok.stop_message) == 1
    assert f"merges: {len(tok.records)} merges · stopped early (500 asked for)" in out.getvalue()


def test_widget_progress_error_in_training_is_shown_and_raised():
    progress = training_progress(10, mode="widget", display=False)
    with pytest.raises(ValueError, match="vocab_size must be at least 256"), progress:
        ByteLevelBPE.train("abc", vocab_size=100, progress=progress)
    assert progress.bar.bar_style == "danger"
    assert "training failed: vocab_size must be at least 256" in progress.message.value
