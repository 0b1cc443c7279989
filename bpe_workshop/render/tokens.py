"""Coloured tokens: a token sequence as an HTML string.

Lineage: the coloured-span view of web tokenizer viewers (one box per token, the id on hover),
rebuilt for Jupyter output and ipywidgets ``HTML`` values. What it adds for teaching:

- whitespace is visible (space ``⋅``, tab ``→``, newline ``\\n`` plus a real line break);
  control and invisible format characters are escaped (``\\x07``, ``<U+200B>``);
- tokens that hold only part of a UTF-8 character are shown as their bytes in hex with a
  dashed border (``<e4 bd>``), and the tokens that complete a character together sit inside
  one outline labelled with that character;
- colour is never the only cue: every token has a border, and the colours are light
  backgrounds with an explicit dark text colour, so they read the same in light and dark themes.

Left out: colouring by id or by frequency, right-to-left layout, and grapheme clusters (a
flag or a family emoji is several code points and is shown as several characters).
"""
from __future__ import annotations

import functools
import html
from bisect import bisect_left
from collections.abc import Sequence

from bpe_workshop.token_text import byte_units, bytes_label, visible_char, visible_text

__all__ = [
    "TOKENS_CSS",
    "PALETTE",
    "DEFAULT_MAX_TOKENS",
    "tokens_html",
    "chunks_html",
    "visible_text",
    "bytes_label",
    "byte_units",
]

# Light backgrounds; with text colour #111 each has a contrast ratio above 12:1.
PALETTE = (
    "#ffd6a5", "#caffbf", "#9bf6ff", "#bdb2ff",
    "#ffc6ff", "#fdffb6", "#a0c4ff", "#ffadad",
)
DEFAULT_MAX_TOKENS = 1500

# One style block per output; every rule is scoped under .bpe-view so it cannot leak.
TOKENS_CSS = """<style>
.bpe-view { font-size: 15px; line-height: 1.5; }
.bpe-view .bpe-tokens { font-family: "DejaVu Sans Mono", Menlo, Consolas, monospace;
  font-size: 17px; line-height: 2.1; white-space: normal; word-break: break-all; }
.bpe-view .bpe-tok { display: inline-block; color: #111; border: 1px solid #444;
  border-radius: 4px; padding: 0 3px; margin: 2px 1px; white-space: pre; line-height: 1.45;
  vertical-align: top; }
.bpe-view .bpe-tok.bpe-with-id { display: inline-flex; flex-direction: column;
  align-items: center; }
.bpe-view .bpe-id { font-size: 11px; color: #333; line-height: 1.1; }
.bpe-view .bpe-ws { color: #555; }
.bpe-view .bpe-esc { color: #8a1c1c; font-size: 0.85em; }
.bpe-view .bpe-hex { color: #0b3d91; font-size: 0.85em; }
.bpe-view .bpe-tok.bpe-partial { border: 2px dashed #222; }
.bpe-view .bpe-group { display: inline-block; border: 2px solid #c2255c; border-radius: 6px;
  padding: 0 2px; margin: 1px 2px; white-space: nowrap; }
.bpe-view .bpe-group-char { display: inline-block; background: #fff; color: #111;
  border: 1px solid #c2255c; border-radius: 4px; padding: 0 4px; margin-left: 2px;
  line-height: 1.45; vertical-align: top; }
.bpe-view .bpe-note, .bpe-view .bpe-summary, .bpe-view .bpe-legend { font-size: 13px;
  opacity: 0.85; margin: 2px 0; }
.bpe-view .bpe-message { font-size: 15px; padding: 6px 10px; border-left: 4px solid #e8590c;
  margin: 4px 0; }
.bpe-view table.bpe-table { border-collapse: collapse; margin: 4px 0; font-size: 15px; }
.bpe-view table.bpe-table th, .bpe-view table.bpe-table td { border: 1px solid #8888;
  padding: 2px 8px; text-align: left; vertical-align: middle; }
.bpe-view table.bpe-table td.bpe-num { text-align: right; font-variant-numeric: tabular-nums; }
.bpe-view .bpe-mono { font-family: "DejaVu Sans Mono", Menlo, Consolas, monospace; }
.bpe-view .bpe-bits { font-family: "DejaVu Sans Mono", Menlo, Consolas, monospace;
  white-space: pre; }
.bpe-view .bpe-prefix { background: #ffd43b; color: #111; font-weight: bold;
  border-radius: 2px; }
.bpe-view .bpe-bar { display: inline-block; height: 0.9em; background: #4c6ef5;
  border: 1px solid #364fc7; vertical-align: middle; }
.bpe-view tr.bpe-current td { background: #fff3bf; color: #111; }
.bpe-view .bpe-chart img { max-width: 100%; background: #fff; }
</style>"""

@functools.lru_cache(maxsize=4096)
def _char_html(char: str) -> str:
    """One character as HTML: whitespace markers, escapes for invisible characters."""
    shown, kind = visible_char(char)
    if kind == "plain":
        return html.escape(shown)
    return f'<span class="bpe-{kind}">{html.escape(shown)}</span>'


def _hex_html(data: bytes) -> str:
    return '<span class="bpe-hex">&lt;' + " ".join(f"{b:02x}" for b in data) + "&gt;</span>"


@functools.lru_cache(maxsize=65536)
def _token_title(token: bytes, token_id: int | None) -> str:
    """The hover text of a token: id, bytes, hex (escaped for an attribute)."""
    lines = [] if token_id is None else [f"id {token_id}"]
    lines.append(f"bytes {token!r}")
    lines.append(f"hex {token.hex(' ') or '(none)'} · {len(token)} byte{'s' if len(token) != 1 else ''}")
    return html.escape("\n".join(lines), quote=True).replace("\n", "&#10;")


@functools.lru_cache(maxsize=65536)
def _whole_inner(token: bytes) -> str | None:
    """HTML for a token made of whole characters, or None if it is not valid UTF-8 alone."""
    try:
        text = token.decode("utf-8")
    except UnicodeDecodeError:
        return None
    return "".join(_char_html(char) for char in text)


def _check_inputs(token_bytes, ids) -> None:
    if isinstance(token_bytes, (bytes, str)):
        raise TypeError(
            "token_bytes must be a list of bytes objects, one per token, not a single "
            f"{type(token_bytes).__name__}; e.g. tok.token_bytes(ids) or "
            "[enc.decode_single_token_bytes(i) for i in ids]"
        )
    for token in token_bytes:
        if not isinstance(token, (bytes, bytearray)):
            raise TypeError(
                f"every token must be bytes, got {type(token).__name__} ({token!r}); "
                "encode strings first, e.g. [s.encode('utf-8') for s in chunks]"
            )
    if ids is not None and len(ids) != len(token_bytes):
        raise ValueError(
            f"ids has {len(ids)} entries but token_bytes has {len(token_bytes)}; "
            "pass one id per token (or ids=None)"
        )


def tokens_html(
    token_bytes: Sequence[bytes],
    ids: Sequence[int] | None = None,
    show_ids: bool = False,
    max_tokens: int = DEFAULT_MAX_TOKENS,
    *,
    include_css: bool = True,
    summary: bool = True,
    unit: str = "token",
    empty_message: str | None = None,
    total: int | None = None,
) -> str:
    """Render tokens as coloured, bordered spans; return one HTML string.

    Hovering a token shows its id, bytes and hex. Tokens that hold part of a UTF-8
    character show that part as hex bytes (``<e4 bd>``) with a dashed border, and the run of
    tokens that completes the character is outlined and labelled with it (``= 你``).

    ``token_bytes`` holds one ``bytes`` per token (``tok.token_bytes(ids)``, or
    ``[enc.decode_single_token_bytes(i) for i in ids]`` for tiktoken). Only the first
    ``max_tokens`` are drawn; a note says so. ``include_css=False`` leaves out the style block,
    for a page that already holds :data:`TOKENS_CSS`. ``unit`` names the pieces in messages
    ("chunk" for the split explorer). ``total`` is the length of the whole sequence when
    ``token_bytes`` holds only its first tokens (a window cut by the caller).

    >>> out = tokens_html([b"Hi", b" there"], ids=[17250, 612])
    >>> out.count('class="bpe-tok"'), "⋅</span>there" in out, "2 tokens" in out
    (2, True, True)
    >>> "&lt;e4 bd&gt;" in tokens_html([b"\\xe4\\xbd", b"\\xa0"])
    True
    """
    _check_inputs(token_bytes, ids)
    if isinstance(max_tokens, bool) or not isinstance(max_tokens, int) or max_tokens < 1:
        raise ValueError(f"max_tokens must be a positive int, got {max_tokens!r}")
    css = TOKENS_CSS if include_css else ""
    total = len(token_bytes) if total is None else max(total, len(token_bytes))
    if total == 0:
        message = empty_message or f"No {unit}s to show: the text is empty."
        return f'<div class="bpe-view">{css}<div class="bpe-message">{html.escape(message)}</div></div>'

    shown = [bytes(t) for t in token_bytes[:max_tokens]]
    shown_ids = list(ids[:max_tokens]) if ids is not None else [None] * len(shown)
    data = b"".join(shown)

    # Character boundaries of the whole shown byte string, and what each unit is.
    units = byte_units(data)
    unit_starts = [start for start, _, _ in units]  # ascending
    unit_at = {start: (end, char) for start, end, char in units}
    unit_at_end = len(data)
    starts = [0]  # starts[k] = byte offset of token k; starts[-1] = len(data)
    for token in shown:
        starts.append(starts[-1] + len(token))

    def on_boundary(offset: int) -> bool:
        return offset in unit_at or offset == unit_at_end

    def token_inner(k: int) -> tuple[str, bool]:
        """HTML for token k's content and whether it holds a partial or invalid character."""
        s, e = starts[k], starts[k + 1]
        if s == e:
            return '<span class="bpe-esc">(empty)</span>', False
        if on_boundary(s) and on_boundary(e):
            inner = _whole_inner(shown[k])
            if inner is not None:
                return inner, False
        parts, partial = [], False
        hex_from = None  # start of a run of bytes shown as hex, not yet written
        # from the unit that contains s (a character may have started in an earlier token)
        u = bisect_left(unit_starts, s + 1) - 1
        while u < len(units) and units[u][0] < e:
            pos, end, char = units[u]
            if char is not None and pos >= s and end <= e:
                if hex_from is not None:
                    parts.append(_hex_html(data[hex_from:pos]))
                    hex_from = None
                parts.append(_char_html(char))
            elif hex_from is None:
                hex_from, partial = max(pos, s), True
            u += 1
        if hex_from is not None:
            parts.append(_hex_html(data[hex_from:e]))
        return "".join(parts), partial

    # Group tokens so that every group starts and ends on a character boundary.
    groups = []  # list of (first token index, last token index + 1)
    k = 0
    while k < len(shown):
        first = k
        k += 1
        while k < len(shown) and not on_boundary(starts[k]):
            k += 1
        groups.append((first, k))

    pieces = []
    any_partial = False
    for first, stop in groups:
        spans = []
        newlines = 0
        for k in range(first, stop):
            inner, partial = token_inner(k)
            any_partial |= partial
            token_id = shown_ids[k]
            with_id = show_ids and token_id is not None
            classes = "bpe-tok" + (" bpe-partial" if partial else "") + (
                " bpe-with-id" if with_id else "")
            id_attr = f' data-id="{int(token_id)}"' if token_id is not None else ""
            id_html = f'<span class="bpe-id">{int(token_id)}</span>' if with_id else ""
            spans.append(
                f'<span class="{classes}" style="background:{PALETTE[k % len(PALETTE)]}"'
                f'{id_attr} title="{_token_title(shown[k], token_id)}">'
                f'<span class="bpe-text">{inner}</span>{id_html}</span>'
            )
            newlines += shown[k].count(b"\n")
        if stop - first > 1:
            # Tokens that together complete character(s): one outline, labelled.
            lo, hi = starts[first], starts[stop]
            group_bytes = data[lo:hi]
            inside = starts[first + 1:stop]  # token boundaries within the group
            split_chars = []
            u = bisect_left(unit_starts, lo)
            while u < len(units) and units[u][0] < hi:
                start, end, char = units[u]
                if char is not None and any(start < b < end for b in inside):
                    split_chars.append(char)
                u += 1
            label = "".join(visible_text(c) for c in split_chars)
            title = html.escape(
                f"{unit}s {first}–{stop - 1} together are the bytes {group_bytes.hex(' ')}"
                + (f", which make {label!r}" if label else ""), quote=True)
            label_html = (f'<span class="bpe-group-char">= {html.escape(label)}</span>'
                          if label else "")
            pieces.append(f'<span class="bpe-group" title="{title}">{"".join(spans)}{label_html}</span>')
        else:
            pieces.append(spans[0])
        # A real line break after tokens that hold newlines (at most two, to keep it compact).
        if newlines:
            pieces.append("<br>" * min(newlines, 2))

    notes = []
    if summary:
        n_bytes = sum(len(t) for t in token_bytes)
        ratio = f" · {n_bytes / len(token_bytes):.2f} bytes per {unit}"
        notes.append(f'<div class="bpe-summary">{total:,} {unit}{"s" if total != 1 else ""} · '
                     f'{n_bytes:,} bytes{ratio}</div>')
    body = f'<div class="bpe-tokens">{"".join(pieces)}</div>'
    if total > len(shown):
        notes.append(f'<div class="bpe-note">Showing the first {len(shown):,} of {total:,} '
                     f'{unit}s (the text is long); the counts cover all of it.</div>')
    if any_partial:
        notes.append(
            '<div class="bpe-legend">Dashed <span class="bpe-mono">&lt;hex&gt;</span>: bytes that '
            f"are only part of a UTF-8 character (or invalid). Outlined “= x”: the {unit}s that "
            "together make the character x.</div>")
    return f'<div class="bpe-view">{css}{"".join(notes)}{body}</div>'


def chunks_html(chunks: Sequence[str], max_tokens: int = DEFAULT_MAX_TOKENS, *,
                include_css: bool = True) -> str:
    """Render pre-tokenization chunks (strings) the same way as tokens.

    >>> "3 chunks" in chunks_html(["Hello", ",", " world"])
    True
    """
    if isinstance(chunks, str):
        raise TypeError("chunks must be a list of strings, e.g. split_text(text, pattern)")
    return tokens_html([c.encode("utf-8") for c in chunks], max_tokens=max_tokens,
                       include_css=include_css, unit="chunk")
