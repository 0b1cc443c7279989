"""Layer 2, files: what is read from or written to disk, checked on the way in.

``model_file`` saves and loads tokenizers as plain text (a damaged file is reported by file and
line) and guards every loader; ``offline`` serves tiktoken's encodings with no network;
``corpora`` holds the texts the notebooks train on, parallel sentences included.
May import: ``algorithm`` and the shared top modules.
"""
