"""A progress bar for training: ``ByteLevelBPE.train(..., progress=training_progress(total))``.

Training calls ``progress(step, total, record)`` after every merge; this object turns those
calls into an ``ipywidgets.IntProgress`` bar with the latest merge written beside it, redrawn at
most about ``updates`` times (drawing after every one of thousands of merges would cost more than
the merges). Outside Jupyter (a script, a terminal) it writes one text line instead, rewritten
in place. Left out: time estimates.
"""
from __future__ import annotations

import math
import sys
from typing import TextIO

import ipywidgets as widgets

from bpe_workshop.token_text import bytes_label
from bpe_workshop.widgets._common import WidgetView

MODES = ("auto", "widget", "text")


def in_jupyter() -> bool:
    """True inside a Jupyter kernel (where widgets can be shown)."""
    try:
        from IPython import get_ipython
    except ImportError:
        return False
    shell = get_ipython()
    return shell is not None and type(shell).__name__ == "ZMQInteractiveShell"


class TrainingProgress(WidgetView):
    """A callable ``progress(step, total, record)`` showing a bar (or a text line).

    Accessors: ``bar`` (IntProgress), ``label`` (Label), ``mode`` ("widget" or "text"),
    ``redraws`` (how many times it drew), ``step`` and ``total`` (last call).
    """

    def __init__(self, total: int | None = None, *, description: str = "merges",
                 mode: str = "auto", updates: int = 50, stream: TextIO | None = None,
                 display: bool = True):
        if mode not in MODES:
            raise ValueError(f"mode must be one of {MODES}, got {mode!r}")
        if total is not None and (isinstance(total, bool) or not isinstance(total, int)
                                  or total < 0):
            raise ValueError(f"total must be an int >= 0 (the number of merges), got {total!r}")
        if isinstance(updates, bool) or not isinstance(updates, int) or updates < 1:
            raise ValueError(f"updates must be a positive int, got {updates!r}")
        self.mode = ("widget" if in_jupyter() else "text") if mode == "auto" else mode
        self.total = total or 0
        self.step = 0
        self.updates = updates
        self.redraws = 0
        self.stream = stream
        self.bar = widgets.IntProgress(value=0, min=0, max=max(1, self.total),
                                       description=description, bar_style="info")
        self.label = widgets.Label(value=f"0 / {self.total:,}")
        self.widget = widgets.HBox([self.bar, self.label])
        if display and self.mode == "widget":
            from IPython.display import display as show

            show(self.widget)

    def __call__(self, step: int, total: int, record=None) -> None:
        self.step, self.total = step, total
        stride = max(1, math.ceil(total / self.updates))
        if step % stride == 0 or step >= total:
            self._draw(record)

    def _draw(self, record) -> None:
        self.redraws += 1
        latest = f" · latest {bytes_label(record.token)!r}" if getattr(record, "token", None) else ""
        if record is not None and not hasattr(record, "token") and hasattr(record, "new_symbol"):
            latest = f" · latest {record.new_symbol!r}"
        text = f"{self.step:,} / {self.total:,}{latest}"
        if self.mode == "widget":
            self.bar.max = max(1, self.total)
            self.bar.value = self.step
            self.label.value = text
            if self.step >= self.total:
                self.bar.bar_style = "success"
        else:
            stream = self.stream if self.stream is not None else sys.stdout
            end = "\n" if self.step >= self.total else ""
            stream.write(f"\r{self.bar.description}: {text}" + " " * 8 + end)
            stream.flush()

    def finish(self, message: str | None = None) -> None:
        """Mark training as over (e.g. it stopped early); show ``message`` if given."""
        text = message or f"done: {self.step:,} merges"
        if self.mode == "widget":
            self.bar.bar_style = "success" if self.step >= self.total else "warning"
            self.label.value = text
        else:
            stream = self.stream if self.stream is not None else sys.stdout
            stream.write(f"\r{self.bar.description}: {text}\n")
            stream.flush()


def training_progress(total: int | None = None, **options) -> TrainingProgress:
    """A progress callback for ``ByteLevelBPE.train(..., progress=...)``.

    ``total`` is the number of merges (``vocab_size - 256``; the calls also carry it). In
    Jupyter it shows a bar at once; elsewhere it writes a text line. Options: ``description``,
    ``mode`` ("auto", "widget", "text"), ``updates`` (most redraws), ``stream``, ``display``.

    >>> import io
    >>> out = io.StringIO()
    >>> progress = training_progress(100, mode="text", stream=out)
    >>> for step in range(1, 101):
    ...     progress(step, 100, None)
    >>> progress.redraws, out.getvalue().endswith("100 / 100        \\n")
    (50, True)
    """
    return TrainingProgress(total, **options)
