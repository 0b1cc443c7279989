"""Exercise checkers for the notebooks: ``check_<exercise>(your_function)`` prints a verdict.

``core.check`` is the one engine; each notebook's checkers live in their own module
(``nb00`` ... ``nb03`` here; later notebooks add theirs) and are re-exported by name below.
"""

from bpe_workshop.exercises.core import CheckResult, check
from bpe_workshop.exercises.nb00 import check_count_tokens, check_token_pieces
from bpe_workshop.exercises.nb01 import check_count_bytes, check_encode_utf8, check_utf8_length

__all__ = [
    "CheckResult",
    "check",
    "check_count_bytes",
    "check_count_tokens",
    "check_encode_utf8",
    "check_token_pieces",
    "check_utf8_length",
]
