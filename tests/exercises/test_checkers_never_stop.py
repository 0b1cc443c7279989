"""No answer stops a checker: every checker of notebooks 00-07, fed hostile answers of every
kind, prints exactly one verdict and returns (issue: "a checker never stops Run All").

Hostile answers: wrong types (a str, counts as strings, int keys, a flat list of ints, a
generator), an answer whose ``==``/``bool`` raise (like a NumPy array), one whose ``repr`` raises,
``sys.exit()``, endless recursion, and endless loops (on one line; one that even catches
``Exception``). Only ``KeyboardInterrupt`` may pass through, and a debugger's tracer is left in
place. The time limit is lowered here so that the endless loops cost a tenth of a second each; the
notebooks use ``core.TIME_LIMIT``.
"""

from __future__ import annotations

import contextlib
import importlib
import io
import sys
import threading
import time

import pytest
from test_exercises import EXERCISES

from bpe_workshop import merge
from bpe_workshop.exercises import core


class ArrayLike:
    """Like a NumPy array: comparing gives no plain bool."""

    def __eq__(self, other):
        raise ValueError("The truth value of an array with more than one element is ambiguous.")

    __ne__ = __eq__

    def __bool__(self):
        raise ValueError("The truth value of an array with more than one element is ambiguous.")

    __hash__ = None

    def __repr__(self):
        return "array([1, 2])"


class BadRepr:
    def __repr__(self):
        raise RuntimeError("no repr")


def returns_text(*args):
    return "3"


def counts_as_strings(*args):
    return {(1, 2): "2", ("a", "b"): "1"}


def int_keys(*args):
    return {1: 2, 3: 4}


def list_of_ints(*args):
    return [1, 2, 3]


def a_generator(*args):
    return (i for i in range(3))


def array_like(*args):
    return ArrayLike()


def bad_repr(*args):
    return BadRepr()


def calls_sys_exit(*args):
    sys.exit()


def recurses_forever(*args):
    return recurses_forever(*args)


def loops_forever(*args):
    i = 0
    while i < 1:  # the classic: forgot to move the index
        pass


def loops_forever_on_one_line(*args):
    while True: pass  # noqa: E701 - one line: no line event per turn, the jump is still caught


def loops_forever_catching_exceptions(*args):
    while True:
        try:  # noqa: SIM105 - written the way a learner would
            args[99]
        except Exception:  # noqa: BLE001, S110 - the learner swallows errors
            pass


def contains_itself(*args):
    answer = [1]
    answer.append(answer)
    return answer


def shares_forty_levels(*args):
    answer = [1]
    for _ in range(40):  # 2**40 paths through 41 lists: repr and a naive walk never end
        answer = [answer, answer]
    return answer


class EndlessMessage(Exception):  # noqa: N818 - a learner's exception
    def __str__(self):
        while True:
            pass


def raises_an_endless_message(*args):
    raise EndlessMessage


class EndlessRepr:
    def __repr__(self):
        while True:
            pass


def holds_an_endless_repr(*args):
    return (EndlessRepr(),)  # a tuple: the container hint shows its items


def raises_a_long_message(*args):
    raise ValueError("x" * 2_000_000)


def hides_the_output_then_fails(*args):
    sys.stdout = io.StringIO()
    raise ValueError("the verdict must still be seen")


HOSTILE = [returns_text, counts_as_strings, int_keys, list_of_ints, a_generator, array_like,
           bad_repr, calls_sys_exit, recurses_forever, loops_forever, loops_forever_on_one_line,
           loops_forever_catching_exceptions, contains_itself, shares_forty_levels,
           raises_an_endless_message, holds_an_endless_repr, raises_a_long_message,
           hides_the_output_then_fails]
GUARDS = HOSTILE[-6:]  # issue: the guard covers what the checker does with the answer, too
NOT_CALLABLE = [ArrayLike(), BadRepr(), "3", None]  # what a learner may pass instead of a function


def checker(nn: str, name: str):
    return getattr(importlib.import_module(f"bpe_workshop.exercises.nb{nn}"), f"check_{name}")


@pytest.fixture(autouse=True)
def short_time_limit(monkeypatch):
    monkeypatch.setattr(core, "TIME_LIMIT", 0.1)


@pytest.mark.parametrize("hostile", HOSTILE, ids=[h.__name__ for h in HOSTILE])
@pytest.mark.parametrize(("nn", "name"), EXERCISES, ids=[f"{nn}-{name}" for nn, name in EXERCISES])
def test_every_checker_gives_one_verdict_for_a_hostile_answer(nn, name, hostile, capsys):
    tracer, stdout = sys.gettrace(), sys.stdout
    result = checker(nn, name)(hostile)
    assert sys.gettrace() is tracer  # the previous tracer (a debugger's, coverage's) is back
    assert sys.stdout is stdout
    assert len(result.message) < 1000  # reprs and messages cut short
    assert not result.passed
    assert result.message.startswith(("❌", "⏳"))
    assert capsys.readouterr().out == result.message + "\n"  # printed once, nothing else


@pytest.mark.parametrize("answer", NOT_CALLABLE, ids=lambda a: type(a).__name__)
@pytest.mark.parametrize(("nn", "name"), EXERCISES, ids=[f"{nn}-{name}" for nn, name in EXERCISES])
def test_every_checker_gives_one_verdict_for_a_value_instead_of_a_function(nn, name, answer,
                                                                           capsys):
    result = checker(nn, name)(answer)
    assert not result.passed
    assert capsys.readouterr().out == result.message + "\n"


def test_an_endless_loop_is_named_in_the_verdict():
    result = checker("04", "merge")(loops_forever)
    assert result.message.startswith(
        "❌ loops_forever([], (1, 2), 256) did not finish: it was stopped after ")
    assert "the limit being 0.1 s" in result.message
    assert "loop that never ends" in result.message


OTHER_CELL = {}  # a helper the learner defined in another cell: its code is in another "file"
exec(compile("def spin():\n    while True: pass\n", "<ipython-input-7>", "exec"), OTHER_CELL)


def helper_in_another_cell_spins(*args):
    OTHER_CELL["spin"]()


def sleeps(*args):
    time.sleep(40)  # a call into C: no Python line runs for the tracer to stop


def recurses_then_loops(*args):
    def down(n):
        return down(n + 1)
    with contextlib.suppress(RecursionError):  # CPython drops the tracer here
        down(0)
    while True:
        pass


@pytest.mark.parametrize("answer", [sleeps, recurses_then_loops, helper_in_another_cell_spins])
def test_a_stuck_call_is_stopped_by_the_time_limit(answer):
    result = checker("04", "merge")(answer)  # how long it takes: benchmarks/bench_checkers.py
    assert result.attempted and not result.passed
    assert f"{answer.__name__}([], (1, 2), 256) did not finish: it was stopped after " in \
        result.message
    assert "the limit being 0.1 s" in result.message
    assert "interrupt" not in result.message  # stopped by the alarm, not after the sleep ended


def starts_a_thread(ids, pair, new_id):
    threading.Thread(target=time.sleep, args=(1,), name="spinner", daemon=True).start()
    return merge(ids, pair, new_id)


def test_a_thread_the_answer_starts_ends_with_its_process():
    result = checker("04", "merge")(starts_a_thread)
    assert result.passed, result.message  # the right answer, whatever else it started
    assert "spinner" not in {thread.name for thread in threading.enumerate()}  # not in the kernel


class AlwaysEqual:
    def __eq__(self, other):
        return True

    __hash__ = None


@pytest.mark.parametrize(("nn", "name"), EXERCISES, ids=[f"{nn}-{name}" for nn, name in EXERCISES])
def test_an_answer_that_equals_everything_fails_every_checker(nn, name):
    answer = AlwaysEqual()  # the answer itself, or a function returning it
    result = checker(nn, name)(answer if name == "first_wrong_step" else lambda *args: answer)
    assert result.attempted and not result.passed
    assert "return plain Python values" in result.message


def test_a_tuple_for_a_list_is_told_the_container():
    result = checker("04", "merge")(lambda ids, pair, new_id: tuple(merge(ids, pair, new_id)))
    assert "hint: return a list, not a tuple." in result.message
    assert "the values are right" not in result.message  # the smallest case is empty: no claim


def test_the_function_name_in_quotes_is_told_to_drop_them():
    result = checker("04", "merge")("my_merge")
    assert "pass the function itself, without quotes: check_merge(my_merge)" in result.message


def test_sys_exit_is_named_in_the_verdict():
    result = checker("04", "merge")(calls_sys_exit)
    assert "called sys.exit() (SystemExit)" in result.message


def test_an_answer_whose_comparison_raises_is_a_wrong_answer():
    result = checker("03", "first_wrong_step")(ArrayLike())
    assert result.message.startswith("❌ my_first_wrong_step gave the wrong answer.")
    assert "got:      array([1, 2])" in result.message
    assert "comparing it with == means nothing: it holds an object made by ArrayLike" in \
        result.message


def test_the_kernel_interrupt_still_stops_a_checker():
    def interrupted(*args):
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        checker("04", "merge")(interrupted)


def test_no_time_limit_is_left_pending_after_a_checker():
    checker("04", "merge")(loops_forever)
    deadline = time.monotonic() + 1.5  # three times the limit: a stray TimeUp would land here
    while time.monotonic() < deadline:
        pass


def test_a_previous_tracer_is_restored_and_keeps_tracing():
    calls = []

    def tracer(frame, event, arg):
        calls.append(event)
        return None

    def my_merge(ids, pair, new_id):
        return list(ids)

    sys.settrace(tracer)
    try:
        checker("04", "merge")(my_merge)
        assert sys.gettrace() is tracer
    finally:
        sys.settrace(None)


@pytest.mark.parametrize("hostile", GUARDS, ids=[h.__name__ for h in GUARDS])
@pytest.mark.parametrize("nn_name", [("04", "merge"), ("05", "word_table"), ("09", "best_path")],
                         ids=lambda nn_name: "-".join(nn_name))
def test_the_guards_hold_without_a_child_process_too(nn_name, hostile, monkeypatch, capsys):
    monkeypatch.setattr(core, "ISOLATE", False)  # as on Windows: the answer runs in the kernel
    stdout = sys.stdout
    result = checker(*nn_name)(hostile)
    assert sys.stdout is stdout  # put back, though the answer replaced it
    assert not result.passed and len(result.message) < 1000
    assert capsys.readouterr().out == result.message + "\n"


@pytest.mark.parametrize("isolate", [True, False], ids=["child", "kernel"])
def test_a_flood_of_prints_ends_on_its_own_line_with_a_hint_about_output(isolate, monkeypatch,
                                                                         capsys):
    monkeypatch.setattr(core, "ISOLATE", isolate and core.ISOLATE)
    monkeypatch.setattr(core, "TIME_LIMIT", 1.0)

    def my_merge(ids, pair, new_id):
        while True:
            print("still here", end="")  # no line break: the verdict must not glue on

    result = my_merge and checker("04", "merge")(my_merge)
    out = capsys.readouterr().out
    assert "after printing" in result.message and "print less" in result.message
    assert "loop that never ends" not in result.message
    assert out.endswith("\n" + result.message + "\n")  # on its own line, after the prints
    assert len(out) < core.MAX_PRINTED + 2 * len(result.message)  # the prints are cut short


@pytest.mark.skipif(not core.ISOLATE, reason="a forked child needs os.fork (Linux, macOS)")
def test_a_long_call_in_c_is_stopped_with_its_process(monkeypatch):
    monkeypatch.setattr(core, "CHECK_LIMIT", 1.0)

    def my_merge(ids, pair, new_id):
        return sum(range(10**10))  # one call into C: no signal or tracer can stop it

    result = checker("04", "merge")(my_merge)
    assert result.message.startswith("❌ my_merge([], (1, 2), 256) did not finish: it ran on "
                                     "past 1 s inside one step that Python cannot interrupt")


def sum_taking_cpu_seconds(seconds: float) -> int:
    """How far ``sum(range(n))`` (one call in C) must count to take ``seconds`` of CPU time here,
    measured, so that the test below holds on a machine of any speed (wall time is never less)."""
    n, took = 10**6, 0.0
    while took < 0.2:
        n *= 2
        started = time.process_time()
        sum(range(n))
        took = time.process_time() - started
    return int(n * seconds / took)


def test_without_a_child_a_long_call_in_c_is_named_when_it_ends(monkeypatch):
    monkeypatch.setattr(core, "ISOLATE", False)
    monkeypatch.setattr(core, "TIME_LIMIT", 0.2)
    n = sum_taking_cpu_seconds(1.6)  # past the limit by more than the 1 s that names C

    def my_merge(ids, pair, new_id):
        return sum(range(n))  # seconds in C: the alarm waits for it to end

    result = checker("04", "merge")(my_merge)
    assert "when a step in C that cannot be interrupted ended" in result.message
    assert "huge repetition" in result.message.split("hint:")[1]


def test_a_message_that_never_ends_or_is_huge_is_cut_like_a_repr():
    result = checker("09", "best_path")(raises_an_endless_message)
    assert "raised test_checkers_never_stop.EndlessMessage: (its message could not be shown: " \
           "str did not finish)" in result.message
    first_line = checker("09", "best_path")(raises_a_long_message).message.splitlines()[0]
    assert "raised ValueError: xxx" in first_line and first_line.endswith("x ...")
    assert len(first_line) < 2 * core.MAX_SHOWN + 100  # the call's arguments and the message


def test_an_answer_of_forty_shared_levels_gets_a_verdict_that_names_it():
    result = checker("04", "merge")(shares_forty_levels)
    assert "got:      <a list whose repr did not finish>" in result.message
