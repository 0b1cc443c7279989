"""Word-level stepper: Sennrich-style BPE's word table, merge by merge.

Lineage: the subword-NMT table of words with frequencies and their current split into symbols
(``</w>`` ends each word). The splits come from ``WordLevelBPE.word_table_at(step)``; this
widget shows them for any step, with the merge just made and the words it changed highlighted.
Left out: tokenizing new text (``WordLevelBPE.tokenize`` does that in a cell).
"""
from __future__ import annotations

import html

import ipywidgets as widgets

from bpe_workshop.render.tables import message_html, token_chip, word_table_html
from bpe_workshop.render.tokens import TOKENS_CSS
from bpe_workshop.widgets._common import WidgetView
from bpe_workshop.word_level import END_OF_WORD, WordLevelBPE

MAX_ROWS = 25  # words listed, most frequent first


class WordStepper(WidgetView):
    """Slider (and play button) over word-level merges; the word table at that step.

    Accessors: ``slider`` (IntSlider), ``play`` (Play), ``output`` (HTML), ``value``,
    ``tokenizer`` (the WordLevelBPE), ``table`` (rows of the step shown).
    """

    def __init__(self, text_or_tokenizer: str | WordLevelBPE, num_merges: int = 20, *,
                 max_rows: int = MAX_ROWS, interval_ms: int = 700):
        self.max_rows = max_rows
        self.table = []  # (word, frequency, split) rows of the step shown
        self.slider = widgets.IntSlider(value=0, min=0, max=0, description="merges")
        self.play = widgets.Play(value=0, min=0, max=0, interval=interval_ms, description="play")
        widgets.jslink((self.play, "value"), (self.slider, "value"))
        self.output = widgets.HTML()
        self.widget = widgets.VBox([widgets.HBox([self.play, self.slider]), self.output])
        self.tokenizer, self.problem = None, None
        try:
            self.tokenizer = self._tokenizer(text_or_tokenizer, num_merges)
            self.tokenizer.word_table_at(0)  # fails clearly for a tokenizer without words
        except (ValueError, TypeError) as err:
            self.problem = str(err)
        if self.problem is None:
            self.slider.max = self.play.max = len(self.tokenizer.merges)
        self.slider.observe(lambda change: self.show(change["new"]), names="value")
        self.show(0)

    @staticmethod
    def _tokenizer(text_or_tokenizer, num_merges) -> WordLevelBPE:
        if isinstance(text_or_tokenizer, WordLevelBPE):
            return text_or_tokenizer
        if not isinstance(text_or_tokenizer, str):
            raise TypeError("pass a text (str) or a trained WordLevelBPE, got "
                            f"{type(text_or_tokenizer).__name__}")
        if not text_or_tokenizer.split():
            raise ValueError("The text is empty: pass some words to train on.")
        return WordLevelBPE.train(text_or_tokenizer, num_merges)

    @property
    def value(self) -> str:
        return self.output.value

    def show(self, step: int) -> None:
        if self.problem is not None:
            self.output.value = message_html(self.problem)
            return
        try:
            self.output.value = self._render(step)
        except Exception as err:  # noqa: BLE001 - a message on screen, not a dead widget
            self.output.value = message_html(f"Could not show step {step}: {err}")

    def _render(self, step: int) -> str:
        wl = self.tokenizer
        table = wl.word_table_at(step)
        self.table = table
        n_symbols = sum(freq * len(split) for _, freq, split in table)
        n_words = sum(freq for _, freq, _ in table)
        vocab = len(wl.alphabet) + 1 + len({r.new_symbol for r in wl.records[:step]})
        parts = [f'<div class="bpe-view">{TOKENS_CSS}',
                 f'<div class="bpe-summary" style="font-size:15px;opacity:1"><b>step {step}</b> '
                 f"of {len(wl.merges)} merges · vocabulary <b>{vocab}</b> symbols (alphabet + "
                 f"{html.escape(END_OF_WORD)} + merges) · {n_words:,} words written with "
                 f"<b>{n_symbols:,}</b> symbols ({n_symbols / max(1, n_words):.2f} per word)"
                 "</div>"]
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
        parts.append("</div>")
        return "".join(parts)


def word_stepper(text_or_tokenizer: str | WordLevelBPE, num_merges: int = 20,
                 **options) -> WordStepper:
    """Step through word-level BPE: the word table (word, frequency, split) at each merge.

    Pass a text (trained with ``WordLevelBPE.train(text, num_merges)``) or a trained
    ``WordLevelBPE``. Options: ``max_rows``, ``interval_ms`` (play speed).
    """
    return WordStepper(text_or_tokenizer, num_merges, **options)
