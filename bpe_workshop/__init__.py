"""bpe_workshop: the helper package of an interactive teaching series on Byte Pair Encoding.

The names a notebook needs: ``from bpe_workshop import ByteLevelBPE, GPT4_PATTERN, ...``.
It reads like a second textbook, in layers (each folder's ``__init__`` says more):
``algorithm`` (the algorithms as plain functions; start with ``algorithm/textbook.py``),
``files`` (model files, tiktoken offline, corpora), ``tokenizers`` (``ByteLevelBPE``,
``WordLevelBPE``, SentencePiece's BPE), then ``render``, ``widgets`` and ``exercises`` for the
notebooks; ``validation`` and ``token_text`` are shared by all, and ``check`` is the set-up
check (``bpe-workshop check``). Names load on first use (PEP 562), so the check can
run, and report, even when a dependency such as ``regex`` or ``tiktoken`` is broken.
"""

import importlib

# public name -> the module that defines it
_HOMES = {
    "ByteLevelBPE": "bpe_workshop.tokenizers.byte_level",
    "GPT2_PATTERN": "bpe_workshop.algorithm.patterns",
    "GPT4_PATTERN": "bpe_workshop.algorithm.patterns",
    "MergeRecord": "bpe_workshop.algorithm.records",
    "O200K_PATTERN": "bpe_workshop.algorithm.patterns",
    "WHITESPACE_PATTERN": "bpe_workshop.algorithm.patterns",
    "WordLevelBPE": "bpe_workshop.tokenizers.word_level",
    "Unigram": "bpe_workshop.algorithm.unigram",
    "WordPiece": "bpe_workshop.algorithm.wordpiece",
    "get_encoding": "bpe_workshop.files.offline",
    "get_stats": "bpe_workshop.algorithm.textbook",
    "merge": "bpe_workshop.algorithm.textbook",
}

__all__ = sorted(_HOMES)


def __getattr__(name: str):
    if name not in _HOMES:
        raise AttributeError(f"module 'bpe_workshop' has no attribute {name!r}")
    value = getattr(importlib.import_module(_HOMES[name]), name)
    globals()[name] = value  # the next lookup is an ordinary one
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_HOMES))
