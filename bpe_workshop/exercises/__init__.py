"""Layer 6, exercises: the checkers, ``check_<exercise>(my_<exercise>)`` prints a verdict.

``core.check`` is the one engine; each notebook imports its checkers from the module named after
it (``from bpe_workshop.exercises.nb04 import check_get_stats``), where ``reference_<exercise>``
computes the expected values when the package has no function for it. Worked solutions:
``notebooks/solutions/NN_<topic>_solutions.ipynb``; the tests run each against its checker,
with known wrong answers, the untouched stub, and answers that try to stop the checker.
May import: ``widgets``, ``render`` and every layer below them.
"""

from bpe_workshop.exercises.core import CheckResult, check

__all__ = ["CheckResult", "check"]
