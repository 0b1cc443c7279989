"""Tokens as plain text a person can read: whitespace and invisible characters made visible,
bytes that are not whole UTF-8 characters in hex. The one home for this (the ``.vocab`` file,
log lines, tables, plots, HTML), with no HTML or plotting. Left out: grapheme clusters.
"""
from __future__ import annotations

import unicodedata

# Characters drawn as a visible marker instead of themselves.
WHITESPACE_MARKERS = {" ": "⋅", "\t": "→", "\n": "\\n", "\r": "\\r"}

# Unicode categories of characters that print as nothing or as a blank: shown as <U+XXXX>.
_INVISIBLE = frozenset(("Cf", "Zs", "Zl", "Zp", "Co", "Cs", "Cn"))


def byte_units(data: bytes) -> list[tuple[int, int, str | None]]:
    """Cut ``data`` into UTF-8 characters and invalid bytes.

    Returns ``(start, end, char)`` for each well-formed character and
    ``(start, start + 1, None)`` for each byte that does not start one.

    >>> byte_units("a你".encode("utf-8"))
    [(0, 1, 'a'), (1, 4, '你')]
    >>> byte_units(b"\\xe4\\xbd")
    [(0, 1, None), (1, 2, None)]
    """
    units = []  # (start, end, char or None), covering data in order
    i = 0
    # subtle: the strict decoder turns each byte that is not part of a well-formed character
    # (stray continuation, overlong form, encoded surrogate, cut-off sequence) into one
    # surrogate U+DC80..U+DCFF, which well-formed UTF-8 can never produce.
    for char in data.decode("utf-8", errors="surrogateescape"):
        code = ord(char)
        if 0xDC80 <= code <= 0xDCFF:
            units.append((i, i + 1, None))
            i += 1
        else:
            size = 1 if code < 0x80 else 2 if code < 0x800 else 3 if code < 0x10000 else 4
            units.append((i, i + size, char))
            i += size
    return units


def visible_char(char: str) -> tuple[str, str]:
    """How one character is shown, and which kind of stand-in that is.

    The kind is ``"ws"`` (a whitespace marker), ``"esc"`` (an escape for a control or
    invisible character) or ``"plain"`` (the character itself).

    >>> visible_char(" "), visible_char("\\x07"), visible_char("\\u200b"), visible_char("é")
    (('⋅', 'ws'), ('\\\\x07', 'esc'), ('<U+200B>', 'esc'), ('é', 'plain'))
    """
    if char in WHITESPACE_MARKERS:
        return WHITESPACE_MARKERS[char], "ws"
    category = unicodedata.category(char)
    if category == "Cc":
        return repr(char)[1:-1], "esc"
    if category in _INVISIBLE:
        return f"<U+{ord(char):04X}>", "esc"
    return char, "plain"


def visible_text(text: str) -> str:
    """Plain text with whitespace and invisible characters made visible.

    >>> visible_text("a b\\tc\\n\\x07")
    'a⋅b→c\\\\n\\\\x07'
    """
    return "".join(visible_char(char)[0] for char in text)


def bytes_label(token: bytes) -> str:
    """A token's bytes as readable plain text: characters where they decode, hex elsewhere.

    >>> bytes_label(b"e "), bytes_label(b"\\xe4\\xbd"), bytes_label(b"a\\xe4\\xbd\\xa0\\x80")
    ('e⋅', '<e4 bd>', 'a你<80>')
    """
    out, pending = [], []  # pending: hex of a run of bytes that are not characters
    for start, _end, char in byte_units(token):
        if char is None:
            pending.append(f"{token[start]:02x}")
            continue
        if pending:
            out.append("<" + " ".join(pending) + ">")
            pending = []
        out.append(visible_text(char))
    if pending:
        out.append("<" + " ".join(pending) + ">")
    return "".join(out)


def counted(n: int, noun: str) -> str:
    """A count with its noun, singular for one: what every summary line says.

    >>> counted(1, "character"), counted(12_345, "symbol")
    ('1 character', '12,345 symbols')
    """
    return f"{n:,} {noun}{'' if n == 1 else 's'}"
