"""Reading a saved tokenizer back as text, one line at a time, with errors that point at a line.

``TextLines`` reads the lines in order, each method naming what it expected when a line does
not hold it. Hand-edited files read as a person would expect (a byte order mark, Windows line
ends, blank lines at the end). The formats: ``model_file``.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

_NUMBER = re.compile(r"[0-9]{1,18}")  # ASCII digits only; 18 keeps far clear of absurd sizes
MAX_FILE_BYTES = 64 * 2**20  # read whole: 200,000 merges take about 3 MB


class TextLines:
    """The lines of a saved tokenizer, read one at a time; errors name the file and the line.

    >>> lines = TextLines(Path("toy.model"), ["merges 2", "97 98", "x"], "ByteLevelBPE.save")
    >>> lines.count("merges"), lines.ints(lines.next("merge 1"), 2)
    (2, [97, 98])
    >>> lines.ints(lines.next("merge 2"), 2)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: toy.model, line 3: expected 2 whole numbers separated by spaces, got 'x'; this...
    """

    def __init__(self, path: Path, lines: list[str], writer: str):
        self.path, self.lines, self.writer = path, lines, writer
        self.number = 0  # the number of the line read last (1-based), 0 before the first

    @classmethod
    def read(cls, path: Path, writer: str) -> TextLines:
        """The lines of the UTF-8 file ``path`` without line ends, a byte order mark or the final
        newline; a file that is not UTF-8 is refused naming the line, a huge one unread."""
        size = path.stat().st_size
        if size > MAX_FILE_BYTES:  # refused before reading: a huge junk file costs nothing
            raise ValueError(f"{path} is {size:,} bytes, more than a model file may be "
                             f"({MAX_FILE_BYTES:,}): this is not a file written by {writer}")
        data = path.read_bytes()
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as err:
            line = data[: err.start].count(b"\n") + 1
            raise ValueError(f"{path}, line {line}: not UTF-8 text (byte 0x{data[err.start]:02x}); "
                             f"this is not a file written by {writer}") from None
        text = text.removeprefix("\ufeff")  # a byte order mark, added by some editors
        lines = [line.rstrip("\r") for line in text.split("\n")]
        if lines and lines[-1] == "":
            lines.pop()  # the final newline
        return cls(path, lines, writer)

    def error(self, message: str, number: int | None = None, fix: str | None = None) -> ValueError:
        """A ValueError naming the file and line (the line read last unless ``number``)."""
        if fix is None:
            fix = (f"this is not a valid model file written by {self.writer} "
                   "(save the tokenizer again)")
        where = f"{self.path}, line {self.number if number is None else number}"
        return ValueError(f"{where}: {message}; {fix}")

    def next(self, what: str) -> str:
        """The next line; an error saying the file ends early if there is none."""
        self.number += 1
        if self.number > len(self.lines):
            raise self.error(f"the file ends where {what} was expected (truncated?)")
        return self.lines[self.number - 1]

    def keyword(self, keyword: str) -> str:
        """The rest of the next line, which must start with ``keyword`` and a space."""
        line = self.next(f"'{keyword} ...'")
        head, _, rest = line.partition(" ")
        if head != keyword or not rest:
            raise self.error(f"expected '{keyword} ...', got {line[:60]!r}")
        return rest

    def count(self, keyword: str) -> int:
        """The number after ``keyword`` on the next line (``merges 3`` -> 3)."""
        rest = self.keyword(keyword)
        if not _NUMBER.fullmatch(rest):
            raise self.error(f"expected a count after '{keyword}', got {rest[:60]!r}")
        return int(rest)

    def ints(self, text: str, n: int) -> list[int]:
        """``n`` whole numbers written in ASCII digits, separated by spaces."""
        parts = text.split()
        if len(parts) != n or not all(_NUMBER.fullmatch(part) for part in parts):
            expected = "a whole number" if n == 1 else f"{n} whole numbers separated by spaces"
            raise self.error(f"expected {expected}, got {text[:60]!r}")
        return [int(part) for part in parts]

    def json(self, text: str, expected: str) -> object:
        """The JSON value ``text``; any failure (deep nesting too) says what was ``expected``."""
        try:
            return json.loads(text)
        except (ValueError, RecursionError):  # bad JSON, a number too long, nesting too deep
            raise self.error(f"expected {expected}, got {text[:60]!r}") from None

    def string(self, text: str) -> str:
        """The JSON-quoted string ``text`` (``"a\\nb"`` -> a, newline, b)."""
        value = self.json(text, "a JSON-quoted string")
        if not isinstance(value, str):
            raise self.error(f"expected a JSON-quoted string, got {text[:60]!r}")
        return value

    def end(self, after: str) -> None:
        """Check that only blank lines are left."""
        for number in range(self.number + 1, len(self.lines) + 1):
            if self.lines[number - 1].strip():
                raise self.error(f"unexpected text after {after}", number)
        self.number = len(self.lines)
