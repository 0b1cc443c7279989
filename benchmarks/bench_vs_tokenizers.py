"""Training a 32,768-token vocabulary on ~8 MB of code: the fast trainer against Hugging Face.

Hugging Face ``tokenizers`` (Rust) trains with ``BpeTrainer`` and a ``ByteLevel`` pre-tokenizer
(GPT-2's split pattern, no prefix space) on one thread (``RAYON_NUM_THREADS=1``). Ours splits
with the same pattern, ``GPT2_PATTERN``. Ours is ``ByteLevelBPE.train``, the public API, as a
notebook calls it.

Each time covers the whole job, text in and merges out, splitting included, for both tools.

Both learn the same number of tokens on this corpus (they stop when no pair occurs twice);
the table prints it. Skipped, with a note, when ``tokenizers`` is not installed
(``pip install -e ".[bench]"``).

    python benchmarks/bench_vs_tokenizers.py [--runs N] [--max-bytes N]
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

VOCAB_SIZE = 32_768
MAX_BYTES = int(os.environ.get("BENCH_MAX_BYTES", 8_000_000))


def load() -> str:
    from bpe_workshop.files.corpora import load_stdlib_code

    return load_stdlib_code(MAX_BYTES)


def run_tokenizers() -> dict:
    from tokenizers import Tokenizer, models, pre_tokenizers, trainers

    text = load()

    def job():
        tok = Tokenizer(models.BPE())
        tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
        trainer = trainers.BpeTrainer(
            vocab_size=VOCAB_SIZE, min_frequency=2, show_progress=False,
            initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
        )
        tok.train_from_iterator([text], trainer=trainer)
        return tok.get_vocab_size()

    vocab_size, facts = timed(job)
    return {**facts, "tokens": vocab_size}


def run_public_api() -> dict:
    from bpe_workshop.algorithm.patterns import GPT2_PATTERN
    from bpe_workshop.tokenizers.byte_level import ByteLevelBPE

    text = load()
    tok, facts = timed(lambda: ByteLevelBPE.train(text, VOCAB_SIZE, pattern=GPT2_PATTERN))
    return {**facts, "tokens": 256 + len(tok.records)}


CASES = {"tokenizers": run_tokenizers, "public": run_public_api}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    print(f"## Training vocabulary {VOCAB_SIZE:,} on ~{MAX_BYTES / 1e6:.0f} MB of "
          f"standard-library code: fast vs Hugging Face tokenizers\n\n{machine_line()}")
    try:
        import tokenizers
    except ImportError:
        print("\ntokenizers is not installed: skipped (pip install -e \".[bench]\").")
        return

    results = measure(__file__, {case: args.runs for case in CASES})
    hf = summary(results["tokenizers"])
    rows = [[f"tokenizers {tokenizers.__version__} BpeTrainer, 1 thread", hf["runs"],
             f"{hf['seconds']:.2f}", f"{hf['cpu_s']:.2f}", f"{hf['peak_mb']:.0f}",
             f"{hf['peak_mb'] - hf['base_mb']:.0f}", hf["tokens"], "1.00", "1.00", "1.00", ""]]
    ours = summary(results["public"])
    time_ratio = ours["seconds"] / hf["seconds"]
    memory_ratio = ours["peak_mb"] / hf["peak_mb"]
    goal = (f"time <= 1x: {verdict(time_ratio <= 1)}; "
            f"memory <= 1/3: {verdict(memory_ratio <= 1 / 3)}")
    rows.append(["ByteLevelBPE.train (fast)", ours["runs"], f"{ours['seconds']:.2f}",
                 f"{ours['cpu_s']:.2f}", f"{ours['peak_mb']:.0f}",
                 f"{ours['peak_mb'] - ours['base_mb']:.0f}", ours["tokens"], f"{time_ratio:.2f}",
                 f"{ours['cpu_s'] / hf['cpu_s']:.2f}", f"{memory_ratio:.2f}", goal])
    print_table(
        "Wall time, CPU time (medians of runs) and peak memory (each run in a fresh process)",
        ["trainer", "runs", "wall s", "CPU s", "peak MB", "job MB", "tokens", "wall / HF",
         "CPU / HF", "peak / HF", "target"],
        rows,
    )
    print("\nwall s = elapsed time of the job; CPU s = user + system CPU time it used (less"
          "\nsensitive to other processes on a shared machine); peak MB = the process's maximum"
          "\nresident set (interpreter, corpus and job); job MB = peak minus the maximum before"
          "\nthe job started. Runs of the two trainers are interleaved.")


if __name__ == "__main__":
    if "--measure" in sys.argv:
        child_main(CASES)
    else:
        main()
