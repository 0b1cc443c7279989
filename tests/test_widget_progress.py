"""Training progress: a progress= callback with a bar or a text line."""
import io

import pytest

from bpe_workshop.byte_level import ByteLevelBPE
from bpe_workshop.corpora import load_english
from bpe_workshop.widgets import training_progress


def test_widget_progress_bar_follows_training():
    progress = training_progress(200, mode="widget", display=False)
    tok = ByteLevelBPE.train(load_english()[:5000], vocab_size=456, progress=progress)
    assert len(tok.records) == 200 and progress.step == 200
    assert progress.bar.value == 200 and progress.bar.bar_style == "success"
    assert progress.redraws == 50  # every 4th merge: cheap
    assert progress.label.value.startswith(f"{progress.bar.value:,} / 200")


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
    assert out.getvalue().endswith("merges: stopped early\n")


def test_widget_progress_rejects_bad_options():
    with pytest.raises(ValueError, match="mode must be one of"):
        training_progress(10, mode="bar")
    with pytest.raises(ValueError, match="total must be an int"):
        training_progress(-1)
