"""Compute before drawing: token bytes grouped into whole characters and partial UTF-8 pieces.

GPT-2 cuts ``你`` (``e4 bd a0``) into ``<e4 bd>`` and ``<a0>``. :func:`group_tokens` says which
whole characters each token holds and which bytes are part of one (or invalid), and groups the
tokens that complete characters together; ``render.tokens`` draws it. Left out: graphemes.
"""
from __future__ import annotations

import functools
from bisect import bisect_left
from collections.abc import Sequence
from dataclasses import dataclass

from bpe_workshop.token_text import byte_units


@dataclass(frozen=True)
class Piece:
    """Part of a token: ``text`` (whole characters) or ``data`` (bytes of no whole character)."""

    text: str = ""
    data: bytes = b""

    @property
    def is_partial(self) -> bool:
        return bool(self.data)


@dataclass(frozen=True)
class TokenPieces:
    """One token: its position, bytes and pieces; ``partial`` if any piece is bytes."""

    index: int
    token: bytes
    pieces: tuple[Piece, ...]

    @property
    def partial(self) -> bool:
        return any(piece.is_partial for piece in self.pieces)


@dataclass(frozen=True)
class TokenGroup:
    """Consecutive tokens that start and end on character boundaries.

    ``chars`` are the characters cut by a boundary between these tokens ("" for one token).
    """

    tokens: tuple[TokenPieces, ...]
    chars: str = ""


@functools.lru_cache(maxsize=65536)
def _whole(token: bytes) -> tuple[Piece, ...] | None:
    """The pieces of a token made of whole characters, or None if it is not valid UTF-8 alone."""
    try:
        text = token.decode("utf-8")
    except UnicodeDecodeError:
        return None
    return (Piece(text=text),) if text else ()


def group_tokens(token_bytes: Sequence[bytes]) -> list[TokenGroup]:
    """Cut the tokens' bytes into characters; group the tokens that share a character.

    >>> [[t.pieces for t in g.tokens] for g in group_tokens([b"hi", b"\\xe4\\xbd", b"\\xa0"])]
    ... # doctest: +NORMALIZE_WHITESPACE
    [[(Piece(text='hi', data=b''),)],
     [(Piece(text='', data=b'\\xe4\\xbd'),), (Piece(text='', data=b'\\xa0'),)]]
    >>> [g.chars for g in group_tokens([b"a\\xe4", b"\\xbd\\xa0b"])]
    ['你']
    """
    tokens = [bytes(t) for t in token_bytes]
    data = b"".join(tokens)
    units = byte_units(data)  # (start, end, char or None), covering data in order
    unit_starts = [start for start, _, _ in units]
    boundaries = set(unit_starts) | {len(data)}
    starts = [0]  # starts[k] = byte offset of token k; starts[-1] = len(data)
    for token in tokens:
        starts.append(starts[-1] + len(token))

    def pieces_of(k: int) -> tuple[Piece, ...]:
        s, e = starts[k], starts[k + 1]
        if s in boundaries and e in boundaries:
            whole = _whole(tokens[k])
            if whole is not None:
                return whole
        pieces, text, data_from = [], [], None
        # from the unit that contains s (a character may have started in an earlier token)
        u = bisect_left(unit_starts, s + 1) - 1
        while u < len(units) and units[u][0] < e:
            pos, end, char = units[u]
            if char is not None and pos >= s and end <= e:
                if data_from is not None:
                    pieces.append(Piece(data=data[data_from:pos]))
                    data_from = None
                text.append(char)
            else:
                if text:
                    pieces.append(Piece(text="".join(text)))
                    text = []
                if data_from is None:
                    data_from = max(pos, s)
            u += 1
        if text:
            pieces.append(Piece(text="".join(text)))
        if data_from is not None:
            pieces.append(Piece(data=data[data_from:e]))
        return tuple(pieces)

    def chars_cut(first: int, stop: int) -> str:
        lo, hi = starts[first], starts[stop]
        inside = starts[first + 1:stop]  # token boundaries within the group
        cut = []
        u = bisect_left(unit_starts, lo)
        while u < len(units) and units[u][0] < hi:
            start, end, char = units[u]
            if char is not None and any(start < b < end for b in inside):
                cut.append(char)
            u += 1
        return "".join(cut)

    groups = []
    k = 0
    while k < len(tokens):
        first = k
        k += 1
        while k < len(tokens) and starts[k] not in boundaries:
            k += 1
        members = tuple(TokenPieces(i, tokens[i], pieces_of(i)) for i in range(first, k))
        groups.append(TokenGroup(members, chars_cut(first, k) if k - first > 1 else ""))
    return groups
