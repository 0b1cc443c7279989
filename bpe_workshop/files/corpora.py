"""The texts the notebooks train on, all available with no network.

Three corpora, each chosen so that a lesson can be run on a laptop at a conference:

- **English prose** (``data/english.txt``, about 47 KB): short essays, letters, a story and a
  field guide to invented birds, written for this project. Ordinary vocabulary in quantity, so
  the merges every English tokenizer learns first (``e ``, ``th``, `` the``, ``ing``, `` and``)
  appear within the first few dozen steps.
- **Multilingual sample** (``data/multilingual.txt``, about 6 KB): the same few sentences in
  twelve languages and scripts (Latin, Cyrillic, Greek, CJK, Hangul, Devanagari, Arabic and
  Hebrew, which run right to left), plus emoji with skin tones, flags and zero-width-joiner
  sequences, and maths symbols. Written for this project; it shows why one "character" can be
  one to four bytes, and an emoji many code points. It ends with parallel sentences (the same
  two sentences in each language; ``bpe_workshop.files.parallel``) for comparing token costs.
- **Python code**: the standard library's own ``.py`` source, read at run time from the running
  interpreter's installation. Every machine that can run the notebooks has it, it is real code
  written by many hands, and it is never copied into this repository. The selection is fixed
  and sorted (see :func:`stdlib_source_files`), so every learner on the same Python version
  trains on exactly the same text.

Lineage: the idea of comparing prose, many scripts and code follows the usual way tokenizers are
evaluated. Left out: downloading larger public-domain books (the tests never need them), any
normalisation of the text (it is returned exactly as stored, with universal newlines).
"""

from __future__ import annotations

import codecs
import functools
import sysconfig
from pathlib import Path

from bpe_workshop.validation import require_int, require_number, require_str

# Folder names skipped anywhere under the standard library directory: installed third-party
# packages, the test suites (huge, full of deliberately odd code) and two retired tools.
EXCLUDED_STDLIB_DIRS = frozenset(
    {"site-packages", "dist-packages", "test", "tests", "idlelib", "lib2to3", "__pycache__"}
)

# The line written before each file in load_stdlib_code, e.g. "# ---- file: json/decoder.py".
STDLIB_HEADER = "# ---- file: {relative_path}\n"

_DATA_DIR = Path(__file__).resolve().parents[2] / "data"


def data_path(name: str) -> Path:
    """Return the path of the corpus file ``name`` in the repository's ``data/`` folder.

    The corpora ship with the repository, next to the package, not inside it, so they are found
    when the package is used from a clone (``pip install -e .``, the README's set-up).

    >>> data_path("english.txt").name
    'english.txt'
    >>> data_path("../pyproject.toml")
    Traceback (most recent call last):
    ...
    ValueError: data_path() takes a plain file name such as 'english.txt', not '../pyproject.toml'
    """
    require_str(name, "name", hint="pass a file name such as 'english.txt'")
    if not name or name != Path(name).name or name in {".", ".."}:
        raise ValueError(
            f"data_path() takes a plain file name such as 'english.txt', not {name!r}"
        )
    if not _DATA_DIR.is_dir():
        raise FileNotFoundError(
            f"The corpus folder {_DATA_DIR} does not exist. The corpora live in the repository's "
            "data/ folder, which a non-editable install does not copy: clone the repository and "
            "install it with `pip install -e .` (or run `make` from the clone)."
        )
    path = _DATA_DIR / name
    if not path.is_file():
        available = sorted(p.name for p in _DATA_DIR.iterdir() if p.is_file())
        raise FileNotFoundError(f"No corpus {name!r} in {_DATA_DIR}; available: {available}")
    return path


def load_english() -> str:
    """Return the English prose corpus written for this project (about 47 KB).

    >>> text = load_english()
    >>> text.startswith("A Small Book of Ordinary Things")
    True
    >>> len(text.encode("utf-8")) > 40_000
    True
    """
    return data_path("english.txt").read_text(encoding="utf-8")


def load_multilingual() -> str:
    """Return the multilingual sample: twelve languages, emoji and maths (about 6 KB).

    >>> text = load_multilingual()
    >>> "👩\\u200d💻" in text  # woman + zero width joiner + laptop: one emoji, three code points
    True
    """
    return data_path("multilingual.txt").read_text(encoding="utf-8")


# Byte order marks, longest first (UTF-32's little-endian mark starts with UTF-16's).
_BOMS = [(codecs.BOM_UTF32_LE, "utf-32"), (codecs.BOM_UTF32_BE, "utf-32"),
         (codecs.BOM_UTF8, "utf-8-sig"), (codecs.BOM_UTF16_LE, "utf-16"),
         (codecs.BOM_UTF16_BE, "utf-16")]


def read_text_file(path: str | Path) -> str:
    """Return the text of a learner's own file (notebook 07's "your own file").

    UTF-8, or UTF-16/UTF-32 with a byte order mark (what Windows PowerShell's ``>`` writes).
    A file in another encoding, an empty file, or something that is not a file (a folder, a
    pipe) gets a ``ValueError`` that says what to do instead.

    >>> import tempfile
    >>> folder = tempfile.TemporaryDirectory()
    >>> path = Path(folder.name) / "notes.txt"
    >>> _ = path.write_text("café", encoding="utf-16")  # with its byte order mark
    >>> read_text_file(path)
    'café'
    >>> _ = path.write_bytes("café".encode("cp1252"))
    >>> read_text_file(path)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: notes.txt is not UTF-8 text: byte 0xe9 at position 3 cannot start or continue ...
    >>> folder.cleanup()
    """
    path = Path(path).expanduser()
    if path.exists() and not path.is_file():  # reading a pipe would wait forever
        raise ValueError(f"{str(path)!r} is not a file (a folder, a pipe or a device); set "
                         "MY_FILE to a text file")
    data = path.read_bytes()
    if not data:
        raise ValueError(f"{path.name} is empty: there is nothing to train on; set MY_FILE to a "
                         "file with some text in it")
    encoding = next((name for bom, name in _BOMS if data.startswith(bom)), "utf-8")
    try:
        return data.decode(encoding)
    except UnicodeDecodeError as err:
        raise ValueError(
            f"{path.name} is not {encoding.upper().removesuffix('-SIG')} text: byte "
            f"{err.object[err.start]:#04x} at position {err.start} cannot start or continue a "
            "character. If it uses another encoding, read it with that encoding and use the "
            "text, e.g. my_text = Path(MY_FILE).read_text(encoding=\"cp1252\") (Windows, "
            "Western Europe); or save the file as UTF-8 in your editor."
        ) from None


def _stdlib_dir() -> Path:
    return Path(sysconfig.get_paths()["stdlib"])


@functools.cache
def _stdlib_selection(stdlib_dir: Path) -> tuple[tuple[str, Path], ...]:
    # selection = ((relative posix path, absolute path), ...), sorted by relative path
    selection = []
    for path in stdlib_dir.rglob("*.py"):
        relative = path.relative_to(stdlib_dir)
        if any(part in EXCLUDED_STDLIB_DIRS for part in relative.parts[:-1]):
            continue
        if not path.is_file():
            continue
        try:
            path.read_bytes().decode("utf-8")
        except (OSError, UnicodeDecodeError):
            continue  # unreadable or not UTF-8: not part of the corpus
        selection.append((relative.as_posix(), path))
    selection.sort()
    return tuple(selection)


def stdlib_source_files() -> list[Path]:
    """Return the standard library's ``.py`` files that form the code corpus, in a fixed order.

    The files come from the running interpreter's standard library directory
    (``sysconfig.get_paths()["stdlib"]``), skipping the folders in ``EXCLUDED_STDLIB_DIRS`` and
    any file that is not valid UTF-8. They are sorted by their path relative to that directory,
    written with ``/``, so the order is the same on every machine with the same Python version.

    >>> files = stdlib_source_files()
    >>> any(p.parent.name == "json" and p.name == "decoder.py" for p in files)
    True
    >>> any("site-packages" in p.parts or "test" in p.parts for p in files)
    False
    """
    return [path for _, path in _stdlib_selection(_stdlib_dir())]


def load_stdlib_code(max_bytes: int = 200_000) -> str:
    """Return standard-library source, whole files in sorted order, at most ``max_bytes`` long.

    Each file is preceded by a header line naming it, such as ``# ---- file: json/decoder.py``,
    and ends with a newline. Files are taken in the order of :func:`stdlib_source_files`; a file
    that would take the UTF-8 size past ``max_bytes`` is skipped and the next ones are still
    tried, so the text gets close to ``max_bytes`` without ever cutting a file in two. (Stopping
    at the first file that does not fit would give only about half of the default 200 KB, since
    ``_pydecimal.py`` alone is larger.) If the whole selection is smaller than ``max_bytes``
    (about 11 MB on CPython 3.11), all of it is returned.

    >>> code = load_stdlib_code(50_000)
    >>> code.splitlines()[0]
    '# ---- file: __future__.py'
    >>> len(code.encode("utf-8")) <= 50_000
    True
    """
    require_int(max_bytes, "max_bytes", minimum=1, example=200_000, why="a positive size")
    selection = _stdlib_selection(_stdlib_dir())
    if not selection:
        raise FileNotFoundError(
            f"No Python source files found under {_stdlib_dir()}; this Python installation "
            "ships only compiled files. Use load_english() instead, or install a full Python."
        )
    pieces = []  # one str per file: header line + source, ending in a newline
    size = 0  # UTF-8 bytes in pieces so far
    for relative, path in selection:
        source = path.read_bytes().decode("utf-8")
        if not source.endswith("\n"):
            source += "\n"
        piece = STDLIB_HEADER.format(relative_path=relative) + source
        piece_size = len(piece.encode("utf-8"))
        if size + piece_size > max_bytes:
            continue  # subtle: skip a file that does not fit; a smaller one later may still fit
        pieces.append(piece)
        size += piece_size
    return "".join(pieces)


def split_held_out(text: str, fraction: float = 0.1) -> tuple[str, str]:
    """Split ``text`` into (train, held_out) at a line break; held_out is the last part.

    The cut goes just after the first line break at or after ``(1 - fraction)`` of the text
    (or the last one before it, if there is none after), so no line is split and the same text
    always splits the same way. ``train + held_out == text`` and neither part is empty.

    >>> split_held_out("a\\nb\\nc\\nd\\n", fraction=0.25)
    ('a\\nb\\nc\\n', 'd\\n')
    >>> split_held_out("one line only")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: split_held_out() cuts at a line break, but the text has none where one could ...
    """
    require_str(text, "text")
    require_number(fraction, "fraction", above=0, below=1, example=0.1)
    target = int(len(text) * (1 - fraction))
    after = text.find("\n", target)
    if after != -1 and after + 1 < len(text):
        cut = after + 1
    else:
        before = text.rfind("\n", 0, target)
        if before == -1:
            raise ValueError(
                "split_held_out() cuts at a line break, but the text has none where one could "
                "go; pass a text with at least two lines"
            )
        cut = before + 1
    assert 0 < cut < len(text)
    return text[:cut], text[cut:]
