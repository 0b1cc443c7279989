"""How fast the steppers update: one slider move on a ~10,000-character passage, and more.

The goal (issue 4): a step updates in well under 100 ms, so play/pause looks smooth on a
projector. Measured here in one process, as a learner would use it: build the stepper once
(training plus precomputation, timed separately), then move the slider to steps it has not
shown yet (nothing cached) in a fixed shuffled order, and to steps it has shown (cached).
Wall time and CPU time are both printed: on a loaded shared machine the wall-clock maximum
includes time spent waiting for a core, while CPU time is the work a step costs; the goal is
judged on the CPU maximum. A step's time covers everything the kernel does: tokens of the
passage at that step, pair counts over the whole passage, and the three HTML strings written
to the widgets. The browser's own drawing is not included (see the real-browser test for that).
Also measured (issue 10): the HTML written per step and the render cache after 64 new steps on
the whole corpus, with pattern=None (one chunk of 47 KB) and with GPT-4's pattern.

    .venv/bin/python benchmarks/bench_widgets.py [--chars 10000] [--vocab-size 512] [--steps 60]
"""
from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _harness import machine_line, print_table, verdict  # noqa: E402

from bpe_workshop.files.corpora import load_english  # noqa: E402
from bpe_workshop.widgets import merge_stepper, word_stepper  # noqa: E402

GOAL_MS = 100.0
CACHE_STEPS_MEASURED = 64  # the stepper's render cache is measured after this many new steps


def html_bytes(widget) -> int:
    """Bytes of HTML (UTF-8) the merge stepper writes to its HTML widgets for one step."""
    return len(widget.value.encode("utf-8"))


def cache_bytes(widget) -> int:
    """Bytes of HTML (UTF-8) held in the merge stepper's render cache."""
    return sum(len(part.encode("utf-8")) for parts in widget._cache.values() for part in parts)


def size_row(name: str, corpus: str, pattern) -> list[object]:
    """Build a merge stepper on ``corpus``, show 64 new steps; HTML per step, cache, times."""
    began = time.perf_counter()
    widget = merge_stepper(corpus, vocab_size=512, pattern=pattern)
    build = time.perf_counter() - began
    steps = list(range(1, min(widget.num_steps, CACHE_STEPS_MEASURED) + 1))
    sizes, times = [], []
    for step in steps:
        wall = time.perf_counter()
        widget.slider.value = step
        times.append(time.perf_counter() - wall)
        sizes.append(html_bytes(widget))
    ms = sorted(t * 1e3 for t in times)
    return [name, f"{build:.1f}", len(steps), f"{statistics.median(sizes) / 1e3:,.1f}",
            f"{max(sizes) / 1e3:,.1f}", f"{cache_bytes(widget) / 1e6:,.2f}",
            f"{statistics.median(ms):.0f}", f"{ms[-1]:.0f}"]


def step_times(widget, steps: list[int]) -> list[tuple[float, float]]:
    """(wall seconds, CPU seconds) per slider move, one per step in ``steps``."""
    times = []
    for step in steps:
        wall, cpu = time.perf_counter(), time.process_time()
        widget.slider.value = step
        times.append((time.perf_counter() - wall, time.process_time() - cpu))
    return times


def row(name: str, times: list[tuple[float, float]]) -> list[object]:
    wall = sorted(t[0] * 1e3 for t in times)
    cpu = sorted(t[1] * 1e3 for t in times)
    p90 = wall[int(0.9 * (len(wall) - 1))]
    return [name, len(wall), f"{statistics.median(wall):.1f}", f"{p90:.1f}", f"{wall[-1]:.1f}",
            f"{statistics.median(cpu):.1f}", f"{cpu[-1]:.1f}", verdict(cpu[-1] < GOAL_MS)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--chars", type=int, default=10_000, help="passage length in characters")
    parser.add_argument("--vocab-size", type=int, default=512)
    parser.add_argument("--steps", type=int, default=60, help="slider moves to time")
    args = parser.parse_args()

    print(machine_line())
    text = load_english()[:args.chars]
    rng = random.Random(0)

    began = time.perf_counter()
    stepper = merge_stepper(text, vocab_size=args.vocab_size, pattern="gpt4")
    build = time.perf_counter() - began
    steps = list(range(1, stepper.num_steps + 1))
    rng.shuffle(steps)
    steps = steps[:args.steps]
    fresh = step_times(stepper, steps)  # none of these steps was shown before
    cached = step_times(stepper, steps[-20:])  # the last 20 are still in the cache
    playing = step_times(stepper, list(range(0, min(stepper.num_steps, args.steps))))  # play

    # notebook 04's case: the whole English corpus, a tokenizer trained on it
    corpus = load_english()
    began = time.perf_counter()
    whole = merge_stepper(corpus, vocab_size=args.vocab_size, pattern="gpt4")
    build_whole = time.perf_counter() - began
    whole_steps = rng.sample(range(1, whole.num_steps + 1), min(args.steps, whole.num_steps))
    whole_moves = step_times(whole, whole_steps)

    words = word_stepper(text, num_merges=200)
    word_moves = step_times(words, rng.sample(range(1, words.slider.max + 1),
                                              min(args.steps, words.slider.max)))

    print_table(
        "Merge stepper output size (vocab_size 512; the HTML written per step and the render "
        f"cache after {CACHE_STEPS_MEASURED} new steps)",
        ["passage, pattern", "build s", "steps", "median KB/step", "max KB/step", "cache MB",
         "median ms/step", "max ms/step"],
        [size_row(f"whole corpus ({len(corpus.encode()):,} bytes), pattern=None", corpus, None),
         size_row(f"whole corpus ({len(corpus.encode()):,} bytes), gpt4", corpus, "gpt4")],
    )

    print(f"\nPassage: {len(text):,} characters, {len(text.encode()):,} bytes; merge stepper "
          f"built in {build * 1e3:.0f} ms (training to vocab_size {args.vocab_size} with the "
          f"GPT-4 pattern, {stepper.num_steps} merges, plus precomputation); on the whole "
          f"corpus in {build_whole * 1e3:.0f} ms.")
    print_table(
        f"Widget update time per slider move (goal: every move under {GOAL_MS:.0f} ms)",
        ["widget, moves", "moves", "median ms", "p90 ms", "max ms", "CPU median ms",
         "CPU max ms", "goal (CPU max)"],
        [row("merge stepper, steps not shown before", fresh),
         row("merge stepper, steps shown before (cached)", cached),
         row("merge stepper, consecutive steps (play)", playing),
         row(f"merge stepper, whole corpus ({len(corpus.encode()):,} bytes), not shown before",
             whole_moves),
         row("word-level stepper, 200 merges", word_moves)],
    )


if __name__ == "__main__":
    main()
