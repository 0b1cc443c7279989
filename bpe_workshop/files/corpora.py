"""The texts the notebooks train on, all available with no network.

- **English prose** (``data/english.txt``, 47 KB, written for this project): essays, letters, a
  story, a field guide to invented birds; the usual first merges appear within a few dozen.
- **Multilingual sample** (``data/multilingual.txt``, 6 KB, ours too): twelve languages and
  scripts, emoji sequences and maths; it ends with the same two sentences in each language
  (:func:`load_parallel`): the meaning fixed, their token counts show what a language costs.
- **Python code**: the standard library's ``.py`` files of the running interpreter (never
  copied here), a fixed sorted selection (:func:`stdlib_source_files`).

Left out: downloading larger books, and any normalisation (texts come back exactly as stored).
"""

from __future__ import annotations

import codecs
import functools
import hashlib
import sysconfig
from pathlib import Path

from bpe_workshop.files.model_file import read_guarded
from bpe_workshop.validation import require_int, require_number, require_str

# Folder names skipped anywhere under the standard library directory: installed third-party
# packages, the test suites (huge, full of deliberately odd code) and two retired tools.
EXCLUDED_STDLIB_DIRS = frozenset({"site-packages", "dist-packages", "test", "tests", "idlelib",
                                  "lib2to3", "__pycache__"})

_PACKAGE = Path(__file__).parents[1]  # holds data/ and notebooks/ in a wheel (the build maps them)
SERIES_ROOT = _PACKAGE if (_PACKAGE / "data").is_dir() else _PACKAGE.parent  # else a clone's top
_DATA_DIR = SERIES_ROOT / "data"
_REINSTALL = ("reinstall the course (`pip install --force-reinstall bpe-workshop`, or `git "
              "checkout -- data` in a clone).")
# The corpora as shipped, hash-checked as the .cuts files are (data/README.md gives their sizes).
CORPUS_SHA256 = {
    "english.txt": "26e950712345d211f132430b80e544c012ff99306a6dede0f3fff8070f2e58b9",
    "multilingual.txt": "7b78e4f3d4c4335a6112e3a47a341273aca4bfa38d1cc8929b82274637bfb2dc"}


def data_path(name: str) -> Path:
    """The path of ``data/<name>`` in the package: a corpus (hash-checked) or a ``*.cuts`` file.

    >>> data_path("english.txt").name
    'english.txt'
    >>> data_path("../pyproject.toml")
    Traceback (most recent call last):
    ...
    ValueError: data_path() takes a plain file name such as 'english.txt', not '../pyproject.toml'
    """
    require_str(name, "name", hint="pass a file name such as 'english.txt'")
    if not name or name != Path(name).name or name in {".", ".."}:
        raise ValueError(f"data_path() takes a plain file name such as 'english.txt', not {name!r}")
    if not _DATA_DIR.is_dir():
        raise FileNotFoundError(f"The data folder {_DATA_DIR} does not exist, so this copy of "
                                f"bpe_workshop is incomplete: {_REINSTALL}")
    path = _DATA_DIR / name
    if not path.is_file():
        available = sorted(p.name for p in _DATA_DIR.iterdir() if p.is_file())
        raise FileNotFoundError(f"No corpus {name!r} in {_DATA_DIR}; available: {available}")
    if name in CORPUS_SHA256:
        check_sha256(path.read_bytes(), CORPUS_SHA256[name], path, _REINSTALL)
    return path


def check_sha256(data: bytes, sha256: str, path: object, fix: str) -> bytes:
    """``data``, the bytes of the shipped file ``path``, if their SHA-256 is ``sha256``.

    >>> check_sha256(b"abc", hashlib.sha256(b"abd").hexdigest(), "abc.txt", "reinstall it")
    Traceback (most recent call last):
    ...
    ValueError: abc.txt is not the file shipped (its SHA-256 differs): reinstall it
    """
    if hashlib.sha256(data).hexdigest() != sha256:
        raise ValueError(f"{path} is not the file shipped (its SHA-256 differs): {fix}")
    return data


def load_english() -> str:
    """Return the English prose corpus written for this project (about 47 KB).

    >>> text = load_english()
    >>> text.startswith("A Small Book of Ordinary Things"), len(text.encode("utf-8")) > 40_000
    (True, True)
    """
    return data_path("english.txt").read_text(encoding="utf-8")


def load_multilingual() -> str:
    """Return the multilingual sample: twelve languages, emoji and maths (about 6 KB).

    >>> text = load_multilingual()
    >>> "👩\\u200d💻" in text  # woman + zero width joiner + laptop: one emoji, three code points
    True
    """
    return data_path("multilingual.txt").read_text(encoding="utf-8")


PARALLEL_HEADER = "Parallel sentences:"  # the line that opens the block in multilingual.txt

# code -> the language's name in English, in the file's order
LANGUAGES = {
    "en": "English", "fr": "French", "de": "German", "es": "Spanish", "zh": "Chinese",
    "ja": "Japanese", "ko": "Korean", "ru": "Russian", "el": "Greek", "hi": "Hindi",
    "ar": "Arabic", "he": "Hebrew",
}


def parse_parallel(text: str) -> dict[str, str]:
    """Read the block after the ``Parallel sentences:`` line: language code -> sentence.

    >>> parse_parallel("Intro.\\nParallel sentences: the same.\\nen: Hi.\\nfr: Salut.\\n")
    {'en': 'Hi.', 'fr': 'Salut.'}
    >>> parse_parallel("no block here")
    Traceback (most recent call last):
    ...
    ValueError: no line starting 'Parallel sentences:' in the text; pass the whole of ...
    """
    require_str(text, "text")
    lines = text.splitlines()
    starts = [i for i, line in enumerate(lines) if line.startswith(PARALLEL_HEADER)]
    if not starts:
        raise ValueError(f"no line starting {PARALLEL_HEADER!r} in the text; pass the whole "
                         "of load_multilingual()")
    sentences = {}  # language code -> the sentence in that language
    for line in lines[starts[0] + 1:]:
        if not line.strip():
            break  # a blank line ends the block
        code, sep, sentence = line.partition(": ")
        if not sep or not code.isalpha():
            raise ValueError(f"a line of the parallel block must read 'xx: sentence', got {line!r}")
        sentences[code] = sentence
    return sentences


def load_parallel() -> dict[str, str]:
    """The parallel sentences of the multilingual sample, in the file's order of languages.

    >>> sentences = load_parallel()
    >>> list(sentences) == list(LANGUAGES), sentences["en"][:48], sentences["zh"][:16]
    (True, 'My friend lives in a small house near the river.', '我的朋友住在河边的一座小房子里。')
    """
    return parse_parallel(load_multilingual())


# Byte order marks, longest first (UTF-32's little-endian mark starts with UTF-16's).
_BOMS = [(codecs.BOM_UTF32_LE, "utf-32"), (codecs.BOM_UTF32_BE, "utf-32"),
         (codecs.BOM_UTF8, "utf-8-sig"), (codecs.BOM_UTF16_LE, "utf-16"),
         (codecs.BOM_UTF16_BE, "utf-16")]
MAX_TEXT_BYTES = 2**30  # 1 GiB: pure-Python training takes minutes per 10 MB already


def read_text_file(path: str | Path) -> str:
    """The text of a learner's own file (notebook 07): UTF-8, or UTF-16/32 with a byte order mark.

    Another encoding, an empty file, a folder or a pipe: a ``ValueError`` that says what to do.

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
    data = read_guarded(path, "a text to train on", MAX_TEXT_BYTES, "set MY_FILE to a text file")
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


@functools.cache
def _stdlib_selection() -> tuple[tuple[str, Path], ...]:
    # selection = ((relative posix path, absolute path), ...), sorted by relative path
    selection = []
    stdlib_dir = Path(sysconfig.get_paths()["stdlib"])
    for path in stdlib_dir.rglob("*.py"):
        relative = path.relative_to(stdlib_dir)
        if any(part in EXCLUDED_STDLIB_DIRS for part in relative.parts[:-1]) or not path.is_file():
            continue
        try:
            path.read_bytes().decode("utf-8")
        except (OSError, UnicodeDecodeError):
            continue  # unreadable or not UTF-8: not part of the corpus
        selection.append((relative.as_posix(), path))
    return tuple(sorted(selection))


def stdlib_source_files() -> list[Path]:
    """The standard library's ``.py`` files that form the code corpus, in a fixed order.

    From ``sysconfig.get_paths()["stdlib"]``, without ``EXCLUDED_STDLIB_DIRS`` and files that are
    not UTF-8, sorted by their relative path written with ``/`` (the same on every machine).

    >>> files = stdlib_source_files()
    >>> any(p.parent.name == "json" and p.name == "decoder.py" for p in files)
    True
    """
    return [path for _, path in _stdlib_selection()]


def load_stdlib_code(max_bytes: int = 200_000) -> str:
    """Standard-library source, whole files in sorted order, at most ``max_bytes`` of UTF-8.

    Each file follows a header line (``# ---- file: json/decoder.py``) and ends with a newline. A
    file that does not fit is skipped and later ones still tried, so no file is cut in two and the
    text gets close to ``max_bytes`` (``_pydecimal.py`` alone would stop it at half of 200 KB).

    >>> code = load_stdlib_code(50_000)
    >>> code.splitlines()[0], len(code.encode("utf-8")) <= 50_000
    ('# ---- file: __future__.py', True)
    """
    require_int(max_bytes, "max_bytes", minimum=1, example=200_000, why="a positive size")
    selection = _stdlib_selection()
    if not selection:
        raise FileNotFoundError(f"No Python source files found under "
                                f"{sysconfig.get_paths()['stdlib']}; this Python installation "
                                "ships only compiled files. Use load_english() instead, or "
                                "install a full Python.")
    pieces = []  # one str per file: header line + source, ending in a newline
    size = 0  # UTF-8 bytes in pieces so far
    for relative, path in selection:
        source = path.read_bytes().decode("utf-8").removesuffix("\n") + "\n"
        piece = f"# ---- file: {relative}\n" + source
        piece_size = len(piece.encode("utf-8"))
        if size + piece_size > max_bytes:
            continue  # subtle: skip a file that does not fit; a smaller one later may still fit
        pieces.append(piece)
        size += piece_size
    return "".join(pieces)


def split_held_out(text: str, fraction: float = 0.1) -> tuple[str, str]:
    """Split ``text`` into (train, held_out) just after a line break near ``1 - fraction`` of it.

    The first line break at or after that point (else the last one before it): no line is split,
    the split is always the same, ``train + held_out == text`` and neither part is empty.

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
    after = text.find("\n", target, len(text) - 1)  # a line break with text after it
    cut = (after if after != -1 else text.rfind("\n", 0, target)) + 1  # 0: none found
    if cut == 0:
        raise ValueError("split_held_out() cuts at a line break, but the text has none "
                         "where one could go; pass a text with at least two lines")
    assert 0 < cut < len(text)
    return text[:cut], text[cut:]
