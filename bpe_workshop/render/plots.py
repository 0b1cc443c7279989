"""Plots as matplotlib Figures: pair counts, compression, encoding lengths, speed, tokens per byte.

Each function returns a titled ``Figure`` with labelled axes, kept out of pyplot's open figures
so a figure ending a cell shows once; :func:`figure_to_html` makes one an inline image for an
``HTML`` widget. Left out: interactive (ipympl) figures.
"""
from __future__ import annotations

import base64
import functools
import html
import io
from collections.abc import Mapping, Sequence

import matplotlib.pyplot as plt
from matplotlib.figure import Figure

from bpe_workshop.render.labels import sorted_pairs, symbol_label, symbol_token
from bpe_workshop.validation import require_str

_BLUE, _ORANGE = "#364fc7", "#e8590c"


def _figure(width: float = 7.0, height: float = 3.6) -> Figure:
    # subtle: made through pyplot so that Jupyter's inline backend is loaded and displays a
    # returned Figure; closed at once so that the backend does not show it a second time.
    fig = plt.figure(figsize=(width, height), layout="constrained", facecolor="white")
    plt.close(fig)
    return fig


def _as_typed(make_figure):
    """Build the figure with maths off: matplotlib reads ``$...$`` in any label as TeX, so a
    token, a file name or a title holding a dollar would be drawn wrong or fail to draw."""
    @functools.wraps(make_figure)
    def wrapper(*args, **kwargs):
        with plt.rc_context({"text.parse_math": False}):
            return make_figure(*args, **kwargs)
    return wrapper


def _pair_label(pair, vocab) -> str:
    return " + ".join(symbol_label(symbol_token(s, vocab)) for s in pair)


@_as_typed
def top_pairs_figure(counts: Mapping[tuple, int], vocab: Mapping[int, bytes] | None = None,
                     top: int = 10, title: str = "Most frequent adjacent pairs") -> Figure:
    """Horizontal bars of the ``top`` pair counts, the most frequent at the top.

    >>> fig = top_pairs_figure({(101, 32): 7, (116, 104): 5})
    >>> fig.axes[0].get_xlabel(), len(fig.axes[0].patches)
    ('occurrences (count)', 2)
    """
    items = sorted_pairs(counts)[:top]
    fig = _figure(7.0, max(2.0, 0.35 * len(items) + 1.2))
    ax = fig.add_subplot()
    if not items:
        ax.text(0.5, 0.5, "no pairs to count", ha="center", va="center", transform=ax.transAxes)
    labels = [_pair_label(pair, vocab) for pair, _ in items]
    ax.barh(range(len(items)), [n for _, n in items], color=_BLUE)
    ax.set_yticks(range(len(items)), labels, fontfamily="monospace")
    ax.invert_yaxis()
    ax.set_xlabel("occurrences (count)")
    ax.set_ylabel("pair (left + right)")
    ax.set_title(title)
    return fig


@_as_typed
def compression_figure(series: Mapping[str, tuple[Sequence[float], Sequence[float]]],
                       xlabel: str = "number of merges",
                       title: str = "Compression as the vocabulary grows") -> Figure:
    """Bytes per token against merges (or vocabulary size), one line per series.

    ``series`` maps a label to ``(x values, bytes per token)``.

    >>> fig = compression_figure({"english": ([0, 10, 20], [1.0, 1.4, 1.6])})
    >>> fig.axes[0].get_ylabel()
    'bytes per token (higher = more compression)'
    """
    if not isinstance(series, Mapping):
        raise TypeError("series must be a dict: label -> (x values, bytes per token values)")
    fig = _figure()
    ax = fig.add_subplot()
    for label, (xs, ys) in series.items():
        if len(xs) != len(ys):
            raise ValueError(f"series {label!r}: {len(xs)} x values but {len(ys)} y values")
        ax.plot(list(xs), list(ys), label=label, linewidth=2)
    ax.set_xlabel(xlabel)
    ax.set_ylabel("bytes per token (higher = more compression)")
    ax.set_title(title)
    ax.grid(alpha=0.3)
    if len(series) > 1:
        ax.legend()
    return fig


def encoding_lengths(text: str, encodings: Sequence[str] = ("utf-8", "utf-16", "utf-32")
                     ) -> dict[str, int]:
    """Length in bytes of ``text`` under each codec (Python's utf-16/32 add a byte order mark).

    >>> encoding_lengths("hi👋")
    {'utf-8': 6, 'utf-16': 10, 'utf-32': 16}
    """
    require_str(text, "text")
    return {name: len(text.encode(name, errors="surrogatepass")) for name in encodings}


@_as_typed
def encoding_lengths_figure(text: str,
                            encodings: Sequence[str] = ("utf-8", "utf-16", "utf-32"),
                            title: str | None = None) -> Figure:
    """Bars of the byte length of ``text`` in UTF-8, UTF-16 and UTF-32.

    >>> fig = encoding_lengths_figure("héllo")
    >>> fig.axes[0].get_ylabel(), [round(p.get_height()) for p in fig.axes[0].patches]
    ('length (bytes)', [6, 12, 24])
    """
    lengths = encoding_lengths(text, encodings)
    fig = _figure(5.5, 3.2)
    ax = fig.add_subplot()
    colors = [_BLUE, _ORANGE, "#2b8a3e"][:len(lengths)]
    bars = ax.bar(list(lengths), list(lengths.values()), color=colors)
    ax.bar_label(bars, labels=[f"{n:,}" for n in lengths.values()])
    ax.set_xlabel("encoding (Python codec; utf-16/utf-32 include a byte order mark)")
    ax.set_ylabel("length (bytes)")
    ax.set_title(title or f"{len(text):,} characters in bytes")
    ax.margins(y=0.15)
    return fig


@_as_typed
def speed_figure(results: Mapping[str, float] | Sequence[tuple[str, float]],
                 title: str = "Time per run (lower is faster)", log: bool = False,
                 xlabel: str = "time (seconds)", ylabel: str = "implementation") -> Figure:
    """Horizontal bars of seconds per label, each bar labelled with its time.

    >>> fig = speed_figure({"naive": 2.0, "fast": 0.1})
    >>> fig.axes[0].get_xlabel(), fig.axes[0].get_title()
    ('time (seconds)', 'Time per run (lower is faster)')
    """
    items = list(results.items()) if isinstance(results, Mapping) else list(results)
    fig = _figure(7.0, max(2.0, 0.45 * len(items) + 1.2))
    ax = fig.add_subplot()
    bars = ax.barh([label for label, _ in items], [s for _, s in items], color=_BLUE)
    ax.bar_label(bars, labels=[_seconds(s) for _, s in items], padding=3)
    ax.invert_yaxis()
    if log:
        ax.set_xscale("log")
    ax.set_xlabel(xlabel + (", log scale" if log else ""))
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    ax.margins(x=0.2)
    return fig


def _seconds(s: float) -> str:
    if s >= 1:
        return f"{s:.2f} s"
    if s >= 1e-3:
        return f"{s * 1e3:.1f} ms"
    return f"{s * 1e6:.0f} µs"


@_as_typed
def tokens_per_byte_figure(table: Mapping[str, Mapping[str, float]],
                           title: str = "Tokens per byte (lower = better compression)",
                           ylabel: str = "tokens per byte") -> Figure:
    """Grouped bars: one group per corpus, one bar per encoding.

    ``table`` maps corpus -> {encoding -> tokens per byte}.

    >>> fig = tokens_per_byte_figure({"english": {"gpt2": 0.24, "cl100k_base": 0.22},
    ...                               "chinese": {"gpt2": 0.6, "cl100k_base": 0.4}})
    >>> len(fig.axes[0].patches), fig.axes[0].get_ylabel()
    (4, 'tokens per byte')
    """
    corpora = list(table)
    encodings = []
    for row in table.values():
        for name in row:
            if name not in encodings:
                encodings.append(name)
    fig = _figure(max(5.5, 1.4 * len(corpora) + 2), 3.6)
    ax = fig.add_subplot()
    width = 0.8 / max(1, len(encodings))
    for j, name in enumerate(encodings):
        xs = [i + (j - (len(encodings) - 1) / 2) * width for i in range(len(corpora))]
        ys = [table[c].get(name, 0.0) for c in corpora]
        ax.bar(xs, ys, width=width, label=name)
    ax.set_xticks(range(len(corpora)), corpora)
    ax.set_xlabel("corpus")
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    ax.legend()
    return fig


def figure_to_html(fig: Figure, fmt: str = "png", dpi: int = 96, alt: str | None = None) -> str:
    """The figure as an inline ``<img>`` (base64 PNG or SVG) for an ``HTML`` widget.

    >>> figure_to_html(speed_figure({"a": 1.0})).startswith('<div class="bpe-chart"><img')
    True
    """
    if fmt not in ("png", "svg"):
        raise ValueError(f"fmt must be 'png' or 'svg', got {fmt!r}")
    buffer = io.BytesIO()
    fig.savefig(buffer, format=fmt, dpi=dpi, facecolor="white")
    mime = "image/png" if fmt == "png" else "image/svg+xml"
    data = base64.b64encode(buffer.getvalue()).decode("ascii")
    title = alt if alt is not None else (fig.axes[0].get_title() if fig.axes else "chart")
    return (f'<div class="bpe-chart"><img alt="{html.escape(title, quote=True)}" '
            f'src="data:{mime};base64,{data}"></div>')

