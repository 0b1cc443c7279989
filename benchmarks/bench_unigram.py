"""Unigram training on ``data/english.txt``: ``Unigram.train`` against sentencepiece's trainer.

Rows, each trainer learning 1,000 pieces from the whole of ``data/english.txt`` (about 47 KB),
identity normalisation, spaces kept as written:

- ``Unigram.train(text, 997)``: seed substrings, EM with forward-backward, pruning by loss
  (pure Python; 997 + sentencepiece's ``<unk>``, ``<s>``, ``</s>`` = 1,000);
- ``sentencepiece`` ``model_type="unigram"`` (C++, one thread).

Columns: wall and CPU medians, peak and job memory, pieces learned, CPU time relative to
sentencepiece. Then the quality beside the speed: both learn from 80 % of the book and cut the
held-out 20 %; pieces needed, and the ratio (the tests require at most 1.15).

    python benchmarks/bench_unigram.py [--runs N]
"""

from __future__ import annotations

import argparse
import io
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _harness import child_main, machine_line, measure, print_table, summary, timed  # noqa: E402

VOCAB_SIZE = 1000  # sentencepiece's count, three control pieces included


def sp_train(text: str, vocab_size: int):
    import sentencepiece as spm

    model = io.BytesIO()
    spm.SentencePieceTrainer.train(
        sentence_iterator=iter(text.splitlines()), model_writer=model, vocab_size=vocab_size,
        model_type="unigram", normalization_rule_name="identity",
        remove_extra_whitespaces=False, minloglevel=2, num_threads=1)
    return spm.SentencePieceProcessor(model_proto=model.getvalue())


def ours() -> dict:
    from bpe_workshop import Unigram
    from bpe_workshop.files.corpora import load_english

    uni, facts = timed(lambda: Unigram.train(load_english(), VOCAB_SIZE - 3))
    return {**facts, "pieces": len(uni.scores)}


def theirs() -> dict:
    from bpe_workshop.files.corpora import load_english

    sp, facts = timed(lambda: sp_train(load_english(), VOCAB_SIZE))
    return {**facts, "pieces": sp.get_piece_size()}


CASES = {"Unigram.train": ours, "sentencepiece unigram": theirs}


def held_out_rows() -> list[list[object]]:
    from bpe_workshop import Unigram
    from bpe_workshop.files.corpora import load_english, split_held_out

    train, held_out = split_held_out(load_english(), fraction=0.2)
    lines = [line for line in held_out.splitlines() if line.strip()]
    rows = []
    for size in (500, 1000, 1400):  # the held-out split gives sentencepiece at most ~1,500
        sp = sp_train(train, size)
        uni = Unigram.train(train, size - 3)  # once per size, not once per line
        theirs = sum(len(sp.encode(line)) for line in lines)
        mine = sum(len(uni.tokenize(line)) for line in lines)
        rows.append([size, theirs, mine, f"{mine / theirs:.3f}"])
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3, help="runs of each trainer")
    args = parser.parse_args()
    print(machine_line())
    results = {case: summary(facts)
               for case, facts in measure(__file__, dict.fromkeys(CASES, args.runs)).items()}
    sp_cpu = results["sentencepiece unigram"]["cpu_s"]
    rows = [[case, r["runs"], f"{r['seconds']:.3f}", f"{r['cpu_s']:.3f}",
             f"{r['cpu_s'] / sp_cpu:.1f}x", f"{r['peak_mb']:.0f}",
             f"{r['peak_mb'] - r['base_mb']:.0f}", r["pieces"]] for case, r in results.items()]
    print_table(f"Training {VOCAB_SIZE} pieces on data/english.txt",
                ["trainer", "runs", "wall s", "CPU s", "CPU vs sentencepiece", "peak MB",
                 "job MB", "pieces"], rows)
    print_table("Pieces on the held-out 20 % of the book (trained on the rest)",
                ["vocab size", "sentencepiece", "ours", "ours / sentencepiece"],
                held_out_rows())


if __name__ == "__main__":
    if "--measure" in sys.argv:
        child_main(CASES)
    else:
        main()
