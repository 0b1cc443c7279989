"""One very long chunk against tiktoken, and what loading a model costs per byte of its file.

Rows, each in a fresh process (the job only: the tokenizer is built before the clock):

- ``encode("ab" * N)`` with GPT-2's merges, one chunk of 2N bytes (the pattern keeps a run of
  letters whole): ours (``ByteLevelBPE.from_tiktoken("gpt2")``, the heap merge loop of
  ``encode_fast``) and tiktoken's; the goal is at most 2x tiktoken's CPU time;
- ``ByteLevelBPE.load`` of a legal ``.model`` file of about ``--model-mb`` MB (byte pairs, then
  pairs of those pairs: tokens of 2 and 4 bytes); the goal is memory in proportion to the file,
  stated as peak resident memory added per byte of file.

    python benchmarks/bench_long_chunk_and_load.py [--runs N] [--chars N] [--model-mb M]
"""

from __future__ import annotations

import argparse
import itertools
import os
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _harness import child_main, machine_line, measure, print_table, summary, timed  # noqa: E402

CHARS = int(os.environ.get("BENCH_CHARS", 10_000_000))  # the long chunk: "ab" * (CHARS // 2)
MODEL_MB = float(os.environ.get("BENCH_MODEL_MB", 8))


def long_chunk(library: str) -> dict:
    from bpe_workshop import ByteLevelBPE
    from bpe_workshop.files.offline import get_encoding

    encoder = ByteLevelBPE.from_tiktoken("gpt2") if library == "ours" else get_encoding("gpt2")
    text = "ab" * (CHARS // 2)
    ids, facts = timed(lambda: encoder.encode(text))
    return {**facts, "out": f"{len(ids):,} ids", "ids_hash": hash(tuple(ids))}


def model_lines(target_bytes: int) -> list[str]:
    """The merge lines of a legal model: each byte pair, then pairs of those pairs."""
    lines, size = [], 0
    pairs = ((a, b) for a in range(256) for b in range(256))
    doubles = ((256 + a, 256 + b) for a in range(65536) for b in range(65536))
    for left, right in itertools.chain(pairs, doubles):
        line = f"{left} {right}"
        lines.append(line)
        size += len(line) + 1
        if size >= target_bytes:
            break
    return lines


def load_model() -> dict:
    from bpe_workshop import ByteLevelBPE

    merges = model_lines(int(MODEL_MB * 2**20))
    text = ("bpe-workshop byte-level v1\npattern none\nbyte-ids identity\nspecial-tokens 0\n"
            f"merges {len(merges)}\n" + "\n".join(merges) + "\n")
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "big.model"
        path.write_text(text, encoding="utf-8")
        tok, facts = timed(lambda: ByteLevelBPE.load(path))
        size = path.stat().st_size
    return {**facts, "file_mb": size / 2**20, "out": f"{len(tok.merges):,} merges"}


CASES = {"tiktoken gpt2, one chunk": lambda: long_chunk("tiktoken"),
         "ours gpt2, one chunk": lambda: long_chunk("ours"),
         "ByteLevelBPE.load": load_model}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=1, help="runs of each case")
    parser.add_argument("--chars", type=int, default=CHARS, help="length of the long chunk")
    parser.add_argument("--model-mb", type=float, default=MODEL_MB, help="size of the model file")
    args = parser.parse_args()
    os.environ["BENCH_CHARS"], os.environ["BENCH_MODEL_MB"] = str(args.chars), str(args.model_mb)
    print(machine_line())
    results = {case: summary(facts)
               for case, facts in measure(__file__, dict.fromkeys(CASES, args.runs)).items()}
    theirs, ours = results["tiktoken gpt2, one chunk"], results["ours gpt2, one chunk"]
    assert theirs["ids_hash"] == ours["ids_hash"], "ours and tiktoken's ids differ"
    rows = [[case, f"{r['seconds']:.2f}", f"{r['cpu_s']:.2f}",
             f"{r['peak_mb'] - r['base_mb']:.0f}", r["out"]] for case, r in results.items()]
    print_table(f"One chunk of {args.chars:,} characters; a model file of ~{args.model_mb} MB",
                ["case", "wall s", "CPU s", "peak MB added", "result"], rows)
    load = results["ByteLevelBPE.load"]
    added = load["peak_mb"] - load["base_mb"]
    print(f"\nours / tiktoken, CPU time on the long chunk: {ours['cpu_s'] / theirs['cpu_s']:.1f}x "
          "(goal: at most 2x)")
    print(f"load: {added:.0f} MB of peak memory added for a {load['file_mb']:.1f} MB file: "
          f"{added / load['file_mb']:.0f} bytes of memory per byte of file")


if __name__ == "__main__":
    if "--measure" in sys.argv:
        child_main(CASES)
    else:
        main()
