"""Checks for arguments, with one phrasing for every type and range error in the package.

Each message names the argument, what it got, and a value that works (``vocab_size must be an
int, got str '512'; pass e.g. vocab_size=512``). A ``bool`` is never an int here. Left out:
meaning (whether an id exists), which the modules that know it check.
"""

from __future__ import annotations

import numbers
import operator
from collections.abc import Callable, Container, Iterable
from typing import Any

_NO_EXAMPLE = object()
MAX_IDS = 100_000_000  # ids read at most in one call (about 400 MB of text): an endless one stops


class ReadOnlyDict(dict):
    """A dict that refuses every change, saying how to get the changed object (``fix``).

    A tokenizer shows its tables through these, so a learner's edit cannot half-change it.

    >>> merges = ReadOnlyDict({(97, 98): 256}, fix="use tok.with_merges(new_merges)")
    >>> merges[(98, 99)] = 257
    Traceback (most recent call last):
    ...
    TypeError: this table is read-only; use tok.with_merges(new_merges)
    >>> dict(merges) | {(98, 99): 257}  # a changed copy is an ordinary dict
    {(97, 98): 256, (98, 99): 257}
    """

    def __init__(self, items: Any = (), fix: str = "copy it first, e.g. dict(table)"):
        super().__init__(items)
        self.fix = fix

    def _refuse(self, *args: Any, **kwargs: Any):
        raise TypeError(f"this table is read-only; {self.fix}")

    __setitem__ = __delitem__ = __ior__ = clear = pop = popitem = setdefault = update = _refuse

    def __reduce__(self):  # copy, deepcopy and pickle keep it read-only
        return ReadOnlyDict, (dict(self), self.fix)


def read_only(name: str, fix: str) -> property:
    """A property showing ``self._<name>``; setting or deleting it raises, saying ``fix``."""
    def refuse(self, *value: Any):
        raise AttributeError(f"{name} cannot be changed in place; {fix}")
    return property(operator.attrgetter("_" + name), refuse, refuse, f"read-only; {fix}")


def describe(value: Any) -> str:
    """How a wrong value is named in a message: its type, then a short repr.

    >>> describe("512"), describe(None), describe(3.5)
    ("str '512'", 'None', 'float 3.5')
    """
    if value is None:
        return "None"
    shown = repr(value)
    return f"{type(value).__name__} {shown if len(shown) <= 40 else shown[:37] + '...'}"


def _suggestion(name: str, example: Any, code: str | None = None) -> str:
    """``"; pass e.g. name=example"`` (just ``"; e.g. ..."`` when ``name`` is not a keyword);
    ``code`` is an example written as code, shown as it is (``print``, not ``'print'``)."""
    if example is _NO_EXAMPLE and code is None:
        return ""
    shown = repr(example) if code is None else code
    if name.isidentifier():
        return f"; pass e.g. {name}={shown}"
    return f"; e.g. {shown}"


def require_str(value: Any, name: str, *, hint: str | None = None) -> str:
    """``value`` if it is a ``str``, else a TypeError saying how to get one.

    >>> require_str(b"hi", "text")
    Traceback (most recent call last):
    ...
    TypeError: text must be a str, got bytes (decode bytes first, e.g. data.decode('utf-8'))
    """
    if isinstance(value, str):
        return value
    got = (f"{type(value).__name__} (decode bytes first, e.g. data.decode('utf-8'))"
           if isinstance(value, (bytes, bytearray)) else describe(value))
    raise TypeError(f"{name} must be a str, got {got}{f'; {hint}' if hint else ''}")


def require_int(
    value: Any,
    name: str,
    *,
    minimum: int | None = None,
    maximum: int | None = None,
    example: Any = _NO_EXAMPLE,
    why: str | None = None,
) -> int:
    """``value`` as an int if it is an integer (not a bool) within ``[minimum, maximum]``.

    Any integer type counts (``numpy.int64`` too, through ``operator.index``). A wrong type is a
    TypeError, a value out of range a ValueError; ``why`` explains the lower bound.

    >>> require_int("512", "vocab_size", example=512)
    Traceback (most recent call last):
    ...
    TypeError: vocab_size must be an int, got str '512'; pass e.g. vocab_size=512
    >>> require_int(100, "vocab_size", minimum=256, example=512, why="the byte tokens")
    Traceback (most recent call last):
    ...
    ValueError: vocab_size must be at least 256 (the byte tokens), got 100; pass e.g. vocab_size=512
    >>> require_int(10, "id", minimum=0, maximum=9)
    Traceback (most recent call last):
    ...
    ValueError: id must be at most 9, got 10
    """
    try:
        number = None if isinstance(value, bool) else operator.index(value)
    except TypeError:
        number = None
    if number is None:
        raise TypeError(f"{name} must be an int, got {describe(value)}"
                        f"{_suggestion(name, example)}")
    value = number
    low = minimum is not None and value < minimum
    high = maximum is not None and value > maximum
    if low or high:
        bound = f"at least {minimum}" if low else f"at most {maximum}"
        because = f" ({why})" if why and low else ""
        raise ValueError(f"{name} must be {bound}{because}, got {value}"
                         f"{_suggestion(name, example)}")
    return value


def require_number(value: Any, name: str, *, above: float, below: float,
                   example: Any = _NO_EXAMPLE) -> float:
    """``value`` if it is an int or float (not a bool) strictly between ``above`` and ``below``.

    >>> require_number(1.5, "fraction", above=0, below=1, example=0.1)
    Traceback (most recent call last):
    ...
    ValueError: fraction must be between 0 and 1, got 1.5; pass e.g. fraction=0.1
    """
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TypeError(f"{name} must be a number, got {describe(value)}"
                        f"{_suggestion(name, example)}")
    if not above < value < below:  # NaN too
        raise ValueError(f"{name} must be between {above} and {below}, got {value}"
                         f"{_suggestion(name, example)}")
    return value


def require_callable(value: Any, name: str, *, example: str | None = None) -> Callable:
    """``value`` if it can be called, else a TypeError; ``example`` is code that would work.

    >>> require_callable(5, "progress", example="print")
    Traceback (most recent call last):
    ...
    TypeError: progress must be a function (something callable), got int 5; pass e.g. progress=print
    """
    if callable(value):
        return value
    raise TypeError(f"{name} must be a function (something callable), got {describe(value)}"
                    f"{_suggestion(name, _NO_EXAMPLE, code=example)}")


def require_choice(value: Any, name: str, choices: tuple[str, ...]) -> str:
    """``value`` if it is one of ``choices``, else a ValueError naming them all.

    >>> require_choice("quick", "algorithm", ("fast", "naive"))
    Traceback (most recent call last):
    ...
    ValueError: algorithm must be 'fast' or 'naive', got 'quick'
    """
    if isinstance(value, str) and value in choices:
        return value
    named = ", ".join(map(repr, choices[:-1])) + f" or {choices[-1]!r}"
    raise ValueError(f"{name} must be {named}, got {value!r}")


def require_ids(ids: Any, known: Container[int], valid: str, example: str = "[104, 105]"
                ) -> list[int]:
    """``ids`` as a list of ints in ``known``; else the error, ``valid`` naming the good ids.

    >>> require_ids((104, 105), range(256), "0..255")
    [104, 105]
    >>> require_ids([104, 999], range(256), "0..255")
    Traceback (most recent call last):
    ...
    ValueError: unknown token id 999: valid ids are the ints 0..255
    """
    if isinstance(ids, (int, str, bytes)) or not isinstance(ids, Iterable):
        example = f"[{ids}]" if isinstance(ids, int) else example
        raise TypeError(f"ids must be a list of ints, got {type(ids).__name__}; "
                        f"pass e.g. {example}")
    checked = []  # the ids read so far, checked one by one (ids may be an endless iterator)
    for position, i in enumerate(ids):
        if position == MAX_IDS:
            raise ValueError(f"ids holds more than {MAX_IDS:,} ids; decode them in slices, e.g. "
                             "itertools.islice(ids, 1_000_000)")
        # subtle: True and 97.0 are dict keys equal to 1 and 97, so check the type first
        if isinstance(i, bool) or not isinstance(i, numbers.Integral):
            raise TypeError(f"ids must be ints, got {describe(i)} at position {position}; "
                            f"pass e.g. {example}")
        if i not in known:
            raise ValueError(f"unknown token id {i!r}: valid ids are the ints {valid}")
        checked.append(i)
    return checked
