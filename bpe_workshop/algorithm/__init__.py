"""Layer 1, the algorithms: BPE and its relatives as plain functions on ids, bytes and strings.

Read ``textbook`` first. Beside it: the fast twins (``train_fast``, ``encode_fast``, with
``pair_index``), splitting (``patterns``, ``chunking``, ``special_tokens``), Gage's algorithm on
letters (``by_hand``), the word-level ``</w>`` family (``word_*``), ``wordpiece`` and ``unigram``.
May import: the shared top modules (``validation``, ``token_text``) and this folder only.
"""
