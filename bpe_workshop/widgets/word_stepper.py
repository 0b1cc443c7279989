"""Word-level stepper: Sennrich-style BPE's word table, merge by merge.

Each word with its frequency and its split at the chosen step (``WordLevelBPE.word_table_at``),
the merge just made and the words it changed highlighted. Left out: tokenizing new text.
"""
from __future__ import annotations

import html

import ipywidgets as widgets

from bpe_workshop.render.style import view
from bpe_workshop.render.tables import message_html, token_chip, word_table_html
from bpe_workshop.tokenizers.word_level import END_OF_WORD, WordLevelBPE
from bpe_workshop.validation import describe, require_int
from bpe_workshop.widgets._common import WidgetView, play_button, shows_errors

MAX_ROWS = 25  # words listed, most frequent first


class _WordStepper(WidgetView):
    """Slider (and play button) over word-level merges; the word table at that step.

    Accessors: ``slider`` (IntSlider), ``play`` (Play), ``output`` (HTML), ``value``,
    ``tokenizer`` (the WordLevelBPE), ``table`` (rows of the step shown).
    """

    stepped_on_site = True

    def __init__(self, text_or_tokenizer: str | WordLevelBPE, num_merges: int = 20, *,
                 max_rows: int = MAX_ROWS, interval_ms: int = 700):
        if not isinstance(text_or_tokenizer, (str, WordLevelBPE)):
            raise TypeError("pass a text (str) or a trained WordLevelBPE, got "
                            f"{describe(text_or_tokenizer)}")
        require_int(num_merges, "num_merges", minimum=0, example=20)
        self.max_rows = require_int(max_rows, "max_rows", minimum=1, example=MAX_ROWS)
        self.table = []  # (word, frequency, split) rows of the step shown
        self.slider = widgets.IntSlider(value=0, min=0, max=0, description="merges")
        self.play = play_button(self.slider, interval_ms)
        self.output = widgets.HTML()
        self.widget = widgets.VBox(
            [widgets.HBox([self.play, self.slider],
                          layout=widgets.Layout(flex_flow="row wrap", align_items="center")),
             self.output], layout=widgets.Layout(max_width="100%"))
        self.tokenizer = None
        self._prepare(text_or_tokenizer, num_merges)
        self.slider.observe(lambda change: self.show(change["new"]), names="value")
        self.show(0)

    @shows_errors
    def _prepare(self, text_or_tokenizer, num_merges) -> None:
        if isinstance(text_or_tokenizer, WordLevelBPE):
            tokenizer = text_or_tokenizer
        elif not text_or_tokenizer.split():
            raise ValueError("The text is empty: pass some words to train on.")
        else:
            tokenizer = WordLevelBPE.train(text_or_tokenizer, num_merges)
        tokenizer.word_table_at(0)  # fails clearly for a tokenizer without training words
        self.tokenizer = tokenizer
        self.slider.max = len(tokenizer.merges)  # the play button follows

    def _vocab_at(self, step: int) -> int:
        """The vocabulary after ``step`` merges: the model's size less the symbols made later."""
        records = self.tokenizer.records
        made_before = {r.new_symbol for r in records[:step]}
        made_later = {r.new_symbol for r in records[step:]} - made_before
        return self.tokenizer.vocab_size - len(made_later)

    @shows_errors
    def show(self, step: int) -> None:
        """Render ``step`` into ``output``."""
        wl = self.tokenizer
        if wl is None:
            return  # _prepare wrote why on screen
        table = wl.word_table_at(step)
        self.table = table
        n_symbols = sum(freq * len(split) for _, freq, split in table)
        n_words = sum(freq for _, freq, _ in table)
        parts = [f'<div class="bpe-status"><b>step {step}</b> of {len(wl.merges)} merges · '
                 f"vocabulary <b>{self._vocab_at(step)}</b> symbols (alphabet, "
                 f"{html.escape(END_OF_WORD)}, &lt;unk&gt; and merges) · {n_words:,} words "
                 f"written with <b>{n_symbols:,}</b> symbols "
                 f"({n_symbols / max(1, n_words):.2f} per word)</div>"]
        merged, changed = None, []
        if step:
            record = wl.records[step - 1]
            merged = record.new_symbol
            changed = wl.words_changed_at(step)
            parts.append(f"<div>Merge {step}: {token_chip(record.pair[0], 0)} + "
                         f"{token_chip(record.pair[1], 2)} → {token_chip(merged, 5)}, "
                         f"count {record.count:,} (weighted by word frequency); changed "
                         f"{len(changed):,} distinct words.</div>")
        else:
            parts.append("<div>No merges yet: every word is its characters plus "
                         f"{html.escape(END_OF_WORD)}.</div>")
        if step == len(wl.merges):
            done = wl.stop_message or (
                f"Last step: all {len(wl.merges)} merges are applied; train with a larger "
                "num_merges to see more.")
            parts.append(message_html(done, include_css=False))
        # most frequent words first; the changed ones are highlighted
        rows = sorted(table, key=lambda row: -row[1])
        parts.append(word_table_html(rows, max_rows=self.max_rows, merged=merged,
                                     changed=changed, include_css=False))
        self.output.value = view("".join(parts))


def word_stepper(text_or_tokenizer: str | WordLevelBPE, num_merges: int = 20,
                 **options) -> _WordStepper:
    """Step through word-level BPE: the word table (word, frequency, split) at each merge.

    Pass a text (trained with ``WordLevelBPE.train(text, num_merges)``) or a trained
    ``WordLevelBPE``. Options: ``max_rows``, ``interval_ms`` (play speed).
    """
    return _WordStepper(text_or_tokenizer, num_merges, **options)
