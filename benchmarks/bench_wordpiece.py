"""WordPiece training on ``data/english.txt``: ``WordPiece.train`` against Hugging Face's trainer.

Rows, each trainer learning a vocabulary of 2,000 pieces (``[UNK]`` and the alphabet included)
from the whole of ``data/english.txt`` (about 47 KB), words split by the BERT pre-tokenizer:

- ``WordPiece.train(text, 2000)``: the textbook score freq(ab) / (freq(a) * freq(b)), frequent
  pairs first, with incremental pair counts (pure Python);
- ``tokenizers`` ``WordPieceTrainer`` (Rust, one thread), which counts pairs like BPE.

Columns: wall and CPU medians, peak and job memory, pieces learned, CPU time relative to
``tokenizers``. Then, for the quality beside the speed, both trainers learn from alternate
paragraphs and tokenize the others: pieces needed on that held-out half, and the ratio (the
tests require at most 1.15). Skipped with a note when ``tokenizers`` is not installed.

    python benchmarks/bench_wordpiece.py [--runs N]
"""

from __future__ import annotations

import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _harness import child_main, machine_line, measure, print_table, summary, timed  # noqa: E402

VOCAB_SIZE = 2000


def hf_train(text: str, vocab_size: int) -> list[str]:
    from tokenizers import Tokenizer, models, pre_tokenizers, trainers

    tokenizer = Tokenizer(models.WordPiece(unk_token="[UNK]"))
    tokenizer.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
    trainer = trainers.WordPieceTrainer(vocab_size=vocab_size, special_tokens=["[UNK]"],
                                        show_progress=False)
    tokenizer.train_from_iterator([text], trainer)
    return list(tokenizer.get_vocab())


def ours() -> dict:
    from bpe_workshop import WordPiece
    from bpe_workshop.files.corpora import load_english

    text = load_english()
    wp, facts = timed(lambda: WordPiece.train(text, VOCAB_SIZE))
    return {**facts, "pieces": len(wp.vocab)}


def theirs() -> dict:
    from bpe_workshop.files.corpora import load_english

    text = load_english()
    vocab, facts = timed(lambda: hf_train(text, VOCAB_SIZE))
    return {**facts, "pieces": len(vocab)}


CASES = {"WordPiece.train": ours, "tokenizers WordPieceTrainer": theirs}


def held_out_rows() -> list[list[object]]:
    from bpe_workshop import WordPiece
    from bpe_workshop.files.corpora import load_english

    paragraphs = [p for p in load_english().split("\n\n") if p.strip()]
    train, held_out = "\n\n".join(paragraphs[0::2]), "\n\n".join(paragraphs[1::2])
    rows = []
    for size in (500, 1000, 2000):
        theirs = len(WordPiece(hf_train(train, size)).tokenize(held_out))
        counts = [len(WordPiece.train(train, size, frequent_first=first).tokenize(held_out))
                  for first in (True, False)]
        rows.append([size, theirs, *counts, *(f"{n / theirs:.3f}" for n in counts)])
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="runs of each trainer")
    args = parser.parse_args()
    try:
        import tokenizers  # noqa: F401
    except ImportError:
        print("skipped: Hugging Face tokenizers is not installed (pip install -e '.[bench]')")
        return
    print(machine_line())
    results = {case: summary(facts)
               for case, facts in measure(__file__, dict.fromkeys(CASES, args.runs)).items()}
    hf_cpu = results["tokenizers WordPieceTrainer"]["cpu_s"]
    rows = [[case, r["runs"], f"{r['seconds']:.3f}", f"{r['cpu_s']:.3f}",
             f"{r['cpu_s'] / hf_cpu:.1f}x", f"{r['peak_mb']:.0f}",
             f"{r['peak_mb'] - r['base_mb']:.0f}", r["pieces"]] for case, r in results.items()]
    print_table(f"Training {VOCAB_SIZE} pieces on data/english.txt",
                ["trainer", "runs", "wall s", "CPU s", "CPU vs tokenizers", "peak MB", "job MB",
                 "pieces"], rows)
    print_table("Pieces on held-out paragraphs (trained on the other half)",
                ["vocab size", "tokenizers", "ours", "score alone", "ours / tokenizers",
                 "score alone / tokenizers"], held_out_rows())


if __name__ == "__main__":
    if "--measure" in sys.argv:
        child_main(CASES)
    else:
        main()
