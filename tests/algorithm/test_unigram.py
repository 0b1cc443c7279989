"""Unigram: piece for piece as sentencepiece's unigram model; Viterbi is optimal; EM trains."""

import io
import itertools
import math

import pytest
import sentencepiece as spm
from hypothesis import given, settings
from hypothesis import strategies as st

from bpe_workshop.algorithm.unigram import Unigram, f32, normalize
from bpe_workshop.files.corpora import load_english, load_multilingual, split_held_out

TRAIN, HELD_OUT = split_held_out(load_english(), fraction=0.2)
SIZE = 1000  # sentencepiece's count includes <unk>, <s> and </s>


@pytest.fixture(scope="module")
def reference():
    """sentencepiece's unigram model trained on the book, and ours from its pieces."""
    model = io.BytesIO()
    spm.SentencePieceTrainer.train(
        sentence_iterator=iter(TRAIN.splitlines()), model_writer=model, vocab_size=SIZE,
        model_type="unigram", normalization_rule_name="identity",
        remove_extra_whitespaces=False, minloglevel=2)
    sp = spm.SentencePieceProcessor(model_proto=model.getvalue())
    pieces = [(sp.id_to_piece(i), sp.get_score(i)) for i in range(sp.get_piece_size())
              if not (sp.is_control(i) or sp.is_unknown(i))]
    return sp, Unigram(pieces)


def test_held_out_and_multilingual_lines_match_sentencepiece(reference):
    sp, uni = reference
    lines = [line for line in (HELD_OUT + load_multilingual()).splitlines() if line.strip()]
    assert len(lines) > 100
    differ = [line for line in lines if uni.tokenize(line) != sp.encode(line, out_type=str)]
    assert differ == []


@settings(max_examples=300, deadline=None)
@given(text=st.text(alphabet=st.sampled_from("ab cdeé你 xyz!?\t\nQ🫠")
                    | st.characters(exclude_categories=["Cs"]),  # UTF-8 cannot hold surrogates
                    max_size=40))
def test_any_text_matches_sentencepiece(reference, text):
    sp, uni = reference
    assert uni.tokenize(text) == sp.encode(text, out_type=str)


def test_the_trainer_needs_at_most_15_percent_more_pieces_than_sentencepiece(reference):
    sp, _ = reference
    ours = Unigram.train(TRAIN, SIZE - 3)
    assert len(ours.scores) == SIZE - 3
    lines = [line for line in HELD_OUT.splitlines() if line.strip()]
    theirs = sum(len(sp.encode(line)) for line in lines)
    mine = sum(len(ours.tokenize(line)) for line in lines)
    print(f"held-out pieces: sentencepiece {theirs}, ours {mine} ({mine / theirs:.3f})")
    assert mine <= 1.15 * theirs
    sizes = [size for size, _ in ours.history]
    assert sizes[-1] == SIZE - 3 and sizes[0] > sizes[-1]  # the vocabulary shrinks round by round


vocabularies = st.lists(st.tuples(st.text(alphabet="▁ab", min_size=2, max_size=4),
                                  st.floats(-12, -0.5)), max_size=12)


@settings(max_examples=200, deadline=None)
@given(extra=vocabularies, text=st.text(alphabet="ab ", max_size=7))
def test_viterbi_scores_at_least_as_well_as_any_segmentation(extra, text):
    # every character has a piece, so every segmentation of the text into pieces is a path
    pieces = dict([("▁", -3.0), ("a", -2.5), ("b", -4.0)] + extra)
    uni = Unigram(list(pieces.items()))
    chars = normalize(text)
    best_pieces, best = uni.viterbi(text)
    assert "".join(best_pieces) == chars  # the pieces cover the text, in order
    for cuts in itertools.product([False, True], repeat=len(chars) - 1):
        bounds = [0] + [i + 1 for i, cut in enumerate(cuts) if cut] + [len(chars)]
        parts = [chars[a:b] for a, b in zip(bounds, bounds[1:])]
        if all(part in uni.scores for part in parts):
            total = 0.0
            for part in parts:
                total = f32(total + uni.scores[part])
            assert total <= best + 1e-4


@pytest.mark.parametrize("pieces, error, words", [
    ("▁a", TypeError, "pieces must be a list of"),
    ([("▁a", "-1")], TypeError, r"each piece must be a \(non-empty str, number\) pair"),
    ([("", -1.0)], TypeError, "non-empty str"),
    ([("a", -1.0), ("a", -2.0)], ValueError, "the piece 'a' is given twice"),
    ([], ValueError, "pieces must not be empty"),
    ([("a", True)], TypeError, r"each piece must be a \(non-empty str, number\) pair"),
    ([("a", float("nan"))], ValueError, r"the score of 'a' must be a log probability: a finite "
                                        r"number at most 0 \(a probability is at most 1\), "
                                        r"e.g. -3.2, got nan"),
    ([("a", -math.inf)], ValueError, "the score of 'a' must be a log probability"),
    ([("a", -1e39)], ValueError, "a finite number"),  # -inf as a 32-bit float
    ([("▁", -1.0), ("a", 0.5)], ValueError, r"the score of 'a' .* at most 0 .* got 0.5"),
])
def test_bad_pieces_are_refused_with_the_fix(pieces, error, words):
    with pytest.raises(error, match=words):
        Unigram(pieces)


def test_a_vocabulary_size_below_the_alphabet_is_refused():
    with pytest.raises(ValueError, match=r"vocab_size must be at least 6 \(every character"):
        Unigram.train("abc abd", 3)


@pytest.mark.parametrize("text", ["", " \n\t "])
def test_training_on_text_without_words_says_so(text):
    with pytest.raises(ValueError, match="^text has no words to train on; pass some text with "
                                         "non-space characters$"):
        Unigram.train(text, 10)


def test_one_huge_word_is_left_out_of_training_saying_why():
    with pytest.raises(ValueError, match=r"no words short enough to train on: 1 word\(s\) longer "
                                         r"than 4,192 characters left out \(the longest: "
                                         r"1,000,000\): .* needs spaces between its words"):
        Unigram.train("a" * 1_000_000, 20)
    with pytest.warns(UserWarning, match=r"1 word\(s\) longer than 4,192 characters left out"):
        uni = Unigram.train("a" * 5000 + " low lower" * 50, 10)
    assert uni.tokenize("low") == ["▁low"]


def test_a_piece_longer_than_any_word_changes_no_cut_elsewhere(reference):
    _, uni = reference
    longer = Unigram([*uni.scores.items(), ("a" * 3000, -20.0)])
    text = HELD_OUT[:5000]
    assert longer.tokenize(text) == uni.tokenize(text)
    assert longer.tokenize("a" * 3000) == ["▁", "a" * 3000]


def test_a_piece_with_a_word_mark_inside_is_still_found():
    # such a piece spans two words, so the text is not cut at that word mark
    uni = Unigram([("▁", -3.0), ("a", -3.0), ("b", -3.0), ("a▁b", -1.0)])
    assert uni.tokenize("a b") == ["▁", "a▁b"]
    assert uni.viterbi("a b")[1] == -4.0
