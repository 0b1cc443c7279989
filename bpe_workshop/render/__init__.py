"""Layer 4, rendering: pure functions that turn tokens, records and counts into HTML or figures.

No state and no ipywidgets: widgets and notebooks call them (``HTML(tokens_html(...))``).
``pieces`` finds how token bytes fall into characters (data); ``tokens`` and ``tables`` draw
HTML with ``style``'s one stylesheet; ``labels`` orders and names pairs for tables and ``plots``.
May import: ``tokenizers``, ``files``, ``algorithm``, the shared top modules; not ipywidgets.
"""
from bpe_workshop.render.plots import (
    compression_figure,
    encoding_lengths,
    encoding_lengths_figure,
    figure_to_html,
    speed_figure,
    tokens_per_byte_figure,
    top_pairs_figure,
)
from bpe_workshop.render.style import CSS
from bpe_workshop.render.tables import (
    encoded_bytes_html,
    lattice_html,
    merge_table_html,
    message_html,
    pair_counts_html,
    replacement_table_html,
    token_chip,
    utf8_rows,
    utf8_table_html,
    word_table_html,
)
from bpe_workshop.render.tokens import chunks_html, tokens_html
from bpe_workshop.token_text import bytes_label

__all__ = [
    "lattice_html", "CSS", "bytes_label", "chunks_html", "compression_figure", "encoded_bytes_html",
    "encoding_lengths", "encoding_lengths_figure", "figure_to_html", "merge_table_html",
    "message_html", "pair_counts_html", "replacement_table_html", "speed_figure", "token_chip",
    "tokens_html", "tokens_per_byte_figure", "top_pairs_figure", "utf8_rows", "utf8_table_html",
    "word_table_html"
]
