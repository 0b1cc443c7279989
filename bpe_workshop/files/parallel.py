"""The parallel sentences of ``data/multilingual.txt``: the same meaning in twelve languages.

The sample ends with lines ``en: ...``, ``fr: ...``: the same two sentences in each language.
As the meaning is fixed, their token counts measure what a language costs a tokenizer (nb08).
"""

from __future__ import annotations

from bpe_workshop.files.corpora import load_multilingual
from bpe_workshop.validation import require_str

PARALLEL_HEADER = "Parallel sentences:"  # the line that opens the block in multilingual.txt

# code -> the language's name in English, in the file's order
LANGUAGES = {
    "en": "English", "fr": "French", "de": "German", "es": "Spanish", "zh": "Chinese",
    "ja": "Japanese", "ko": "Korean", "ru": "Russian", "el": "Greek", "hi": "Hindi",
    "ar": "Arabic", "he": "Hebrew",
}


def parse_parallel(text: str) -> dict[str, str]:
    """Read the block after the ``Parallel sentences:`` line: language code -> sentence.

    >>> parse_parallel("Intro.\\nParallel sentences: the same.\\nen: Hi.\\nfr: Salut.\\n")
    {'en': 'Hi.', 'fr': 'Salut.'}
    >>> parse_parallel("no block here")
    Traceback (most recent call last):
    ...
    ValueError: no line starting 'Parallel sentences:' in the text; pass the whole of ...
    """
    require_str(text, "text")
    lines = text.splitlines()
    starts = [i for i, line in enumerate(lines) if line.startswith(PARALLEL_HEADER)]
    if not starts:
        raise ValueError(f"no line starting {PARALLEL_HEADER!r} in the text; pass the whole "
                         "of load_multilingual()")
    sentences = {}  # language code -> the sentence in that language
    for line in lines[starts[0] + 1:]:
        if not line.strip():
            break  # a blank line ends the block
        code, sep, sentence = line.partition(": ")
        if not sep or not code.isalpha():
            raise ValueError(f"a line of the parallel block must read 'xx: sentence', got {line!r}")
        sentences[code] = sentence
    return sentences


def load_parallel() -> dict[str, str]:
    """The parallel sentences of the multilingual sample, in the file's order of languages.

    >>> sentences = load_parallel()
    >>> list(sentences) == list(LANGUAGES), sentences["en"][:48], sentences["zh"][:16]
    (True, 'My friend lives in a small house near the river.', '我的朋友住在河边的一座小房子里。')
    """
    return parse_parallel(load_multilingual())
