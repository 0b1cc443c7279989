"""Word-level stepper: the word table evolving merge by merge."""
from bpe_workshop.tokenizers.word_level import WordLevelBPE
from bpe_workshop.widgets import word_stepper

PAPER = "low " * 5 + "lower " * 2 + "newest " * 6 + "widest " * 3


def test_widget_word_stepper_paper_corpus():
    stepper = word_stepper(PAPER, num_merges=10)
    assert stepper.slider.max == 10
    assert "No merges yet" in stepper.value
    assert ("newest", 6, ["n", "e", "w", "e", "s", "t", "</w>"]) in stepper.table
    stepper.slider.value = 3
    assert "Merge 3:" in stepper.value and "count 9" in stepper.value
    assert ("newest", 6, ["n", "e", "w", "est</w>"]) in stepper.table
    assert 'class="bpe-current"' in stepper.value  # newest and widest changed
    assert "<b>est&lt;/w&gt;</b>" in stepper.value


def test_widget_word_stepper_counts_symbols_and_vocabulary():
    stepper = word_stepper(PAPER, num_merges=10)
    stepper.slider.value = 0
    # 5*4 + 2*6 + 6*7 + 3*7 symbols for 16 words
    assert "16 words written with <b>95</b> symbols" in stepper.value
    stepper.slider.value = 10
    assert "all 10 merges are applied" in stepper.value


def test_widget_word_stepper_takes_a_tokenizer_and_reports_problems():
    wl = WordLevelBPE.train("this is a test this test is only a test a test this is", 5)
    stepper = word_stepper(wl)
    assert stepper.tokenizer is wl and stepper.slider.max == len(wl.merges)
    assert "The text is empty" in word_stepper("   ").value
    loaded = WordLevelBPE(["a", "b"], [("a", "b")])
    assert "no training words" in word_stepper(loaded).value
