"""Layer 3, tokenizers: the classes a notebook holds, thin over the algorithms and files.

``ByteLevelBPE`` (GPT's byte-level BPE, also built from tiktoken through ``tiktoken_bridge``),
``WordLevelBPE`` (the ``</w>`` variant) and ``sentencepiece_bpe`` (the other BPE family, trained
in memory). Each checks its input once, at its public methods, and hands the work down.
May import: ``files``, ``algorithm`` and the shared top modules.
"""
