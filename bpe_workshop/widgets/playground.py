"""Token playground: type text, tick encodings, see their tokens side by side; and the merge-tree
explorer: click one of a text's tokens, or type one, to see the merges that built it.

Like the web tokenizer playgrounds, as widgets that also take the learner's own tokenizer:
tiktoken's encodings (offline, ``files.offline.get_encoding``) and any ``ByteLevelBPE`` (or, in
the playground, ``Encoding``) passed in ``extra``. The explorer's first encoding cuts the text
into buttons; each encoding shows its tokens of the chosen bytes (one chunk) and their trees.
Left out: WordLevelBPE (its tokens are strings: see the word stepper), editing ids back into
text, special tokens' trees.
"""
from __future__ import annotations

import html
from collections.abc import Mapping, Sequence

import ipywidgets as widgets

from bpe_workshop.files.offline import get_encoding
from bpe_workshop.render.labels import symbol_label
from bpe_workshop.render.style import view
from bpe_workshop.render.tables import merge_tree, merge_tree_html
from bpe_workshop.render.tokens import DEFAULT_MAX_TOKENS, tokens_html
from bpe_workshop.token_text import counted
from bpe_workshop.tokenizers.byte_level import ByteLevelBPE
from bpe_workshop.validation import describe, require_int, require_str
from bpe_workshop.widgets._common import WidgetView, shows_errors, text_area

DEFAULT_TEXT = "Hello world! 你好,我是池邦豪! 👋\n    if x:\n        return 1"
MAX_IDS_SHOWN = 300  # ids listed under the tokens; the coloured view has its own window


def _columns_html(columns: Mapping[str, str]) -> str:
    """Side by side, one column per heading (plain text) over its body (HTML)."""
    return view('<div class="bpe-columns">' + "".join(
        f'<div class="bpe-column"><div class="bpe-heading">{html.escape(heading)}</div>{body}'
        "</div>" for heading, body in columns.items()) + "</div>")


class _TokenPlayground(WidgetView):
    """Text box + encoding checkboxes; one column of coloured tokens per ticked encoding.

    Accessors: ``text`` (Textarea), ``checkboxes`` (name -> Checkbox), ``show_ids`` (Checkbox),
    ``output`` (HTML), ``value`` (the HTML shown), ``results`` (name -> ids of the last render).
    """

    def __init__(self, text: str = DEFAULT_TEXT,
                 encodings: Sequence[str] = ("gpt2", "cl100k_base", "o200k_base"),
                 extra: Mapping[str, object] | None = None, *,
                 allowed_special: str | set = "all", max_tokens: int = DEFAULT_MAX_TOKENS,
                 show_ids: bool = True):
        require_str(text, "text")
        if isinstance(encodings, str):
            encodings = (encodings,)
        extra = dict(extra or {})
        for name, encoder in extra.items():
            if not (hasattr(encoder, "decode_single_token_bytes")  # tiktoken.Encoding
                    or hasattr(encoder, "token_bytes")):  # ByteLevelBPE
                raise TypeError(f"cannot show tokens of {describe(encoder)} (extra[{name!r}]): "
                                "pass a ByteLevelBPE or a tiktoken Encoding, "
                                "e.g. extra={'mine': tok}")
        self.allowed_special = allowed_special
        self.max_tokens = require_int(max_tokens, "max_tokens", minimum=1,
                                      example=DEFAULT_MAX_TOKENS)
        self._encoders = dict(extra)  # name -> loaded encoder (tiktoken names load on first use)
        names = list(encodings) + [name for name in extra if name not in encodings]
        self.results = {}  # name -> ids of the last render

        self.text = text_area(text, rows=4)
        self.checkboxes = {
            name: widgets.Checkbox(value=True, description=name, indent=False,
                                   layout=widgets.Layout(width="auto"))
            for name in names
        }
        self.show_ids = widgets.Checkbox(value=show_ids, description="show ids", indent=False,
                                         layout=widgets.Layout(width="auto"))
        self.output = widgets.HTML()
        controls = widgets.HBox([widgets.Label("Encodings:"), *self.checkboxes.values(),
                                 self.show_ids], layout=widgets.Layout(flex_flow="row wrap"))
        self.widget = widgets.VBox([self.text, controls, self.output])
        for control in [self.text, self.show_ids, *self.checkboxes.values()]:
            control.observe(lambda change: self.update(), names="value")
        self.update()

    def _column(self, name: str, text: str) -> str:
        """One encoding's tokens of ``text``: counts, the coloured tokens, the ids."""
        try:
            if name not in self._encoders:
                self._encoders[name] = get_encoding(name)
            encoder = self._encoders[name]
            ids = list(encoder.encode(text, allowed_special=self.allowed_special))
        except (ValueError, TypeError) as err:
            raise type(err)(f"{name}: {err}") from None  # which column could not be shown
        self.results[name] = ids
        window = ids[:self.max_tokens]
        token_bytes = ([encoder.decode_single_token_bytes(i) for i in window]  # tiktoken
                       if hasattr(encoder, "decode_single_token_bytes")
                       else encoder.token_bytes(window))  # ByteLevelBPE
        n_bytes = len(text.encode("utf-8", errors="surrogatepass"))
        counts = (f'<div class="bpe-summary"><b>{counted(len(ids), "token")}</b> · '
                  f'{counted(n_bytes, "byte")} · {counted(len(text), "character")}</div>')
        body = tokens_html(token_bytes, ids[:len(token_bytes)], show_ids=self.show_ids.value,
                           max_tokens=self.max_tokens, include_css=False, summary=False,
                           total=len(ids), total_bytes=n_bytes)
        shown = ids[:MAX_IDS_SHOWN]
        more = f", … ({len(ids) - len(shown):,} more)" if len(ids) > len(shown) else ""
        id_list = (f'<div class="bpe-note bpe-mono bpe-ids">ids: '
                   f'[{", ".join(map(str, shown))}{more}]</div>')
        return counts + body + id_list

    @shows_errors
    def update(self) -> None:
        """Re-render every ticked encoding for the current text."""
        text = self.text.value
        chosen = [name for name, box in self.checkboxes.items() if box.value]
        self.results = {}  # filled by _column
        if not chosen:
            raise ValueError("Tick at least one encoding to see its tokens.")
        if not text:
            self.results = {name: [] for name in chosen}
            raise ValueError(
                "The text is empty: type something above to see how each encoding splits it.")
        self.output.value = _columns_html({name: self._column(name, text) for name in chosen})


def token_playground(text: str = DEFAULT_TEXT,
                     encodings: Sequence[str] = ("gpt2", "cl100k_base", "o200k_base"),
                     extra: Mapping[str, object] | None = None, **options) -> _TokenPlayground:
    """A token playground: ``text`` split by each encoding, coloured, with ids and counts.

    ``encodings``: tiktoken names that work offline; ``extra={"mine": tok}`` adds your own.
    Options: ``allowed_special`` (default ``"all"``), ``max_tokens``, ``show_ids``.
    """
    return _TokenPlayground(text, encodings, extra, **options)


MAX_BUTTONS = 40  # tokens of the text offered as buttons


class _MergeTreeExplorer(WidgetView):
    """Accessors: ``text`` (Text), ``tokens`` (ToggleButtons, the text's tokens by position),
    ``token`` (Text, a token typed), ``output`` (HTML), ``value``, ``chosen`` (bytes shown),
    ``tokenizers`` (name -> ByteLevelBPE)."""

    def __init__(self, text: str, encodings: Sequence[str], extra: Mapping | None):
        extra = dict(extra or {})
        for name, tok in extra.items():  # name -> ByteLevelBPE: its merges make the trees
            if not isinstance(tok, ByteLevelBPE):
                raise TypeError(f"extra[{name!r}] must be a ByteLevelBPE, got {describe(tok)}; "
                                "e.g. extra={'mine': tok}")
        self.tokenizers = {name: ByteLevelBPE.from_tiktoken(name) for name in encodings} | extra
        if not self.tokenizers:
            raise ValueError("pass an encoding, e.g. encodings=('gpt2',) or extra={'mine': tok}")
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

    @shows_errors
    def show(self, chosen: bytes | None) -> None:
        """Each encoding's tokens of ``chosen`` and the tree of each, side by side."""
        if not chosen:
            raise ValueError("Type a text, then click one of its tokens.")
        self.chosen, columns = chosen, {}
        for name, tok in self.tokenizers.items():
            ids = tok.encode_chunk(chosen)
            columns[f'{name}: {counted(len(ids), "token")}'] = "".join(
                merge_tree_html(merge_tree(tok, i), False) for i in ids)
        self.output.value = _columns_html(columns)


def merge_tree_explorer(text: str = "The tokenizer runs on Kubernetes",
                        encodings: Sequence[str] = ("o200k_base", "gpt2"),
                        extra: Mapping[str, ByteLevelBPE] | None = None) -> _MergeTreeExplorer:
    """Why is this a token: ``text``'s tokens as buttons; click one (or type one) to see the
    merges that built it in each encoding (``extra={"mine": tok}`` adds your own)."""
    return _MergeTreeExplorer(text, encodings, extra)
