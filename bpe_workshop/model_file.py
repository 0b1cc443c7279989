"""Save and load a ``ByteLevelBPE`` as plain text: a model file to load, a vocab file to read.

Lineage: minbpe's ``.model`` / ``.vocab`` pair (a version line, the pattern, the special tokens,
then one merge per line), extended with GPT-2's byte order and strict checking. Never pickle:
a model file is data, and loading it runs no code.

The ``.model`` format, version 1 (UTF-8, one item per line; strings are JSON-quoted so a
pattern may hold newlines or quotes)::

    bpe-workshop byte-level v1
    pattern "'s|'t| ?\\\\p{L}+"           (or: pattern none)
    byte-ids identity                    (or: byte-ids 33 34 ... , 256 ids in byte order)
    special-tokens 1
    50256 "<|endoftext|>"
    merges 2
    97 97                                (makes id 256)
    256 98                               (makes id 257, and so on)

The ``.vocab`` file is for people only: one line per id with the token's text (whitespace and
control characters made visible, bytes that are not UTF-8 in hex) and the pair merged to make it.
Left out: records (counts) of training, which are not needed to encode.
"""

from __future__ import annotations

import json
from pathlib import Path

from bpe_workshop.byte_level import ByteLevelBPE
from bpe_workshop.patterns import compile_pattern
from bpe_workshop.text_file import read_text_lines
from bpe_workshop.token_text import bytes_label

MAGIC = "bpe-workshop byte-level"
VERSION = 1
HEADER = f"{MAGIC} v{VERSION}"


def save(tokenizer: ByteLevelBPE, prefix: str | Path) -> tuple[Path, Path]:
    """Write ``prefix.model`` and ``prefix.vocab``; return both paths.

    >>> import tempfile, pathlib
    >>> tok = ByteLevelBPE.train("aaabdaaabac", 259)
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> model_path, vocab_path = save(tok, folder / "wiki")
    >>> print(model_path.read_text(), end="")
    bpe-workshop byte-level v1
    pattern none
    byte-ids identity
    special-tokens 0
    merges 3
    97 97
    97 98
    256 257
    >>> load(model_path).encode("aaabdaaabac")
    [258, 100, 258, 97, 99]
    """
    merges = tokenizer.merges
    if list(merges.values()) != list(range(256, 256 + len(merges))):
        raise ValueError("only merges minting ids 256, 257, ... in order can be saved")
    prefix = Path(prefix)
    model_path = prefix.with_name(prefix.name + ".model")
    vocab_path = prefix.with_name(prefix.name + ".vocab")
    lines = [HEADER]
    lines.append("pattern none" if tokenizer.pattern is None
                 else "pattern " + json.dumps(tokenizer.pattern))
    identity = tokenizer.byte_ids == list(range(256))
    lines.append("byte-ids identity" if identity
                 else "byte-ids " + " ".join(map(str, tokenizer.byte_ids)))
    lines.append(f"special-tokens {len(tokenizer.special_tokens)}")
    for text, i in tokenizer.special_tokens.items():
        lines.append(f"{i} {json.dumps(text)}")
    lines.append(f"merges {len(merges)}")
    lines.extend(f"{left} {right}" for left, right in merges)
    model_path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    vocab_path.write_text(vocab_text(tokenizer), encoding="utf-8")
    return model_path, vocab_path


def vocab_text(tokenizer: ByteLevelBPE) -> str:
    """The human-readable vocabulary: id, token, and where it came from, one line per id.

    >>> print(vocab_text(ByteLevelBPE.train("aaabdaaabac", 259)).splitlines()[-1])
       258  aaab  <- 256 aa + 257 ab
    """
    made_from = {new_id: pair for pair, new_id in tokenizer.merges.items()}  # id -> pair
    vocab = tokenizer.vocab
    special_ids = tokenizer.inverse_special  # id -> special token text
    lines = ["# id, token (space shown as ⋅, bytes that are not UTF-8 as <hex>), made from"]
    for i in sorted(vocab):
        if i in special_ids:
            lines.append(f"{i:>6}  {bytes_label(vocab[i])}  special token")
        elif i in made_from:
            left, right = made_from[i]
            lines.append(f"{i:>6}  {bytes_label(vocab[i])}  <- {left} {bytes_label(vocab[left])} "
                         f"+ {right} {bytes_label(vocab[right])}")
        else:
            lines.append(f"{i:>6}  {bytes_label(vocab[i])}  byte 0x{vocab[i][0]:02x}")
    return "\n".join(lines) + "\n"


class _Lines:
    """The lines of a model file, read one at a time, with errors naming file and line."""

    def __init__(self, path: Path, lines: list[str]):
        self.path, self.lines, self.number = path, lines, 0

    def error(self, message: str, number: int | None = None,
              fix: str = "this is not a valid model file written by ByteLevelBPE.save "
                         "(save the tokenizer again)") -> ValueError:
        where = f"{self.path}, line {self.number if number is None else number}"
        return ValueError(f"{where}: {message}; {fix}")

    def next(self, what: str) -> str:
        if self.number >= len(self.lines):
            self.number += 1
            raise self.error(f"the file ends where {what} was expected (truncated?)")
        line = self.lines[self.number]
        self.number += 1
        return line

    def keyword(self, keyword: str) -> str:
        """The rest of the next line, which must start with ``keyword``."""
        line = self.next(f"'{keyword} ...'")
        head, _, rest = line.partition(" ")
        if head != keyword or not rest:
            raise self.error(f"expected '{keyword} ...', got {line[:60]!r}")
        return rest

    def count(self, keyword: str) -> int:
        rest = self.keyword(keyword)
        if not rest.isdigit():
            raise self.error(f"expected a count after '{keyword}', got {rest[:60]!r}")
        return int(rest)

    def string(self, text: str) -> str:
        try:
            value = json.loads(text)
        except json.JSONDecodeError:
            value = None
        if not isinstance(value, str):
            raise self.error(f"expected a JSON-quoted string, got {text[:60]!r}")
        return value

    def ints(self, text: str, n: int) -> list[int]:
        parts = text.split(" ")
        if len(parts) != n or not all(p.isdigit() and p.isascii() for p in parts):
            raise self.error(f"expected {n} whole numbers separated by spaces, got {text[:60]!r}")
        return [int(p) for p in parts]


def load(path: str | Path) -> ByteLevelBPE:
    """Read a ``.model`` file written by :func:`save`; ValueError names file and line if bad."""
    path = Path(path)
    lines = _Lines(path, read_text_lines(path, "ByteLevelBPE.save"))
    # header: magic and version
    header = lines.next("the header line")
    if not header.startswith(MAGIC + " v"):
        raise lines.error(f"expected the header {HEADER!r}, got {header[:60]!r}")
    if header != HEADER:
        raise lines.error(f"this file is format {header!r}, but this version of bpe_workshop "
                          f"reads only {HEADER!r}",
                          fix="load it with the bpe_workshop version that wrote it, or train "
                              "and save the tokenizer again")
    # split pattern
    rest = lines.keyword("pattern")
    pattern = None if rest == "none" else lines.string(rest)
    if pattern is not None:
        try:
            compile_pattern(pattern)
        except ValueError as err:
            raise lines.error(str(err)) from None
    # byte order
    rest = lines.keyword("byte-ids")
    byte_ids = list(range(256)) if rest == "identity" else lines.ints(rest, 256)
    if sorted(byte_ids) != list(range(256)):
        raise lines.error("byte-ids must hold each id 0..255 once")
    # special tokens: id and JSON-quoted text; checked once the merges are known
    special_tokens = {}  # special token text -> id
    special_at = lines.number + 1  # the line number of the 'special-tokens' line
    for _ in range(lines.count("special-tokens")):
        id_text, _, name = lines.next("a special token line").partition(" ")
        (i,) = lines.ints(id_text, 1)
        special_tokens[lines.string(name)] = i
    # merges: the i-th line makes id 256 + i from two ids that exist already
    merges = {}  # (left id, right id) -> new id
    for i in range(lines.count("merges")):
        left, right = lines.ints(lines.next(f"merge {i + 1}"), 2)
        if left >= 256 + i or right >= 256 + i or (left, right) in merges:
            raise lines.error(f"merge {left} {right} uses an id not made yet or repeats a merge")
        merges[left, right] = 256 + i
    if lines.number < len(lines.lines):
        lines.number += 1
        raise lines.error("unexpected text after the last merge")
    try:
        return ByteLevelBPE(merges, pattern, special_tokens, byte_ids=byte_ids)
    except (TypeError, ValueError) as err:  # only the special tokens are left to check
        raise lines.error(str(err), special_at) from None
