"""tiktoken's encodings load with no network, from the shipped files, into tiktoken's own cache."""

import hashlib
import os
import socket
import subprocess
import sys
import textwrap

import pytest

from bpe_workshop.files import model_file, offline

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
    [("gpt2", [31373, 995]), ("r50k_base", [31373, 995]), ("cl100k_base", [15339, 1917]),
     ("o200k_base", [24912, 2375])],
)
def test_hello_world_with_an_empty_cache_and_no_network(tmp_path, name, expected):
    cache = tmp_path / "cache"
    out = run_offline(
        f"import bpe_workshop as b; print(b.get_encoding({name!r}).encode('hello world'))", cache
    )
    assert out == str(expected)


def test_cache_holds_exactly_the_files_tiktoken_names(tmp_path):
    cache = tmp_path / "cache"
    run_offline("import bpe_workshop as b; b.get_encoding('gpt2'); b.get_encoding('cl100k_base')",
                cache)
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
    out = run_offline(
        "import bpe_workshop as b; print(b.get_encoding('cl100k_base').encode('hello world'))",
        cache,
    )
    assert out == "[15339, 1917]"
    assert hashlib.sha256(path.read_bytes()).hexdigest() == good


def test_cache_switched_off_writes_nothing_and_still_works(tmp_path):
    out = run_offline(
        "import bpe_workshop as b; print(b.get_encoding('gpt2').encode('hello world'))", ""
    )
    assert out == "[31373, 995]"


@pytest.mark.parametrize("cache", ["", "fresh"], ids=["cache off", "fresh cache"])
def test_gpt4o_special_token_offline(tmp_path, cache):
    out = run_offline("import bpe_workshop as b; print(b.get_encoding('o200k_base').encode("
                      "'<|endoftext|>hello world', allowed_special='all'))",
                      "" if cache == "" else tmp_path / "cache")
    assert out == "[199999, 24912, 2375]"


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
    assert "these work offline: gpt2, r50k_base, cl100k_base, o200k_base" in out


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


def test_threaded_loads_with_the_cache_off_all_succeed_and_leave_the_environment_alone():
    out = run_offline(
        """
        import os, threading
        import bpe_workshop as b
        before = dict(os.environ)
        expected = {"gpt2": [31373, 995], "r50k_base": [31373, 995],
                    "cl100k_base": [15339, 1917]}
        results, errors = [], []
        def load(name):
            try:
                results.append(b.get_encoding(name).encode("hello world") == expected[name])
            except Exception as error:
                errors.append(repr(error))
        threads = [threading.Thread(target=load, args=(name,))
                   for name in list(expected) * 3]
        for t in threads: t.start()
        for t in threads: t.join()
        print(len(results), all(results), errors, dict(os.environ) == before,
              os.environ["TIKTOKEN_CACHE_DIR"] == "")
        """,
        "",
    )
    assert out == "9 True [] True True"


@pytest.mark.parametrize("name", ["gpt2", "r50k_base", "cl100k_base", "o200k_base"])
def test_built_in_memory_equals_what_tiktoken_loads(monkeypatch, name):
    from_cache = offline.get_encoding(name)  # the suite's cache folder, filled by offline
    monkeypatch.setenv("TIKTOKEN_CACHE_DIR", "")
    in_memory = offline.get_encoding(name)
    assert in_memory is not from_cache
    assert in_memory._mergeable_ranks == from_cache._mergeable_ranks
    assert in_memory._special_tokens == from_cache._special_tokens
    assert in_memory._pat_str == from_cache._pat_str


def test_a_cache_folder_that_is_a_file_warns_and_still_works(monkeypatch, tmp_path):
    not_a_folder = tmp_path / "cache"
    not_a_folder.write_text("I am a file")
    monkeypatch.setenv("TIKTOKEN_CACHE_DIR", str(not_a_folder))
    with pytest.warns(UserWarning, match=r"cache folder .*cache cannot be written.*built in "
                                         r"memory.*point TIKTOKEN_CACHE_DIR at a folder"):
        enc = offline.get_encoding("cl100k_base")
    assert enc.encode("hello world") == [15339, 1917]
    assert not_a_folder.read_text() == "I am a file"
    assert [p.name for p in tmp_path.iterdir()] == ["cache"]


def test_a_full_disk_leaves_no_partial_file(monkeypatch, tmp_path):
    import errno

    def no_space(fd):  # where a full disk shows first: the written blocks cannot be stored
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setenv("TIKTOKEN_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(os, "fsync", no_space)
    with pytest.warns(UserWarning, match=r"OSError: No space left on device.*TIKTOKEN_CACHE_DIR"):
        enc = offline.get_encoding("gpt2")
    assert enc.encode("hello world") == [31373, 995]
    assert list((tmp_path / "cache").iterdir()) == []


def test_a_read_only_cache_folder_warns_and_still_works(monkeypatch, tmp_path):
    import errno

    def refuse(path, mode):  # what a read-only folder (or one owned by another user) does
        raise PermissionError(errno.EACCES, "Permission denied", str(path))

    monkeypatch.setenv("TIKTOKEN_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(model_file, "open", refuse, raising=False)  # the writer's open only
    with pytest.warns(UserWarning, match=r"PermissionError: Permission denied.*TIKTOKEN_CACHE_DIR"):
        assert offline.get_encoding("cl100k_base").encode("hi") == [6151]
    assert list((tmp_path / "cache").iterdir()) == []


def test_shipped_files_have_one_home():
    assert set(offline.SHIPPED_FILES) == {"vocab.bpe", "encoder.json", "cl100k_base.tiktoken",
                                          "o200k_base.tiktoken"}
    assert offline.read_shipped("encoder.json").startswith(b"{")


def test_an_unshipped_name_answers_at_once_behind_a_silent_proxy(tmp_path):
    # a captive portal: accepts the connection, never answers
    with socket.socket() as silent:
        silent.bind(("127.0.0.1", 0))
        silent.listen()
        proxy = f"http://127.0.0.1:{silent.getsockname()[1]}"
        env = dict(os.environ, HTTPS_PROXY=proxy, HTTP_PROXY=proxy, https_proxy=proxy,
                   TIKTOKEN_CACHE_DIR=str(tmp_path / "cache"))
        code = textwrap.dedent("""
            import bpe_workshop as b
            try:
                b.get_encoding("p50k_base")
            except ValueError as error:
                print(error)
        """)
        result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                                env=env, timeout=15)
    assert "'p50k_base' is not shipped with the workshop" in result.stdout
    assert "these work offline: gpt2, r50k_base, cl100k_base, o200k_base" in result.stdout
