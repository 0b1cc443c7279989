"""tiktoken's encodings load with no network, from the shipped files, into tiktoken's own cache."""

import hashlib
import os
import subprocess
import sys
import textwrap

import pytest

from bpe_workshop import offline

# Run in a fresh interpreter whose sockets cannot connect, so "offline" is a fact, not a hope.
NO_NETWORK = textwrap.dedent(
    """
    import socket
    def refuse(*args, **kwargs):
        raise OSError("network disabled by the test")
    socket.socket.connect = refuse
    socket.create_connection = refuse
    """
)


def run_offline(code, cache_dir):
    env = dict(os.environ)
    env.pop("DATA_GYM_CACHE_DIR", None)
    if cache_dir is None:
        env.pop("TIKTOKEN_CACHE_DIR", None)
    else:
        env["TIKTOKEN_CACHE_DIR"] = str(cache_dir)
    result = subprocess.run(
        [sys.executable, "-c", NO_NETWORK + textwrap.dedent(code)],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    return result.stdout.strip()


@pytest.mark.parametrize(
    "name, expected",
    [("gpt2", [31373, 995]), ("r50k_base", [31373, 995]), ("cl100k_base", [15339, 1917])],
)
def test_hello_world_with_an_empty_cache_and_no_network(tmp_path, name, expected):
    cache = tmp_path / "cache"
    out = run_offline(
        f"import bpe_workshop as b; print(b.get_encoding({name!r}).encode('hello world'))", cache
    )
    assert out == str(expected)


def test_cache_holds_exactly_the_files_tiktoken_names(tmp_path):
    cache = tmp_path / "cache"
    run_offline("import bpe_workshop as b; b.get_encoding('gpt2'); b.get_encoding('cl100k_base')", cache)
    expected = {
        offline.cache_name(url)
        for url in (
            "https://openaipublic.blob.core.windows.net/gpt-2/encodings/main/vocab.bpe",
            "https://openaipublic.blob.core.windows.net/gpt-2/encodings/main/encoder.json",
            "https://openaipublic.blob.core.windows.net/encodings/cl100k_base.tiktoken",
        )
    }
    assert {path.name for path in cache.iterdir()} == expected


def test_a_corrupted_cache_file_is_replaced_and_still_verified(tmp_path):
    cache = tmp_path / "cache"
    run_offline("import bpe_workshop as b; b.get_encoding('cl100k_base')", cache)
    (path,) = cache.iterdir()
    good = hashlib.sha256(path.read_bytes()).hexdigest()
    path.write_bytes(b"not a vocabulary")
    out = run_offline("import bpe_workshop as b; print(b.get_encoding('cl100k_base').encode('hello world'))", cache)
    assert out == "[15339, 1917]"
    assert hashlib.sha256(path.read_bytes()).hexdigest() == good


def test_cache_switched_off_writes_nothing_and_still_works(tmp_path):
    out = run_offline(
        "import bpe_workshop as b; print(b.get_encoding('gpt2').encode('hello world'))", ""
    )
    assert out == "[31373, 995]"


def test_default_cache_is_tiktokens_temp_folder(monkeypatch, tmp_path):
    monkeypatch.delenv("TIKTOKEN_CACHE_DIR", raising=False)
    monkeypatch.delenv("DATA_GYM_CACHE_DIR", raising=False)
    monkeypatch.setattr("tempfile.gettempdir", lambda: str(tmp_path))
    assert offline.cache_dir() == tmp_path / "data-gym-cache"
    monkeypatch.setenv("DATA_GYM_CACHE_DIR", str(tmp_path / "gym"))
    assert offline.cache_dir() == tmp_path / "gym"
    monkeypatch.setenv("TIKTOKEN_CACHE_DIR", "")
    assert offline.cache_dir() is None


def test_unknown_encoding_names_the_offline_ones(tmp_path):
    out = run_offline(
        """
        import bpe_workshop as b
        try:
            b.get_encoding("no_such_encoding")
        except ValueError as error:
            print(error)
        """,
        tmp_path / "cache",
    )
    assert "no_such_encoding" in out
    assert "These work offline: gpt2, r50k_base, cl100k_base" in out


def test_encoding_name_must_be_a_string():
    with pytest.raises(TypeError, match="encoding name"):
        offline.get_encoding(50257)


def test_shipped_files_have_the_hashes_tiktoken_checks():
    import inspect

    from tiktoken_ext import openai_public

    source = inspect.getsource(openai_public)
    for files in offline._SHIPPED.values():
        for file in files:
            assert hashlib.sha256(file.read()).hexdigest() == file.sha256
            assert file.sha256 in source
    assert offline._R50K_SHA256 in source
