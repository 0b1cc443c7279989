"""Exercise checkers for the notebooks: ``check_<exercise>(your_function)`` prints a verdict.

``core.check`` is the one engine; each notebook's checkers live in their own module
(``nb00`` ... ``nb03`` here, ``nb04`` and later beside them) and notebooks 00-03 import theirs
from this package by name.

Worked solutions live beside the notebooks, one solutions notebook per notebook:
``notebooks/solutions/NN_<topic>_solutions.ipynb``. The tests run each solution against its
checker, and check that a known wrong answer fails and that the untouched stub is "not attempted".
"""

from bpe_workshop.exercises.core import CheckResult, check
from bpe_workshop.exercises.nb00 import check_count_tokens, check_token_pieces
from bpe_workshop.exercises.nb01 import check_count_bytes, check_encode_utf8, check_utf8_length
from bpe_workshop.exercises.nb02 import check_chunk_ids, check_gpt2_split, check_number_chunks
from bpe_workshop.exercises.nb03 import (
    check_decompress,
    check_first_wrong_step,
    check_pair_counts,
    check_replace_pair,
)

__all__ = [
    "CheckResult",
    "check",
    "check_chunk_ids",
    "check_count_bytes",
    "check_count_tokens",
    "check_decompress",
    "check_encode_utf8",
    "check_first_wrong_step",
    "check_gpt2_split",
    "check_number_chunks",
    "check_pair_counts",
    "check_replace_pair",
    "check_token_pieces",
    "check_utf8_length",
]
