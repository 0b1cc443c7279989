"""WordPiece: the pieces cover the text, Hugging Face's WordPiece gives the same pieces, and the
trainer needs at most 15% more pieces than Hugging Face's trainer on held-out prose."""

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tokenizers import Tokenizer, models, pre_tokenizers, trainers

from bpe_workshop import WordPiece
from bpe_workshop.algorithm.wordpiece import split_words
from bpe_workshop.files.corpora import load_english, load_multilingual


def halves():
    """English prose in two halves, alternate paragraphs: one to train on, one held out."""
    paragraphs = [p for p in load_english().split("\n\n") if p.strip()]
    return "\n\n".join(paragraphs[0::2]), "\n\n".join(paragraphs[1::2])


def hf_tokenizer(vocab, max_word_length=100):
    tokenizer = Tokenizer(models.WordPiece(dict(WordPiece(vocab).vocab), unk_token="[UNK]",
                                           max_input_chars_per_word=max_word_length))
    tokenizer.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
    return tokenizer


def hf_train(text, vocab_size):
    tokenizer = Tokenizer(models.WordPiece(unk_token="[UNK]"))
    tokenizer.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
    trainer = trainers.WordPieceTrainer(vocab_size=vocab_size, special_tokens=["[UNK]"],
                                        show_progress=False)
    tokenizer.train_from_iterator([text], trainer)
    return sorted(tokenizer.get_vocab(), key=tokenizer.get_vocab().get)


@pytest.fixture(scope="module")
def hf_vocab():
    """A vocabulary Hugging Face learned from half the English prose and the multilingual text."""
    return hf_train(halves()[0] + load_multilingual(), 1500)


# --- splitting into words --------------------------------------------------------------------

# punctuation (ASCII, Unicode, and punctuation newer than the pre-tokenizer's Unicode tables),
# CJK, accents (combining and precomposed), emoji, controls and many kinds of space
MIXED = ("ab é e\u0301 ,.!?$+^`~¿¡「」—–…·\u061d\u2e43\u166d\U000111c9 中文字日本"
         "한국 😀 \x00\x07\x1c\x1f\t\n\r\x0b\x0c\x85\xa0\u2003\u2028\u3000\u200b\ufeff")


@settings(max_examples=300)
@given(st.one_of(st.text(), st.text(alphabet=MIXED)))
def test_words_are_split_like_bert_pre_tokenizer(text):
    expected = [word for word, _ in pre_tokenizers.BertPreTokenizer().pre_tokenize_str(text)]
    assert split_words(text) == expected


# --- tokenizing ------------------------------------------------------------------------------

def test_same_pieces_as_hugging_face_on_held_out_sentences(hf_vocab):
    held_out = halves()[1]
    sentences = [s for s in re.split(r"(?<=[.!?])\s+", held_out) if s.strip()]
    sentences += [line for line in load_multilingual().splitlines() if line.strip()]
    assert len(sentences) >= 250
    wp, hf = WordPiece(hf_vocab), hf_tokenizer(hf_vocab)
    differ = [s for s in sentences if wp.tokenize(s) != hf.encode(s).tokens]
    assert differ == []
    pieces = [piece for s in sentences for piece in wp.tokenize(s)]
    assert "[UNK]" in pieces and any(p.startswith("##") for p in pieces)  # both paths taken


@settings(max_examples=300)
@given(st.one_of(st.text(), st.text(alphabet=MIXED), st.text(alphabet="the sand,.é中")),
       st.one_of(st.integers(1, 12), st.just(100)))
def test_same_pieces_as_hugging_face_on_random_text(hf_vocab, text, max_word_length):
    wp = WordPiece(hf_vocab, max_word_length=max_word_length)
    assert wp.tokenize(text) == hf_tokenizer(hf_vocab, max_word_length).encode(text).tokens


pieces = st.text(alphabet="abc", min_size=1, max_size=3)


@settings(max_examples=300)
@given(st.lists(st.one_of(pieces, pieces.map("##".__add__)), max_size=12),
       st.text(alphabet="abcd ,", max_size=40))
def test_pieces_cover_each_word_or_it_is_unknown(vocab, text):
    wp = WordPiece(vocab + ["[UNK]"])
    assert wp.tokenize(text) == hf_tokenizer(vocab + ["[UNK]"]).encode(text).tokens
    for word in split_words(text):
        got = wp.tokenize_word(word)
        if got != ["[UNK]"]:
            assert got[0] in wp.vocab and not got[0].startswith("##")
            assert all(piece in wp.vocab and piece.startswith("##") for piece in got[1:])
            assert "".join(p.removeprefix("##") for p in got) == word


# --- training --------------------------------------------------------------------------------

@settings(max_examples=50)
@given(st.text(alphabet="ab c,é", max_size=60), st.integers(1, 40), st.booleans())
def test_trained_vocabulary_covers_its_text(text, vocab_size, frequent_first):
    if not split_words(text):
        with pytest.raises(ValueError, match="text has no words to train on"):
            WordPiece.train(text, vocab_size, frequent_first=frequent_first)
        return
    words = split_words(text)
    kept = 1 + len({c for w in words for c in w}) + len({c for w in words for c in w[1:]})
    if vocab_size < kept:  # [UNK] and the alphabet, alone and after "##", are never given up
        with pytest.raises(ValueError, match=f"vocab_size must be at least {kept} \\(\\[UNK\\]"):
            WordPiece.train(text, vocab_size, frequent_first=frequent_first)
        return
    wp = WordPiece.train(text, vocab_size, frequent_first=frequent_first)
    assert len(wp.vocab) <= vocab_size
    assert "[UNK]" not in wp.tokenize(text)
    for word in split_words(text):
        assert "".join(p.removeprefix("##") for p in wp.tokenize_word(word)) == word


@pytest.mark.parametrize("vocab_size", [500, 1000, 2000])
def test_trainer_within_15_percent_of_hugging_face(vocab_size):
    train, held_out = halves()
    ours = WordPiece.train(train, vocab_size)
    theirs = WordPiece(hf_train(train, vocab_size))
    assert len(ours.vocab) == len(theirs.vocab) == vocab_size
    assert len(ours.tokenize(held_out)) <= 1.15 * len(theirs.tokenize(held_out))
    # the score alone spends the vocabulary on pairs of rare pieces
    alone = WordPiece.train(train, vocab_size, frequent_first=False)
    assert len(alone.tokenize(held_out)) > 1.15 * len(theirs.tokenize(held_out))


# --- bad input -------------------------------------------------------------------------------

@pytest.mark.parametrize("call, error, words", [
    (lambda: WordPiece("abc"), TypeError, "vocab must be a collection of pieces"),
    (lambda: WordPiece(["a", 1]), TypeError, "each piece of vocab must be a str"),
    (lambda: WordPiece(["a", "[UNK]"], max_word_length=-1), ValueError, "at least 0"),
    (lambda: WordPiece(["a", "[UNK]"], max_word_length=10_001), ValueError,
     "max_word_length must be at most 10000, got 10001"),
    (lambda: WordPiece(["a", "b"]), ValueError, "vocab must hold the unknown token '[UNK]', "
                                                "which stands for a word no pieces cover; add it"),
    (lambda: WordPiece(["a", "<unk>"]), ValueError, "vocab must hold the unknown token '[UNK]'"),
    (lambda: WordPiece(["a", "[UNK]"]).tokenize(b"a"), TypeError, "decode bytes first"),
    (lambda: WordPiece.train("a b", "100"), TypeError, "pass e.g. vocab_size=1000"),
    (lambda: WordPiece.train("a b", 0), ValueError, "at least 3 ([UNK] and each character"),
    (lambda: WordPiece.train("hug pug pun bun hugs", 1), ValueError,
     "vocab_size must be at least 12 ([UNK] and each character, alone and after '##', are kept)"),
    (lambda: WordPiece.train(" \n", 10), ValueError, "text has no words to train on; pass some "
                                                     "text with non-space characters"),
    (lambda: WordPiece.train("a" * 1_000_000, 20), ValueError,
     "text has no words short enough to train on: 1 word(s) longer than 100 characters left "
     "out (the longest: 1,000,000): WordPiece cuts a longer word as one [UNK] anyway"),
])
def test_bad_input_says_how_to_fix_it(call, error, words):
    with pytest.raises(error, match=re.escape(words)):
        call()


def test_a_long_word_is_cut_at_the_largest_max_word_length_like_hugging_face(hf_vocab):
    from bpe_workshop.algorithm.wordpiece import MAX_WORD_LENGTH

    word = "".join(char for char in halves()[1] if char.isascii() and char.islower())[:5000]
    wp = WordPiece(hf_vocab, max_word_length=MAX_WORD_LENGTH)
    pieces = wp.tokenize_word(word)
    assert len(pieces) > 1000 and "".join(p.removeprefix("##") for p in pieces) == word
    assert pieces == hf_tokenizer(hf_vocab, MAX_WORD_LENGTH).encode(word).tokens
