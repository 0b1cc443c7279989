"""Layer 6, exercises: the checkers, ``check_<exercise>(my_<exercise>)`` prints a verdict.

``core.check`` is the one engine. Each notebook's checkers live in a module of their own, named
after the notebook (``nb00`` ... ``nb08``), and every notebook imports its checkers from that
module by name::

    from bpe_workshop.exercises.nb04 import check_get_stats, check_merge

In each module, ``check_<exercise>`` takes the learner's function ``my_<exercise>`` and
``reference_<exercise>`` (where the package has no function of its own for it) computes the
expected values.

Worked solutions live beside the notebooks, one solutions notebook per notebook:
``notebooks/solutions/NN_<topic>_solutions.ipynb``. The tests run each solution against its
checker, and check that known wrong answers fail, that the untouched stub is "not attempted", and
that no answer of any kind (wrong types, ``sys.exit()``, an endless loop) stops a checker.
May import: ``widgets``, ``render`` and every layer below them.
"""

from bpe_workshop.exercises.core import CheckResult, check

__all__ = ["CheckResult", "check"]
