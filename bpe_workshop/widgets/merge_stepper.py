"""Merge stepper: byte-level BPE on a real passage, merge by merge, with play/pause.

Lineage: the training loop of ``ByteLevelBPE`` watched from outside. The tokenizer is trained
once (or passed in); the widget then shows, for any step ``s``, the passage encoded with the
first ``s`` merges, the merge just made, the most frequent pairs at that point (which pair is
merged next), the vocabulary size and the compression.

How a step stays fast (well under 100 ms on a 10,000-character passage, see
``benchmarks/bench_widgets.py``): the passage is encoded once with every merge. Merges only
ever join tokens, so the tokens after ``s`` merges are the final tokens with every token made
by a later merge split back into its pair, recursively (:meth:`MergeStepper.ids_at`). Repeated
chunks (words) are expanded and counted once, weighted by how often they occur. Nothing is
retrained per step; rendered HTML is cached for recently visited steps.
Left out: special tokens inside the passage (it is encoded as ordinary text).
"""
from __future__ import annotations

from collections import OrderedDict

import ipywidgets as widgets

from bpe_workshop.byte_level import ByteLevelBPE, replace_lone_surrogates
from bpe_workshop.pairs import get_stats
from bpe_workshop.patterns import split_text
from bpe_workshop.render.tables import message_html, pair_counts_html, token_chip
from bpe_workshop.render.tokens import TOKENS_CSS, tokens_html
from bpe_workshop.widgets._common import WidgetView, resolve_pattern

WINDOW_BYTES = 1500  # bytes of the passage drawn as coloured tokens (all of it is counted)
CACHE_STEPS = 64  # rendered steps kept


class MergeStepper(WidgetView):
    """Slider and play button over merge steps; tokens, last merge, top pairs, compression.

    Accessors: ``slider`` (IntSlider), ``play`` (Play), ``info`` / ``tokens`` / ``pairs``
    (HTML), ``value`` (all three joined), ``tokenizer``, ``ids_at(step)``,
    ``pair_counts_at(step)``, ``num_steps``.
    """

    def __init__(self, text: str, vocab_size: int = 512, pattern: str | None = "gpt4",
                 tokenizer: ByteLevelBPE | None = None, *, window_bytes: int = WINDOW_BYTES,
                 top: int = 10, interval_ms: int = 400):
        if not isinstance(text, str):
            raise TypeError(f"text must be a str, got {type(text).__name__}")
        self.text = replace_lone_surrogates(text)
        self.window_bytes = window_bytes
        self.top = top
        self.info, self.tokens, self.pairs = widgets.HTML(), widgets.HTML(), widgets.HTML()
        self.slider = widgets.IntSlider(value=0, min=0, max=0, description="merges",
                                        continuous_update=True,
                                        layout=widgets.Layout(width="60%"))
        self.play = widgets.Play(value=0, min=0, max=0, step=1, interval=interval_ms,
                                 description="play")
        widgets.jslink((self.play, "value"), (self.slider, "value"))
        self.widget = widgets.VBox([
            widgets.HBox([self.play, self.slider]), self.info,
            widgets.HBox([widgets.Box([self.tokens], layout=widgets.Layout(flex="3 1 0")),
                          widgets.Box([self.pairs], layout=widgets.Layout(flex="2 1 0"))]),
        ])
        self._cache = OrderedDict()  # step -> (info html, tokens html, pairs html)
        self.tokenizer = None
        self.problem = None  # a message shown instead of the stepper when set
        try:
            self._prepare(vocab_size, resolve_pattern(pattern), tokenizer)
        except (ValueError, TypeError) as err:
            self.problem = str(err)
        self.slider.observe(lambda change: self.show(change["new"]), names="value")
        self.show(0)

    # ----- precomputation ----------------------------------------------------------------

    def _prepare(self, vocab_size, pattern, tokenizer) -> None:
        if not self.text:
            raise ValueError("The passage is empty: pass some text to train on and step through.")
        if tokenizer is None:
            import warnings

            with warnings.catch_warnings():
                warnings.simplefilter("ignore")  # stop_message is shown on screen instead
                tokenizer = ByteLevelBPE.train(self.text, vocab_size, pattern=pattern)
        self.tokenizer = tok = tokenizer
        self.num_steps = len(tok.merges)
        # step_of[id] = the merge step (1-based) that made id; split_of[id] = its pair
        self.new_ids = list(tok.merges.values())  # new_ids[k - 1] = the id merge k made
        self.step_of = {new_id: k for k, new_id in enumerate(self.new_ids, 1)}
        self.split_of = {new_id: pair for pair, new_id in tok.merges.items()}
        self.records = {r.step: r for r in getattr(tok, "records", [])}
        # the passage's chunks (merges never cross them); repeated chunks are worked on once
        chunks = split_text(self.text, tok.pattern)
        self.chunk_bytes = [chunk.encode("utf-8") for chunk in chunks]
        where = {}  # chunk bytes -> index among the distinct chunks
        self.chunk_index = [where.setdefault(b, len(where)) for b in self.chunk_bytes]
        # distinct chunk k: its ids with every merge, and how often it occurs
        self.final_ids = [tok.encode_chunk(b) for b in where]
        self.chunk_count = [0] * len(where)
        for k in self.chunk_index:
            self.chunk_count[k] += 1
        self.n_bytes = sum(len(b) for b in self.chunk_bytes)
        # the chunks that reach into the drawn window
        total, self.window_chunks = 0, 0
        while self.window_chunks < len(chunks) and total < self.window_bytes:
            total += len(self.chunk_bytes[self.window_chunks])
            self.window_chunks += 1
        self.base_vocab = len(tok.vocab) - len(tok.merges) - len(tok.special_tokens)
        with self.slider.hold_trait_notifications():
            self.slider.max = self.num_steps
            self.play.max = self.num_steps

    def ids_at(self, step: int) -> list[list[int]]:
        """The passage's ids per chunk, in text order, after the first ``step`` merges.

        >>> m = MergeStepper("aaabdaaabac", vocab_size=259, pattern=None)
        >>> m.ids_at(0)[0][:4], m.ids_at(1)[0][:4], m.ids_at(3)
        ([97, 97, 97, 98], [256, 97, 98, 100], [[258, 100, 258, 97, 99]])
        """
        distinct = self._distinct_at(step)
        return [list(distinct[k]) for k in self.chunk_index]

    def _distinct_at(self, step: int) -> list[list[int]]:
        """ids of each distinct chunk after ``step`` merges."""
        return [self._expand(ids, step) for ids in self.final_ids]

    def _expand(self, ids: list[int], step: int) -> list[int]:
        """Split every id made after ``step`` back into its pair, recursively."""
        step_of, split_of = self.step_of, self.split_of
        out = []
        stack = list(reversed(ids))
        while stack:
            i = stack.pop()
            # subtle: ids made at or before `step` stay; later ones open up into their pair
            if step_of.get(i, 0) <= step:
                out.append(i)
            else:
                left, right = split_of[i]
                stack.append(right)
                stack.append(left)
        return out

    def pair_counts_at(self, step: int, distinct: list[list[int]] | None = None) -> dict:
        """Pair counts over the passage's chunks after ``step`` merges (as training counts)."""
        if distinct is None:
            distinct = self._distinct_at(step)
        counts = {}  # (left id, right id) -> occurrences in the whole passage
        for ids, times in zip(distinct, self.chunk_count):
            for pair, n in get_stats(ids).items():
                counts[pair] = counts.get(pair, 0) + n * times
        return counts

    # ----- rendering ---------------------------------------------------------------------

    @property
    def value(self) -> str:
        return self.info.value + self.tokens.value + self.pairs.value

    def show(self, step: int) -> None:
        """Render ``step`` into the three HTML widgets (cached)."""
        if self.problem is not None:
            self.info.value = message_html(self.problem)
            self.tokens.value = self.pairs.value = ""
            return
        try:
            parts = self._cache.get(step)
            if parts is None:
                parts = self._render(step)
                self._cache[step] = parts
                if len(self._cache) > CACHE_STEPS:
                    self._cache.popitem(last=False)
            else:
                self._cache.move_to_end(step)
        except Exception as err:  # noqa: BLE001 - a message on screen, not a dead widget
            parts = (message_html(f"Could not show step {step}: {type(err).__name__}: {err}"),
                     "", "")
        self.info.value, self.tokens.value, self.pairs.value = parts

    def _render(self, step: int) -> tuple[str, str, str]:
        tok = self.tokenizer
        distinct = self._distinct_at(step)
        n_tokens = sum(len(ids) * times for ids, times in zip(distinct, self.chunk_count))
        ratio = self.n_bytes / n_tokens if n_tokens else 0.0
        vocab_now = self.base_vocab + step

        # 1. where we are: step, vocabulary, compression, the merge just made
        lines = [f'<div class="bpe-summary" style="font-size:15px;opacity:1">'
                 f"<b>step {step}</b> of {self.num_steps} merges · vocabulary "
                 f"<b>{vocab_now:,}</b> tokens · passage: <b>{n_tokens:,}</b> tokens for "
                 f"{self.n_bytes:,} bytes · <b>{ratio:.2f}</b> bytes per token</div>"]
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
        info = f'<div class="bpe-view">{TOKENS_CSS}{"".join(lines)}</div>'

        # 2. the passage's first window_bytes as coloured tokens
        shown_ids = [i for k in self.chunk_index[:self.window_chunks] for i in distinct[k]]
        note = ""
        if self.window_chunks < len(self.chunk_index):
            shown_bytes = sum(len(b) for b in self.chunk_bytes[:self.window_chunks])
            note = (f'<div class="bpe-note">Showing the first {shown_bytes:,} of '
                    f"{self.n_bytes:,} bytes of the passage; counts cover all of it.</div>")
        tokens = (f'<div class="bpe-view">{TOKENS_CSS}{note}</div>'
                  + tokens_html(tok.token_bytes(shown_ids), shown_ids, include_css=False,
                                max_tokens=max(1, len(shown_ids)), summary=False))

        # 3. the most frequent pairs now, the pair of the next merge highlighted
        counts = self.pair_counts_at(step, distinct)
        nxt = self.split_of[self.new_ids[step]] if step < self.num_steps else None
        pairs = pair_counts_html(counts, vocab=tok.vocab, top=self.top,
                                 highlight=[nxt] if nxt else [],
                                 title="most frequent pairs now (highlighted: the next merge)")
        return info, tokens, pairs


def merge_stepper(text: str, vocab_size: int = 512, pattern: str | None = "gpt4",
                  tokenizer: ByteLevelBPE | None = None, **options) -> MergeStepper:
    """Step through byte-level BPE training on ``text``: slider, play/pause, live views.

    Trains ``ByteLevelBPE.train(text, vocab_size, pattern=pattern)`` once, or uses
    ``tokenizer`` (its own merges and pattern). ``pattern`` is a regex, a name (``"gpt2"``,
    ``"gpt4"``, ``"whitespace"``) or ``None`` (no pre-splitting). Options: ``window_bytes``
    (how much of the passage is drawn), ``top`` (pairs listed), ``interval_ms`` (play speed).
    """
    return MergeStepper(text, vocab_size, pattern, tokenizer, **options)
