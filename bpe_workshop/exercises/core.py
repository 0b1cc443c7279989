"""The exercise checker: run a learner's function on cases, print one clear verdict.

The pattern every notebook follows:

    def count_bytes(text):            # exercise cell: the learner edits this stub
        raise NotImplementedError

    check_count_bytes(count_bytes)    # next cell: a checker from bpe_workshop.exercises

A checker is a few lines on top of :func:`check`: it names a reference implementation from the
package (so expected values are computed, never typed in), a list of inputs, and a hint.
:func:`check` then prints exactly one verdict and returns a :class:`CheckResult`:

- ``✅ passed (N cases)``;
- ``⏳ not attempted yet`` when the stub raises ``NotImplementedError`` or returns ``...``/``None``;
- ``❌`` with the smallest failing input, expected vs got (or the exception raised) and a hint.

It never raises, so an untouched stub never stops "Run All". Left out: time limits (a learner's
infinite loop still hangs the cell; the kernel's interrupt button stops it).
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterable
from dataclasses import dataclass

MAX_SHOWN = 160  # characters of a repr shown in a verdict before cutting it short


@dataclass(frozen=True)
class CheckResult:
    """What a checker found. ``passed`` is False both for failures and for untouched stubs."""

    passed: bool
    message: str
    attempted: bool = True

    def __str__(self) -> str:
        return self.message

    def _ipython_display_(self) -> None:
        # The checker already printed the verdict; showing the result again would repeat it.
        pass


def shown(value: object) -> str:
    """``repr`` of ``value``, cut short for the verdict.

    >>> shown("abc")
    "'abc'"
    >>> len(shown("x" * 1000)) <= MAX_SHOWN
    True
    """
    text = repr(value)
    return text if len(text) <= MAX_SHOWN else text[: MAX_SHOWN - 5] + " ...)"


def call_text(name: str, args: tuple) -> str:
    """How a call looks in a verdict.

    >>> call_text("merge", ([1, 2], (1, 2), 256))
    'merge([1, 2], (1, 2), 256)'
    """
    return f"{name}({', '.join(shown(arg) for arg in args)})"


def check(
    func: Callable,
    reference: Callable,
    inputs: Iterable[tuple],
    *,
    hint: str | Callable[..., str] = "",
    same: Callable[[object, object], bool] | None = None,
    name: str | None = None,
    reveal: bool = True,
    quiet: bool = False,
) -> CheckResult:
    """Compare ``func(*args)`` with ``reference(*args)`` for every ``args`` in ``inputs``.

    Inputs are tried smallest first (by the length of their repr), so the first failure
    reported is the smallest one. ``hint`` is a sentence, or a function
    ``hint(args, expected, got)`` returning one. ``same(expected, got)`` replaces ``==``;
    ``name`` replaces the function's name in messages; ``reveal=False`` keeps the expected value
    out of the verdict (for puzzles whose answer is the value itself).
    Prints the verdict (unless ``quiet``) and returns it; never raises.

    >>> def reference(text):
    ...     return len(text.encode("utf-8"))
    >>> result = check(len, reference, [("é",), ("a",)], hint="count bytes, not characters")
    ❌ len('é') gave the wrong answer.
       expected: 2
       got:      1
       hint: count bytes, not characters
    >>> result.passed, result.attempted
    (False, True)
    >>> check(reference, reference, [("a",), ("é",)]).passed
    ✅ reference passed (2 cases)
    True
    >>> def stub(text):
    ...     raise NotImplementedError
    >>> check(stub, reference, [("a",)]).attempted
    ⏳ stub: not attempted yet — edit the cell above, then run it and this cell again.
    False
    """
    name = name or getattr(func, "__name__", "your function")
    cases = sorted((tuple(args) for args in inputs), key=lambda args: (len(repr(args)), repr(args)))
    same = same or (lambda expected, got: expected == got)
    if not callable(func):
        return _verdict(f"❌ expected a function, got {shown(func)}; pass the function's name "
                        "without calling it, e.g. check_x(x) rather than check_x(x()).", quiet)

    untouched = []  # (call, got) where the function returned ... or None instead of an answer
    for args in cases:
        expected = reference(*copy.deepcopy(args))
        call = call_text(name, args) if args else name
        try:
            # deep copies, so a function that changes its argument cannot spoil later cases
            got = func(*copy.deepcopy(args))
        except NotImplementedError:
            return _not_attempted(name, quiet)
        except Exception as err:  # noqa: BLE001 - any error is the learner's to see
            lines = [f"❌ {call} raised {_error_name(err)}: {err}"]
            lines += [f"   expected: {shown(expected)}"] if reveal else []
            return _verdict("\n".join(lines + _hint(hint, args, expected, None)), quiet)
        if (got is None or got is Ellipsis) and expected is not None:
            untouched.append((call, got))
            continue
        if not same(expected, got):
            lines = [f"❌ {call} gave the wrong answer."]
            lines += [f"   expected: {shown(expected)}"] if reveal else []
            lines += [f"   got:      {shown(got)}"]
            return _verdict("\n".join(lines + _hint(hint, args, expected, got)), quiet)
    if len(untouched) == len(cases):
        why = "(it returned None; if you did edit it, is a `return` missing?)"
        return _not_attempted(name, quiet, why if any(got is None for _, got in untouched) else "")
    if untouched:
        call, got = untouched[0]
        return _verdict(f"❌ {call} returned {got!r}, with no answer: does every path through "
                        "your function end in `return`?", quiet)
    plural = "case" if len(cases) == 1 else "cases"
    return _verdict(f"✅ {name} passed ({len(cases)} {plural})", quiet, passed=True)


def _error_name(err: Exception) -> str:
    """``ValueError`` for built-in exceptions, ``re.error`` for the others.

    >>> import re
    >>> _error_name(ValueError()), _error_name(re.error("bad"))
    ('ValueError', 're.error')
    """
    kind = type(err)
    return kind.__name__ if kind.__module__ == "builtins" else f"{kind.__module__}.{kind.__qualname__}"


def _hint(hint, args, expected, got) -> list[str]:
    text = hint(args, expected, got) if callable(hint) else hint
    return [f"   hint: {text}"] if text else []


def _not_attempted(name: str, quiet: bool, why: str = "") -> CheckResult:
    message = f"⏳ {name}: not attempted yet — edit the cell above, then run it and this cell again."
    return _verdict(f"{message} {why}".rstrip(), quiet, attempted=False)


def _verdict(message: str, quiet: bool, passed: bool = False, attempted: bool = True) -> CheckResult:
    if not quiet:
        print(message)
    return CheckResult(passed=passed, message=message, attempted=attempted)
