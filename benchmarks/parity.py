"""Exact parity with tiktoken on the whole standard-library code corpus (about 8 MB).

For ``gpt2`` and ``cl100k_base``: load our ``ByteLevelBPE.from_tiktoken(name)`` (merges recovered
from tiktoken's ranks, offline), encode the corpus with both, and count the ids that differ.
Also checks that decoding gives the corpus back, and prints how long each encoder took: CPU
seconds of this process (steadier than wall time on a shared machine), one run each, so a rough
figure; "cold" starts with an empty chunk cache, "warm" encodes the same text again.

    .venv/bin/python benchmarks/parity.py            # about 8 MB
    .venv/bin/python benchmarks/parity.py 2000000    # a smaller slice, in bytes
"""

from __future__ import annotations

import sys
import time

from bpe_workshop.algorithm.patterns import compile_pattern
from bpe_workshop.files.corpora import load_stdlib_code
from bpe_workshop.files.offline import get_encoding
from bpe_workshop.tokenizers.byte_level import ByteLevelBPE


def count_mismatches(ours: list[int], theirs: list[int]) -> int:
    """Positions where the two id lists differ, plus the difference in length."""
    return sum(a != b for a, b in zip(ours, theirs)) + abs(len(ours) - len(theirs))


def main(max_bytes: int = 8_000_000) -> int:
    text = load_stdlib_code(max_bytes=max_bytes)
    n_bytes = len(text.encode("utf-8"))
    print(f"corpus: standard-library source, {n_bytes:,} bytes, {text.count(chr(10)):,} lines")
    print(f"{'encoding':<12} {'chunks':>10} {'ids':>10} {'mismatches':>10} {'round trip':>10} "
          f"{'tiktoken':>10} {'ours cold':>11} {'ours warm':>11}  (CPU s)")
    failures = 0
    for name in ("gpt2", "cl100k_base"):
        enc = get_encoding(name)
        tok = ByteLevelBPE.from_tiktoken(name)
        chunks = len(compile_pattern(tok.pattern).findall(text))
        start = time.process_time()
        theirs = enc.encode(text, disallowed_special=())
        t_tiktoken = time.process_time() - start
        start = time.process_time()
        ours = tok.encode(text, disallowed_special=())
        t_cold = time.process_time() - start
        start = time.process_time()
        ours_again = tok.encode(text, disallowed_special=())
        t_warm = time.process_time() - start
        mismatches = count_mismatches(ours, theirs) + count_mismatches(ours_again, theirs)
        round_trip = tok.decode(ours) == text == enc.decode(theirs)
        failures += mismatches + (not round_trip)
        print(f"{name:<12} {chunks:>10,} {len(theirs):>10,} {mismatches:>10} "
              f"{'ok' if round_trip else 'FAILED':>10} {t_tiktoken:>10.2f} {t_cold:>11.2f} "
              f"{t_warm:>11.2f}")
    print("all ids identical" if failures == 0 else f"FAILED: {failures} differences")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(int(sys.argv[1]) if len(sys.argv) > 1 else 8_000_000))
