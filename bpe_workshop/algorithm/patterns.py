"""Split patterns (pre-tokenization): the one home of every regex this package uses.

Lineage: GPT-2 splits text into chunks with a regex before BPE, so merges never cross chunks
(``dog.`` and ``dog!`` share ``dog``); cl100k and o200k refine the pattern, with the ``regex``
module's ``\\p{L}`` (letter) and ``\\p{N}`` (number). A learner's own pattern runs under
``regex``'s ``timeout``: one such as ``(\\w|[a-z])+$`` would backtrack for minutes, and raises
:class:`PatternTimeoutError` instead, naming where it stalled. The patterns in ``PATTERN_NAMES``
never backtrack far, run without the timer and see the Unicode version tiktoken's split sees
(:func:`pin_unicode`). Left out: normalization, ``p50k_base``.
"""

from __future__ import annotations

import array
import functools
import itertools
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import regex

from bpe_workshop.validation import require_str

# GPT-2's pattern as published with the model (encoder.py). Contractions are case sensitive.
GPT2_PATTERN = r"""'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+"""

# tiktoken's pat_str for "gpt2": the same chunks, written with possessive quantifiers.
TIKTOKEN_GPT2_PATTERN = (
    r"""'(?:[sdmt]|ll|ve|re)| ?\p{L}++| ?\p{N}++| ?[^\s\p{L}\p{N}]++|\s++$|\s+(?!\S)|\s"""
)

# GPT-4's pattern: tiktoken's cl100k_base pat_str, verbatim (a test checks it against tiktoken).
GPT4_PATTERN = (
    r"""'(?i:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?+\p{L}++|\p{N}{1,3}+| ?[^\s\p{L}\p{N}]++[\r\n]*+"""
    r"""|\s++$|\s*[\r\n]|\s+(?!\S)|\s"""
)

# GPT-4o's pattern: tiktoken's o200k_base pat_str, verbatim (a test checks it against tiktoken).
# Words split at case changes (upper-case run, then lower-case run), marks (\p{M}) stay inside
# words, contractions attach to any word in any case, and / stays with punctuation.
O200K_PATTERN = "|".join([
    r"""[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+"""
    r"""(?i:'s|'t|'re|'ve|'m|'ll|'d)?""",
    r"""[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*"""
    r"""(?i:'s|'t|'re|'ve|'m|'ll|'d)?""",
    r"""\p{N}{1,3}""",
    r""" ?[^\s\p{L}\p{N}]+[\r\n/]*""",
    r"""\s*[\r\n]+""",
    r"""\s+(?!\S)""",
    r"""\s+""",
])

# The simplest useful split: runs of whitespace and runs of everything else.
WHITESPACE_PATTERN = r"""\s+|\S+"""

# THE table of pattern names, for the tokenizers and the widgets alike (first name wins in repr).
PATTERN_NAMES = {
    "whitespace": WHITESPACE_PATTERN,
    "gpt2": GPT2_PATTERN,
    "gpt4": GPT4_PATTERN,
    "cl100k_base": GPT4_PATTERN,
    "o200k_base": O200K_PATTERN,
}

# Patterns that cut every text into chunks covering it, in time linear in its length.
_LINEAR_PATTERNS = frozenset([*PATTERN_NAMES.values(), TIKTOKEN_GPT2_PATTERN])
_PIN_TABLE = Path(__file__).with_name("unicode_pin.txt")  # tiktoken's Unicode classes

@functools.cache
def pin_unicode(pattern: str) -> str:
    r"""``pattern`` with each ``\p{..}`` class pinned to the Unicode version of tiktoken's split.

    ``regex`` 2026 calls U+0558 a letter (Unicode 17), tiktoken not; older ``regex`` versions lack
    the letters of Unicode 15 and 16 (U+31350, a CJK ideograph), tiktoken has them:

    >>> [regex.fullmatch(pin_unicode(r"\p{L}"), c) is None for c in ("\u0558", "\U00031350")]
    [True, False]
    """
    pinned = regex.sub(r"\\p\{(\w+)\}", lambda found: _pinned_classes()[found[1]], pattern)
    return pattern if pinned == pattern else "(?V1)" + pinned  # V1: set operations


@functools.cache
def _pinned_classes() -> dict[str, str]:
    every = array.array("I", range(0x110000)).tobytes().decode("utf-32-le", "surrogatepass")
    classes = {}  # "L" -> r"[\p{L}--[extra]||[missing]]": regex's \p{L} made tiktoken's
    for name, runs in (line.split(" ", 1) for line in _PIN_TABLE.read_text().splitlines()[1:]):
        theirs = set(map(chr, code_points(runs)))
        ours = set("".join(regex.findall(rf"\p{{{name}}}+", every)))
        # subtle: a lone surrogate is in no class, so it stands in for an empty set
        extra, missing = (_class_body(part) or r"\uD800" for part in (ours - theirs, theirs - ours))
        classes[name] = rf"[\p{{{name}}}--[{extra}]||[{missing}]]"
    return classes


def code_points(runs: str) -> set[int]:
    """Code points written as runs in hex, as Unicode's tables do.

    >>> sorted(code_points("41-43 5a"))
    [65, 66, 67, 90]
    """
    return {code for run in runs.split() for first, _, last in [run.partition("-")]
            for code in range(int(first, 16), int(last or first, 16) + 1)}


def _class_body(chars: set[str]) -> str:
    r"""Characters as the inside of a character class, in runs of consecutive code points.

    >>> print(_class_body(set("ABCZ")))
    \U00000041-\U00000043\U0000005a-\U0000005a
    """
    runs = [[code for _, code in run] for _, run in itertools.groupby(
        enumerate(sorted(map(ord, chars))), lambda pair: pair[1] - pair[0])]  # A, B, C: one run
    return "".join(f"\\U{run[0]:08x}-\\U{run[-1]:08x}" for run in runs)


# The time budget of one split: a base, plus a share per million characters (8 MB: 18 s).
TIMEOUT_BASE_SECONDS = 2.0
TIMEOUT_SECONDS_PER_MILLION_CHARS = 2.0


class PatternTimeoutError(ValueError):
    """A split pattern ran past its time budget: it backtracks catastrophically."""


class DroppedTextWarning(UserWarning):
    """A split pattern leaves some text out of every chunk, so encoding loses it."""


def resolve_pattern(pattern: str | None) -> str | None:
    """A pattern name (``"gpt2"``, ``"gpt4"``, ``"whitespace"``) becomes its regex; others pass.

    >>> resolve_pattern("gpt2") == GPT2_PATTERN, resolve_pattern(None), resolve_pattern(r"\\w+")
    (True, None, '\\\\w+')
    """
    if pattern is None:
        return None
    require_str(pattern, "pattern",
                hint=f"pass a regex, one of the names {', '.join(PATTERN_NAMES)}, or None")
    return PATTERN_NAMES.get(pattern.lower(), pattern)


def pattern_label(pattern: str | None) -> str:
    """A short way to show a pattern: its name when it has one, else its regex, shortened.

    >>> print(pattern_label(GPT4_PATTERN), pattern_label(None), pattern_label("[a-z]+|[0-9]+"))
    'gpt4' None '[a-z]+|[0-9]+'
    >>> pattern_label("x" * 50)
    "'xxxxxxxxxxxxxxxxxxxxxxxxxxxxx...'"
    """
    if pattern is None:
        return "None"
    names = {TIKTOKEN_GPT2_PATTERN: "gpt2"} | {known: name for name, known in
                                             reversed(PATTERN_NAMES.items())}  # first name wins
    return repr(names.get(pattern) or (pattern if len(pattern) <= 30 else pattern[:29] + "..."))


# How many pattern elements a regex may spell out: ``regex`` writes out every fixed repeat when
# it compiles (``a{1000000}`` becomes a million nodes, about 270 MB), so a count in a shared
# model file or a typo could exhaust memory before any text is read.
MAX_UNROLLED = 100_000
_REPEAT = regex.compile(r"\{(\d+)(?:,\d*)?\}")
_CLASS = regex.compile(r"\[\^?\]?(?:\\.|[^\]])*\]", regex.S)


def unrolled_size(pattern: str) -> int:
    r"""About how many elements ``regex`` builds for ``pattern``: fixed repeats multiply.

    >>> unrolled_size(r"\p{N}{1,3}"), unrolled_size("a{5}b"), unrolled_size("(ab{10}){1000}")
    (4, 6, 11000)
    """
    sizes, last, i = [0], 0, 0  # sizes: per open group, the elements so far; last: the latest
    while i < len(pattern):
        char, repeat = pattern[i], _REPEAT.match(pattern, i)
        if repeat:
            sizes[-1] += last * (int(repeat[1]) - 1)
            last *= int(repeat[1])
            i = repeat.end()
            continue
        if char == "(":
            sizes.append(0)
        elif char == ")" and len(sizes) > 1:
            last = max(sizes.pop(), 1)
            sizes[-1] += last
        else:
            if char == "[":  # a character class is one element: skip to its closing bracket
                close = _CLASS.match(pattern, i)
                i = close.end() - 1 if close else i
            elif char == "\\":
                i += 1
            last = 1
            sizes[-1] += 1
        i += 1
    return sum(sizes)


@functools.lru_cache(maxsize=64)
def compile_pattern(pattern: str) -> regex.Pattern:
    """Compile ``pattern`` with the ``regex`` module (cached per pattern string).

    Refused before compiling: fixed repeats that would spell out more than ``MAX_UNROLLED``
    elements. Refused after: the reverse flag ``(?r)``, which returns chunks last first.

    >>> compile_pattern(WHITESPACE_PATTERN).findall("hi  there")
    ['hi', '  ', 'there']
    >>> compile_pattern("(")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: invalid split pattern r'(': missing ) at position 1; fix the regex (it is ...
    >>> compile_pattern("a{100000000}")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: the split pattern r'a{100000000}' repeats fixed counts to 100,000,000 elements ...
    """
    require_str(pattern, "a split pattern", hint="or None for no splitting")
    size = unrolled_size(pattern)
    if size > MAX_UNROLLED:
        raise ValueError(
            f"the split pattern {show_pattern(pattern)} repeats fixed counts to {size:,} elements "
            f"(the limit is {MAX_UNROLLED:,}): the regex module writes out every fixed repeat, "
            "which would take gigabytes of memory; use + or * or a smaller count")
    try:
        compiled = regex.compile(pattern)
    except RecursionError:  # the regex module parses nested groups by recursion
        raise ValueError(f"the split pattern {show_pattern(pattern)} nests groups too deeply for "
                         "the regex module to compile; use fewer nested groups") from None
    except regex.error as err:
        raise ValueError(
            f"invalid split pattern {show_pattern(pattern)}: {err}; fix the regex (it is compiled "
            "with the third-party `regex` module, so \\p{L} and possessive quantifiers are allowed)"
        ) from None
    if compiled.flags & regex.REVERSE:
        raise ValueError(
            f"the split pattern {show_pattern(pattern)} uses the reverse flag (?r): it finds "
            "chunks from the end of the text, so decode(encode(text)) would put them back in "
            "reverse order; remove the r flag")
    return compiled


def time_budget(text: str) -> float:
    """Seconds a split of ``text`` may take before it counts as stuck.

    >>> time_budget("a" * 500_000)
    3.0
    """
    return TIMEOUT_BASE_SECONDS + TIMEOUT_SECONDS_PER_MILLION_CHARS * len(text) / 1e6


@dataclass(frozen=True)
class Deadline:
    """One time budget for a whole operation, shared by all its splits (the pieces of a text
    between special tokens, the check for dropped text): a budget per split would restart."""

    seconds: float  # the whole budget
    at: float  # the time.monotonic() reading when it runs out

    @classmethod
    def for_text(cls, text: str) -> Deadline:
        return cls(time_budget(text), time.monotonic() + time_budget(text))

    def left(self) -> float:
        return max(self.at - time.monotonic(), 1e-3)  # regex reads 0 as "no limit"


def iter_chunks(text: str, pattern: str | None, deadline: Deadline | None = None,
                gaps: dict[str, None] | None = None) -> Iterator[str]:
    r"""The chunks of ``text``, one at a time, in text order; see :func:`split_text`.

    ``deadline`` bounds the time (by default :func:`time_budget` of ``text``); text that no
    match covers is added to ``gaps`` (a dict used as an ordered set) when one is given.

    >>> list(iter_chunks("hi  there", "whitespace"))
    ['hi', '  ', 'there']
    >>> gaps = {}
    >>> list(iter_chunks("hi, there!", r"\w+", gaps=gaps)), list(gaps)
    (['hi', 'there'], [', ', '!'])
    """
    pattern = resolve_pattern(pattern)
    if pattern is None:
        if text:
            yield text
        return
    if pattern in _LINEAR_PATTERNS:
        for match in _known_pattern(pattern, text).finditer(text):
            yield match.group()
        return
    compiled = compile_pattern(pattern)
    deadline = deadline or Deadline.for_text(text)
    end = 0  # where the last chunk ended: the search that stalls starts here
    try:
        # subtle: the regex module counts the timeout over the whole iteration
        for match in compiled.finditer(text, timeout=deadline.left()):
            if gaps is not None and match.start() > end:
                gaps[text[end:match.start()]] = None
            end = match.end()
            yield match.group()
    except TimeoutError:
        near, more = text[end:end + 40], "..." if len(text) > end + 40 else ""
        raise PatternTimeoutError(
            f"the split pattern {show_pattern(pattern)} is stuck: it ran for more than "
            f"{deadline.seconds:.0f} s on the text from position {end} ({near!r}{more}). It "
            f"backtracks catastrophically: a repeated group whose alternatives can match the "
            f"same characters, such as (\\w|[a-z])+, tries every way to cut a long word. Make the "
            f"alternatives exclusive or the repetition possessive (e.g. \\w++), or use "
            f"pattern='gpt4'") from None
    if gaps is not None and end < len(text):
        gaps[text[end:]] = None


def split_text(text: str, pattern: str | None, deadline: Deadline | None = None) -> list[str]:
    """Split ``text`` into chunks with ``pattern``; ``None`` means one chunk (no splitting).

    ``pattern``: a regex or a name from ``PATTERN_NAMES``; one that backtracks past
    :func:`time_budget` raises :class:`PatternTimeoutError`.

    >>> split_text("Any text that you want to be split.", GPT2_PATTERN)
    ['Any', ' text', ' that', ' you', ' want', ' to', ' be', ' split', '.']
    >>> split_text("you'd text123 split???!!!", "gpt2")
    ['you', "'d", ' text', '123', ' split', '???!!!']
    >>> split_text("to   be", GPT2_PATTERN)
    ['to', '  ', ' be']
    >>> split_text("abc", None), split_text("", None)
    (['abc'], [])
    """
    pattern = resolve_pattern(pattern)
    if pattern in _LINEAR_PATTERNS:
        return _known_pattern(pattern, text).findall(text)  # the fastest way, for the known ones
    return list(iter_chunks(text, pattern, deadline))


def _known_pattern(pattern: str, text: str) -> regex.Pattern:
    # subtle: ASCII is the same in every Unicode version, and faster unpinned (no set operations)
    return compile_pattern(pattern if text.isascii() else pin_unicode(pattern))


def show_pattern(pattern: str) -> str:
    r"""A pattern as a learner typed it: a raw string when it can be one, shortened past 80.

    >>> print(show_pattern(r"\w+"), show_pattern("it's"))
    r'\w+' "it's"
    """
    shown = pattern if len(pattern) <= 80 else pattern[:77] + "..."
    if "'" in shown or shown.endswith("\\"):
        return repr(shown)
    return f"r'{shown}'"


def left_out(text: str, chunks: list[str], pattern: str | None,
             deadline: Deadline | None = None) -> list[str]:
    """The distinct pieces of ``text`` that ``pattern`` leaves out of every chunk, in order.

    ``chunks``: :func:`split_text`'s (cheap when they cover the text); ``deadline``: the split's.

    >>> left_out("hello world!", ["hello", "world"], r"\\w+")
    [' ', '!']
    >>> left_out("bbb", [], "a*")  # only empty matches, between the b's
    ['b']
    """
    if pattern is None or pattern in _LINEAR_PATTERNS or sum(map(len, chunks)) == len(text):
        return []  # matches never overlap, so chunks as long as the text cover all of it
    gaps = {}  # each piece left out, once, in text order
    for _ in iter_chunks(text, pattern, deadline, gaps):
        pass
    return list(gaps)


def left_out_message(pattern: str, pieces: list[str]) -> str:
    """The warning for text a pattern drops: what, and how to keep it.

    >>> print(left_out_message("[a-z]+", [" ", "!"]))  # doctest: +NORMALIZE_WHITESPACE
    the split pattern r'[a-z]+' leaves out ' ', '!': that text is in no chunk, so it gets no ids
    and decode(encode(text)) loses it; add an alternative that matches it (e.g. |\\s+|[^\\w\\s]+)
    or use pattern='gpt4'
    """
    shown = ", ".join(repr(piece[:20]) for piece in pieces[:5])
    more = f" and {len(pieces) - 5} more" if len(pieces) > 5 else ""
    return (
        f"the split pattern {show_pattern(pattern)} leaves out {shown}{more}: that text is in no "
        f"chunk, so it gets no ids and decode(encode(text)) loses it; add an alternative that "
        f"matches it (e.g. |\\s+|[^\\w\\s]+) or use pattern='gpt4'")
