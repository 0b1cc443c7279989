"""Lattice explorer: the best path moves when a piece's score changes."""
import pytest

from bpe_workshop.algorithm.unigram import Unigram
from bpe_workshop.widgets import lattice_explorer

PIECES = [("▁un", -3.0), ("▁", -4.0), ("u", -5.0), ("n", -5.0), ("▁unb", -9.0), ("b", -4.0),
          ("e", -4.0), ("lie", -6.0), ("l", -5.0), ("i", -5.0), ("believ", -5.0), ("v", -5.0),
          ("able", -4.0), ("a", -5.0)]


def test_widget_lattice_explorer_shows_the_best_path_and_moves_it():
    explorer = lattice_explorer(Unigram(PIECES), "unbelievable")
    assert explorer.best == ["▁un", "believ", "able"]
    # it opens on the best path's first piece, its score on the slider
    assert (explorer.piece.value, explorer.score.value) == ("▁un", -3.0)
    assert "best path: ▁un + believ + able = -12.00" in explorer.value
    assert explorer.value.count("<tr>") == 1 + len(Unigram(PIECES).lattice("unbelievable"))
    explorer.piece.value = "believ"
    assert explorer.score.value == -5.0
    explorer.score.value = -25.0  # believ becomes very unlikely: the path goes round it
    assert "believ" not in explorer.best and "".join(explorer.best) == "▁unbelievable"
    assert "believ" in explorer.value  # still in the lattice, no longer on the path


def test_widget_lattice_explorer_new_word_and_edge_cases():
    explorer = lattice_explorer(Unigram(PIECES), "able")
    assert explorer.best == ["▁", "able"]
    assert set(explorer.piece.options) == {"▁", "able", "a", "b", "l", "e"}
    assert (explorer.piece.value, explorer.score.value) == ("▁", -4.0)
    # without a piece for ▁, "▁z" is an unknown run: the first piece with a score is chosen
    no_mark = lattice_explorer(Unigram([p for p in PIECES if p[0] != "▁"]), "zable")
    assert no_mark.best == ["▁z", "able"]
    assert (no_mark.piece.value, no_mark.score.value) == ("able", -4.0)
    explorer.text.value = ""
    assert "Type a word or two" in explorer.value and explorer.best == []
    with pytest.raises(TypeError, match="lattice_explorer needs a Unigram"):
        lattice_explorer({"a": -1.0})
