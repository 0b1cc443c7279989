"""Merge stepper: byte-level BPE on a real passage, merge by merge, with play and pause.

The tokenizer is trained once (or passed in); for any step ``s`` the widget shows the passage
with the first ``s`` merges, the merge just made, the most frequent pairs (which comes next),
the vocabulary size and the compression. Fast (``benchmarks/bench_widgets.py``): the passage is
encoded once; the tokens after ``s`` merges are the final ones with every later-made token split
back into its pair (:meth:`_MergeStepper.ids_at`), repeated chunks counted once. A step draws at
most ``window_bytes`` of the passage and ``top`` pairs; steps are cached (``CACHE_STEPS``,
``CACHE_CHARS``). Left out: special tokens inside the passage (encoded as ordinary text).
"""
from __future__ import annotations

import warnings
from collections import OrderedDict

import ipywidgets as widgets

from bpe_workshop.algorithm.chunking import encodable
from bpe_workshop.algorithm.patterns import resolve_pattern, split_text
from bpe_workshop.algorithm.textbook import get_stats
from bpe_workshop.render.style import view
from bpe_workshop.render.tables import message_html, pair_counts_html, token_chip
from bpe_workshop.render.tokens import tokens_html
from bpe_workshop.tokenizers.byte_level import ByteLevelBPE
from bpe_workshop.validation import describe, require_int, require_str
from bpe_workshop.widgets._common import WidgetView, play_button, shows_errors

WINDOW_BYTES = 1500  # bytes of the passage drawn as coloured tokens (all of it is counted)
CACHE_STEPS = 64  # rendered steps kept
CACHE_CHARS = 8_000_000  # and at most this many characters of HTML in the cache


class _MergeStepper(WidgetView):
    """Play/pause, reset, back/next and a slider over merge steps; the views of a step.

    Accessors: ``slider`` (IntSlider), ``play`` (Play: its button plays and pauses),
    ``reset_button``, ``back_button``, ``next_button`` (Button), ``info`` / ``tokens`` /
    ``pairs`` (HTML), ``value`` (all three joined), ``tokenizer``, ``ids_at(step)``,
    ``pair_counts_at(step)``, ``num_steps``, ``pause()``, ``reset()``.
    """

    parts = ("info", "tokens", "pairs")
    stepped_on_site = True

    def __init__(self, text: str, vocab_size: int = 512, pattern: str | None = "gpt4",
                 tokenizer: ByteLevelBPE | None = None, *, window_bytes: int = WINDOW_BYTES,
                 top: int = 10, interval_ms: int = 400):
        self.text = encodable(require_str(text, "text"))
        self.window_bytes = require_int(window_bytes, "window_bytes", minimum=1,
                                        example=WINDOW_BYTES)
        self.top = require_int(top, "top", minimum=1, example=10)
        if tokenizer is not None and not isinstance(tokenizer, ByteLevelBPE):
            raise TypeError(f"tokenizer must be a ByteLevelBPE or None, got {describe(tokenizer)}"
                            "; pass e.g. tokenizer=ByteLevelBPE.train(text, 512)")
        self.info, self.tokens, self.pairs = widgets.HTML(), widgets.HTML(), widgets.HTML()
        self.slider = widgets.IntSlider(value=0, min=0, max=0, description="merges",
                                        continuous_update=True,
                                        layout=widgets.Layout(flex="1 1 16em", min_width="10em"))
        self.play = play_button(self.slider, interval_ms)
        self.back_button = widgets.Button(description="◀", tooltip="one merge back",
                                          layout=widgets.Layout(width="auto"))
        self.next_button = widgets.Button(description="▶", tooltip="one merge forward",
                                          layout=widgets.Layout(width="auto"))
        self.reset_button = widgets.Button(description="⏮ step 0", tooltip="back to step 0",
                                           layout=widgets.Layout(width="auto"))
        self.back_button.on_click(lambda button: self._move(-1))
        self.next_button.on_click(lambda button: self._move(+1))
        self.reset_button.on_click(lambda button: self.reset())
        controls = widgets.HBox(
            [self.play, self.reset_button, self.back_button, self.slider, self.next_button],
            layout=widgets.Layout(flex_flow="row wrap", align_items="center", width="100%"))
        # the passage (height-capped, scrolls) beside the pair table; they wrap when narrow
        views = widgets.HBox(
            [widgets.Box([self.tokens], layout=widgets.Layout(flex="3 1 20em", min_width="0")),
             widgets.Box([self.pairs], layout=widgets.Layout(flex="2 1 14em", min_width="0"))],
            layout=widgets.Layout(flex_flow="row wrap", width="100%"))
        self.widget = widgets.VBox([controls, self.info, views],
                                   layout=widgets.Layout(max_width="100%"))
        self._cache = OrderedDict()  # step -> (info html, tokens html, pairs html)
        self._cache_chars = 0
        self.tokenizer = None
        self.num_steps = 0
        self._prepare(vocab_size, resolve_pattern(pattern), tokenizer)
        self.slider.observe(lambda change: self.show(change["new"]), names="value")
        self.show(0)

    # ----- controls ----------------------------------------------------------------------

    def pause(self) -> None:
        """Stop playing; the step shown stays."""
        self.play.playing = False

    def reset(self) -> None:
        """Stop playing and go back to step 0."""
        self.pause()
        self.play.value = 0
        self.slider.value = 0

    def _move(self, delta: int) -> None:
        self.pause()
        self.slider.value = min(self.num_steps, max(0, self.slider.value + delta))

    # ----- precomputation ----------------------------------------------------------------

    @shows_errors
    def _prepare(self, vocab_size, pattern, tok) -> None:
        if not self.text:
            raise ValueError("The passage is empty: pass some text to train on and step through.")
        if tok is None:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")  # stop_message is shown on screen instead
                tok = ByteLevelBPE.train(self.text, vocab_size, pattern=pattern)
        self.num_steps = len(tok.merges)
        # step_of[id] = the merge step (1-based) that made id; split_of[id] = its pair
        self.new_ids = list(tok.merges.values())  # new_ids[k - 1] = the id merge k made
        self.step_of = {new_id: k for k, new_id in enumerate(self.new_ids, 1)}
        self.split_of = {new_id: pair for pair, new_id in tok.merges.items()}
        self.records = {r.step: r for r in tok.records}
        # the passage's chunks (merges never cross them); repeated chunks are worked on once
        self.chunk_bytes = [chunk.encode("utf-8") for chunk in split_text(self.text, tok.pattern)]
        where = {}  # chunk bytes -> index among the distinct chunks
        self.chunk_index = [where.setdefault(b, len(where)) for b in self.chunk_bytes]
        # distinct chunk k: its ids with every merge, and how often it occurs
        self.final_ids = [tok.encode_chunk(b) for b in where]
        self.chunk_count = [0] * len(where)
        for k in self.chunk_index:
            self.chunk_count[k] += 1
        self.n_bytes = sum(len(b) for b in self.chunk_bytes)
        self.tokenizer = tok
        self.slider.max = self.num_steps  # the play button follows

    def ids_at(self, step: int) -> list[list[int]]:
        """The passage's ids per chunk, in text order, after the first ``step`` merges.

        >>> m = merge_stepper("aaabdaaabac", vocab_size=259, pattern=None)
        >>> m.ids_at(0)[0][:4], m.ids_at(1)[0][:4], m.ids_at(3)
        ([97, 97, 97, 98], [256, 97, 98, 100], [[258, 100, 258, 97, 99]])
        """
        distinct = self._distinct_at(step)
        return [list(distinct[k]) for k in self.chunk_index]

    def _distinct_at(self, step: int) -> list[list[int]]:
        """ids of each distinct chunk after ``step`` merges: every id made later is split back
        into its pair, recursively."""
        step_of, split_of, distinct = self.step_of, self.split_of, []
        for ids in self.final_ids:
            out, stack = [], list(reversed(ids))
            while stack:
                i = stack.pop()
                # subtle: ids made at or before `step` stay; later ones open up into their pair
                if step_of.get(i, 0) <= step:
                    out.append(i)
                else:
                    left, right = split_of[i]
                    stack += (right, left)  # left on top: it comes out first
            distinct.append(out)
        return distinct

    def pair_counts_at(self, step: int, distinct: list[list[int]] | None = None) -> dict:
        """Pair counts over the passage's chunks after ``step`` merges (as training counts)."""
        if distinct is None:
            distinct = self._distinct_at(step)
        counts = {}  # (left id, right id) -> occurrences in the whole passage
        for ids, times in zip(distinct, self.chunk_count):
            for pair, n in get_stats(ids).items():
                counts[pair] = counts.get(pair, 0) + n * times
        return counts

    def _window(self, distinct: list[list[int]]) -> list[int]:
        """The ids of the passage's first ``window_bytes`` (whole tokens, at least one)."""
        vocab, shown, n = self.tokenizer.vocab, [], 0
        for k in self.chunk_index:
            for i in distinct[k]:
                if n >= self.window_bytes:
                    return shown
                shown.append(i)
                n += len(vocab[i])
        return shown

    # ----- rendering ---------------------------------------------------------------------

    @shows_errors
    def show(self, step: int) -> None:
        """Render ``step`` into the three HTML widgets (cached)."""
        if self.tokenizer is None:
            return  # _prepare wrote why on screen
        parts = self._cache.get(step)
        if parts is None:
            parts = self._render(step)
            self._cache[step] = parts
            self._cache_chars += sum(map(len, parts))
            while len(self._cache) > CACHE_STEPS or (
                    self._cache_chars > CACHE_CHARS and len(self._cache) > 1):
                _, dropped = self._cache.popitem(last=False)
                self._cache_chars -= sum(map(len, dropped))
        else:
            self._cache.move_to_end(step)
        self.info.value, self.tokens.value, self.pairs.value = parts

    def _render(self, step: int) -> tuple[str, str, str]:
        tok = self.tokenizer
        distinct = self._distinct_at(step)
        n_tokens = sum(len(ids) * times for ids, times in zip(distinct, self.chunk_count))
        ratio = self.n_bytes / n_tokens if n_tokens else 0.0
        vocab_now = tok.vocab_size - (self.num_steps - step)  # the merges not made yet

        # 1. where we are: step, vocabulary, compression, the merge just made
        lines = [f'<div class="bpe-status"><b>step {step}</b> of {self.num_steps} merges · '
                 f"vocabulary <b>{vocab_now:,}</b> tokens · passage: <b>{n_tokens:,}</b> tokens "
                 f"for {self.n_bytes:,} bytes · <b>{ratio:.2f}</b> bytes per token</div>"]
        if step == 0:
            lines.append("<div>No merges yet: every token is one byte.</div>")
        else:
            new_id = self.new_ids[step - 1]
            pair = self.split_of[new_id]
            record = self.records.get(step)
            said = f"counted {record.count:,} times in training; " if record is not None else ""
            # only merge `step` makes new_id, so its tokens are the ones this merge made
            made = sum(ids.count(new_id) * times for ids, times in zip(distinct, self.chunk_count))
            lines.append(
                f"<div>Merge {step}: {token_chip(tok.vocab[pair[0]], 0)} + "
                f"{token_chip(tok.vocab[pair[1]], 2)} → {token_chip(tok.vocab[new_id], 5)} "
                f'<span class="bpe-mono">({pair[0]}, {pair[1]}) → {new_id}</span>; '
                f"{said}{made:,} new tokens in this passage.</div>")
        if step == self.num_steps:
            why = tok.stop_message or (
                f"Last step: all {self.num_steps:,} merges are applied; pass a larger "
                "vocab_size to see more." if self.num_steps else
                "This tokenizer has no merges (vocab_size 256): there is nothing to step "
                "through; ask for a larger vocab_size.")
            lines.append(message_html(why, include_css=False))
        info = view("".join(lines))  # the stylesheet rides with the info line, once per step

        # 2. the passage's first window_bytes as coloured tokens, in a height-capped box
        shown = self._window(distinct)
        tokens = view('<div class="bpe-scroll">' + tokens_html(
            tok.token_bytes(shown), shown, include_css=False, max_tokens=len(shown),
            summary=False, total=n_tokens, total_bytes=self.n_bytes) + "</div>",
            include_css=False)

        # 3. the most frequent pairs now, the pair of the next merge highlighted
        counts = self.pair_counts_at(step, distinct)
        nxt = self.split_of[self.new_ids[step]] if step < self.num_steps else None
        pairs = pair_counts_html(counts, vocab=tok.vocab, top=self.top,
                                 highlight=[nxt] if nxt else [], id_column=False,
                                 title="most frequent pairs now (highlighted: the next merge)",
                                 include_css=False)
        return info, tokens, pairs


def merge_stepper(text: str, vocab_size: int = 512, pattern: str | None = "gpt4",
                  tokenizer: ByteLevelBPE | None = None, **options) -> _MergeStepper:
    """Step through byte-level BPE training on ``text``: slider, play/pause, live views.

    Trains ``ByteLevelBPE.train(text, vocab_size, pattern=pattern)`` once, or uses
    ``tokenizer``. Options: ``window_bytes`` (how much of the passage is drawn), ``top`` (pairs
    listed), ``interval_ms`` (play speed).
    """
    return _MergeStepper(text, vocab_size, pattern, tokenizer, **options)
