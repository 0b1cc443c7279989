"""UTF-8 explorer: text in; each character's code point and UTF-8 bytes, and the byte lengths.

Three views: the per-character table (hex and bits, UTF-8's prefix bits highlighted), the text
in UTF-8/16/32 bytes, and a bar chart of those lengths (an inline PNG, so tests can find it).
Left out: normalization forms and grapheme clusters.
"""
from __future__ import annotations

import ipywidgets as widgets

from bpe_workshop.render.plots import encoding_lengths_figure, figure_to_html
from bpe_workshop.render.tables import encoded_bytes_html, utf8_table_html
from bpe_workshop.validation import require_int, require_str
from bpe_workshop.widgets._common import WidgetView, shows_errors, text_area

DEFAULT_TEXT = "Aé你👋"
MAX_CHARS = 200  # rows in the character table; the lengths cover the whole text


class _Utf8Explorer(WidgetView):
    """Text box; below it the character table, the codec bytes and the length chart.

    Accessors: ``text`` (Textarea), ``table`` (HTML), ``chart`` (HTML with an inline image),
    ``value`` (both HTML strings joined).
    """

    parts = ("table", "chart")

    def __init__(self, text: str = DEFAULT_TEXT, *, max_chars: int = MAX_CHARS):
        require_str(text, "text")
        self.max_chars = require_int(max_chars, "max_chars", minimum=1, example=MAX_CHARS)
        self.text = text_area(text, rows=2)
        self.table = widgets.HTML()
        self.chart = widgets.HTML()
        self.widget = widgets.VBox([self.text, self.table, self.chart])
        self.text.observe(lambda change: self.update(), names="value")
        self.update()

    @shows_errors
    def update(self) -> None:
        text = self.text.value
        if not text:
            raise ValueError("The text is empty: type a few characters (try an accent, a Chinese "
                             "character or an emoji) to see their code points and UTF-8 bytes.")
        self.table.value = utf8_table_html(text, max_chars=self.max_chars) + encoded_bytes_html(
            text, include_css=False)
        self.chart.value = figure_to_html(encoding_lengths_figure(text), fmt="png", dpi=90)


def utf8_explorer(text: str = DEFAULT_TEXT, **options) -> _Utf8Explorer:
    """A UTF-8 explorer on ``text``: code points, UTF-8 bytes and bits, UTF-8/16/32 lengths."""
    return _Utf8Explorer(text, **options)
