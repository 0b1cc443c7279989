"""Split explorer: text + a split pattern (whitespace, GPT-2, GPT-4 or your own) -> chunks.

Lineage: GPT-2's pre-tokenization (a regex cuts the text before BPE; merges never cross the
cuts). The patterns come from ``bpe_workshop.patterns``; chunks are ``split_text``'s output,
coloured like tokens. Also said on screen: text that no match covers (a custom pattern can drop
it), empty matches, and an invalid regex. Left out: flags (write ``(?i)`` in the pattern).
"""
from __future__ import annotations

import html

import ipywidgets as widgets

from bpe_workshop.patterns import GPT2_PATTERN, GPT4_PATTERN, WHITESPACE_PATTERN, compile_pattern
from bpe_workshop.render.tables import message_html
from bpe_workshop.render.tokens import DEFAULT_MAX_TOKENS, TOKENS_CSS, tokens_html, visible_text
from bpe_workshop.widgets._common import WidgetView, resolve_pattern, shows_errors, text_area

DEFAULT_TEXT = "Hello world! I can't     believe it's 2024: 3221 + 2334 = 5555??!\n\tdone."
CUSTOM = "custom"
CHOICES = [("whitespace", WHITESPACE_PATTERN), ("GPT-2", GPT2_PATTERN),
           ("GPT-4 (cl100k_base)", GPT4_PATTERN), ("custom regex", CUSTOM)]


class SplitExplorer(WidgetView):
    """Text box, pattern dropdown and custom regex box; the chunks, coloured.

    Accessors: ``text`` (Textarea), ``dropdown`` (Dropdown; values are regex strings or
    ``"custom"``), ``custom`` (Text), ``output`` (HTML), ``value``, ``chunks`` (last split).
    """

    def __init__(self, text: str = DEFAULT_TEXT, pattern: str = "gpt2", *,
                 max_tokens: int = DEFAULT_MAX_TOKENS):
        self.max_tokens = max_tokens
        regex = resolve_pattern(pattern)
        known = [value for _, value in CHOICES]
        self.chunks = []  # the chunks of the last render
        self.text = text_area(text, rows=3)
        self.dropdown = widgets.Dropdown(options=CHOICES, value=regex if regex in known else CUSTOM,
                                         description="pattern")
        self.custom = widgets.Text(value="" if regex in known else (regex or ""),
                                   placeholder=r"your regex, e.g. \w+|\s+|[^\w\s]+",
                                   description="custom", layout=widgets.Layout(width="100%"))
        self.output = widgets.HTML()
        self.widget = widgets.VBox([self.text, widgets.HBox([self.dropdown]), self.custom,
                                    self.output])
        for control in (self.text, self.dropdown, self.custom):
            control.observe(lambda change: self.update(), names="value")
        self.update()

    @property
    def value(self) -> str:
        return self.output.value

    @property
    def pattern(self) -> str:
        """The regex in use."""
        return self.custom.value if self.dropdown.value == CUSTOM else self.dropdown.value

    @shows_errors("output")
    def update(self) -> None:
        text, pattern = self.text.value, self.pattern
        self.chunks = []
        shown = (f'<div class="bpe-note">pattern: <code class="bpe-mono">'
                 f"{html.escape(pattern)}</code></div>")
        if self.dropdown.value == CUSTOM and not pattern:
            self.output.value = message_html("Type a regular expression in the custom box.")
            return
        try:
            compiled = compile_pattern(pattern)
        except ValueError as err:
            self.output.value = message_html(f"Invalid regular expression: {err}")
            return
        if not text:
            self.output.value = message_html("The text is empty: type something to split.")
            return
        matches = [m for m in compiled.finditer(text)]
        chunks = [m.group() for m in matches if m.group()]
        n_empty = len(matches) - len(chunks)
        if not chunks:
            self.output.value = message_html(
                "The pattern matches nothing in this text, so there are no chunks "
                "(and BPE would see no text at all). Try another pattern.")
            return
        self.chunks = chunks
        notes = []
        covered = sum(len(c) for c in chunks)
        if covered < len(text):
            # the characters between matches are lost when chunks are made with findall
            gaps, last = [], 0
            for m in matches:
                if m.start() > last:
                    gaps.append(text[last:m.start()])
                last = max(last, m.end())
            if last < len(text):
                gaps.append(text[last:])
            sample = ", ".join(repr(visible_text(g)) for g in gaps[:5])
            notes.append(message_html(
                f"{len(text) - covered:,} characters are not covered by any match and would be "
                f"dropped: {sample}{' …' if len(gaps) > 5 else ''}", include_css=False))
        if n_empty:
            notes.append(message_html(f"The pattern also matched the empty string {n_empty:,} "
                                      "times; empty matches are left out.", include_css=False))
        body = tokens_html([c.encode("utf-8", errors="surrogatepass") for c in chunks],
                           max_tokens=self.max_tokens, include_css=False, unit="chunk")
        self.output.value = f'<div class="bpe-view">{TOKENS_CSS}{shown}{"".join(notes)}{body}</div>'


def split_explorer(text: str = DEFAULT_TEXT, pattern: str = "gpt2", **options) -> SplitExplorer:
    """A split explorer: ``text`` cut by ``pattern`` into coloured chunks.

    ``pattern`` is ``"whitespace"``, ``"gpt2"``, ``"gpt4"`` or any regex (shown as custom).
    """
    return SplitExplorer(text, pattern, **options)
