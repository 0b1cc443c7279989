"""A progress bar for training: ``ByteLevelBPE.train(..., progress=training_progress(total))``.

Training calls ``progress(step, total, record)`` after every merge; this draws an
``ipywidgets.IntProgress`` with the latest merge beside it, redrawn at most ``updates`` times
(outside Jupyter: one text line, rewritten in place). As a context manager::

    with training_progress(VOCAB_SIZE - 256) as progress:
        tok = ByteLevelBPE.train(text, VOCAB_SIZE, progress=progress)

it finishes the bar at the real end, also when training stopped early, and shows that warning
once under the bar. Left out: time estimates.
"""
from __future__ import annotations

import html
import math
import sys
import warnings
from typing import TextIO

import ipywidgets as widgets
from IPython import get_ipython
from IPython.display import display as show

from bpe_workshop.render.tables import message_html
from bpe_workshop.token_text import bytes_label
from bpe_workshop.validation import require_int
from bpe_workshop.widgets._common import WidgetView

MODES = ("auto", "widget", "text")

class _TrainingProgress(WidgetView):
    """A callable ``progress(step, total, record)`` showing a bar (or a text line).

    Accessors: ``bar`` (IntProgress), ``label`` (HTML: steps and the latest merge),
    ``message`` (HTML: why training stopped, in full), ``mode`` ("widget" or "text"),
    ``redraws`` (how many times it drew), ``step`` and ``total`` (last call), ``finished``.
    """

    parts = ()  # on the site: only the line saying it needs a kernel

    def __init__(self, total: int | None = None, *, description: str = "merges",
                 mode: str = "auto", updates: int = 50, stream: TextIO | None = None,
                 display: bool = True):
        if mode not in MODES:
            raise ValueError(f"mode must be one of {MODES}, got {mode!r}")
        if total is not None:
            require_int(total, "total", minimum=0, example=256)
        self.updates = require_int(updates, "updates", minimum=1, example=50)
        in_jupyter = type(get_ipython()).__name__ == "ZMQInteractiveShell"  # a kernel, not a shell
        self.mode = ("widget" if in_jupyter else "text") if mode == "auto" else mode
        self.total = total or 0
        self.step = 0
        self.redraws = 0
        self.finished = False
        self.stream = stream
        self._shown_message = None  # the message under the bar, written once
        self._caught = None  # warnings.catch_warnings while used as a context manager
        self.bar = widgets.IntProgress(value=0, min=0, max=max(1, self.total),
                                       description=description, bar_style="info")
        self.label = widgets.HTML(value=f"0 / {self.total:,}")
        self.message = widgets.HTML(layout=widgets.Layout(max_width="100%"))
        self.widget = widgets.VBox([
            widgets.HBox([self.bar, self.label],
                         layout=widgets.Layout(flex_flow="row wrap", align_items="center")),
            self.message], layout=widgets.Layout(max_width="100%"))
        if display and self.mode == "widget":
            show(self)  # as its widget; on the site, as the line saying it needs a kernel

    def __call__(self, step: int, total: int, record=None) -> None:
        self.step, self.total = step, total
        if step % max(1, math.ceil(total / self.updates)) and step < total:
            return  # drawn every total / updates steps, and at the end
        self.redraws += 1
        latest = f" · latest {bytes_label(record.token)!r}" if record is not None else ""
        text = f"{step:,} / {total:,}{latest}"
        if self.mode == "widget":
            self.bar.max = max(1, total)
            self.bar.value = step
            self.label.value = html.escape(text)
            if step >= total:
                self.bar.bar_style = "success"
        else:
            self._write(text + " " * 8, "\n" if step >= total else "")

    def _write(self, text: str, end: str = "", below: str | None = None) -> None:
        """Rewrite the text line in place; ``below``, if given, is written under it."""
        stream = self.stream if self.stream is not None else sys.stdout
        stream.write(f"\r{self.bar.description}: {text}{end}")
        if below:
            stream.write(below + "\n")
        stream.flush()

    def finish(self, message: str | None = None) -> None:
        """Mark training as over at the last step reached (the bar ends full even when it
        stopped early); show ``message`` once, in full."""
        if self.step < self.total:
            counter = f"{self.step:,} merges · stopped early ({self.total:,} asked for)"
        else:
            counter = f"{self.step:,} / {self.total:,} · done"
        new_message = message if message and message != self._shown_message else None
        if self.mode == "widget":
            self.bar.max = self.bar.value = max(1, self.step)
            self.bar.bar_style = "success"
            self.label.value = html.escape(counter)
            if new_message:
                self.message.value = message_html(new_message)
        elif not self.finished or new_message:
            self._write(counter, "\n", below=new_message)
        if new_message:
            self._shown_message = new_message
        self.finished = True

    def __enter__(self) -> _TrainingProgress:
        self._caught = warnings.catch_warnings(record=True)
        self._records = self._caught.__enter__()
        warnings.simplefilter("always")
        return self

    def __exit__(self, exc_type, exc, traceback) -> bool:
        self._caught.__exit__(None, None, None)
        told = []  # what training warned about (e.g. it stopped early), each once
        for caught in self._records:
            if issubclass(caught.category, UserWarning):
                if str(caught.message) not in told:
                    told.append(str(caught.message))
            else:  # not about training: let it through as it was
                warnings.warn_explicit(caught.message, caught.category, caught.filename,
                                       caught.lineno)
        if exc is not None:
            if self.mode == "widget":
                self.bar.bar_style = "danger"
                self.message.value = message_html(f"training failed: {exc}")
            return False  # the error goes on to the notebook
        self.finish("\n".join(told) or None)
        return False


def training_progress(total: int | None = None, **options) -> _TrainingProgress:
    """A progress callback for ``ByteLevelBPE.train(..., progress=...)`` (see the module docstring).

    Options: ``description``, ``mode`` ("auto", "widget", "text"), ``updates`` (most redraws),
    ``stream``, ``display``.

    >>> import io
    >>> out = io.StringIO()
    >>> progress = training_progress(100, mode="text", stream=out)
    >>> for step in range(1, 101):
    ...     progress(step, 100, None)
    >>> progress.redraws, out.getvalue().endswith("100 / 100        \\n")
    (50, True)
    """
    return _TrainingProgress(total, **options)
