"""bpe_workshop: the helper package of an interactive teaching series on Byte Pair Encoding.

The names a notebook needs are importable from here::

    from bpe_workshop import ByteLevelBPE, WordLevelBPE, GPT2_PATTERN, GPT4_PATTERN, get_encoding

Where each idea lives, in reading order:

- ``validation``: one phrasing for every type and range error.
- ``patterns``: the regular expressions that split text into chunks (GPT-2, GPT-4, GPT-4o),
  their names,
  and splitting bounded in time.
- ``pairs``: ``get_stats`` and ``merge``, the two steps BPE repeats, and the tie rule.
- ``by_hand``: Gage's 1994 algorithm on a short string, with letters for new symbols.
- ``textbook`` and ``train_fast``: two trainers that learn exactly the same merges
  (``pair_index``: the counts, slots and lazy heap both fast trainers keep).
- ``textbook`` and ``encode_fast``: two chunk encoders that give exactly the same ids.
- ``special_tokens`` and ``chunking``: special tokens, and text cut into the chunks BPE sees.
- ``byte_level``: ``ByteLevelBPE``, a GPT-style tokenizer (train, encode, decode, special tokens).
- ``model_file`` and ``text_file``: saving and loading a trained tokenizer as plain text.
- ``tiktoken_bridge`` and ``offline``: GPT-2's and GPT-4's merges, with no network.
- ``word_level``: ``WordLevelBPE``, the ``</w>`` variant of Sennrich et al. (2016); its
  trainers ``word_train_naive`` (the paper's loop) and ``word_train_fast`` (the same merges,
  incrementally), what they return in ``word_records``, the paper's own helpers in ``word_paper``.
- ``wordpiece``: ``WordPiece``, BERT's tokenizer (greedy longest match) and its trainer.
- ``corpora``: the texts the notebooks train on.
- ``parallel`` and ``sentencepiece_bpe``: the same sentences in twelve languages, and
  SentencePiece's BPE trained in memory (notebook 08).
- ``token_text``: a token's bytes as readable text (whitespace shown, partial characters in hex).
- ``render`` and ``widgets``: pictures and controls; they only read what the algorithms return.
- ``exercises``: the checkers behind each notebook's exercises.
"""

from bpe_workshop.algorithm.patterns import (
    GPT2_PATTERN,
    GPT4_PATTERN,
    O200K_PATTERN,
    WHITESPACE_PATTERN,
)
from bpe_workshop.algorithm.records import MergeRecord
from bpe_workshop.algorithm.textbook import get_stats, merge
from bpe_workshop.algorithm.wordpiece import WordPiece
from bpe_workshop.files.offline import get_encoding
from bpe_workshop.tokenizers.byte_level import ByteLevelBPE
from bpe_workshop.tokenizers.word_level import WordLevelBPE

__all__ = [
    "ByteLevelBPE",
    "GPT2_PATTERN",
    "GPT4_PATTERN",
    "MergeRecord",
    "O200K_PATTERN",
    "WHITESPACE_PATTERN",
    "WordLevelBPE",
    "WordPiece",
    "get_encoding",
    "get_stats",
    "merge",
]
