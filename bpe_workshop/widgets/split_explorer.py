"""Split explorer: text + a split pattern (whitespace, GPT-2, GPT-4, GPT-4o or yours) -> chunks.

The chunks are ``patterns.split_text``'s, coloured like tokens. Also said on screen: text no
match covers, empty matches, an invalid regex, and a regex stopped for backtracking too long
(``patterns.PatternTimeoutError``). Left out: flags (write ``(?i)``).
"""
from __future__ import annotations

import html

import ipywidgets as widgets

from bpe_workshop.algorithm.patterns import (
    GPT2_PATTERN,
    GPT4_PATTERN,
    O200K_PATTERN,
    WHITESPACE_PATTERN,
    Deadline,
    compile_pattern,
    left_out,
    resolve_pattern,
    split_text,
)
from bpe_workshop.render.style import view
from bpe_workshop.render.tables import message_html
from bpe_workshop.render.tokens import DEFAULT_MAX_TOKENS, chunks_html
from bpe_workshop.token_text import counted, visible_text
from bpe_workshop.validation import require_int, require_str
from bpe_workshop.widgets._common import WidgetView, full_width, shows_errors, text_area

DEFAULT_TEXT = "Hello world! I can't     believe it's 2024: 3221 + 2334 = 5555??!\n\tdone."
CUSTOM = "custom"
CHOICES = [("whitespace", WHITESPACE_PATTERN), ("GPT-2", GPT2_PATTERN),
           ("GPT-4 (cl100k_base)", GPT4_PATTERN), ("GPT-4o (o200k_base)", O200K_PATTERN),
           ("custom regex", CUSTOM)]


class _SplitExplorer(WidgetView):
    """Text box, pattern dropdown and custom regex box; the chunks, coloured.

    Accessors: ``text`` (Textarea), ``dropdown`` (Dropdown; values are regex strings or
    ``"custom"``), ``custom`` (Text, applied on Enter or when the box loses focus, so a
    half-typed regex never runs), ``output`` (HTML), ``value``, ``chunks`` (last split).
    """

    def __init__(self, text: str = DEFAULT_TEXT, pattern: str = "gpt2", *,
                 max_tokens: int = DEFAULT_MAX_TOKENS):
        require_str(text, "text")
        self.max_tokens = require_int(max_tokens, "max_tokens", minimum=1,
                                      example=DEFAULT_MAX_TOKENS)
        regex = resolve_pattern(pattern)
        known = [value for _, value in CHOICES]
        self.chunks = []  # the chunks of the last render
        self.text = text_area(text, rows=3)
        self.dropdown = widgets.Dropdown(options=CHOICES, value=regex if regex in known else CUSTOM,
                                         description="pattern")
        self.custom = widgets.Text(value="" if regex in known else (regex or ""),
                                   placeholder=r"your regex, e.g. \w+|\s+|[^\w\s]+",
                                   description="custom", continuous_update=False,
                                   layout=full_width())
        self.output = widgets.HTML()
        self.widget = widgets.VBox([self.text, self.dropdown, self.custom, self.output],
                                   layout=widgets.Layout(max_width="100%"))
        for control in (self.text, self.dropdown, self.custom):
            control.observe(lambda change: self.update(), names="value")
        self.update()

    @property
    def pattern(self) -> str:
        """The regex in use."""
        return self.custom.value if self.dropdown.value == CUSTOM else self.dropdown.value

    @shows_errors
    def update(self) -> None:
        text, pattern = self.text.value, self.pattern
        self.chunks = []
        if self.dropdown.value == CUSTOM and not pattern:
            raise ValueError("Type a regular expression in the custom box.")
        try:
            compile_pattern(pattern)
        except ValueError as err:
            raise ValueError(f"Invalid regular expression: {err}") from None
        if not text:
            raise ValueError("The text is empty: type something to split.")
        deadline = Deadline.for_text(text)  # the split and the check for gaps share one budget
        found = split_text(text, pattern, deadline)  # a stuck regex raises, shown on screen
        chunks = [chunk for chunk in found if chunk]
        if not chunks:
            raise ValueError("The pattern matches nothing in this text, so there are no chunks "
                             "(and BPE would see no text at all). Try another pattern.")
        self.chunks = chunks
        shown = (f'<div class="bpe-note">pattern: <code class="bpe-mono">'
                 f"{html.escape(pattern)}</code></div>")
        notes = []
        covered = sum(len(c) for c in chunks)
        if covered < len(text):
            gaps = left_out(text, chunks, pattern, deadline)  # text between matches: lost
            sample = ", ".join(f"‘{visible_text(g)}’" for g in gaps[:5])  # as typed, no escapes
            notes.append(message_html(
                f"Text in no match, which BPE would drop "
                f"({counted(len(text) - covered, 'character')}): "
                f"{sample}{' …' if len(gaps) > 5 else ''}", include_css=False))
        n_empty = len(found) - len(chunks)
        if n_empty:
            notes.append(message_html(f"The pattern also matched the empty string "
                                      f"{counted(n_empty, 'time')}; empty matches are left out.",
                                      include_css=False))
        body = chunks_html(chunks, max_tokens=self.max_tokens, include_css=False)
        self.output.value = view(shown + "".join(notes) + body)


def split_explorer(text: str = DEFAULT_TEXT, pattern: str = "gpt2",
                   **options) -> _SplitExplorer:
    """A split explorer: ``text`` cut by ``pattern`` into coloured chunks.

    ``pattern``: a name (``"gpt2"``, ``"gpt4"``, ...) or any regex (shown as custom).
    """
    return _SplitExplorer(text, pattern, **options)
