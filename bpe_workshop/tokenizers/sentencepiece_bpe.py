"""SentencePiece's BPE, trained in memory: the other family of BPE tokenizers (Llama 1 and 2).

SentencePiece (Kudo and Richardson, 2018) works on characters: a space becomes ``▁``, the start
of the next piece; the base vocabulary is the characters seen; with ``byte_fallback`` an unseen
character becomes its UTF-8 byte pieces (``<0xE4>``), not ``<unk>``. :func:`train_sentencepiece`
runs the ``sentencepiece`` trainer with Llama 1-2's published settings, in memory. Left out:
Unigram (see ``algorithm.unigram``), sampling, pretrained models.
"""

from __future__ import annotations

import io
import re

import sentencepiece as spm

from bpe_workshop.validation import require_int, require_str

WORD_MARK = "▁"  # U+2581 LOWER ONE EIGHTH BLOCK: stands for a space inside a piece

# The trainer settings of Llama 1 and 2 that matter here (their tokenizer has 32,000 pieces).
LLAMA_STYLE = {
    "model_type": "bpe",
    "byte_fallback": True,  # unknown characters become <0x..> byte pieces, never <unk>
    "split_digits": True,  # every digit is its own piece
    "normalization_rule_name": "identity",  # the text is used exactly as given
    "remove_extra_whitespaces": False,  # runs of spaces are kept
    "add_dummy_prefix": True,  # a space is put before the text, so "Hello" is "▁Hello"
    "allow_whitespace_only_pieces": True,
    "character_coverage": 0.99995,  # the rarest 0.005 % of characters are left to byte fallback
    "max_sentencepiece_length": 16,  # no piece longer than 16 characters
    "split_by_unicode_script": True,  # no piece mixes scripts (sentencepiece's default too)
}


def train_sentencepiece(text: str, vocab_size: int, **options) -> spm.SentencePieceProcessor:
    """Train a SentencePiece BPE model on ``text`` (one sentence per line) and load it.

    ``options`` override :data:`LLAMA_STYLE` or pass other trainer flags. ``vocab_size`` counts
    ``<unk>``, ``<s>``, ``</s>``, the 256 byte pieces, the characters kept, then the merges.

    >>> sp = train_sentencepiece("low lower lowest\\nnew newer newest\\n" * 20, 290)
    >>> sp.encode("lowest", out_type=str), sp.id_to_piece(3), sp.decode(sp.encode("new 你"))
    (['▁lowest'], '<0x00>', 'new 你')
    >>> train_sentencepiece("low lower lowest", 400)
    Traceback (most recent call last):
    ...
    ValueError: vocab_size=400 is more than this text can fill (at most 282 pieces); ...
    """
    require_str(text, "text")
    require_int(vocab_size, "vocab_size", minimum=1, example=2000)
    settings = {**LLAMA_STYLE, **options}
    model = io.BytesIO()  # the trained model, written here instead of a file
    # subtle: minloglevel=2 keeps the trainer's long log off the notebook's output
    try:
        spm.SentencePieceTrainer.train(
            sentence_iterator=(line for line in text.splitlines() if line.strip()),
            model_writer=model, vocab_size=vocab_size, minloglevel=2,
            max_sentence_length=1 << 16, **settings)
    except RuntimeError as err:
        # e.g. "Vocabulary size too high (400). Please set it to a value <= 280."
        most = re.search(r"value <= (\d+)", str(err))
        if most is None:
            raise
        raise ValueError(f"vocab_size={vocab_size} is more than this text can fill (at most "
                         f"{most.group(1)} pieces); pass a smaller vocab_size or a longer "
                         "text") from None
    return spm.SentencePieceProcessor(model_proto=model.getvalue())
