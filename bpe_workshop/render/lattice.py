"""Unigram's lattice as HTML: every piece over the characters it covers, the best path marked.

One row per matching piece under its characters (``▁`` for a space); the Viterbi path's pieces
coloured and bold, the rest grey; under the grid, the best path and its score (after Kudo
2018's figures). Left out: EM's forward and backward scores.
"""
from __future__ import annotations

import html

from bpe_workshop.algorithm.unigram import normalize
from bpe_workshop.render.style import view
from bpe_workshop.render.tables import token_chip
from bpe_workshop.token_text import counted, visible_text


def lattice_html(unigram, text: str, include_css: bool = True) -> str:
    """The lattice of ``text`` under ``unigram``, best path highlighted.

    >>> from bpe_workshop.algorithm.unigram import Unigram
    >>> out = lattice_html(Unigram([("▁a", -1.0), ("a", -2.0), ("▁", -3.0)]), "a")
    >>> "best path: ▁a = -1.00" in out, out.count("<tr>")
    (True, 4)
    """
    chars = normalize(text)
    best, score = unigram.viterbi(text)
    on_path, start = set(), 0
    for piece in best:
        on_path.add((start, start + len(piece)))
        start += len(piece)
    rows = ["<tr>" + "".join(f'<th class="bpe-mono">{html.escape(visible_text(c))}</th>'
                             for c in chars) + "</tr>"]
    for begin, end, piece, piece_score in unigram.lattice(text):
        chosen = (begin, end) in on_path
        chip = token_chip(piece, 5 if chosen else 0, title=f"{piece!r}: log p = {piece_score:.2f}",
                          bold=chosen)
        cell = (f'<td colspan="{end - begin}">{chip} '
                f'<span class="bpe-note">{piece_score:.2f}</span></td>')
        rows.append(f"<tr>{'<td></td>' * begin}{cell}{'<td></td>' * (len(chars) - end)}</tr>")
    summary = (f'<div class="bpe-summary">{counted(len(rows) - 1, "piece")} in the lattice · '
               f"best path: {html.escape(' + '.join(best))} = {score:.2f}</div>")
    return view(f'<table class="bpe-lattice">{"".join(rows)}</table>{summary}', include_css)
