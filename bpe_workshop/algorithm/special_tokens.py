"""Special tokens: control texts such as ``<|endoftext|>`` with ids of their own (tiktoken's rules).

Never learned by merges, cut out before splitting. ``encode`` is safe by default: text that
merely looks like one raises, unless allowed (``allowed_special``) or asked for as plain text
(``disallowed_special=()``). Left out: special tokens inside the merge table.
"""

from __future__ import annotations

from collections.abc import Iterable

import regex

from bpe_workshop.validation import describe, require_int, require_str

MAX_ID = 2**31 - 1  # ids fit a signed 32-bit int, as in tiktoken and the trainers' arrays


def check_special_tokens(special_tokens: object, first_free_id: int) -> None:
    """Special tokens must be ``{text: id}`` with ids of their own, from ``first_free_id`` up.

    >>> check_special_tokens({"<|end|>": 300}, first_free_id=300)
    >>> check_special_tokens({"<|end|>": 3}, first_free_id=300)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: special token '<|end|>' has id 3, which collides with the byte and merge ids ...
    """
    if not isinstance(special_tokens, dict):
        raise TypeError(f"special_tokens must be a dict from token text to id, e.g. "
                        f"{{'<|endoftext|>': {first_free_id}}}, got {describe(special_tokens)}")
    owner = {}  # id -> special token text
    for text, i in special_tokens.items():
        require_str(text, "each special token text", hint="e.g. '<|endoftext|>'")
        if not text:
            raise ValueError("a special token text must not be empty; use e.g. '<|endoftext|>'")
        if not text.isascii() and not encodes(text):
            raise ValueError(f"special token {text!r} holds a lone surrogate, which UTF-8 cannot "
                             f"store; write the character it belongs to, or leave it out")
        require_int(i, f"the id of special token {text!r}", maximum=MAX_ID)
        if i < first_free_id:
            raise ValueError(f"special token {text!r} has id {i}, which collides with the byte "
                             f"and merge ids 0..{first_free_id - 1}; give it an id of its own, "
                             f"e.g. {{{text!r}: {first_free_id}}}")
        if i in owner:
            raise ValueError(f"special tokens {owner[i]!r} and {text!r} both have id {i}; "
                             f"give each one its own id")
        owner[i] = text


def encodes(text: str) -> bool:
    """Whether ``text`` can be stored as UTF-8 (no lone surrogates such as ``"\\ud800"``)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def special_regex(tokens: Iterable[str]) -> regex.Pattern:
    """A regex matching any of ``tokens``, longest first (so one containing another wins).

    >>> special_regex(["<|a|>", "<|a|><|b|>"]).findall("x<|a|><|b|>y<|a|>")
    ['<|a|><|b|>', '<|a|>']
    """
    return regex.compile("|".join(regex.escape(t) for t in sorted(tokens, key=len, reverse=True)))


def allowed_in(text: str, special_tokens: dict[str, int],
               allowed_special: str | Iterable[str],
               disallowed_special: str | Iterable[str]) -> list[str]:
    """The special tokens to encode as such in ``text``; raises if a disallowed one appears.

    Each of ``allowed_special`` and ``disallowed_special`` is ``"all"`` or any iterable of texts.

    >>> allowed_in("a<|end|>", {"<|end|>": 300}, "all", "all"), allowed_in("a<|end|>", {}, (), ())
    (['<|end|>'], [])
    >>> allowed_in("a", {}, "none", ())  # doctest: +ELLIPSIS (a str is one token or "all")
    Traceback (most recent call last):
    ...
    TypeError: allowed_special must be "all" or a set of special token texts, e.g. ...
    """
    chosen = []  # allowed, then disallowed: "all" or a set of texts (read once: an iterator)
    for name, value in (("allowed_special", allowed_special),
                        ("disallowed_special", disallowed_special)):
        tokens = value if isinstance(value, str) or not isinstance(value, Iterable) else list(value)
        if tokens != "all" and not (isinstance(tokens, list)
                                    and all(isinstance(token, str) for token in tokens)):
            known = isinstance(value, str) and value in special_tokens  # "none" is no token
            example = f"{{{value!r}}}" if known else "{'<|endoftext|>'}"
            raise TypeError(f'{name} must be "all" or a set of special token texts, '
                            f"e.g. {name}={example} or (), got {describe(value)}")
        chosen.append(tokens if tokens == "all" else set(tokens))
    allowed, disallowed = chosen
    if allowed == "all":
        allowed = set(special_tokens)
    if disallowed == "all":
        disallowed = set(special_tokens) - allowed
    if disallowed:
        match = special_regex(disallowed).search(text)
        if match:
            token = match.group()
            raise ValueError(f"the text contains {token!r}, which is a special token; pass "
                             f"allowed_special={{{token!r}}} (or \"all\") to encode it as the "
                             "special token, or disallowed_special=() to encode it as plain text")
    return [token for token in allowed if token in special_tokens]
