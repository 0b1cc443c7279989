"""The exercise checker: run a learner's function on cases, print one clear verdict.

A checker names a reference from the package (expected values are computed, never typed in),
the inputs and a hint; :func:`check` prints one verdict: ``✅ passed``, ``⏳ not attempted yet``
(the stub raises ``NotImplementedError`` or returns ``...``/``None``), or ``❌`` with the smallest
failing input, expected vs got and a hint. It never raises, whatever the learner's code does
(``sys.exit()``, a ``repr`` that raises, an endless loop: :func:`guarded`); only
``KeyboardInterrupt`` passes. Answers must be Python's own types; threads left running are
reported. Left out: learner code that catches ``BaseException`` and goes on looping.
"""

from __future__ import annotations

import copy
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass

MAX_SHOWN = 160  # characters of a repr shown in a verdict before cutting it short
TIME_LIMIT = 3.0  # seconds one call of the learner's function may take before it is stopped


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


class TimeUp(BaseException):
    """Raised in the learner's code past the time limit (``except Exception:`` cannot stop it)."""


@dataclass(frozen=True)
class Raised:
    """What a hint receives as ``got`` when the learner's function raised instead of returning.

    >>> Raised(KeyError(300))
    <raised KeyError: 300>
    """

    error: BaseException

    def __repr__(self) -> str:
        return f"<raised {error_name(self.error)}: {self.error}>"


def guarded(func: Callable, *args, time_limit: float | None = None):
    """``func(*args)``, stopped with :class:`TimeUp` after ``time_limit`` or TIME_LIMIT seconds.

    Two watchmen, as learner code can defeat either alone: an alarm (POSIX, main thread), which
    also stops a call stuck in C (``time.sleep(100)``), and a tracer (any thread), put back after.

    >>> def forever():
    ...     while True: pass
    >>> guarded(forever, time_limit=0.1)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    bpe_workshop.exercises.core.TimeUp: stopped after 0.1 s
    """
    limit = TIME_LIMIT if time_limit is None else time_limit
    started = time.monotonic()
    own_file = getattr(getattr(func, "__code__", None), "co_filename", None)

    def time_up(*_):
        raise TimeUp(f"stopped after {time.monotonic() - started:.1f} s")

    def tracer(frame, event, arg):
        if time.monotonic() > started + limit:
            time_up()
        if event == "call" and frame.f_code.co_filename == own_file:
            # subtle: `while True: pass` on one line gives no line events, so in the learner's
            # own cell every instruction is traced; elsewhere lines are enough
            frame.f_trace_opcodes = True
        return tracer  # trace the lines of every frame, so a loop anywhere is caught

    alarm = hasattr(signal, "setitimer") and threading.current_thread() is threading.main_thread()
    previous_tracer = sys.gettrace()
    if alarm:
        previous_handler = signal.signal(signal.SIGALRM, time_up)
        signal.setitimer(signal.ITIMER_REAL, limit, 0.25)  # again if one stop is swallowed
    sys.settrace(tracer)
    try:
        return func(*args)
    finally:
        sys.settrace(previous_tracer)
        if alarm:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, previous_handler)


def shown(value: object) -> str:
    """``repr`` of ``value``, cut short for the verdict; never raises.

    >>> shown("abc"), len(shown("x" * 1000)) <= MAX_SHOWN
    ("'abc'", True)
    >>> class Odd:
    ...     def __repr__(self):
    ...         raise ValueError("no")
    >>> shown(Odd())
    '<an Odd whose repr raised ValueError>'
    """
    try:
        text = guarded(repr, value)
        if not isinstance(text, str):
            raise TypeError("repr returned a non-str")
    except KeyboardInterrupt:
        raise
    except BaseException as err:  # noqa: BLE001 - the learner's object, any failure
        return f"<{a_type(value)} whose repr raised {error_name(err)}>"
    return text if len(text) <= MAX_SHOWN else text[: MAX_SHOWN - 5] + " ...)"


def a_type(value: object) -> str:
    """The type of a learner's answer with its article, for a hint.

    >>> a_type([]), a_type(3)
    ('a list', 'an int')
    """
    noun = type(value).__name__
    return ("an " if noun[:1].lower() in "aeiou" else "a ") + noun


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

    Inputs run smallest repr first, so the failure reported is the smallest. ``hint``: a sentence,
    or ``hint(args, expected, got)`` returning one (``got`` a :class:`Raised` if the function
    raised); ``same(expected, got)`` replaces ``==``; ``name`` the function's name in messages;
    ``reveal=False`` keeps the expected value out (for puzzles); ``quiet`` skips the printing.

    >>> def reference(text):
    ...     return len(text.encode("utf-8"))
    >>> result = check(len, reference, [("é",), ("a",)], hint="count bytes, not characters")
    ❌ len('é') gave the wrong answer.
       expected: 2
       got:      1
       hint: count bytes, not characters
    >>> check(reference, reference, [("a",), ("é",)]).passed
    ✅ reference passed (2 cases)
    True
    >>> def stub(text):
    ...     raise NotImplementedError
    >>> check(stub, reference, [("a",)]).attempted
    ⏳ stub: not attempted yet — edit the cell above, then run it and this cell again.
    False
    """
    name = name or _name_of(func)
    cases = sorted((tuple(args) for args in inputs), key=lambda args: (len(repr(args)), repr(args)))
    same = same or (lambda expected, got: expected == got)
    if isinstance(func, str):
        return _verdict(f"❌ expected a function, got the text {shown(func)}; pass the function "
                        f"itself, without quotes: check_x({func}) rather than check_x('{func}').",
                        quiet)
    if not callable(func):
        return _verdict(f"❌ expected a function, got {shown(func)}; pass the function's name "
                        "without calling it, e.g. check_x(x) rather than check_x(x()).", quiet)
    threads_before = set(threading.enumerate())

    untouched = []  # (call, got) where the function returned ... or None instead of an answer
    for args in cases:
        expected = reference(*copy.deepcopy(args))
        call = call_text(name, args) if args else name
        try:
            # deep copies, so a function that changes its argument cannot spoil later cases
            got = guarded(func, *copy.deepcopy(args))
        except NotImplementedError:
            return _not_attempted(name, quiet)
        except KeyboardInterrupt:
            raise
        except TimeUp as err:
            return _verdict(_time_up(call, err), quiet)
        except BaseException as err:  # noqa: BLE001 - any error is the learner's to see
            lines = [f"❌ {call} {_raised_text(err)}"]
            lines += [f"   expected: {shown(expected)}"] if reveal else []
            return _verdict("\n".join(lines + _hint(hint, args, expected, Raised(err))), quiet)
        if (got is None or got is Ellipsis) and expected is not None:
            untouched.append((call, got))
            continue
        agrees, trouble = _agrees(same, expected, got)
        if not agrees:
            lines = [f"❌ {call} gave the wrong answer."]
            lines += [f"   expected: {shown(expected)}"] if reveal else []
            lines += [f"   got:      {shown(got)}"]
            lines += [f"   (comparing it with == {trouble})"] if trouble else []
            container = _container_hint(expected, got)
            hints = [f"   hint: {container}"] if container else _hint(hint, args, expected, got)
            return _verdict("\n".join(lines + hints), quiet)
    left_running = [t for t in threading.enumerate() if t not in threads_before and t.is_alive()]
    if left_running:
        return _verdict(f"❌ {name} started {len(left_running)} thread(s) that are still running "
                        f"({', '.join(t.name for t in left_running[:3])}); they keep using the "
                        "kernel. Do the work in the function itself, or wait for the threads "
                        "(join) before returning.", quiet)
    if len(untouched) == len(cases):
        why = "(it returned None; if you did edit it, is a `return` missing?)"
        return _not_attempted(name, quiet, why if any(got is None for _, got in untouched) else "")
    if untouched:
        call, got = untouched[0]
        return _verdict(f"❌ {call} returned {got!r}, with no answer: does every path through "
                        "your function end in `return`?", quiet)
    plural = "case" if len(cases) == 1 else "cases"
    return _verdict(f"✅ {name} passed ({len(cases)} {plural})", quiet, passed=True)


def _name_of(func) -> str:
    name = getattr(func, "__name__", None) if callable(func) else None
    return name if isinstance(name, str) else "your function"


def _agrees(same, expected, got) -> tuple[bool, str]:
    """Whether ``same(expected, got)`` holds; a comparison that fails counts as a wrong answer.

    >>> _agrees(lambda e, g: e == g, [1], [1])
    (True, '')
    """
    if is_plain(expected) and not is_plain(got):
        return False, f"means nothing: it holds {_odd_part(got)}; return plain Python values"
    try:
        return bool(guarded(lambda: bool(same(expected, got)))), ""
    except KeyboardInterrupt:
        raise
    except TimeUp:
        return False, "did not finish in time"
    except BaseException as err:  # noqa: BLE001 - e.g. an array whose truth value is ambiguous
        return False, f"raised {error_name(err)}: return a plain Python value"


def is_plain(value: object, depth: int = 0) -> bool:
    """Whether ``value`` is built from Python's own types only (so ``==`` means what it says).

    >>> class Answer:
    ...     pass
    >>> is_plain({"a": [1, (2.0, b"x")]}), is_plain([Answer()])
    (True, False)
    """
    if depth > 50 or type(value).__module__ != "builtins":
        return False
    if isinstance(value, dict):
        return all(is_plain(k, depth + 1) and is_plain(v, depth + 1) for k, v in value.items())
    if isinstance(value, (list, tuple, set, frozenset)):
        return all(is_plain(item, depth + 1) for item in value)
    return True


def _odd_part(value: object) -> str:
    if type(value).__module__ != "builtins":
        return f"{a_type(value)} object"
    items = value.items() if isinstance(value, dict) else value
    return next((_odd_part(item) for item in items if not is_plain(item)), "something unusual")


def _container_hint(expected: object, got: object) -> str:
    """'return a list, not a tuple' when the values are right but the container is not."""
    kinds = (list, tuple, set, frozenset, dict)
    if type(got) is type(expected) or not isinstance(expected, kinds) or not isinstance(got, kinds):
        return ""
    try:
        right = sorted(map(repr, expected)) == sorted(map(repr, got))
    except Exception:  # noqa: BLE001 - the learner's object
        right = False
    return f"the values are right, but return {a_type(expected)}, not {a_type(got)}." if right \
        else ""


def _time_up(call: str, err: BaseException) -> str:
    return (f"❌ {call} did not finish: it was {err}, the limit being {TIME_LIMIT:g} s.\n"
            "   hint: is there a loop that never ends? Check that every `while` loop moves its "
            "index (or shortens its list) on every path, including the path where nothing "
            "matches.")


def _raised_text(err: BaseException) -> str:
    if isinstance(err, SystemExit):
        return (f"called sys.exit({'' if err.code is None else shown(err.code)}) "
                "(SystemExit): return a value instead of exiting.")
    try:
        return f"raised {error_name(err)}: {err}"
    except Exception:  # noqa: BLE001 - an exception whose str itself fails
        return f"raised {error_name(err)}: (its message could not be shown)"


def error_name(err: BaseException) -> str:
    """``ValueError`` for built-in exceptions, ``re.error`` for the others.

    >>> import re
    >>> error_name(ValueError()), error_name(re.error("bad"))
    ('ValueError', 're.error')
    """
    kind = type(err)
    if kind.__module__ == "builtins":
        return kind.__name__
    return f"{kind.__module__}.{kind.__qualname__}"


def _hint(hint, args, expected, got) -> list[str]:
    if callable(hint):
        try:
            text = guarded(hint, args, expected, got)
        except KeyboardInterrupt:
            raise
        except BaseException:  # noqa: BLE001 - a hint must never cost the verdict
            text = ""
    else:
        text = hint
    return [f"   hint: {text}"] if text else []


def _not_attempted(name: str, quiet: bool, why: str = "") -> CheckResult:
    message = (f"⏳ {name}: not attempted yet — edit the cell above, then run it and this cell "
               "again.")
    return _verdict(f"{message} {why}".rstrip(), quiet, attempted=False)


def _verdict(message: str, quiet: bool, passed: bool = False,
             attempted: bool = True) -> CheckResult:
    if not quiet:
        print(message)
    return CheckResult(passed=passed, message=message, attempted=attempted)


def count_total(counts: object) -> int | None:
    """The sum of a dict's values when they are all ints, else None (for hints).

    >>> count_total({("a", "a"): 2, ("a", "b"): 1}), count_total({"a": "2"}), count_total([1])
    (3, None, None)
    """
    if not isinstance(counts, dict) or not all(type(n) is int for n in counts.values()):
        return None
    return sum(counts.values())


def values_kind(counts: object) -> str:
    """A hint's sentence when a dict of counts holds values that are not ints, else ''.

    >>> values_kind({("a", "a"): "2"})
    "the counts must be ints, but one of them is a str ('2')."
    >>> values_kind({("a", "a"): 2})
    ''
    """
    if isinstance(counts, dict):
        for n in counts.values():
            if type(n) is not int:
                return (f"the counts must be ints, but one of them is "
                        f"{a_type(n)} ({shown(n)}).")
    return ""
