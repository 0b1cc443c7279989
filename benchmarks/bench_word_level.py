"""Word-level training on one long unspaced word, against byte-level training on the same text.

Text without spaces (Chinese, minified code, base64) is one "word" to word-level BPE. The text
here is ``data/english.txt`` with its whitespace (and its one non-ASCII letter) taken out, cut
to 30,000 characters, so byte-level sees the same 30,000 symbols; both learn 400 merges:

- ``WordLevelBPE.train(word, 400)`` (the incremental ``word_train_fast``);
- ``ByteLevelBPE.train(word, 656, pattern=None)`` (``train_fast``, one sequence);
- ``WordLevelBPE.train(word, 400, algorithm="naive")``, the paper's loop, once, for scale.

Targets (issue 9): word-level fast within 8x the CPU time of byte-level fast, and under
400 MB peak memory (the child process's ``ru_maxrss``, interpreter included). Before the
incremental trainer, word-level training re-pushed every pair of the word on each merge:
about 55 s and 1 GB for this case.

    python benchmarks/bench_word_level.py [--runs N]
"""

from __future__ import annotations

import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _harness import (  # noqa: E402
    child_main,
    machine_line,
    measure,
    print_table,
    summary,
    timed,
    verdict,
)

LENGTH = 30_000
NUM_MERGES = 400
MAX_RATIO = 8.0
MAX_PEAK_MB = 400.0


def unspaced_word() -> str:
    from bpe_workshop.files.corpora import load_english

    ascii_only = load_english().encode("ascii", errors="ignore").decode("ascii")  # drops one é
    word = "".join(ascii_only.split())[:LENGTH]
    assert len(word) == len(word.encode("utf-8")) == LENGTH
    return word


def word_level(algorithm: str) -> dict:
    from bpe_workshop.tokenizers.word_level import WordLevelBPE

    word = unspaced_word()
    wl, facts = timed(lambda: WordLevelBPE.train(word, NUM_MERGES, algorithm=algorithm))
    return {**facts, "merges": len(wl.merges), "first": "".join(wl.merges[0])}


def byte_level() -> dict:
    from bpe_workshop.tokenizers.byte_level import ByteLevelBPE

    word = unspaced_word()
    tok, facts = timed(lambda: ByteLevelBPE.train(word, 256 + NUM_MERGES, pattern=None))
    return {**facts, "merges": len(tok.merges), "first": tok.records[0].token.decode()}


CASES = {
    "word-level fast": lambda: word_level("fast"),
    "byte-level fast": byte_level,
    "word-level naive": lambda: word_level("naive"),
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="runs of each fast trainer")
    parser.add_argument("--naive-runs", type=int, default=1, help="runs of the naive loop")
    args = parser.parse_args()
    print(machine_line())
    runs = {"word-level fast": args.runs, "byte-level fast": args.runs,
            "word-level naive": args.naive_runs}
    results = {case: summary(facts) for case, facts in measure(__file__, runs).items()}
    byte_cpu = results["byte-level fast"]["cpu_s"]
    rows = []
    for case, r in results.items():
        ratio = r["cpu_s"] / byte_cpu
        rows.append([case, r["runs"], f"{r['seconds']:.2f}", f"{r['cpu_s']:.2f}",
                     f"{ratio:.1f}x", f"{r['peak_mb']:.0f}", f"{r['peak_mb'] - r['base_mb']:.0f}",
                     r["merges"], repr(r["first"])])
    print_table(f"One unspaced {LENGTH:,}-character word, {NUM_MERGES} merges",
                ["trainer", "runs", "wall s", "CPU s", "CPU vs byte-level", "peak MB", "job MB",
                 "merges", "first merge"], rows)
    word = results["word-level fast"]
    ratio = word["cpu_s"] / byte_cpu
    print(f"\nword-level fast vs byte-level fast, CPU time: {ratio:.1f}x "
          f"(target: at most {MAX_RATIO:.0f}x) -> {verdict(ratio <= MAX_RATIO)}")
    print(f"word-level fast peak memory: {word['peak_mb']:.0f} MB "
          f"(target: under {MAX_PEAK_MB:.0f} MB) -> {verdict(word['peak_mb'] < MAX_PEAK_MB)}")


if __name__ == "__main__":
    if "--measure" in sys.argv:
        child_main(CASES)
    else:
        main()
