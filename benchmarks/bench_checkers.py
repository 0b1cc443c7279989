"""How long an exercise checker takes to answer: hostile answers and the worked solutions.

Issue 27 asks that every checker answers within 10 s, whatever the learner's answer does. The
tests check what the verdict says; this script shows how long it takes. Each row runs in a fresh
process (``_harness``), the checker at its notebook settings (``core.TIME_LIMIT`` per call,
``core.CHECK_LIMIT`` per check; on Linux and macOS the answer runs in a forked child).

- Hostile answers, given to notebook 04's ``check_merge``: a list that contains itself, 40
  levels of shared sub-lists (2**40 paths), an exception whose ``__str__`` never returns, an
  answer whose ``__repr__`` never returns, ``sys.stdout`` replaced before failing, a
  2-million-character message, ten million prints, ``sum(range(10**10))`` (one call in C).
- Every checker of notebooks 00-09 with the worked solution from ``notebooks/solutions/``.
- The guard's own cost (issue 34): one ``merge`` of 600,000 ids alone, under the guard with its
  alarm (how the answer runs in the checker's child on Linux and macOS) and under the guard in a
  thread, where the line tracer watches every line (Windows, or a check run from a thread; before
  issue 34 every call ran under the tracer, so this row is also the old cost).

Columns: wall time (what the learner waits for, judged against the 10 s limit), CPU time of the
process and of the checker's child together, and the start of the verdict.

    python benchmarks/bench_checkers.py [--runs N] [--only 'merge 600k']
"""

from __future__ import annotations

import argparse
import importlib
import os
import random
import resource
import sys
import threading

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from _harness import child_main, machine_line, measure, print_table, summary, timed, verdict  # noqa: E402,E501

# the hostile answers the tests give every checker (tests/exercises/test_checkers_never_stop.py)
sys.path[:0] = [os.path.join(HERE, "..", "tests"), os.path.join(HERE, "..", "tests", "exercises")]
from test_checkers_never_stop import (  # noqa: E402
    contains_itself,
    hides_the_output_then_fails,
    holds_an_endless_repr,
    raises_a_long_message,
    raises_an_endless_message,
    shares_forty_levels,
)

LIMIT = 10.0  # seconds: issue 27's bound on a checker's answer
NOTEBOOKS = [f"{nn:02d}" for nn in range(10)]


def prints_ten_million_times(*args):
    for _ in range(10_000_000):
        print("still here")


def sums_in_c(*args):
    return sum(range(10**10))


HOSTILE = {"a list containing itself": contains_itself,
           "40 levels of shared sub-lists": shares_forty_levels,
           "a __str__ that never returns": raises_an_endless_message,
           "a __repr__ that never returns": holds_an_endless_repr,
           "sys.stdout replaced": hides_the_output_then_fails,
           "a 2-million-character message": raises_a_long_message,
           "ten million prints": prints_ten_million_times,
           "sum(range(10**10))": sums_in_c}


def checkers(nn: str) -> list[str]:
    """The exercises notebook ``nn`` checks, from its module's ``check_*`` functions."""
    module = importlib.import_module(f"bpe_workshop.exercises.nb{nn}")
    return sorted(name[len("check_"):] for name in dir(module) if name.startswith("check_"))


def answered(nn: str, name: str, answer_of) -> dict:
    """Time ``check_<name>`` of notebook ``nn`` on the answer ``answer_of()`` gives."""
    check = getattr(importlib.import_module(f"bpe_workshop.exercises.nb{nn}"), f"check_{name}")
    answer = answer_of()
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    result, facts = timed(lambda: check(answer))
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    child_cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    return {**facts, "all_cpu_s": facts["cpu_s"] + child_cpu, "passed": result.passed,
            "said": result.message.splitlines()[0][:60]}


def solution(nn: str, name: str):
    from notebook_files import definitions, notebook_path

    return definitions(notebook_path(nn, solutions=True))[f"my_{name}"]


GUARDS = {"alone": "merge(ids, pair, 256)",
          "alarm": "guarded(merge, ...) in the main thread: the alarm",
          "tracer": "guarded(merge, ...) in a thread: the line tracer"}


def merge_600k(how: str) -> dict:
    """One merge of 600,000 ids, ``how`` one of GUARDS."""
    from bpe_workshop import merge
    from bpe_workshop.exercises.sandbox import guarded

    ids = random.Random(0).choices(range(4), k=600_000)  # 1/16 of the pairs are (1, 2)

    def job():
        if how == "alone":
            return merge(ids, (1, 2), 256)
        if how == "alarm":
            return guarded(merge, ids, (1, 2), 256, time_limit=60)
        found = []
        thread = threading.Thread(target=lambda: found.append(
            guarded(merge, ids, (1, 2), 256, time_limit=60)))
        thread.start()
        thread.join()
        return found[0]

    result, facts = timed(job)
    return {**facts, "said": f"{len(result):,} ids after the merge"}


def cases() -> dict:
    found = {f"hostile: {label}": (lambda answer=answer: answered("04", "merge", lambda: answer))
             for label, answer in HOSTILE.items()}
    found.update({f"merge 600k: {how}": (lambda how=how: merge_600k(how)) for how in GUARDS})
    for nn in NOTEBOOKS:
        for name in checkers(nn):
            found[f"{nn} {name}, solution"] = (
                lambda nn=nn, name=name: answered(nn, name, lambda: solution(nn, name)))
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=1, help="runs of each case")
    parser.add_argument("--only", default="", help="the cases whose name starts with this, "
                        "e.g. --only 'merge 600k'")
    args = parser.parse_args()
    print(machine_line())
    results = measure(__file__, {case: args.runs for case in cases() if case.startswith(args.only)})
    if "merge 600k: alone" in results:
        rows, alone = [], summary(results["merge 600k: alone"])["seconds"]
        for how, label in GUARDS.items():
            r = summary(results.pop(f"merge 600k: {how}"))
            rows.append([label, f"{r['seconds']:.3f}", f"{r['cpu_s']:.3f}",
                         f"{r['seconds'] / alone:.1f}x", r["said"]])
        print_table("The guard's cost: one merge of 600,000 ids",
                    ["how", "wall s", "CPU s", "vs alone", "result"], rows)
    rows = []
    for case, facts in results.items():  # what is left: the checkers' answers
        r = summary(facts)
        all_cpu = sorted(f["all_cpu_s"] for f in facts)[len(facts) // 2]
        rows.append([case, f"{r['seconds']:.2f}", f"{all_cpu:.2f}", f"{LIMIT:.0f}",
                     verdict(r["max_s"] < LIMIT), r["said"]])
    if rows:
        print_table("How long a checker takes to answer (the slowest run against the limit)",
                    ["answer", "wall s", "CPU s", "limit s", "", "verdict"], rows)


if __name__ == "__main__":
    if "--measure" in sys.argv:
        child_main(cases())
    else:
        main()
