"""Coloured tokens: a token sequence as an HTML string (one box per token, the id on hover).

For teaching: whitespace is visible (``⋅``, ``→``, ``\\n``), control and invisible characters
escaped (``\\x07``, ``<U+200B>``); tokens holding part of a UTF-8 character show their bytes in
hex with a dashed border, and the tokens completing a character share one outline labelled with
it (``render.pieces.group_tokens``); colour is never the only cue (``render.style``).
Left out: colouring by id or frequency, right-to-left layout, grapheme clusters.
"""
from __future__ import annotations

import functools
import html
from collections.abc import Sequence

from bpe_workshop.render.pieces import TokenGroup, TokenPieces, group_tokens
from bpe_workshop.render.style import color_class, view
from bpe_workshop.token_text import counted, visible_char, visible_text
from bpe_workshop.validation import require_int

DEFAULT_MAX_TOKENS = 1500


@functools.lru_cache(maxsize=65536)
def _text_html(text: str) -> str:
    """Whole characters as HTML: whitespace markers, escapes for invisible characters."""
    out = []
    for char in text:
        shown, kind = visible_char(char)
        out.append(html.escape(shown) if kind == "plain"
                   else f'<span class="bpe-{kind}">{html.escape(shown)}</span>')
    return "".join(out)


def _hex_html(data: bytes) -> str:
    return '<span class="bpe-hex">&lt;' + data.hex(" ") + "&gt;</span>"


@functools.lru_cache(maxsize=65536)
def _token_title(token: bytes, token_id: int | None) -> str:
    """The hover text of a token: id, bytes, hex (escaped for an attribute)."""
    lines = [] if token_id is None else [f"id {token_id}"]
    lines.append(f"bytes {token!r}")
    lines.append(f"hex {token.hex(' ') or '(none)'} · {len(token)} "
                 f"byte{'s' if len(token) != 1 else ''}")
    return html.escape("\n".join(lines), quote=True).replace("\n", "&#10;")


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


def _token_html(token: TokenPieces, token_id: int | None, show_ids: bool) -> str:
    if token.pieces:
        inner = "".join(_hex_html(p.data) if p.is_partial else _text_html(p.text)
                        for p in token.pieces)
    else:
        inner = '<span class="bpe-esc">(empty)</span>'
    with_id = show_ids and token_id is not None
    classes = " ".join(["bpe-tok", color_class(token.index)]
                       + (["bpe-partial"] if token.partial else [])
                       + (["bpe-with-id"] if with_id else []))
    id_attr = f' data-id="{int(token_id)}"' if token_id is not None else ""
    id_html = f'<span class="bpe-id">{int(token_id)}</span>' if with_id else ""
    return (f'<span class="{classes}"{id_attr} title="{_token_title(token.token, token_id)}">'
            f'<span class="bpe-text">{inner}</span>{id_html}</span>')


def _group_html(group: TokenGroup, ids: Sequence[int | None], show_ids: bool, unit: str) -> str:
    spans = "".join(_token_html(t, ids[t.index], show_ids) for t in group.tokens)
    if len(group.tokens) > 1:
        first, last = group.tokens[0].index, group.tokens[-1].index
        data = b"".join(t.token for t in group.tokens)
        label = visible_text(group.chars)
        title = html.escape(f"{unit}s {first}–{last} together are the bytes {data.hex(' ')}"
                            + (f", which make {label!r}" if label else ""), quote=True)
        label_html = (f'<span class="bpe-group-char">= {html.escape(label)}</span>'
                      if label else "")
        spans = f'<span class="bpe-group" title="{title}">{spans}{label_html}</span>'
    # A real line break after tokens that hold newlines (at most two, to keep it compact).
    newlines = sum(t.token.count(b"\n") for t in group.tokens)
    return spans + "<br>" * min(newlines, 2)


def tokens_html(token_bytes: Sequence[bytes], ids: Sequence[int] | None = None,
                show_ids: bool = False, max_tokens: int = DEFAULT_MAX_TOKENS, *,
                include_css: bool = True, summary: bool = True, unit: str = "token",
                empty_message: str | None = None, total: int | None = None,
                total_bytes: int | None = None) -> str:
    """Render tokens as coloured, bordered spans (id, bytes and hex on hover); one HTML string.

    ``token_bytes``: one ``bytes`` per token (``tok.token_bytes(ids)``, or tiktoken's
    ``decode_single_token_bytes``). Only the first ``max_tokens`` are drawn, with a note.
    ``include_css=False`` leaves out ``render.style.CSS``; ``unit`` names the pieces ("chunk").
    When ``token_bytes`` is a window of a longer sequence, ``total`` and ``total_bytes`` give the
    whole's length, so the summary line always describes the whole.

    >>> out = tokens_html([b"Hi", b" there"], ids=[17250, 612])
    >>> out.count('class="bpe-tok '), "⋅</span>there" in out, "2 tokens · 8 bytes" in out
    (2, True, True)
    >>> "&lt;e4 bd&gt;" in tokens_html([b"\\xe4\\xbd", b"\\xa0"])
    True
    """
    _check_inputs(token_bytes, ids)
    require_int(max_tokens, "max_tokens", minimum=1, example=DEFAULT_MAX_TOKENS)
    if (total is None) != (total_bytes is None):
        raise ValueError("pass total and total_bytes together (the whole sequence's length in "
                         "tokens and in bytes), or neither")
    if total is None:
        total, total_bytes = len(token_bytes), sum(len(t) for t in token_bytes)
    else:
        require_int(total, "total", minimum=len(token_bytes))
        require_int(total_bytes, "total_bytes", minimum=0)
    if total == 0:
        message = empty_message or f"No {unit}s to show: the text is empty."
        return view(f'<div class="bpe-message">{html.escape(message)}</div>', include_css)

    shown = token_bytes[:max_tokens]
    shown_ids = list(ids[:max_tokens]) if ids is not None else [None] * len(shown)
    groups = group_tokens(shown)
    body = "".join(_group_html(group, shown_ids, show_ids, unit) for group in groups)

    notes = []
    if summary:
        notes.append(f'<div class="bpe-summary">{counted(total, unit)} · {total_bytes:,} bytes'
                     f" · {total_bytes / total:.2f} bytes per {unit}</div>")
    if total > len(shown):
        notes.append(f'<div class="bpe-note">Showing the first {len(shown):,} of {total:,} '
                     f"{unit}s (the text is long); the counts cover all of it.</div>")
    if any(t.partial for group in groups for t in group.tokens):
        notes.append(
            '<div class="bpe-legend">Dashed <span class="bpe-mono">&lt;hex&gt;</span>: bytes that '
            f"are only part of a UTF-8 character (or invalid). Outlined “= x”: the {unit}s that "
            "together make the character x.</div>")
    return view(f'{"".join(notes)}<div class="bpe-tokens">{body}</div>', include_css)


def chunks_html(chunks: Sequence[str], max_tokens: int = DEFAULT_MAX_TOKENS, *,
                include_css: bool = True) -> str:
    """Render pre-tokenization chunks (strings) the same way as tokens.

    >>> "3 chunks" in chunks_html(["Hello", ",", " world"])
    True
    """
    if isinstance(chunks, str):
        raise TypeError("chunks must be a list of strings, e.g. split_text(text, pattern)")
    return tokens_html([c.encode("utf-8", errors="surrogatepass") for c in chunks],
                       max_tokens=max_tokens, include_css=include_css, unit="chunk")
