"""The corpora are hash-checked like the .cuts files: a cut or edited corpus is named."""

import shutil

import pytest

from bpe_workshop import check
from bpe_workshop.files import corpora


@pytest.fixture
def cut_english(tmp_path, monkeypatch):
    """A copy of data/ whose english.txt is cut to its first 1,000 bytes, in place of data/."""
    data = shutil.copytree(corpora.data_path("english.txt").parent, tmp_path / "data")
    english = data / "english.txt"
    english.write_bytes(english.read_bytes()[:1000])
    monkeypatch.setattr(corpora, "_DATA_DIR", data)
    return english


def test_the_shipped_corpora_have_the_recorded_hashes():
    assert sorted(corpora.CORPUS_SHA256) == ["english.txt", "multilingual.txt"]
    assert corpora.load_english().startswith("A Small Book of Ordinary Things")
    assert "Parallel sentences:" in corpora.load_multilingual()


def test_a_cut_corpus_is_refused_by_name(cut_english):
    with pytest.raises(ValueError) as caught:
        corpora.load_english()
    assert str(caught.value) == (
        f"{cut_english} is not the file shipped (its SHA-256 differs): reinstall the course "
        "(`pip install --force-reinstall bpe-workshop`, or `git checkout -- data` in a clone).")
    assert corpora.load_multilingual()  # the other corpus is whole: it still loads


def test_the_set_up_check_fails_on_a_cut_corpus(cut_english):
    with pytest.raises(check.CheckFailed, match="english.txt is not the file shipped"):
        check.check_data()
