"""Saving and loading both tokenizers as plain text; loading gives plain data, never code.

Lineage: minbpe's ``.model`` / ``.vocab`` pair, with GPT-2's byte order. Never pickle: ``load_*``
parse a file into the keyword arguments of the tokenizer's constructor, which checks them.
UTF-8, one item per line, strings JSON-quoted, headed ``bpe-workshop <kind> v<version>``. The
byte-level ``.model`` (:func:`save_byte_level` prints one): the pattern, ``byte-ids identity``
(or 256 ids in byte order), the special tokens, then one merge per line making ids 256, 257,
...; the ``.vocab`` beside it is for people (:func:`vocab_text`). The word-level file
(:func:`save_word_level`): the alphabet, then ``["left", "right", count]`` per merge (release
0.1.0's header ``bpe-workshop word-level 1`` still loads). Saving never destroys the previous
model (:func:`write_all`), and writes only what loads back as the tokenizer saved
(:func:`_check_reloads`). Loading reads through :func:`read_guarded`, every loader's guard,
then :class:`TextLines`, whose errors name the file and the line; hand-edited files read as a
person would expect (a byte order mark, Windows line ends, blank lines at the end). Left out:
byte-level training counts (not needed to encode).
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import secrets
import stat
import sys
import time
from collections.abc import Callable
from pathlib import Path

from bpe_workshop.algorithm.textbook import Pair
from bpe_workshop.algorithm.word_records import END_OF_WORD
from bpe_workshop.token_text import bytes_label

if os.name == "nt":  # the save lock: msvcrt's on Windows, flock elsewhere
    import msvcrt
else:
    import fcntl

BYTE_LEVEL_HEADER = "bpe-workshop byte-level v1"
WORD_LEVEL_HEADER = "bpe-workshop word-level v1"
OLD_WORD_LEVEL_HEADER = "bpe-workshop word-level 1"  # written by release 0.1.0
_LOADERS = {"byte-level": "ByteLevelBPE.load", "word-level": "WordLevelBPE.load"}
_NUMBER = re.compile(r"[0-9]{1,18}")  # ASCII digits only; 18 keeps far clear of absurd sizes
MAX_FILE_BYTES = 64 * 2**20  # a model file's cap: 200,000 merges take about 3 MB
HEAD_BYTES = 4096  # the first line is read alone, at most this much: headers are short


# ----- byte level ---------------------------------------------------------------------------

def save_byte_level(prefix: str | os.PathLike, *, merges: dict[Pair, int], pattern: str | None,
                    special_tokens: dict[str, int], byte_ids: list[int],
                    vocab: dict[int, bytes]) -> tuple[Path, Path]:
    """Write ``prefix.model`` and ``prefix.vocab`` (``prefix`` may end in ``.model``).

    >>> import tempfile
    >>> folder = tempfile.TemporaryDirectory()
    >>> merges = {(97, 97): 256, (97, 98): 257, (256, 257): 258}
    >>> vocab = {i: bytes([i]) for i in range(256)} | {256: b"aa", 257: b"ab", 258: b"aaab"}
    >>> model_path, vocab_path = save_byte_level(Path(folder.name) / "wiki.model", merges=merges,
    ...     pattern=None, special_tokens={}, byte_ids=list(range(256)), vocab=vocab)
    >>> model_path.name, vocab_path.name
    ('wiki.model', 'wiki.vocab')
    >>> print(model_path.read_text(), end="")
    bpe-workshop byte-level v1
    pattern none
    byte-ids identity
    special-tokens 0
    merges 3
    97 97
    97 98
    256 257
    >>> load_byte_level(Path(folder.name) / "wiki")["merges"] == merges
    True
    >>> folder.cleanup()
    """
    if list(merges.values()) != list(range(256, 256 + len(merges))):
        raise ValueError("only merges minting ids 256, 257, ... in order can be saved; "
                         "renumber them first (the same tokens, new ids): tok = tok.renumbered()")
    model_path, vocab_path = _targets(prefix, "prefix", "ByteLevelBPE.save",
                                      "models/my_tokenizer", (".model", ".vocab"))
    lines = [BYTE_LEVEL_HEADER]
    lines.append("pattern none" if pattern is None else "pattern " + json.dumps(pattern))
    identity = list(byte_ids) == list(range(256))
    lines.append("byte-ids identity" if identity else "byte-ids " + " ".join(map(str, byte_ids)))
    lines.append(f"special-tokens {len(special_tokens)}")
    lines.extend(f"{i} {json.dumps(text)}" for text, i in special_tokens.items())
    lines.append(f"merges {len(merges)}")
    lines.extend(f"{left} {right}" for left, right in merges)
    _check_reloads(model_path, lines, _byte_level_data, {
        "merges": merges, "pattern": pattern, "special_tokens": special_tokens,
        "byte_ids": list(byte_ids)})
    # the .vocab first: should the second rename fail, the .model that loads is still the old
    write_all([(vocab_path, vocab_text(merges, vocab, special_tokens).encode("utf-8")),
               (model_path, ("\n".join(lines) + "\n").encode("utf-8"))])
    return model_path, vocab_path


def vocab_text(merges: dict[Pair, int], vocab: dict[int, bytes],
               special_tokens: dict[str, int]) -> str:
    """The human-readable vocabulary: id, token, and where it came from, one line per id.

    >>> vocab = {i: bytes([i]) for i in range(256)} | {256: b"aa", 257: b"ab", 258: b"aaab"}
    >>> merges = {(97, 97): 256, (97, 98): 257, (256, 257): 258}
    >>> print(vocab_text(merges, vocab, {}).splitlines()[-1])
       258  aaab  <- 256 aa + 257 ab
    """
    made_from = {new_id: pair for pair, new_id in merges.items()}  # id -> pair
    special_ids = {i: text for text, i in special_tokens.items()}  # id -> special token text
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


def load_byte_level(path: str | os.PathLike) -> dict:
    """Read a ``.model`` file: ``ByteLevelBPE``'s keyword arguments, parsed line by line.

    ``path`` may leave out the ``.model`` suffix. Returns ``merges``, ``pattern``,
    ``special_tokens`` and ``byte_ids``. A line that does not parse raises ValueError naming
    file and line; the rules (byte ids, merge order, special token ids) are the constructor's.
    """
    path = Path(path).expanduser()
    if path.suffix == ".vocab":
        raise ValueError(f"{path} is the vocabulary for people to read; load the model file "
                         f"{path.with_suffix('.model')} instead")
    candidates = [path] if path.suffix == ".model" else [path, path.with_name(path.name + ".model")]
    # a file first; else a folder, a pipe or a device, which read_guarded refuses, saying so
    for candidate in [c for c in candidates if c.is_file()] + candidates:
        if candidate.exists():
            return _byte_level_data(TextLines.read(candidate, "ByteLevelBPE.save",
                                                   BYTE_LEVEL_HEADER))
    raise FileNotFoundError(f"no model file {' or '.join(map(str, candidates))}; "
                            f"write one with ByteLevelBPE.save(prefix)")


def _byte_level_data(lines: TextLines) -> dict:
    lines.next("the header line")  # TextLines.read checked it before reading the rest
    rest = lines.keyword("pattern")
    pattern = None if rest == "none" else lines.string(rest)
    rest = lines.keyword("byte-ids")
    byte_ids = list(range(256)) if rest == "identity" else lines.ints(rest, 256)
    special_tokens = {}  # special token text -> id
    line_of = {}  # special token text -> its line number: a text given twice is named
    for _ in range(lines.count("special-tokens")):
        id_text, _, name = lines.next("a special token line").partition(" ")
        (i,) = lines.ints(id_text, 1)
        text = lines.string(name)
        if text in special_tokens:
            raise lines.error(f"the special token {text!r} is given twice, on lines "
                              f"{line_of[text]} and {lines.number}",
                              fix="keep one line per special token, with its id")
        special_tokens[text], line_of[text] = i, lines.number
    merges = {}  # (left id, right id) -> new id: the i-th line makes id 256 + i
    for i in range(lines.count("merges")):
        left, right = lines.ints(lines.next(f"merge {i + 1}"), 2)
        if (left, right) in merges:
            raise lines.error(f"merge {left} {right} repeats merge {merges[left, right] - 255}")
        merges[left, right] = 256 + i
    lines.end("the last merge")
    return {"merges": merges, "pattern": pattern, "special_tokens": special_tokens,
            "byte_ids": byte_ids}


# ----- word level ---------------------------------------------------------------------------

def save_word_level(path: str | os.PathLike, *, alphabet: list[str], merges: list[tuple[str, str]],
                    counts: list[int]) -> Path:
    """Write the alphabet and merges (with their training counts) to ``path``; return it.

    >>> import tempfile
    >>> folder = tempfile.TemporaryDirectory()
    >>> path = save_word_level(Path(folder.name) / "toy.wordbpe", alphabet=["a", "b"],
    ...                        merges=[("a", "b"), ("ab", "</w>")], counts=[3, 2])
    >>> print(path.read_text(), end="")
    bpe-workshop word-level v1
    alphabet ["a", "b"]
    merges 2
    ["a", "b", 3]
    ["ab", "</w>", 2]
    >>> load_word_level(path)
    {'alphabet': ['a', 'b'], 'merges': [('a', 'b'), ('ab', '</w>')], 'counts': [3, 2]}
    >>> folder.cleanup()
    """
    (path,) = _targets(path, "path", "WordLevelBPE.save", "models/my_words.wordbpe", ("",))
    lines = [WORD_LEVEL_HEADER, "alphabet " + json.dumps(list(alphabet)), f"merges {len(merges)}"]
    lines.extend(json.dumps([left, right, count]) for (left, right), count in zip(merges, counts))
    _check_reloads(path, lines, _word_level_data, {
        "alphabet": list(alphabet), "merges": list(merges), "counts": list(counts)})
    write_all([(path, ("\n".join(lines) + "\n").encode("utf-8"))])  # json escapes all but ASCII
    return path


def load_word_level(path: str | os.PathLike) -> dict:
    """Read a word-level model file: ``WordLevelBPE``'s ``alphabet``, ``merges`` and ``counts``.

    A damaged file raises ValueError naming file and line.
    """
    return _word_level_data(TextLines.read(Path(path).expanduser(), "WordLevelBPE.save",
                                           WORD_LEVEL_HEADER, OLD_WORD_LEVEL_HEADER))


def _word_level_data(lines: TextLines) -> dict:
    lines.next("the header line")  # TextLines.read checked it before reading the rest
    sorted_chars = "a sorted JSON list of distinct single characters"
    alphabet = lines.json(lines.keyword("alphabet"), sorted_chars, lambda value: (
        isinstance(value, list) and all(isinstance(ch, str) and len(ch) == 1 for ch in value)
        and value == sorted(set(value))))
    known = {*alphabet, END_OF_WORD}  # symbols a merge may join
    merges, counts = [], []
    expected = 'a merge as ["left", "right", count]'
    for k in range(lines.count("merges")):
        left, right, count = lines.json(lines.next(f"merge {k + 1}"), expected, lambda item: (
            isinstance(item, list) and len(item) == 3 and type(item[2]) is int and item[2] >= 0
            and all(isinstance(symbol, str) for symbol in item[:2])))
        for symbol in (left, right):
            if symbol not in known:
                raise lines.error(f"merge uses {symbol!r}, which no earlier line defines")
        merges.append((left, right))
        counts.append(count)
        known.add(left + right)
    lines.end(f"the {len(merges)} merges")
    return {"alphabet": alphabet, "merges": merges, "counts": counts}


# ----- shared -------------------------------------------------------------------------------

def _check_reloads(path: Path, lines: list[str], parse, expected: dict) -> None:
    """Refuse to save a file that would not load back as ``expected`` (nothing written yet)."""
    fix = "nothing was saved; a model file must load back as the tokenizer it holds"
    try:
        got = parse(TextLines(path, lines, "a save", fix))
    except ValueError as err:
        raise ValueError(f"{path} would not load back: {err}") from None
    for key, value in expected.items():  # as reprs: dicts in order too, as the lines keep it
        if repr(value) != repr(got[key]):
            raise ValueError(f"{path} would load back with other {key}; {fix}")


def _targets(path: object, what: str, writer: str, example: str,
             suffixes: tuple[str, ...]) -> list[Path]:
    """The files to write: ``path`` (its first suffix taken off) with each of ``suffixes``
    added, checked before anything is written."""
    if not isinstance(path, (str, os.PathLike)):
        raise TypeError(f"{what} must be a str or a pathlib.Path, e.g. {writer}({example!r}), "
                        f"got {type(path).__name__}")
    text = os.fspath(path)
    if (not isinstance(text, str) or not text.strip() or text.endswith(("/", os.sep))
            or Path(text).name in ("", ".", "..", ".model")):
        raise ValueError(f"{what} must name a file to write, e.g. {writer}({example!r}), "
                         f"got {text!r}")
    path = Path(text).expanduser()
    if not path.parent.is_dir():
        raise FileNotFoundError(f"the folder {str(path.parent)!r} does not exist; create it "
                                f"first, e.g. Path({str(path.parent)!r}).mkdir(parents=True)")
    path = path.with_name(path.name.removesuffix(suffixes[0]))
    paths = [path.with_name(path.name + suffix) for suffix in suffixes]
    for target in (path, *paths):
        if target.is_dir():
            raise ValueError(f"{str(target)!r} is a folder; name a file inside it, e.g. "
                             f"{str(target / 'tokenizer')!r}")
    return paths


def write_all(files: list[tuple[Path, bytes]]) -> None:
    """Write every file, or none: temporary files first, renamed over the old ones at the end.

    The renames hold the folder's lock, so two saves at once give one save's files, never a mix;
    a failed rename puts back what it replaced. On any failure (a full disk, an interruption)
    nothing else changes and no temporary file is left.
    """
    folder = files[0][0].parent
    temporary = []
    try:
        for _, data in files:
            temporary.append(folder / f".bpe-{secrets.token_hex(4)}.tmp")  # short: any name fits
            with open(temporary[-1], "xb") as file:
                file.write(data)
                file.flush()
                os.fsync(file.fileno())
        with _locked(folder):
            olds = [path.read_bytes() if path.is_file() else None for path, _ in files]
            done = []
            try:
                for temp, (path, _) in zip(temporary, files):
                    os.replace(temp, path)
                    done.append(path)
            except BaseException:
                for path, old in zip(done, olds):  # put back what the failed save replaced
                    path.unlink() if old is None else path.write_bytes(old)
                raise
    except OSError as err:
        if err.strerror is None:  # our own message (the lock): it says what to do already
            raise
        raise type(err)(err.errno, f"{err.strerror}: could not save in the folder "
                                   f"{str(folder)!r}; the files there are unchanged") from None
    finally:
        for temp in temporary:
            temp.unlink(missing_ok=True)


@contextlib.contextmanager
def _locked(folder: Path, wait: float = 30.0):
    """Hold the folder's save lock: the file ``.bpe-save.lock``, locked through the system
    (``flock``; ``msvcrt.locking`` on Windows), which lets go when the saving process ends, so a
    killed save's lock is free at once. The save removes the file at the end.

    A wait past a second is told on stderr and one past ``wait`` seconds gives up, each naming
    the lock.
    """
    lock, start, told = folder / ".bpe-save.lock", time.monotonic(), False
    while True:
        if lock.is_dir():
            raise FileExistsError(f"{str(lock)!r} is in the way of the save lock; delete it")
        fd = os.open(lock, os.O_RDONLY | os.O_CREAT)  # reading is enough to lock it
        try:
            if os.name == "nt":
                msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
            else:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            # subtle: a save that ends removes the file it locked; the lock is the file there now
            if os.path.samestat(os.fstat(fd), os.stat(lock)):
                break
        except (BlockingIOError, PermissionError, FileNotFoundError):  # held, or just removed
            pass
        os.close(fd)
        waited = time.monotonic() - start
        if waited > wait:
            raise TimeoutError(f"another save in {str(folder)!r} has held its lock "
                               f"{str(lock)!r} for {wait:.0f} s; let it finish, then save again")
        if waited > 1.0 and not told:
            print(f"waiting for another save in {str(folder)!r} to finish (its lock: "
                  f"{str(lock)!r})", file=sys.stderr)
            told = True
        time.sleep(0.01)
    try:
        yield
    finally:
        # subtle: removed while still locked, so that no waiter locks a file that is gone; Windows
        # removes no open file, so there it is closed first (and stays if another save has it open)
        if os.name == "nt":
            os.close(fd)
        with contextlib.suppress(OSError):
            lock.unlink()
        if os.name != "nt":
            os.close(fd)


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
        self.path, self.lines = path, lines
        self.number = 0  # the number of the line read last (1-based), 0 before the first
        # what an error says to do, unless it says something of its own
        self.fix = fix or (f"this is not a valid model file written by {writer} "
                           "(save the tokenizer again)")

    @classmethod
    def read(cls, path: Path, writer: str, header: str, old: str | None = None) -> TextLines:
        """The lines of the UTF-8 file ``path`` without line ends, a byte order mark or the final
        newline (:func:`read_guarded`: line 1 must be ``header`` or ``old`` before the rest is
        read); a file that is not UTF-8 is refused naming the line."""
        def check_head(head: bytes) -> None:  # a line cut at HEAD_BYTES may end mid-character
            errors = "replace" if len(head) == HEAD_BYTES and not head.endswith(b"\n") else "strict"
            cls.parse(path, head, writer, errors).header(header, old)

        return cls.parse(path, read_guarded(path, "a model file", MAX_FILE_BYTES,
                                            f"pass a model file written by {writer}",
                                            check_head), writer)

    @classmethod
    def parse(cls, path: Path, data: bytes, writer: str, errors: str = "strict") -> TextLines:
        """The lines of ``data``, the bytes of the file ``path`` (see :meth:`read`)."""
        try:
            text = data.decode("utf-8", errors)
        except UnicodeDecodeError as err:  # named by its line, as every error in the file
            raise cls(path, [], writer).error(f"not UTF-8 text (byte 0x{data[err.start]:02x})",
                                              data[: err.start].count(b"\n") + 1) from None
        text = text.removeprefix("\ufeff")  # a byte order mark, added by some editors
        lines = [line.rstrip("\r") for line in text.split("\n")]
        if lines and lines[-1] == "":
            lines.pop()  # the final newline
        return cls(path, lines, writer)

    def error(self, message: str, number: int | None = None, fix: str | None = None) -> ValueError:
        """A ValueError naming the file and line (the line read last unless ``number``)."""
        where = f"{self.path}, line {self.number if number is None else number}"
        return ValueError(f"{where}: {message}; {self.fix if fix is None else fix}")

    def next(self, what: str) -> str:
        """The next line; an error saying the file ends early if there is none."""
        self.number += 1
        if self.number > len(self.lines):
            raise self.error(f"the file ends where {what} was expected (truncated?)")
        return self.lines[self.number - 1]

    def header(self, header: str, old: str | None = None) -> None:
        """The first line must be ``header`` (or the older spelling ``old``)."""
        line = self.next("the header line")
        if line in (header, old):
            return
        if line.startswith(header.rsplit(" ", 1)[0] + " "):  # the same kind, another version
            raise self.error(f"this file is format {line!r}, but this version of bpe_workshop "
                             f"reads only {header!r}",
                             fix="load it with the bpe_workshop version that wrote it, or train "
                                 "and save the tokenizer again")
        kind = line.removeprefix("bpe-workshop ").split(" ")[0]
        raise self.error(f"expected the header {header!r}, got {line[:60]!r}",
                         fix=f"this is a {kind} model file: load it with {_LOADERS[kind]}"
                         if line.startswith("bpe-workshop ") and kind in _LOADERS else None)

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
