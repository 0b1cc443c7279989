"""Run every benchmark script in this folder, one after another, and print their tables.

``make bench`` calls this. A script is any ``*.py`` file here except this one and the helpers
whose names start with ``_``; each runs in its own process, in name order, with its output
passed straight through. The exit status is non-zero if any script failed.

    python benchmarks/run_all.py [NAME ...]   # e.g. bench_encode to run only that one
"""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent


def scripts(only: list[str]) -> list[Path]:
    found = sorted(p for p in HERE.glob("*.py")
                   if p.name != Path(__file__).name and not p.name.startswith("_"))
    if only:
        wanted = {name.removesuffix(".py") for name in only}
        unknown = wanted - {p.stem for p in found}
        if unknown:
            sys.exit(f"no benchmark script named {sorted(unknown)}; "
                     f"choose from {[p.stem for p in found]}")
        found = [p for p in found if p.stem in wanted]
    return found


def main() -> int:
    failed = []
    started = time.perf_counter()
    for script in scripts(sys.argv[1:]):
        print(f"\n{'=' * 100}\n# {script.name}\n{'=' * 100}", flush=True)
        began = time.perf_counter()
        status = subprocess.run([sys.executable, str(script)], cwd=HERE.parent).returncode
        print(f"\n[{script.name}: {time.perf_counter() - began:.0f} s, exit {status}]", flush=True)
        if status != 0:
            failed.append(script.name)
    print(f"\nAll benchmarks: {time.perf_counter() - started:.0f} s; "
          f"{'failed: ' + ', '.join(failed) if failed else 'all scripts succeeded'}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
