"""Merge-tree explorer: click a token of a text, or type one, to see the merges that built it.

The first encoding cuts the text into buttons; each encoding shows, side by side, its tokens of
the chosen bytes (one chunk) and their trees. Left out: special tokens and word-level BPE.
"""
import html
from collections.abc import Mapping, Sequence

import ipywidgets as widgets

from bpe_workshop.render.labels import symbol_label
from bpe_workshop.render.style import view
from bpe_workshop.render.tables import merge_tree, merge_tree_html, message_html
from bpe_workshop.token_text import counted
from bpe_workshop.tokenizers.byte_level import ByteLevelBPE
from bpe_workshop.validation import describe, require_str
from bpe_workshop.widgets._common import WidgetView, shows_errors

MAX_BUTTONS = 40  # tokens of the text offered as buttons


class _MergeTreeExplorer(WidgetView):
    """Accessors: ``text`` (Text), ``tokens`` (ToggleButtons, the text's tokens by position),
    ``token`` (Text, a token typed), ``output`` (HTML), ``value``, ``chosen`` (bytes shown),
    ``tokenizers`` (name -> ByteLevelBPE)."""

    def __init__(self, text: str, encodings: Sequence[str], extra: Mapping | None):
        self.tokenizers = {name: ByteLevelBPE.from_tiktoken(name) for name in encodings}
        for name, tok in (extra or {}).items():
            if not isinstance(tok, ByteLevelBPE):
                raise TypeError(f"extra[{name!r}] must be a ByteLevelBPE (its merges make the "
                                f"tree), got {describe(tok)}; e.g. extra={{'mine': tok}}")
            self.tokenizers[name] = tok
        self.text = widgets.Text(require_str(text, "text"), description="text",
                                 continuous_update=False)
        self.tokens = widgets.ToggleButtons(style={"button_width": "auto"})
        self.token = widgets.Text(description="or type", continuous_update=False)
        self.output, self.chosen = widgets.HTML(), b""
        self.widget = widgets.VBox([self.text, self.tokens, self.token, self.output])
        self.text.observe(lambda change: self.cut(), names="value")
        self.tokens.observe(lambda change: self.show(
            None if change.new is None else self._cut[change.new]), names="value")
        self.token.observe(lambda change: self.show(change.new.encode("utf-8")), names="value")
        self.cut()

    def cut(self) -> None:
        """The text's tokens in the first encoding become buttons; the first is chosen."""
        tok = next(iter(self.tokenizers.values()))
        self._cut = tok.token_bytes(tok.encode(self.text.value, disallowed_special=()))
        self.tokens.options = [(symbol_label(t), i) for i, t in enumerate(self._cut[:MAX_BUTTONS])]
        self.tokens.value = 0 if self._cut else None  # shows the first tree

    @shows_errors("output")
    def show(self, chosen: bytes | None) -> None:
        """Each encoding's tokens of ``chosen`` and the tree of each, side by side."""
        if not chosen:
            self.output.value = message_html("Type a text, then click one of its tokens.")
            return
        self.chosen, columns = chosen, []
        for name, tok in self.tokenizers.items():
            ids = tok.encode_chunk(chosen)
            trees = "".join(merge_tree_html(merge_tree(tok, i), False) for i in ids)
            columns.append(f'<div class="bpe-column"><div class="bpe-heading">{html.escape(name)}'
                           f': {counted(len(ids), "token")}</div>{trees}</div>')
        self.output.value = view(f'<div class="bpe-columns">{"".join(columns)}</div>')


def merge_tree_explorer(text: str = "The tokenizer runs on Kubernetes",
                        encodings: Sequence[str] = ("o200k_base", "gpt2"),
                        extra: Mapping[str, ByteLevelBPE] | None = None) -> _MergeTreeExplorer:
    """Why is this a token: ``text``'s tokens as buttons; click one (or type one) to see the
    merges that built it in each encoding (``extra={"mine": tok}`` adds your own)."""
    return _MergeTreeExplorer(text, encodings, extra)
