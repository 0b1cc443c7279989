"""Token playground: type text, tick encodings, see their tokens side by side.

Lineage: the web tokenizer playgrounds (text in, coloured tokens and counts out), as a Jupyter
widget that also takes the learner's own tokenizer. Encodings are tiktoken's, loaded offline
through ``bpe_workshop.offline.get_encoding``; a ``ByteLevelBPE`` (or any tiktoken ``Encoding``)
passed in ``extra`` appears beside them. Left out: WordLevelBPE (its tokens are strings, not
bytes: see the word-level stepper) and editing the token ids back into text.
"""
from __future__ import annotations

import html
from collections.abc import Mapping, Sequence

import ipywidgets as widgets

from bpe_workshop.render.tables import message_html
from bpe_workshop.render.tokens import DEFAULT_MAX_TOKENS, TOKENS_CSS, tokens_html
from bpe_workshop.widgets._common import WidgetView, shows_errors, text_area

DEFAULT_TEXT = "Hello world! 你好,我是池邦豪! 👋\n    if x:\n        return 1"
MAX_IDS_SHOWN = 300  # ids listed under the tokens; the coloured view has its own window


def _encode(encoder, text: str, allowed_special, window: int) -> tuple[list[int], list[bytes]]:
    """All ids, and the bytes of the first ``window`` of them, from tiktoken or ByteLevelBPE."""
    if hasattr(encoder, "decode_single_token_bytes"):  # tiktoken.Encoding
        ids = list(encoder.encode(text, allowed_special=allowed_special))
        return ids, [encoder.decode_single_token_bytes(i) for i in ids[:window]]
    if hasattr(encoder, "token_bytes"):  # ByteLevelBPE
        ids = list(encoder.encode(text, allowed_special=allowed_special))
        return ids, encoder.token_bytes(ids[:window])
    raise TypeError(
        f"cannot show tokens of a {type(encoder).__name__}: pass a ByteLevelBPE or a tiktoken "
        "Encoding in extra={'name': tokenizer}"
    )


class TokenPlayground(WidgetView):
    """Text box + encoding checkboxes; one column of coloured tokens per ticked encoding.

    Accessors: ``text`` (Textarea), ``checkboxes`` (name -> Checkbox), ``show_ids`` (Checkbox),
    ``output`` (HTML), ``value`` (the HTML shown), ``results`` (name -> ids of the last render).
    """

    def __init__(self, text: str = DEFAULT_TEXT,
                 encodings: Sequence[str] = ("gpt2", "cl100k_base"),
                 extra: Mapping[str, object] | None = None, *,
                 allowed_special: str | set = "all", max_tokens: int = DEFAULT_MAX_TOKENS,
                 show_ids: bool = True):
        if isinstance(encodings, str):
            encodings = (encodings,)
        extra = dict(extra or {})
        self.allowed_special = allowed_special
        self.max_tokens = max_tokens
        self._encoders = {}  # name -> loaded encoder (tiktoken names load on first use)
        self._encoders.update(extra)
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
            control.observe(self._on_change, names="value")
        self.update()

    @property
    def value(self) -> str:
        return self.output.value

    def _on_change(self, change) -> None:
        self.update()

    def _encoder(self, name: str):
        if name not in self._encoders:
            from bpe_workshop.offline import get_encoding

            self._encoders[name] = get_encoding(name)
        return self._encoders[name]

    def _column(self, name: str, text: str) -> str:
        try:
            ids, token_bytes = _encode(self._encoder(name), text, self.allowed_special,
                                       self.max_tokens)
        except (ValueError, TypeError) as err:
            self.results.pop(name, None)
            return message_html(f"{name}: {err}", include_css=False)
        self.results[name] = ids
        n_bytes = len(text.encode("utf-8", errors="surrogatepass"))
        counts = (f'<div class="bpe-summary"><b>{len(ids):,}</b> tokens · {n_bytes:,} bytes · '
                  f'{len(text):,} characters</div>')
        body = tokens_html(token_bytes, ids[:len(token_bytes)], show_ids=self.show_ids.value,
                           max_tokens=self.max_tokens, include_css=False, summary=False,
                           total=len(ids))
        shown = ids[:MAX_IDS_SHOWN]
        more = f", … ({len(ids) - len(shown):,} more)" if len(ids) > len(shown) else ""
        id_list = (f'<div class="bpe-note bpe-mono bpe-ids">ids: '
                   f'[{", ".join(map(str, shown))}{more}]</div>')
        return counts + body + id_list

    @shows_errors("output")
    def update(self) -> None:
        """Re-render every ticked encoding for the current text."""
        text = self.text.value
        chosen = [name for name, box in self.checkboxes.items() if box.value]
        if not chosen:
            self.output.value = message_html("Tick at least one encoding to see its tokens.")
            return
        if not text:
            self.results = {name: [] for name in chosen}
            self.output.value = message_html(
                "The text is empty: type something above to see how each encoding splits it.")
            return
        columns = []
        for name in chosen:
            columns.append(
                '<div style="flex:1 1 360px;min-width:300px;border:1px solid #8888;'
                'border-radius:6px;padding:4px 8px">'
                f'<div style="font-weight:bold;font-size:16px">{html.escape(name)}</div>'
                f"{self._column(name, text)}</div>")
        self.output.value = (f'<div class="bpe-view">{TOKENS_CSS}'
                             '<div style="display:flex;flex-wrap:wrap;gap:10px">'
                             f'{"".join(columns)}</div></div>')


def token_playground(text: str = DEFAULT_TEXT,
                     encodings: Sequence[str] = ("gpt2", "cl100k_base"),
                     extra: Mapping[str, object] | None = None, **options) -> TokenPlayground:
    """A token playground: ``text`` split by each encoding, coloured, with ids and counts.

    ``encodings`` are tiktoken names that work offline (``"gpt2"``, ``"r50k_base"``,
    ``"cl100k_base"``); ``extra={"mine": tok}`` adds your own ``ByteLevelBPE``. Options:
    ``allowed_special`` (default ``"all"``: ``<|endoftext|>`` shows as its special id),
    ``max_tokens`` (the coloured window), ``show_ids``.
    """
    return TokenPlayground(text, encodings, extra, **options)
