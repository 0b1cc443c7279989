"""Reading a saved tokenizer back as text, one line at a time, with errors that point at a line.

``TextLines`` reads the lines in order, each method naming what it expected when a line does
not hold it. Hand-edited files read as a person would expect (a byte order mark, Windows line
ends, blank lines at the end). The formats: ``model_file``.
"""

from __future__ import annotations

import json
import os
import re
import stat
from collections.abc import Callable
from pathlib import Path

_NUMBER = re.compile(r"[0-9]{1,18}")  # ASCII digits only; 18 keeps far clear of absurd sizes
MAX_FILE_BYTES = 64 * 2**20  # a model file's cap: 200,000 merges take about 3 MB
HEAD_BYTES = 4096  # the first line is read alone, at most this much: headers are short


def read_guarded(path: Path, what: str, max_bytes: int, fix: str,
                 check_head: Callable[[bytes], None] | None = None) -> bytes:
    """The bytes of ``path`` if it is a regular file of at most ``max_bytes``: every loader's guard.

    A folder, a pipe (reading one waits forever) or a device (``/dev/zero`` never ends) is refused
    without reading, as is a file over the cap; ``fix`` says what to pass instead. ``check_head``
    sees the first line (at most ``HEAD_BYTES``) before the rest is read, and raises if the file
    is not one it reads: a big junk file costs one line.
    """
    if path.is_dir():
        raise ValueError(f"{str(path)!r} is not a file (a folder); {fix}")
    # subtle: O_NONBLOCK, so that opening a pipe returns at once (it is refused just below)
    with open(os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0)), "rb") as file:
        info = os.fstat(file.fileno())
        if not stat.S_ISREG(info.st_mode):
            raise ValueError(f"{str(path)!r} is not a file (a pipe, a device or a socket); {fix}")
        if info.st_size > max_bytes:
            raise ValueError(f"{path} is {info.st_size:,} bytes, more than {what} may be "
                             f"({max_bytes:,}); {fix}")
        data = file.readline(HEAD_BYTES)
        if check_head is not None:
            check_head(data)
        # bounded: a file that grows while it is read is cut at the cap
        return data + file.read(max_bytes - len(data))


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

    def __init__(self, path: Path, lines: list[str], writer: str, fix: str | None = None):
        self.path, self.lines, self.writer = path, lines, writer
        self.number = 0  # the number of the line read last (1-based), 0 before the first
        # what an error says to do, unless it says something of its own
        self.fix = fix or (f"this is not a valid model file written by {writer} "
                           "(save the tokenizer again)")

    @classmethod
    def read(cls, path: Path, writer: str, check_header: Callable[[TextLines], None]) -> TextLines:
        """The lines of the UTF-8 file ``path`` without line ends, a byte order mark or the final
        newline (:func:`read_guarded`: ``check_header`` sees line 1 before the rest is read);
        a file that is not UTF-8 is refused naming the line."""
        def check_head(head: bytes) -> None:  # a line cut at HEAD_BYTES may end mid-character
            cut = len(head) == HEAD_BYTES and not head.endswith(b"\n")
            check_header(cls.parse(path, head, writer, "replace" if cut else "strict"))

        return cls.parse(path, read_guarded(path, "a model file", MAX_FILE_BYTES,
                                            f"pass a model file written by {writer}",
                                            check_head), writer)

    @classmethod
    def parse(cls, path: Path, data: bytes, writer: str, errors: str = "strict") -> TextLines:
        """The lines of ``data``, the bytes of the file ``path`` (see :meth:`read`)."""
        try:
            text = data.decode("utf-8", errors)
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
        fix = self.fix if fix is None else fix
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

    def json(self, text: str, expected: str, valid: Callable[[object], bool]) -> object:
        """The JSON value ``text`` if ``valid(value)``, else an error naming ``expected``."""
        try:
            value = json.loads(text)
            if valid(value):
                return value
        except (ValueError, RecursionError):  # bad JSON, a number too long, nesting too deep
            pass
        raise self.error(f"expected {expected}, got {text[:60]!r}")

    def string(self, text: str) -> str:
        """The JSON-quoted string ``text`` (``"a\\nb"`` -> a, newline, b)."""
        return self.json(text, "a JSON-quoted string", lambda value: isinstance(value, str))

    def end(self, after: str) -> None:
        """Check that only blank lines are left."""
        for number in range(self.number + 1, len(self.lines) + 1):
            if self.lines[number - 1].strip():
                raise self.error(f"unexpected text after {after}", number)
        self.number = len(self.lines)
