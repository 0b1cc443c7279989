"""The exercise checker: run a learner's function on cases, print one clear verdict.

A checker names a reference from the package (expected values are computed, never typed in),
the inputs, and optionally a generator of random small inputs; :func:`check` compares on the fixed
cases, then on a few hundred generated ones, and prints one verdict: ``✅ passed``, ``⏳ not
attempted yet`` (the stub raises ``NotImplementedError`` or returns ``...``/``None``), or ``❌``
with the smallest failing input (a generated one is shrunk), expected vs got and a hint: first
about the answer's shape (:func:`shape_hint`), then the known wrong answer it matches, then the
checker's own. It never raises and answers within CHECK_LIMIT seconds, whatever the learner's
code does (``sys.exit()``, a ``repr`` that never returns, a self-containing list, an endless loop,
a replaced ``sys.stdout``); only ``KeyboardInterrupt`` passes. Each call of the answer runs in
:mod:`sandbox` (a forked child on Linux and macOS, which also stops a long call inside C such as
``sum(range(10**10))``); this module sees only the plain data it sends back, computes every
expected value after that process is forked, and decides the verdict. Answers must be Python's
own types.
"""

from __future__ import annotations

import contextlib
import copy
import io
import os
import pickle
import random
import sys
import time
import types
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, replace
from typing import NamedTuple

from bpe_workshop.exercises.sandbox import HONEST, Room, TimeUp, guarded, plain, safely  # noqa: F401

MAX_PRINTED = 2000  # characters of the learner's own prints shown before the verdict
MAX_SHOWN = 160  # characters of a repr or a message shown in a verdict before cutting it short
TIME_LIMIT = 3.0  # seconds one call of the learner's function may take before it is stopped
CHECK_LIMIT = 7.0  # seconds for a whole check: every call, every comparison, the verdict
GENERATED = 200  # generated cases per checker, small to large
ISOLATE = hasattr(os, "fork") and sys.platform in ("linux", "darwin")  # forked calls
AGAIN = "edit the cell above, then run it and this cell again."
STUB = "it, or a function it calls, is still a stub: write that one, run its cell, then this one."
IN_C = ("look for a call on a huge number or a huge repetition, and make the work grow with the "
        "size of the input only.")


@dataclass(frozen=True)
class CheckResult:
    """What a checker found. ``passed`` is False both for failures and for untouched stubs."""

    passed: bool
    message: str
    attempted: bool = True

    def __str__(self) -> str:
        return self.message

    def _ipython_display_(self) -> None:  # the checker printed the verdict: not again
        pass


@dataclass(frozen=True)
class Raised:
    """What a hint receives as ``got`` when the learner's function raised instead of returning:
    the error's name and message (its class, perhaps the learner's own, stays in its process).

    >>> Raised("KeyError", "300")
    <raised KeyError: 300>
    """

    name: str
    message: str

    def __repr__(self) -> str:
        return f"<raised {self.name}: {self.message}>"


def _why(err: BaseException) -> str:
    return "did not finish" if isinstance(err, TimeUp) else f"raised {error_name(err)}"


def shown(value: object) -> str:
    """``repr`` of ``value``, cut short for the verdict; never raises, never hangs.

    >>> shown("abc"), len(shown("x" * 1000)) <= MAX_SHOWN
    ("'abc'", True)
    >>> class Odd:
    ...     def __repr__(self):
    ...         raise ValueError("no")
    >>> shown(Odd())
    '<an Odd whose repr raised ValueError>'
    """
    return _text_of(repr, value, f"<{a_type(value)} whose repr {{}}>", " ...)")


def _text_of(how: Callable, value: object, failed: str, cut: str) -> str:
    text = safely(lambda: str(how(value)), limit=min(1.0, TIME_LIMIT),
                  failed=lambda err: failed.format(_why(err)))
    return text if len(text) <= MAX_SHOWN else text[: MAX_SHOWN - len(cut)] + cut


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
    return f"{name}({', '.join(shown(arg) for arg in args)})" if args else name


def random_text(rng: random.Random, size: int, alphabet: str = "aab eTt.,'!\n7½你👋") -> str:
    """A random text of up to ``2 * size`` characters of ``alphabet``, for generated cases.

    >>> random_text(random.Random(1), 3, "ab")
    'a'
    """
    return "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 2 * size)))


def check(
    func: Callable,
    reference: Callable,
    inputs: Iterable[tuple],
    *,
    hint: str | Callable[..., str] = "",
    generate: Callable[[random.Random, int], tuple] | None = None,
    valid: Callable[..., bool] | None = None,
    wrong: Iterable[tuple[Callable, str]] = (),
    same: Callable[[tuple, object, object], bool] | None = None,
    alone: str = "",
    waiting: Callable[[Callable], str] | None = None,
    name: str | None = None,
    reveal: bool = True,
) -> CheckResult:
    """Compare ``func(*args)`` with ``reference(*args)`` for every ``args`` in ``inputs``, then on
    GENERATED cases from ``generate(rng, size)`` (sizes growing from 1; those the reference
    refuses are skipped), shrunk while ``valid(*args)`` holds.

    Inputs run smallest repr first, so the failure reported is the smallest. Hints, first match
    wins: :func:`shape_hint` (``alone`` replaces its sentence for ``(answer, extra)``, and for a
    list or tuple where a str is expected); the sentence of the first ``(wrong_answer, sentence)``
    in ``wrong`` whose answer equals the learner's on the failing case and every fixed case;
    ``hint``, a sentence or ``hint(args, expected, got)`` (``got`` a :class:`Raised` if the
    function raised). ``same(args, expected, got)`` replaces ``==``; ``waiting(func)`` returns a
    "not attempted" reason for an unchanged copied exercise, or ''; ``name`` the function's name
    in messages; ``reveal=False`` keeps the expected value out.

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
    ⏳ stub: not attempted yet — it, or a function it calls, is still a stub: write that one, \
run its cell, then this one.
    False
    """
    out = sys.stdout  # the verdict goes here, whatever the learner's code does to sys.stdout
    if not callable(func):  # check_merge("my_merge"), or check_merge(my_merge())
        name = sys._getframe(1).f_code.co_name  # the checker that called, e.g. check_merge
        fix = f"without quotes: {name}({func})" if isinstance(func, str) else (
            f"by its name, without calling it: {name}(x) rather than {name}(x())")
        return _print(out, "", CheckResult(False, f"❌ expected a function, got {shown(func)}; "
                                                  f"pass the function itself, {fix}."))
    cases = sorted((tuple(args) for args in inputs), key=lambda a: (len(repr(a)), repr(a)))
    run = _Run(func=func, reference=reference, cases=cases, fixed=len(cases), hint=hint,
               wrong=wrong, name=name, alone=alone, generate=generate, waiting=waiting,
               same=same or (lambda args, expected, got: expected == got), reveal=reveal,
               valid=valid or (lambda *args: True))
    with Room(run, stream=Printed(), fork=ISOLATE) as run.room:  # before any expected value
        result = run.verdict()
    cut = run.room.count - len(run.room.printed)
    return _print(out, run.room.printed + f"\n... ({cut:,} more characters printed, not shown)"
                  * (cut > 0), result)


class Printed(io.StringIO):
    """Stands for sys.stdout and sys.stderr while the learner's code runs: keeps what it prints,
    up to MAX_PRINTED characters, and counts the rest."""

    count = 0

    def write(self, text: str) -> int:
        super().write(text[: max(MAX_PRINTED - self.tell(), 0)])  # str only, like sys.stdout
        self.count += len(text)
        return len(text)

    def close(self):  # what was printed before a learner's sys.stdout.close() is still shown
        pass


class Call(NamedTuple):
    """What one call of the answer did, read in the checker's process. ``kind``: ok, wrong,
    raised, stub, time, slow, none, stuck or ended; ``got``: its value (a :class:`Raised` if it
    raised); ``extra``: what the verdict of that kind names besides (why == means nothing, how
    long it ran)."""

    kind: str
    got: object = None
    extra: object = None
    expected: object = None


FAILED = {  # the verdicts that are one sentence with the call in it
    "ended": "❌ {call} ended the process it ran in (os._exit, or a crash in C): return a value "
             "instead.",
    "stuck": "❌ {call} did not finish: it ran on past {check:g} s inside one step that Python "
             "cannot interrupt (a long computation in C, such as sum(range(10**10)) or a huge str "
             "or list), so the checker stopped the process it ran in.\n   hint: " + IN_C,
    "slow": "❌ {call} was still running when the check's time ran out ({check:g} s for all its "
            "cases): it is slow, not necessarily wrong.\n   hint: do the work that does not "
            "depend on the arguments (building a tokenizer, reading a file) once, outside the "
            "function.",
    "none": "❌ {call} returned {got!r}, with no answer: does every path through your function end "
            "in `return`?",
    "time": "❌ {call} did not finish: it was {extra}, the limit being {limit:g} s{flood}.\n"
            "   hint: {hint}",
}


class _Run(types.SimpleNamespace):
    """One check: the learner's calls, each in :mod:`sandbox`, and the verdict, made here. Its
    fields are check's arguments; ``cases``: argument tuples, fixed first."""

    def verdict(self) -> CheckResult:
        # subtle: the answer's process is forked by now, so expected values exist here only
        self.expected = {}  # case index (or repr of a shrunk input) -> expected value
        self._generate()
        self.deadline = time.monotonic() + CHECK_LIMIT
        reply = self.room.ask("_about", until=self.deadline + 1.5)  # plain data, or None
        self.name, why = map(str, reply) if type(reply) is tuple and len(reply) == 2 else (
            "your function", "")  # else the answer's process sent nothing readable
        if why:
            return self._not_attempted(why)
        untouched = []  # (args, call) where the function returned ... or None instead of an answer
        ran = 0
        for k, args in enumerate(self.cases):
            if k >= self.fixed and (untouched or self._time_short()):
                break  # said below; the generated cases stop when time is short
            ran = k + 1
            call = self._try(k, TIME_LIMIT)
            if call.kind == "none" and k < self.fixed:
                untouched.append((args, call))
            elif call.kind != "ok":
                if k >= self.fixed and call.kind in ("wrong", "raised", "none"):
                    args, call = self._shrink(args, call)
                return self._failure(args, call)  # plain data: its ==, repr and str end
        if len(untouched) == self.fixed > 0:
            none = " (it returned None; if you did edit it, is a `return` missing?)"
            return self._not_attempted(AGAIN + none * any(c.got is None for _, c in untouched))
        if untouched:
            return self._failure(*untouched[0])
        plural = "case" if self.fixed == 1 else "cases"
        more = f" and {ran - self.fixed} generated ones" * (len(self.cases) > self.fixed)
        more += ", when the check's time ran out" * (ran < len(self.cases))
        return CheckResult(True, f"✅ {self.name} passed ({self.fixed} {plural}{more})")

    def _generate(self) -> None:
        """Add up to GENERATED new cases, sizes 1 to 9, leaving out those the reference refuses."""
        rng, seen = random.Random(0), {repr(args) for args in self.cases}
        for attempt in range(4 * GENERATED if self.generate else 0):  # a small size: some twice
            if len(self.cases) == self.fixed + GENERATED:
                break
            args = tuple(self.generate(rng, min(1 + attempt * 8 // GENERATED, 9)))
            if repr(args) not in seen:
                seen.add(repr(args))
                with contextlib.suppress(Exception):  # an input the reference refuses
                    self.expected[len(self.cases)] = self.reference(*copy.deepcopy(args))
                    self.cases.append(args)

    def _not_attempted(self, why: str = AGAIN) -> CheckResult:
        return CheckResult(False, f"⏳ {self.name}: not attempted yet — {why}", attempted=False)

    def _time_short(self) -> bool:
        return time.monotonic() > self.deadline - TIME_LIMIT  # no room for one more whole call

    def _in_time(self, work: Callable, failed):
        """``work()`` within the time left, or ``failed`` if it raises or runs out of time."""
        return safely(work, limit=max(self.deadline - time.monotonic(), 0.5),
                      failed=lambda err: failed)

    def _about(self) -> tuple:
        """In the answer's process: its name and why it is not attempted ('' if it is), its
        attributes read under the guard."""
        name = self.name or safely(lambda: self.func.__name__, limit=1.0, failed=lambda e: None)
        why = self.waiting and safely(self.waiting, self.func, limit=CHECK_LIMIT,
                                      failed=lambda err: "")
        return name if type(name) is str else "your function", why if type(why) is str else ""

    def _attempt(self, case: int | tuple, limit: float) -> tuple:
        """In the answer's process: one call on ``cases[case]`` (or on ``case``), as plain data:
        ``(kind, what it gave, a note)``. The kind is
        returned (what: the value pickled, or its type's name, whether it is an iterator and its
        repr, when ``==`` on it means nothing, the note saying why), raised or stub (what: its
        name and its message) or time."""
        args = self.cases[case] if type(case) is int else case
        raised = []  # the case as a copy: what the answer changes in it reaches no later call
        got = safely(self.func, *copy.deepcopy(args), limit=limit, failed=raised.append)
        return safely(self._described, got, raised, limit=1.0, failed=lambda err: (
            "raised", ("Exception", "(it could not be shown)"), ""))

    def _described(self, got: object, raised: list) -> tuple:
        if raised and isinstance(raised[0], TimeUp):
            return "time", None, str(raised[0])
        if raised:
            err = raised[0]  # a stub raises NotImplementedError, itself or in a stub it calls
            message = _text_of(str, err, "(its message could not be shown: str {})", " ...") \
                if not isinstance(err, SystemExit) else "" if err.code is None else shown(err.code)
            return ("stub" if isinstance(err, NotImplementedError) else "raised"), (
                error_name(err), message), ""
        try:
            data = pickle.dumps(got, protocol=5)
            plain(data)  # read back as the checker will read it
            return "returned", data, ""
        except pickle.UnpicklingError as err:  # why == on it means nothing: a class of its own
            trouble = str(err)
        except Exception:  # noqa: BLE001 - not picklable: a class of a cell's, or an iterator
            trouble = "" if isinstance(got, Iterator) else "it is not plain data"
        return "returned", (type(got).__name__, isinstance(got, Iterator), shown(got)), trouble

    def _try(self, case: int | tuple, limit: float) -> Call:
        """What the answer did on ``cases[case]`` (or on ``case``, the arguments); a comparison
        that fails or hangs counts as a wrong answer."""
        args = self.cases[case] if type(case) is int else case
        key = case if type(case) is int else repr(args)
        if key not in self.expected:  # a fixed case, or a shrunk input; made after the fork
            self.expected[key] = self.reference(*copy.deepcopy(args))
        expected = self.expected[key]
        room = self.deadline + 0.8 - time.monotonic()  # the child is stopped 1.5 s past it
        fixed = type(case) is int and case < self.fixed  # the child has those from the fork
        reply = self.room.ask("_attempt", case if fixed else args, max(min(limit, room), 1e-3),
                              until=self.deadline + 1.5)
        try:
            kind, got, note = reply
            if kind in ("raised", "stub"):
                got = Raised(*map(str, got))
            elif kind == "returned" and type(got) is not bytes:  # not plain data: a stand-in
                name, iterator, text = got  # named like the answer's class, shown as its repr
                got = type(str(name), (Iterator,) * (iterator is True),
                           {"__repr__": lambda self: str(text), "__next__": None})()
            got, note = plain(got) if type(got) is bytes else got, str(note)
        except Exception:  # noqa: BLE001 - no reply, or one the answer wrote itself
            return Call(self.room.lost or "ended", expected=expected)
        if kind in ("raised", "stub", "time"):
            return Call("slow" if kind == "time" and room < limit else kind, got, note, expected)
        if (got is None or got is Ellipsis) and expected is not None:
            return Call("none", got, None, expected)
        agrees, trouble = False, f"means nothing: {note}; return plain Python values"
        if not note:
            agrees, trouble = safely(
                lambda: (bool(self.same(args, expected, got)), ""), limit=min(1.0, TIME_LIMIT),
                failed=lambda err: (False, f"{_why(err)}: return a plain Python value"))
        agrees = agrees and not shape_hint(expected, got)  # equal, but 1.0 or True for 1
        return Call("ok" if agrees else "wrong", got, trouble, expected)

    def _shrink(self, args: tuple, call: Call) -> tuple[tuple, Call]:
        """A smaller failing input than ``args``: drop parts of it while the answer stays wrong
        in the same way; ``(args, its call)``."""
        tried = {repr(args)}
        while not self._time_short() and len(tried) < 400:
            for smaller in _smaller(args):
                if repr(smaller) in tried or not self.valid(*smaller):
                    continue
                tried.add(repr(smaller))
                try:
                    outcome = self._try(smaller, limit=min(0.5, TIME_LIMIT))
                except Exception:  # noqa: BLE001, S112 - an input the reference refuses
                    continue
                if outcome.kind == call.kind:  # the same kind of failure, on a smaller input
                    args, call = smaller, outcome
                    break
            else:
                break
        return args, call

    def _failure(self, args: tuple, call: Call) -> CheckResult:
        kind, got, extra, expected = call
        if kind == "stub":  # the answer, or a function of the learner's it calls
            return self._not_attempted(STUB)
        if kind in FAILED:
            flood = self.room.count > 20 * MAX_PRINTED
            hint = ("printing that much takes longer than the limit: print less (or nothing) and "
                    "run it again; if the prints come from a loop, check that the loop ends."
                    if flood else IN_C if "in C" in str(extra) else
                    "is there a loop that never ends? Check that every `while` loop moves its "
                    "index (or shortens its list) on every path, including the path where nothing "
                    "matches.")
            return CheckResult(False, FAILED[kind].format(
                call=call_text(self.name, args), name=self.name, got=got, extra=extra, hint=hint,
                check=CHECK_LIMIT, limit=TIME_LIMIT,
                flood=f", after printing {self.room.count:,} characters" * flood))
        lines, text = [f"   expected: {shown(expected)}"] if self.reveal else [], ""
        if kind == "raised":
            lines.insert(0, f"❌ {call_text(self.name, args)} " + (
                f"called sys.exit({got.message}) (SystemExit): return a value instead of "
                "exiting." if got.name == "SystemExit" else f"raised {got.name}: {got.message}"))
        else:
            lines = [f"❌ {call_text(self.name, args)} gave the wrong answer.", *lines,
                     f"   got:      {shown(got)}"]
            lines += [f"   (comparing it with == {extra})"] if extra else []
            text = shape_hint(expected, got, self.alone) or self._wrong_answer(args, got)
        if not text and callable(self.hint):
            text = self._in_time(lambda: self.hint(args, expected, got), "")
        text = text or (self.hint if isinstance(self.hint, str) else "")
        return CheckResult(False, "\n".join(lines + ([f"   hint: {text}"] if text else [])))

    def _wrong_answer(self, args, got) -> str:
        """The sentence of the first known wrong answer that gives ``got`` here and what the
        learner's function gives on every fixed case; '' if none does, or time is short (a hint
        about a mistake the answer did not make misleads more than the checker's own)."""
        def gives(answer, case, mine) -> bool:
            return self._in_time(
                lambda: self.same(case, answer(*copy.deepcopy(case)), mine), False)

        here = [(answer, sentence) for answer, sentence in self.wrong if gives(answer, args, got)]
        mine = []  # (a fixed case, the learner's answer to it)
        for k in range(self.fixed) if here else ():
            if self._time_short():
                return ""
            mine.append((self.cases[k], self._try(k, min(0.5, TIME_LIMIT)).got))
        return next((sentence for answer, sentence in here
                     if all(gives(answer, case, got) for case, got in mine)), "")


def _smaller(args: tuple) -> Iterator[tuple]:
    """Inputs like ``args`` with a part left out: halves first, then single items; ints halved."""
    for i, arg in enumerate(args):
        if isinstance(arg, (str, bytes, list, dict)) and arg:
            items = list(arg.items()) if isinstance(arg, dict) else arg
            for width in sorted({len(items) // 2, 1} - {0}, reverse=True):
                for start in range(0, len(items), width):
                    part = items[:start] + items[start + width:]
                    yield (*args[:i], dict(part) if isinstance(arg, dict) else part, *args[i + 1:])
        elif type(arg) is int and arg > 0:
            for smaller in (0, arg // 2, arg - 1):
                yield (*args[:i], smaller, *args[i + 1:])


def shape_hint(expected: object, got: object, alone: str = "") -> str:
    """What is wrong with the answer's shape, before any hint about values; '' if nothing.

    >>> shape_hint([1, 2], (1, 2))
    'the values are right, but return a list, not a tuple.'
    >>> shape_hint(["a", "b"], (["a", "b"], -3.5))
    'return only the answer, not a pair (answer, extra): the first item of yours is right.'
    >>> shape_hint(["[UNK]"], "[UNK]")
    "return a list, not one str: ['[UNK]'] rather than '[UNK]'."
    >>> shape_hint(["ab", "c"], "ab c")
    'return a list, not one str joining its items.'
    >>> shape_hint({("a", "b"): 2}, {("a", "b"): "2"})
    "each value must be an int, but one of yours is a str ('2')."
    """
    kind, given = type(expected), type(got)
    if given is kind or (kind is dict and given in HONEST):
        return _items_hint(expected, got)
    if isinstance(got, tuple) and len(got) == 2 and kind is not tuple and _is(
            lambda: got[0] == expected):
        return alone or ("return only the answer, not a pair (answer, extra): the first item of "
                         "yours is right.")
    if isinstance(got, Iterator) and kind is not str:
        return (f"your function returned {a_type(got)}, which hands out its items only when "
                f"read, and never equals {a_type(expected)}: return {a_type(expected)}, e.g. "
                f"{kind.__name__}(...).")
    if kind is list and isinstance(got, str):
        joined = len(expected) > 1 and all(isinstance(x, str) for x in expected) and got in (
            "".join(expected), " ".join(expected))
        alone = f": [{got!r}] rather than {got!r}" if expected == [got] else ""
        return f"return a list, not one str{' joining its items' if joined else ''}{alone}."
    if kind in (list, dict, tuple, str) and isinstance(got, (int, float)) and given is not bool:
        return (f"return {a_type(expected)}, not a number ({shown(got)}): the answer itself, not "
                "a count or a score of it.")
    collections = (list, tuple, set, frozenset, dict)
    if kind in collections and isinstance(got, collections):
        right = kind is not set and given not in (set, frozenset) and len(expected) > 0 and _is(
            lambda: (kind(got.items()) if isinstance(got, dict) else kind(got)) == expected)
        lost = " (a set loses the order and repeated items)" if given in (set, frozenset) else ""
        return (f"{'the values are right, but ' if right else ''}return {a_type(expected)}, not "
                f"{a_type(got)}{lost}.")
    if kind is str and isinstance(got, (list, tuple)):
        return alone or f"return one str, not {a_type(got)}: join the pieces with ''.join(...)."
    return f"return {a_type(expected)}, not {a_type(got)} ({shown(got)})."


def _items_hint(expected, got) -> str:
    """'each item must be ...' when the answer's container is right but its items are not."""
    parts = [("item", expected, got)] if isinstance(expected, (list, tuple, set, frozenset)) else []
    if isinstance(expected, dict):
        parts = [("key", expected, got), ("value", expected.values(), got.values())]
    for part, want, have in parts:
        kinds = {type(x) for x in want}
        odd = [x for x in have if type(x) not in kinds][:1] if len(kinds) == 1 else []
        if odd:
            return (f"each {part} must be {a_type(next(iter(want)))}, but one of yours is "
                    f"{a_type(odd[0])} ({shown(odd[0])}).")
    return ""


def _is(work: Callable) -> bool:
    """Whether ``work()`` is true; False if it raises or hangs (a learner's object on one side)."""
    return safely(lambda: bool(work()), limit=min(1.0, TIME_LIMIT), failed=lambda err: False)


def error_name(err: BaseException) -> str:
    """``ValueError`` for built-in exceptions, ``re.error`` for the others.

    >>> import re
    >>> error_name(ValueError()), error_name(re.error("bad"))
    ('ValueError', 're.error')
    """
    module, name = type(err).__module__, type(err).__qualname__
    return name if module == "builtins" else f"{module}.{name}"


def _print(out, printed: str, result: CheckResult) -> CheckResult:
    """Write the answer's prints and the verdict to ``out``, a character it cannot encode (a lone
    surrogate, say) as an escape; return the result with that message."""
    result = replace(result, message=result.message.encode("utf-8", "backslashreplace").decode())
    printed += "\n" if printed and not printed.endswith("\n") else ""  # the verdict on its line
    for encoding in (getattr(out, "encoding", None), "utf-8"):
        with contextlib.suppress(Exception):  # a closed stream: the result still says it
            out.write((printed + result.message + "\n").encode(encoding, "backslashreplace")
                      .decode(encoding))
            out.flush()
            break
    return result

