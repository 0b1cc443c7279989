"""The split agrees with tiktoken's on every code point, whatever Unicode the `regex` module knows.

tiktoken splits with Rust's regex engine, whose ``\\p{L}``, ``\\p{N}`` and ``\\p{M}`` follow one
Unicode version; the installed ``regex`` may follow a newer one (2026.11.19 counts 27,044 more
code points as letters, numbers or marks). ``bpe_workshop/algorithm/unicode_pin.txt`` holds
tiktoken's classes, read from tiktoken itself: an encoding whose pattern is one class, say
``\\p{Lu}``, and whose ranks are the 256 single bytes keeps exactly that class's characters of
any text (tiktoken drops what its pattern does not match). Regenerate the table after a tiktoken
upgrade with ``python tests/algorithm/test_unicode_pin.py``.
"""

import itertools
from pathlib import Path

import pytest
import tiktoken

from bpe_workshop.algorithm.patterns import PATTERN_NAMES, split_text
from bpe_workshop.files.offline import get_encoding

TABLE = Path(__file__).parents[2] / "bpe_workshop" / "algorithm" / "unicode_pin.txt"
EVERY_CODE_POINT = "".join(map(chr, [*range(0xD800), *range(0xE000, 0x110000)]))  # not surrogates
# Strings that show a code point's class to each pattern: a letter takes "'s" along, meets "x"
# (o200k: only a lower-case letter or a mark continues it), a number meets "1", spaces gather.
PINNED_CLASSES = ["L", "Lu", "Ll", "Lt", "Lm", "Lo", "M", "N"]  # the ones the patterns use
CONTEXTS = ["{c}'s x", "x{c}1", "{c} {c}"]


def tiktoken_class(name: str) -> str:
    """The characters of ``EVERY_CODE_POINT`` that tiktoken's engine puts in ``\\p{name}``."""
    ranks = {bytes([byte]): byte for byte in range(256)}
    probe = tiktoken.Encoding(f"probe-{name}", pat_str=rf"\p{{{name}}}", mergeable_ranks=ranks,
                              special_tokens={})
    return bytes(probe.encode_ordinary(EVERY_CODE_POINT)).decode("utf-8")


def as_ranges(chars: str) -> str:
    """``"abcx"`` becomes ``"61-63 78"``: runs of consecutive code points, in hex."""
    runs = []  # [first, last] code points
    for code in map(ord, chars):
        if runs and runs[-1][1] == code - 1:
            runs[-1][1] = code
        else:
            runs.append([code, code])
    return " ".join(f"{a:x}" if a == b else f"{a:x}-{b:x}" for a, b in runs)


def table_text() -> str:
    lines = [f"# tiktoken {tiktoken.__version__}'s split classes, written by "
             "tests/algorithm/test_unicode_pin.py: a class, then code points in hex"]
    lines += [f"{name} {as_ranges(tiktoken_class(name))}" for name in PINNED_CLASSES]
    return "\n".join(lines) + "\n"


def test_the_shipped_table_is_tiktokens_classes():
    shipped = [line.split(" ", 1) for line in TABLE.read_text().splitlines()[1:]]
    assert [name for name, _ in shipped] == list(PINNED_CLASSES)
    for name, ranges in shipped:
        assert ranges == as_ranges(tiktoken_class(name)), f"\\p{{{name}}} differs: regenerate"


@pytest.mark.parametrize("context", CONTEXTS)
def test_every_code_point_splits_as_tiktoken_does(context):
    # one long text per context, cut by newlines that every pattern cuts at as well
    text = "\n".join(context.format(c=c) for c in EVERY_CODE_POINT)
    for name in ["gpt2", "cl100k_base", "o200k_base"]:
        enc = get_encoding(name)
        chunks = split_text(text, PATTERN_NAMES["gpt2" if name == "gpt2" else name])
        ids = dict.fromkeys(chunks)  # chunk -> tiktoken's ids for it as one piece (" x" repeats)
        for chunk in ids:
            ids[chunk] = enc._encode_single_piece(chunk)
        ours = list(itertools.chain.from_iterable(map(ids.__getitem__, chunks)))
        theirs = enc.encode_ordinary(text)
        if ours != theirs:
            first = next(k for k, (a, b) in enumerate(zip(ours, theirs)) if a != b)
            near = enc.decode(theirs[max(first - 3, 0):first + 3])
            pytest.fail(f"{name}, {context!r}: ids differ near {near!r}")


if __name__ == "__main__":
    TABLE.write_text(table_text(), encoding="utf-8")
    print(f"wrote {TABLE}")
