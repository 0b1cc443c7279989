"""BPE by hand: Gage's 1994 pair replacement on a short string, one step at a time.

Lineage: Gage, "A New Algorithm for Data Compression" (1994), as Wikipedia retells it: replace
the most frequent pair of adjacent symbols with a symbol not in the data, keeping a table to
restore it. The fresh symbols are letters (``Z``, ``Y``, ...) to read on a slide. Pairs are
counted as ``textbook.get_stats`` counts them (overlaps included) and replaced left to right as
``textbook.merge`` does, until no pair occurs twice. Tie rules: ``"smallest"``, the series'
(``textbook.best_pair``; fresh symbols sort after the originals in minting order), which gives
Wikipedia's run; ``"first_seen"``, minbpe's. Left out: bytes and ids (``textbook``).

>>> for step in replace_pairs_by_hand("aaabdaaabac"):
...     print(step.before, "->", step.after, " ", step.symbol, "=", "".join(step.pair))
aaabdaaabac -> ZabdZabac   Z = aa
ZabdZabac -> ZYdZYac   Y = ab
ZYdZYac -> XdXac   X = ZY
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from bpe_workshop.algorithm.textbook import best_pair, get_stats, merge
from bpe_workshop.validation import require_int, require_str

TIE_RULES = ("smallest", "first_seen")
DEFAULT_SYMBOLS = "ZYXWVUTSRQPONMLKJIHGFEDCBA"

# Symbols become ints so that the series' own pair helpers do the work: an original character is
# its code point, the k-th fresh symbol is FRESH_BASE + k (above every code point).
FRESH_BASE = 0x110000


@dataclass(frozen=True)
class HandStep:
    """One replacement: the string before and after, the counts seen, the choice made.

    >>> step = replace_pairs_by_hand("aaabdaaabac")[0]
    >>> step.step, step.before, step.after, step.pair, step.symbol, step.count
    (1, 'aaabdaaabac', 'ZabdZabac', ('a', 'a'), 'Z', 4)
    >>> step.table, step.ties
    ({'Z': 'aa'}, (('a', 'a'),))
    """

    step: int  # 1-based
    before: str  # the string this step starts from
    after: str  # the string once every occurrence of `pair` is replaced
    # every adjacent pair of `before` -> occurrences (overlaps included), in first-seen order
    pair_counts: dict[tuple[str, str], int] = field(hash=False)
    pair: tuple[str, str]  # the pair replaced at this step
    symbol: str  # the fresh symbol that replaces it
    count: int  # pair_counts[pair]
    ties: tuple[tuple[str, str], ...]  # every pair with that same count, in first-seen order
    # fresh symbol -> the two symbols it stands for, in replacement order, this step included
    table: dict[str, str] = field(hash=False)


def count_pairs(text: str, overlapping: bool = True) -> dict[tuple[str, str], int]:
    """Count adjacent pairs of characters, in first-seen order.

    ``overlapping=False`` counts only the occurrences one left-to-right replacement takes.

    >>> count_pairs("aaab")
    {('a', 'a'): 2, ('a', 'b'): 1}
    >>> count_pairs("aaab", overlapping=False)
    {('a', 'a'): 1, ('a', 'b'): 1}
    """
    require_str(text, "text")
    if overlapping:
        return get_stats(text)
    counts = {}  # (left symbol, right symbol) -> occurrences that do not overlap
    last_end = {}  # pair -> index just after its last counted occurrence
    for i, pair in enumerate(zip(text, text[1:])):
        if i >= last_end.get(pair, 0):
            counts[pair] = counts.get(pair, 0) + 1
            last_end[pair] = i + 2
    return counts


def replace_pairs_by_hand(
    text: str,
    tie_rule: str = "smallest",
    max_steps: int | None = None,
    symbols: Iterable[str] | None = None,
) -> list[HandStep]:
    """Run Gage's pair replacement on ``text`` and return every step.

    Each step counts the pairs, picks the most frequent (ties by ``tie_rule``) and replaces it, left
    to right, by the next fresh symbol from ``symbols`` (default ``Z``, ``Y``, ... ``A``, skipping
    any in ``text``). Stops when no pair occurs more than once, or after ``max_steps`` steps.

    >>> steps = replace_pairs_by_hand("aaabdaaabac")
    >>> steps[-1].after, steps[-1].table
    ('XdXac', {'Z': 'aa', 'Y': 'ab', 'X': 'ZY'})
    >>> steps[1].pair_counts
    {('Z', 'a'): 2, ('a', 'b'): 2, ('b', 'd'): 1, ('d', 'Z'): 1, ('b', 'a'): 1, ('a', 'c'): 1}
    >>> steps[1].ties, steps[1].pair
    ((('Z', 'a'), ('a', 'b')), ('a', 'b'))
    >>> [s.after for s in replace_pairs_by_hand("aaabcdaadab", symbols="XYZ")]
    ['XabcdXdab', 'XYcdXdY']
    >>> replace_pairs_by_hand("abab", tie_rule="first")
    Traceback (most recent call last):
    ...
    ValueError: tie_rule must be one of 'smallest', 'first_seen'; got 'first'
    """
    require_str(text, "text")
    if tie_rule not in TIE_RULES:
        choices = ", ".join(repr(rule) for rule in TIE_RULES)
        raise ValueError(f"tie_rule must be one of {choices}; got {tie_rule!r}")
    if max_steps is not None:
        require_int(max_steps, "max_steps", minimum=0, example=3)
    symbols = list(DEFAULT_SYMBOLS if symbols is None else symbols)
    for symbol in symbols:
        if not (isinstance(symbol, str) and len(symbol) == 1):
            raise ValueError(f"symbols must be single characters, e.g. symbols='XYZ'; "
                             f"got {symbol!r}")
    if len(set(symbols)) != len(symbols):
        raise ValueError(f"symbols must not repeat a character; got {''.join(symbols)!r}")
    fresh = [symbol for symbol in symbols if symbol not in text]  # the usable ones, in order

    ids = [ord(ch) for ch in text]  # one int per symbol; fresh symbols are FRESH_BASE + k
    table = {}  # fresh symbol -> the two symbols it stands for
    steps = []
    while max_steps is None or len(steps) < max_steps:
        # 1. count every adjacent pair, in first-seen order
        stats = get_stats(ids)
        if not stats or max(stats.values()) < 2:
            break  # no pair occurs more than once: nothing left to gain
        # 2. choose the pair to replace
        if tie_rule == "smallest":
            pair = best_pair(stats)
        else:
            pair = max(stats, key=stats.get)  # subtle: max() keeps the first of equal counts
        count = stats[pair]
        # 3. mint the next fresh symbol and replace the pair everywhere
        k = len(table)
        if k == len(fresh):
            raise ValueError(f"ran out of fresh symbols after {k} steps; pass more with "
                             "symbols=... or stop earlier with max_steps=...")
        new_ids = merge(ids, pair, FRESH_BASE + k)
        symbol = fresh[k]
        table[symbol] = "".join(_show(pair, fresh))
        # 4. record the step in letters
        steps.append(HandStep(
            step=len(steps) + 1,
            before="".join(_show(ids, fresh)),
            after="".join(_show(new_ids, fresh)),
            pair_counts={_show(p, fresh): n for p, n in stats.items()},
            pair=_show(pair, fresh),
            symbol=symbol,
            count=count,
            ties=tuple(_show(p, fresh) for p, n in stats.items() if n == count),
            table=dict(table),
        ))
        ids = new_ids
    return steps


def decompress_by_hand(text: str, table: dict[str, str]) -> str:
    """Undo the replacements: expand each fresh symbol, the last one minted first.

    >>> decompress_by_hand("XdXac", {"Z": "aa", "Y": "ab", "X": "ZY"})
    'aaabdaaabac'
    """
    require_str(text, "text")
    if not isinstance(table, dict):
        raise TypeError(f"table must be a dict of fresh symbol -> pair, e.g. steps[-1].table; "
                        f"got {type(table).__name__}")
    for symbol, pair in reversed(table.items()):
        text = text.replace(symbol, pair)
    return text


def _show(ids: Iterable[int], fresh: list[str]) -> tuple[str, ...]:
    """Symbol ids as their letters: a code point as its character, a fresh symbol as its own."""
    return tuple(fresh[i - FRESH_BASE] if i >= FRESH_BASE else chr(i) for i in ids)
