"""What a checker reported, read from inside: for tests that the input shown is the smallest.

``reported(module, answer, name)`` runs ``module.check_<name>(answer)`` and returns
the verdict, the arguments of the failing call it shows, and how the checker called
``core.check`` (reference, fixed inputs, options). ``assert_smallest`` then proves the claim the
verdict makes: a fixed case is the smallest fixed case that fails (every smaller one passes when
checked alone), and a generated one was shrunk (switching shrinking off shows a larger input).
"""

from __future__ import annotations

import pytest

from bpe_workshop.exercises import core


def size(args: tuple) -> tuple:
    """The order in which ``core.check`` runs its fixed cases: smallest repr first."""
    return len(repr(args)), repr(args)


def reported(module, answer, name: str) -> tuple:
    """``(verdict, the arguments shown, (reference, fixed inputs, options))``."""
    calls, shown = [], []
    real_check, real_failure = module.check, core._Run._failure

    def check(func, reference, inputs, **options):
        calls.append((reference, [tuple(args) for args in inputs], options))
        return real_check(func, reference, inputs, **options)

    def failure(self, args, *rest):
        shown.append(args)
        return real_failure(self, args, *rest)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(module, "check", check)
        patch.setattr(core._Run, "_failure", failure)
        result = getattr(module, f"check_{name}")(answer)
    return result, (shown[-1] if shown else None), calls[0]


def assert_smallest(module, answer, name: str) -> None:
    """The failing input shown for ``answer`` is the smallest: see the module docstring."""
    result, args, (reference, inputs, options) = reported(module, answer, name)
    assert args is not None, result.message
    if args in inputs:  # a fixed case: every smaller fixed case passes on its own
        smaller = [case for case in inputs if size(case) < size(args)]
        alone = core.check(answer, reference, smaller, **{**options, "generate": None})
        assert alone.passed, (args, alone.message)
    else:  # a generated case, shrunk: without shrinking the input shown is larger
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(core, "_smaller", lambda args: iter(()))
            _, unshrunk, _ = reported(module, answer, name)
        assert size(args) < size(unshrunk), (args, unshrunk)
