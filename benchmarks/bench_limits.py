"""Unigram and WordPiece on hostile inputs: each time against the limit it must stay under.

Rows, each in a fresh process (the job only: a model is built before the clock). The verdict is
on CPU time, what the job costs on a core of its own; wall time moves with the machine's load.

- Unigram, notebook 09's vocabulary plus one 3,000-character piece, on 5,000 ordinary
  characters of ``data/english.txt`` (limit 1 s; 37 s before the trie);
- Unigram, notebook 09's model (``Unigram.train`` on 90 % of the book, 1,000 pieces), on 10 MB
  of English (the book repeated; limit 30 s; more than 60 s and 1.7 GB before word splitting);
- WordPiece at ``max_word_length=MAX_WORD_LENGTH`` on one 5,000-letter word (limit 1 s; 12 s
  when the cut was cubic);
- ``Unigram.train`` and ``WordPiece.train`` on one word of a million characters (limit 5 s:
  an answer, not a ``MemoryError`` after 48 s).

    python benchmarks/bench_limits.py [--runs N]
"""

from __future__ import annotations

import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _harness import child_main, machine_line, measure, print_table, summary, timed, verdict  # noqa: E402,E501


def notebook_unigram():
    from bpe_workshop import Unigram
    from bpe_workshop.files.corpora import load_english, split_held_out

    return Unigram.train(split_held_out(load_english(), fraction=0.1)[0], 1000)


def long_piece() -> dict:
    from bpe_workshop import Unigram
    from bpe_workshop.files.corpora import load_english

    uni = Unigram([*notebook_unigram().scores.items(), ("a" * 3000, -20.0)])
    text = load_english()[:5000]
    pieces, facts = timed(lambda: uni.tokenize(text))
    return {**facts, "out": f"{len(pieces):,} pieces"}


def ten_megabytes() -> dict:
    from bpe_workshop.files.corpora import load_english

    uni, book = notebook_unigram(), load_english()
    text = (book * (10_000_000 // len(book) + 1))[:10_000_000]
    pieces, facts = timed(lambda: uni.tokenize(text))
    return {**facts, "out": f"{len(pieces):,} pieces"}


def long_word() -> dict:
    from bpe_workshop import WordPiece
    from bpe_workshop.algorithm.wordpiece import MAX_WORD_LENGTH
    from bpe_workshop.files.corpora import load_english

    book = load_english()
    wp = WordPiece(list(WordPiece.train(book, 1000).vocab), max_word_length=MAX_WORD_LENGTH)
    word = "".join(char for char in book if char.isascii() and char.islower())[:5000]
    pieces, facts = timed(lambda: wp.tokenize_word(word))
    return {**facts, "out": f"{len(pieces):,} pieces"}


def huge_word(trainer: str) -> dict:
    import bpe_workshop

    def job():
        try:
            return f"{len(getattr(bpe_workshop, trainer).train('a' * 1_000_000, 20).vocab)} pieces"
        except ValueError as err:
            return f"ValueError: {str(err)[:60]}..."

    said, facts = timed(job)
    return {**facts, "out": said}


CASES = {"Unigram, a 3,000-character piece, 5,000 characters": long_piece,
         "Unigram, notebook 09's model, 10 MB of English": ten_megabytes,
         "WordPiece, max_word_length=10,000, a 5,000-letter word": long_word,
         "Unigram.train('a' * 1,000,000, 20)": lambda: huge_word("Unigram"),
         "WordPiece.train('a' * 1,000,000, 20)": lambda: huge_word("WordPiece")}
LIMITS = [1.0, 30.0, 1.0, 5.0, 5.0]  # seconds, in the order of CASES


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=1, help="runs of each case")
    args = parser.parse_args()
    print(machine_line())
    results = measure(__file__, dict.fromkeys(CASES, args.runs))
    rows = []
    for (case, facts), limit in zip(results.items(), LIMITS):
        r = summary(facts)
        rows.append([case, f"{r['seconds']:.3f}", f"{r['cpu_s']:.3f}", f"{limit:.0f}",
                     verdict(r["cpu_s"] < limit), f"{r['peak_mb']:.0f}", r["out"]])
    print_table("Hostile inputs, each against its limit",
                ["case", "wall s", "CPU s", "limit s", "", "peak MB", "result"], rows)


if __name__ == "__main__":
    if "--measure" in sys.argv:
        child_main(CASES)
    else:
        main()
