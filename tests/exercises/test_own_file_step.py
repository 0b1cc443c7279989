"""Notebook 07's "your own file" step works on the files learners bring: a file of one line
trains and holds out its last tenth; a file that is not UTF-8 stops with a message that says how
to read it. The cell is taken from the notebook itself and run with ``MY_FILE`` pointing at
files in ``tmp_path``."""

from __future__ import annotations

import os
import warnings

import nbformat
import pytest
from notebook_files import definitions, notebook_path

from bpe_workshop.files.corpora import read_text_file


def own_file_cell() -> str:
    notebook = nbformat.read(notebook_path("07"), as_version=4)
    [source] = [cell.source for cell in notebook.cells
                if cell.cell_type == "code" and cell.source.startswith("MY_FILE = ")]
    return source


def run_own_file_step(path) -> dict:
    namespace = definitions(notebook_path("07"))  # the notebook's imports
    source = own_file_cell().replace("MY_FILE = ", f"MY_FILE = {str(path)!r}  # ", 1)
    source = source.replace("MY_VOCAB_SIZE = 1024", "MY_VOCAB_SIZE = 300")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # a small file stops early, and says so
        exec(compile(source, "07_train_your_own.ipynb", "exec"), namespace)  # noqa: S102
    return namespace


def test_a_file_of_one_line_trains_and_holds_out_its_last_tenth(tmp_path):
    path = tmp_path / "one_line.txt"
    path.write_text("the cat sat on the mat " * 40, encoding="utf-8")  # no line break at all
    namespace = run_own_file_step(path)
    assert namespace["my_train"] + namespace["my_held_out"] == path.read_text(encoding="utf-8")
    assert namespace["my_held_out"] and len(namespace["my_held_out"]) < len(namespace["my_train"])
    assert len(namespace["my_tok"].merges) > 0


def test_a_file_of_several_lines_is_cut_at_a_line_break(tmp_path):
    path = tmp_path / "notes.txt"
    path.write_text("".join(f"line {i} of my notes\n" for i in range(50)), encoding="utf-8")
    namespace = run_own_file_step(path)
    assert namespace["my_train"].endswith("\n")


def test_a_file_that_is_not_utf8_says_how_to_read_it(tmp_path):
    path = tmp_path / "latin.txt"
    path.write_bytes("Grüße aus Köln\n".encode("cp1252"))
    with pytest.raises(ValueError, match="latin.txt is not UTF-8 text") as caught:
        run_own_file_step(path)
    assert 'read_text(encoding="cp1252")' in str(caught.value)
    assert "byte 0xfc at position 2" in str(caught.value)


def test_read_text_file_reads_utf8_and_expands_the_home_folder(tmp_path, monkeypatch):
    monkeypatch.setenv("HOME", str(tmp_path))
    (tmp_path / "mine.txt").write_text("naïve café\n", encoding="utf-8")
    assert read_text_file("~/mine.txt") == "naïve café\n"


@pytest.mark.parametrize("encoding", ["utf-8-sig", "utf-16", "utf-16-le", "utf-16-be",
                                      "utf-32"])
def test_a_file_with_a_byte_order_mark_reads_as_its_text(tmp_path, encoding):
    text = "Grüße aus Köln, 你好\n" * 30
    path = tmp_path / "powershell.txt"
    data = text.encode(encoding)
    if encoding in ("utf-16-le", "utf-16-be"):  # these codecs write no mark: add the right one
        data = "\ufeff".encode(encoding) + data
    path.write_bytes(data)
    assert read_text_file(path) == text
    namespace = run_own_file_step(path)
    assert "\x00" not in namespace["my_train"]  # no NULs from reading UTF-16 as bytes


def test_an_empty_file_says_so_before_training(tmp_path):
    path = tmp_path / "empty.txt"
    path.write_bytes(b"")
    with pytest.raises(ValueError, match="empty.txt is empty: there is nothing to train on"):
        run_own_file_step(path)


@pytest.mark.parametrize("make", ["folder", "pipe"])
def test_something_that_is_not_a_file_is_refused_without_waiting(tmp_path, make):
    path = tmp_path / "not_a_file"
    if make == "folder":
        path.mkdir()
    else:
        if not hasattr(os, "mkfifo"):
            pytest.skip("named pipes are POSIX")
        os.mkfifo(path)  # reading it would wait for a writer forever
    with pytest.raises(ValueError, match="is not a file .* set MY_FILE to a text file"):
        read_text_file(path)
