"""Encoding ~2 MB of standard-library code with GPT-2's merges: ours against tiktoken.

``ByteLevelBPE.from_tiktoken("gpt2")`` recovers GPT-2's merges from tiktoken's ranks; its
``encode`` (pure Python, with a per-chunk cache) must give exactly tiktoken's ids. Each run
builds the tokenizer before the clock starts and encodes the whole text once, in a fresh
process, so the cache starts empty. The script asserts that the ids are identical.

    python benchmarks/bench_encode.py [--runs N]
"""

from __future__ import annotations

import argparse
import hashlib
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

MAX_BYTES = 2_000_000


def load() -> str:
    from bpe_workshop.files.corpora import load_stdlib_code

    return load_stdlib_code(MAX_BYTES)


def digest(ids: list[int]) -> str:
    return hashlib.sha256(repr(ids).encode()).hexdigest()


def run_ours() -> dict:
    from bpe_workshop.tokenizers.byte_level import ByteLevelBPE

    text = load()
    tok = ByteLevelBPE.from_tiktoken("gpt2")
    ids, facts = timed(lambda: tok.encode(text))
    return {**facts, "ids": len(ids), "digest": digest(ids), "bytes": len(text.encode())}


def run_tiktoken() -> dict:
    from bpe_workshop.files.offline import get_encoding

    text = load()
    enc = get_encoding("gpt2")
    ids, facts = timed(lambda: enc.encode(text))
    return {**facts, "ids": len(ids), "digest": digest(ids), "bytes": len(text.encode())}


CASES = {"tiktoken": run_tiktoken, "ours": run_ours}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    print(f"## Encoding ~{MAX_BYTES / 1e6:.0f} MB of standard-library code with GPT-2: "
          f"ByteLevelBPE vs tiktoken\n\n{machine_line()}")
    try:
        from bpe_workshop.tokenizers.byte_level import ByteLevelBPE

        ByteLevelBPE.from_tiktoken  # noqa: B018
    except (ImportError, AttributeError):
        print("\nByteLevelBPE.from_tiktoken is not available: skipped.")
        return

    results = measure(__file__, {case: args.runs for case in CASES})
    theirs, ours = summary(results["tiktoken"]), summary(results["ours"])
    assert all(r["digest"] == theirs["digest"] for r in results["ours"]), "ids differ"
    ratio = ours["seconds"] / theirs["seconds"]
    rows = [
        ["tiktoken (Rust)", theirs["runs"], f"{theirs['seconds']:.3f}", f"{theirs['cpu_s']:.3f}",
         f"{theirs['peak_mb']:.0f}", f"{theirs['ids']:,}", "1.00", "1.00", ""],
        ["ByteLevelBPE.from_tiktoken('gpt2').encode", ours["runs"], f"{ours['seconds']:.3f}",
         f"{ours['cpu_s']:.3f}", f"{ours['peak_mb']:.0f}", f"{ours['ids']:,}", f"{ratio:.2f}",
         f"{ours['cpu_s'] / theirs['cpu_s']:.2f}", f"wall <= 2x: {verdict(ratio <= 2)}"],
    ]
    print_table(
        f"Encoding {theirs['bytes']:,} bytes (median of runs, each in a fresh process)",
        ["encoder", "runs", "wall s", "CPU s", "peak MB", "ids", "wall / tiktoken",
         "CPU / tiktoken", "target"],
        rows,
    )
    print(f"\nids identical in every run: {ours['ids']:,} ids, sha256 {ours['digest'][:16]}...")


if __name__ == "__main__":
    if "--measure" in sys.argv:
        child_main(CASES)
    else:
        main()
