"""Layer 2, files: what is read from or written to disk, checked on the way in.

``model_file`` and ``text_file`` save and load tokenizers as plain text (a damaged file is
reported by file and line); ``offline`` serves tiktoken's encodings with no network; ``corpora``
and ``parallel`` are the texts the notebooks train on.
May import: ``algorithm`` and the shared top modules.
"""
