"""Lattice explorer: a word, every Unigram piece over it, and the best path (Viterbi).

Lineage: Kudo (2018). Change one piece's log probability with the slider and watch the best
path move; the other pieces keep their scores. Left out: EM (see ``Unigram.train``).
"""
from __future__ import annotations

import ipywidgets as widgets

from bpe_workshop.algorithm.unigram import Unigram
from bpe_workshop.render.tables import lattice_html
from bpe_workshop.validation import require_str
from bpe_workshop.widgets._common import WidgetView, shows_errors

MAX_CHARS = 40  # a lattice wider than this does not fit a slide


class _LatticeExplorer(WidgetView):
    """Word box, piece dropdown and score slider; the lattice with the best path.

    Accessors: ``text`` (Text), ``piece`` (Dropdown of the pieces in the lattice), ``score``
    (FloatSlider, the chosen piece's log probability), ``output`` (HTML), ``value``, ``best``
    (the pieces of the best path), ``unigram`` (the model with the edited score).
    """

    def __init__(self, unigram: Unigram, text: str):
        if not isinstance(unigram, Unigram):
            raise TypeError("lattice_explorer needs a Unigram, e.g. Unigram.train(text, 500)")
        self.unigram, self.best = unigram, []
        self.text = widgets.Text(value=require_str(text, "text"), description="word",
                                 continuous_update=False)
        self.piece = widgets.Dropdown(description="piece")
        self.score = widgets.FloatSlider(min=-25.0, max=0.0, step=0.25, description="log p",
                                         continuous_update=False)
        self.output = widgets.HTML()
        self.widget = widgets.VBox([self.text, widgets.HBox([self.piece, self.score]),
                                    self.output])
        self.text.observe(lambda change: self.new_word(), names="value")
        self.piece.observe(lambda change: self._show_score(), names="value")
        self.score.observe(lambda change: self.rescore(), names="value")
        self.new_word()

    def new_word(self) -> None:
        self.piece.options = sorted({p for _, _, p, _ in self.unigram.lattice(self.text.value)})
        self.render()
        # subtle: ipywidgets 8.1 leaves a Dropdown at None when its options change, so choose
        # the best path's first piece (an unknown run has no score to edit), its score shown
        self.piece.value = next((p for p in self.best if p in self.unigram.scores), None)
        self._show_score()

    def _show_score(self) -> None:
        if self.piece.value is not None:
            self.score.value = max(-25.0, self.unigram.scores[self.piece.value])

    def rescore(self) -> None:
        piece, score = self.piece.value, self.score.value
        if piece is not None and score != self.unigram.scores[piece]:
            scores = dict(self.unigram.scores) | {piece: score}
            self.unigram = Unigram(list(scores.items()))
            self.render()

    @shows_errors
    def render(self) -> None:
        text, self.best = self.text.value, []
        if not text or len(text) > MAX_CHARS:
            raise ValueError(f"Type a word or two (at most {MAX_CHARS} characters) to see its "
                             "lattice.")
        self.best = self.unigram.tokenize(text)
        self.output.value = lattice_html(self.unigram, text)


def lattice_explorer(unigram: Unigram, text: str = "unbelievable") -> _LatticeExplorer:
    """A lattice explorer: ``text`` under ``unigram``, best path marked, one score editable."""
    return _LatticeExplorer(unigram, text)
