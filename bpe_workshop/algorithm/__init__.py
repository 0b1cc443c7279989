"""Layer 1, the algorithms: BPE and its relatives as plain functions on ids, bytes and strings.

Read ``textbook`` first: get_stats, merge, training, encoding, the vocabulary and decoding in
one sitting. Beside it are the fast twins (``train_fast``, ``encode_fast`` with ``pair_index``),
proven equal by property tests; the split patterns and chunking (``patterns``, ``chunking``,
``special_tokens``); Gage's algorithm on letters (``by_hand``); the word-level ``</w>`` family
(``word_*``); and the other families, ``wordpiece`` and ``unigram``.
May import: the shared top modules (``validation``, ``token_text``) and this folder only.
"""
