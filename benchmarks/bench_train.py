"""Training speed: the readable naive loop against the incremental fast trainer.

Both run through the public API, ``ByteLevelBPE.train(text, 512, pattern, algorithm=...)``,
so each time includes splitting the text and encoding the chunks. The script checks that both
learn the same merges and prints the speed-up measured in the same run. tiktoken's
educational trainer (``tiktoken._educational.bpe_train``, pure Python too) is timed on the small
English corpus when it can be imported; its tie rule differs, so its merges are not compared.

    python benchmarks/bench_train.py [--runs N] [--naive-runs N]
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import io
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

VOCAB_SIZE = 512

# corpus name -> what it is
CORPORA = {
    "code200k": "standard-library code, ~200 KB",
    "english": "English prose from data/english.txt, ~47 KB",
}


def load(corpus: str) -> str:
    from bpe_workshop.files.corpora import load_english, load_stdlib_code

    return load_stdlib_code(200_000) if corpus == "code200k" else load_english()


def pattern_of(split: str) -> str | None:
    from bpe_workshop.algorithm.patterns import GPT4_PATTERN

    return GPT4_PATTERN if split == "gpt4" else None


def run_ours(corpus: str, split: str, algorithm: str) -> dict:
    from bpe_workshop.tokenizers.byte_level import ByteLevelBPE

    text, pattern = load(corpus), pattern_of(split)
    tok, facts = timed(lambda: ByteLevelBPE.train(text, VOCAB_SIZE, pattern=pattern,
                                                  algorithm=algorithm))
    merges = repr([(r.pair, r.new_id, r.count) for r in tok.records]).encode()
    return {**facts, "merges": len(tok.records), "digest": hashlib.sha256(merges).hexdigest()}


def run_educational(corpus: str, split: str) -> dict:
    from tiktoken._educational import bpe_train

    from bpe_workshop.algorithm.patterns import GPT4_PATTERN

    text = load(corpus)
    # bpe_train prints its progress even with visualise=None: keep it out of our output
    with contextlib.redirect_stdout(io.StringIO()):
        ranks, facts = timed(lambda: bpe_train(text, VOCAB_SIZE, GPT4_PATTERN, visualise=None))
    return {**facts, "merges": len(ranks) - 256, "digest": ""}


# (corpus, split) pairs measured, and the speed-up each must reach (None: no target)
SETUPS = [("code200k", "gpt4", 40), ("code200k", "none", 10), ("english", "gpt4", None)]

CASES = {}
for _corpus, _split, _ in SETUPS:
    for _algorithm in ("naive", "fast"):
        CASES[f"{_corpus}/{_split}/{_algorithm}"] = (
            lambda c=_corpus, s=_split, a=_algorithm: run_ours(c, s, a)
        )
CASES["english/gpt4/educational"] = lambda: run_educational("english", "gpt4")


def educational_available() -> bool:
    try:
        import tiktoken._educational  # noqa: F401
    except ImportError:
        return False
    return True


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="runs of each fast measurement")
    parser.add_argument("--naive-runs", type=int, default=3,
                        help="runs of each slow (naive, educational) measurement")
    args = parser.parse_args()
    print(f"## Training: naive vs fast, vocabulary {VOCAB_SIZE}\n\n{machine_line()}")

    plan = {}  # case -> runs, measured interleaved
    for corpus, split, _ in SETUPS:
        plan[f"{corpus}/{split}/naive"] = args.naive_runs
        plan[f"{corpus}/{split}/fast"] = args.runs
    if educational_available():
        plan["english/gpt4/educational"] = args.naive_runs
    results = measure(__file__, plan)

    rows = []
    for corpus, split, target in SETUPS:
        naive = summary(results[f"{corpus}/{split}/naive"])
        fast = summary(results[f"{corpus}/{split}/fast"])
        assert naive["digest"] == fast["digest"], f"{corpus}/{split}: fast and naive differ"
        speedup = naive["seconds"] / fast["seconds"]
        label = f"{CORPORA[corpus]}, split {split}"
        goal = f">= {target}x: {verdict(speedup >= target)}" if target else "-"
        cpu_speedup = naive["cpu_s"] / fast["cpu_s"]
        rows.append([label, "naive", naive["runs"], f"{naive['seconds']:.2f}",
                     f"{naive['cpu_s']:.2f}", f"{naive['peak_mb']:.0f}", naive["merges"],
                     "1x", "1x", ""])
        rows.append([label, "fast", fast["runs"], f"{fast['seconds']:.3f}",
                     f"{fast['cpu_s']:.3f}", f"{fast['peak_mb']:.0f}", fast["merges"],
                     f"{speedup:.0f}x", f"{cpu_speedup:.0f}x", goal])
        if corpus == "english" and educational_available():
            edu = summary(results["english/gpt4/educational"])
            rows.append([label, "tiktoken _educational", edu["runs"], f"{edu['seconds']:.2f}",
                         f"{edu['cpu_s']:.2f}", f"{edu['peak_mb']:.0f}", edu["merges"],
                         f"{naive['seconds'] / edu['seconds']:.1f}x",
                         f"{naive['cpu_s'] / edu['cpu_s']:.1f}x",
                         f"fast is {edu['seconds'] / fast['seconds']:.0f}x faster"])
    print_table(
        "Training time (median of runs, each in a fresh process)",
        ["corpus", "trainer", "runs", "wall s", "CPU s", "peak MB", "merges", "wall speed-up",
         "CPU speed-up", "target (on wall time)"],
        rows,
    )
    print("\nwall s / CPU s = medians of elapsed and CPU time; speed-ups are naive / this row,"
          "\nfrom the same run (runs interleaved). fast and naive learned identical merges in"
          "\nevery setup (digests compared).")


if __name__ == "__main__":
    if "--measure" in sys.argv:
        child_main(CASES)
    else:
        main()
