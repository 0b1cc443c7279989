"""What every benchmark script shares: one subprocess per measurement, medians, a table.

Each measurement runs in a fresh Python process (``script --measure CASE``), so its peak memory
(the process's maximum resident set size, ``ru_maxrss``) is not inflated by earlier runs and the
numbers of different tools are comparable: every child pays for the same interpreter, imports
and loaded corpus. Wall time is measured inside the child around the job only (a text in,
merges or ids out), not the interpreter's start-up.

A script using this module defines ``CASES = {name: function}``; each function loads what it
needs, then calls ``timed(job)`` and returns its result, a dict of extra facts to print.
"""

from __future__ import annotations

import json
import os
import platform
import resource
import statistics
import subprocess
import sys
import time
from collections.abc import Callable

# The prefix of the child's one line of JSON on stdout; anything else it prints is ignored.
_MARK = "@@bench@@ "


def peak_rss_mb() -> float:
    """Peak resident memory of this process so far, in MB (Linux reports ru_maxrss in KB)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def cpu_seconds() -> float:
    """CPU time this process has used (user + system), all threads together."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def timed(job: Callable[[], object]) -> tuple[object, dict]:
    """Run ``job()`` once; return its result and {seconds, cpu_s, base_mb, peak_mb}.

    ``seconds`` is wall time; ``cpu_s`` the CPU time used, which moves less when other
    processes compete for the cores. ``base_mb`` is the peak before the job (interpreter,
    imports, corpus), ``peak_mb`` after it.
    """
    base_mb = peak_rss_mb()
    cpu_start, start = cpu_seconds(), time.perf_counter()
    result = job()
    seconds, cpu_s = time.perf_counter() - start, cpu_seconds() - cpu_start
    return result, {"seconds": seconds, "cpu_s": cpu_s, "base_mb": base_mb,
                    "peak_mb": peak_rss_mb()}


def child_main(cases: dict[str, Callable[[], dict]]) -> None:
    """In the child: run the case named on the command line, print its facts as JSON."""
    name = sys.argv[sys.argv.index("--measure") + 1]
    facts = cases[name]()
    print(_MARK + json.dumps(facts), flush=True)


def measure_once(script: str, case: str, timeout: float = 600) -> dict:
    """Run ``case`` of ``script`` in a fresh process; return the facts it printed."""
    env = dict(os.environ, RAYON_NUM_THREADS="1", TOKENIZERS_PARALLELISM="false")
    out = subprocess.run(
        [sys.executable, script, "--measure", case],
        capture_output=True, text=True, env=env, timeout=timeout, check=False,
    )
    lines = [line for line in out.stdout.splitlines() if line.startswith(_MARK)]
    if out.returncode != 0 or not lines:
        raise RuntimeError(f"{case} failed (exit {out.returncode}):\n{out.stderr[-3000:]}")
    return json.loads(lines[-1][len(_MARK):])


def measure(script: str, cases: dict[str, int]) -> dict[str, list[dict]]:
    """Run each case of ``script`` the given number of times, one fresh process per run.

    Runs are interleaved (a, b, c, a, b, c, ...) so that a burst of load from other processes
    on a shared machine falls on every case alike rather than on one of them.
    """
    results = {case: [] for case in cases}  # case -> facts of each run
    for round_ in range(max(cases.values(), default=0)):
        for case, runs in cases.items():
            if round_ < runs:
                results[case].append(measure_once(script, case))
    return results


def summary(results: list[dict]) -> dict:
    """Median seconds and peak memory over runs, plus the spread of the times."""
    times = [r["seconds"] for r in results]
    return {
        **results[-1],
        "seconds": statistics.median(times),
        "cpu_s": statistics.median(r["cpu_s"] for r in results),
        "min_s": min(times),
        "max_s": max(times),
        "peak_mb": statistics.median(r["peak_mb"] for r in results),
        "base_mb": statistics.median(r["base_mb"] for r in results),
        "runs": len(results),
    }


def print_table(title: str, headers: list[str], rows: list[list[object]]) -> None:
    """Print a plain-text table (GitHub-flavoured Markdown, readable as is)."""
    cells = [[str(c) for c in headers]] + [[str(c) for c in row] for row in rows]
    widths = [max(len(row[i]) for row in cells) for i in range(len(headers))]

    def line(row: list[str]) -> str:
        return "| " + " | ".join(c.ljust(w) for c, w in zip(row, widths)) + " |"

    print(f"\n### {title}\n")
    print(line(cells[0]))
    print("|" + "|".join("-" * (w + 2) for w in widths) + "|")
    for row in cells[1:]:
        print(line(row))
    sys.stdout.flush()


def machine_line() -> str:
    """One line saying where the numbers come from (they move with the machine's load)."""
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    return (
        f"Python {platform.python_version()} on {platform.machine()}, {os.cpu_count()} cores, "
        f"load average {load:.1f} at start (a shared machine: timings are noisy; ratios are "
        "measured in the same run)"
    )


def verdict(ok: bool) -> str:
    return "met" if ok else "MISSED"
