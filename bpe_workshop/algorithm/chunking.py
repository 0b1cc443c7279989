"""From text to the chunks BPE works on: valid UTF-8, special tokens cut out, the pattern's split.

Lone surrogates (``"\\ud800"``: a str may hold one, UTF-8 cannot) go as in tiktoken: through
UTF-16 with ``surrogatepass`` and back with ``errors="replace"``, so a pair written as two code
points becomes its character and a lone one U+FFFD. Left out: Unicode normalization.
"""

from __future__ import annotations

from bpe_workshop.algorithm.patterns import Deadline, iter_chunks
from bpe_workshop.algorithm.special_tokens import encodes, special_regex


def encodable(text: str) -> str:
    """``text`` made encodable as UTF-8 the way tiktoken does (itself when it already is).

    >>> encodable("hi"), encodable("a\\ud800b")
    ('hi', 'a�b')
    >>> encodable("\\ud83d\\ude00") == "😀"  # a pair written as two code points
    True
    """
    return text if encodes(text) else text.encode("utf-16", "surrogatepass").decode("utf-16",
                                                                                     "replace")


def training_chunks(text: str, pattern: str | None,
                    special_tokens: dict[str, int] | None) -> tuple[list[bytes], list[str]]:
    """The text between special tokens, split by the pattern, as UTF-8 bytes in text order; and the
    pieces the pattern leaves out. Each distinct chunk is encoded once (8 MB of Python source: 2
    million chunks, 38 thousand distinct), its repeats sharing the one bytes object.

    >>> training_chunks("ab ab<|end|>ab", "whitespace", {"<|end|>": 300})
    ([b'ab', b' ', b'ab', b'ab'], [])
    >>> training_chunks("ab, ab", "[a-z]+", None)
    ([b'ab', b'ab'], [', '])
    """
    pieces = special_regex(special_tokens).split(text) if special_tokens else [text]
    deadline = Deadline.for_text(text)  # one budget for every piece, not one each
    as_bytes = {}  # chunk text -> its UTF-8 bytes, one object per distinct chunk
    chunks = []
    dropped = {}  # each piece of text the pattern leaves out, once, in text order
    for piece in pieces:
        # matches one at a time, so only the distinct chunk texts are kept
        for chunk in iter_chunks(piece, pattern, deadline, dropped):
            text_bytes = as_bytes.get(chunk)
            if text_bytes is None:
                text_bytes = as_bytes[chunk] = chunk.encode("utf-8")
            chunks.append(text_bytes)
    return chunks, list(dropped)
