"""Reading a saved tokenizer back as text, with errors that point at a line.

Both tokenizers save plain UTF-8 text, one fact per line, so a person can read the file and a
damaged one can be reported by line number. This is the first step of loading either kind.
"""

from __future__ import annotations

import os
from pathlib import Path


def read_text_lines(path: str | os.PathLike, writer: str) -> list[str]:
    """The lines of a UTF-8 file, without line ends; ``ValueError`` naming the line if not UTF-8.

    ``writer`` names what writes such files, for the message (e.g. ``"ByteLevelBPE.save"``).

    >>> import tempfile
    >>> folder = tempfile.mkdtemp()
    >>> _ = (Path(folder) / "good.model").write_bytes(b"first\\nsecond\\n")
    >>> read_text_lines(Path(folder) / "good.model", "ByteLevelBPE.save")
    ['first', 'second']
    >>> _ = (Path(folder) / "bad.model").write_bytes(b"first\\nsec\\xe9ond\\n")
    >>> read_text_lines(Path(folder) / "bad.model", "ByteLevelBPE.save")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: .../bad.model, line 2: not UTF-8 text (byte 0xe9); this is not a file written by ByteLevelBPE.save
    """
    path = Path(path)
    data = path.read_bytes()
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as err:
        line = data[: err.start].count(b"\n") + 1
        raise ValueError(
            f"{path}, line {line}: not UTF-8 text (byte 0x{data[err.start]:02x}); "
            f"this is not a file written by {writer}"
        ) from None
    lines = [line.rstrip("\r") for line in text.split("\n")]
    if lines and lines[-1] == "":
        lines.pop()  # the final newline
    return lines
