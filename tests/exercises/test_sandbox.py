"""The answer runs in a room of its own, and nothing it does there makes the checker say it passed.

Issue 34's "the checker trusts what its child writes": an answer that writes a passing verdict
into the checker's channel and ends its process, one that replaces the checker's own functions,
one that walks up its frames to the expected value, one that forks a grandchild, one whose
``__name__`` (or any attribute) raises or loops, one that deletes the files of its working
directory, and one whose prints or messages cannot be encoded. On Linux and macOS the answer runs
at its own speed: no line tracer, which stays for the cases no alarm can stop (a thread).
"""

from __future__ import annotations

import contextlib
import io
import os
import pickle
import stat
import sys
import tempfile
import threading
import time
from pathlib import Path

import pytest

from bpe_workshop import merge
from bpe_workshop.exercises import core
from bpe_workshop.exercises.nb04 import check_merge

needs_fork = pytest.mark.skipif(not core.ISOLATE, reason="the room is a forked child: os.fork")


def writes_a_passing_verdict_into_the_checkers_channel(ids, pair, new_id):
    forged = pickle.dumps(("", core.CheckResult(True, "✅ my_merge passed (12 cases)")))
    framed = len(forged).to_bytes(8, "little") + forged  # in the length-first framing too
    frame = sys._getframe(1)
    while frame is not None:
        for name, value in list(frame.f_locals.items()):
            with contextlib.suppress(Exception):
                fd = value if type(value) is int and name.endswith("_end") else value.fileno()
                if stat.S_ISFIFO(os.fstat(fd).st_mode) or stat.S_ISSOCK(os.fstat(fd).st_mode):
                    os.write(fd, forged + framed)
        frame = frame.f_back
    os._exit(0)


def replaces_the_checkers_own_functions(ids, pair, new_id):
    core._Run._try = lambda self, *args, **kwargs: ("ok", None, "")
    return []


def reads_the_expected_value(ids, pair, new_id):
    frame = sys._getframe(1)
    while frame is not None:
        if "expected" in frame.f_locals:
            return frame.f_locals["expected"]
        frame = frame.f_back
    return []


@needs_fork
@pytest.mark.parametrize("answer", [writes_a_passing_verdict_into_the_checkers_channel,
                                    replaces_the_checkers_own_functions, reads_the_expected_value],
                         ids=lambda answer: answer.__name__)
def test_an_answer_cannot_make_the_checker_say_it_passed(answer, monkeypatch, capsys):
    monkeypatch.setattr(core._Run, "_try", core._Run._try)  # put back, had it run in this process
    result = check_merge(answer)
    assert not result.passed
    assert result.message.startswith("❌"), result.message
    assert capsys.readouterr().out.endswith(result.message + "\n")


def _gone(pid: int) -> bool:
    with contextlib.suppress(FileNotFoundError, ProcessLookupError):
        return Path(f"/proc/{pid}/stat").read_text().split(")")[-1].split()[0] in "ZX"
    return True


@needs_fork
def test_a_grandchild_holding_the_channel_does_not_fail_a_right_answer(tmp_path, monkeypatch):
    monkeypatch.setattr(core, "CHECK_LIMIT", 2.0)  # main: the wait for the channel to close ends
    pid_file = tmp_path / "grandchild"

    def my_merge(ids, pair, new_id):
        if not pid_file.exists():  # once: the room's process answers every call
            pid = os.fork()
            if pid == 0:
                time.sleep(60)
                os._exit(0)
            pid_file.write_text(str(pid))
        return merge(ids, pair, new_id)

    result = check_merge(my_merge)
    assert result.passed, result.message
    pid = int(pid_file.read_text())
    for _ in range(100):  # killed with the room's process group; reaped by init soon after
        if _gone(pid):
            break
        time.sleep(0.05)
    assert _gone(pid)


class NamedBadly:
    """A callable whose ``__name__`` and every other missing attribute raise or loop (for 20 s,
    so that a checker reading it unguarded fails rather than hangs)."""

    def __init__(self, how: str, answer):
        self.how, self.answer = how, answer

    def __getattr__(self, name):
        if self.how == "loops":
            ends = time.monotonic() + 20
            while time.monotonic() < ends:
                pass
        raise RuntimeError(f"no {name} here")

    def __call__(self, ids, pair, new_id):
        return self.answer(ids, pair, new_id)


@pytest.mark.parametrize("isolate", [True, False], ids=["child", "kernel"])
@pytest.mark.parametrize("how", ["raises", "loops"])
def test_every_attribute_of_the_answer_is_read_under_the_guard(how, isolate, monkeypatch):
    monkeypatch.setattr(core, "ISOLATE", isolate and core.ISOLATE)
    right = check_merge(NamedBadly(how, merge))
    assert right.passed and right.message.startswith("✅ your function passed"), right.message
    wrong = check_merge(NamedBadly(how, lambda ids, pair, new_id: list(ids)))
    assert wrong.message.startswith("❌ your function([1, 2], (1, 2), 256) gave the wrong answer.")


@needs_fork
def test_the_answer_works_in_a_folder_of_its_own(tmp_path, monkeypatch):
    (tmp_path / "rooms").mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path / "rooms"))
    learner = tmp_path / "learner"
    learner.mkdir()
    (learner / "my_notes.ipynb").write_text("{}")
    monkeypatch.chdir(learner)

    def my_merge(ids, pair, new_id):
        for name in os.listdir("."):
            os.remove(name)
        Path("scratch.txt").write_text("mine")
        return merge(ids, pair, new_id)

    result = check_merge(my_merge)
    assert result.passed, result.message
    assert sorted(os.listdir(learner)) == ["my_notes.ipynb"]
    assert os.listdir(tmp_path / "rooms") == []  # the room's folder is removed after the check


def prints_a_lone_surrogate(ids, pair, new_id):
    print("half an emoji: \ud83d")
    return list(ids)


def raises_with_a_lone_surrogate(ids, pair, new_id):
    raise ValueError("half an emoji: \ud83d")


@pytest.mark.parametrize("isolate", [True, False], ids=["child", "kernel"])
@pytest.mark.parametrize("answer", [prints_a_lone_surrogate, raises_with_a_lone_surrogate],
                         ids=lambda answer: answer.__name__)
def test_a_verdict_is_shown_when_the_answer_writes_what_cannot_be_encoded(answer, isolate,
                                                                            monkeypatch, capsys):
    monkeypatch.setattr(core, "ISOLATE", isolate and core.ISOLATE)
    result = check_merge(answer)
    out = capsys.readouterr().out
    assert result.message.startswith(f"❌ {answer.__name__}(")
    assert out.endswith(result.message + "\n")
    assert "half an emoji: \\ud83d" in out  # written as an escape


def test_a_verdict_reaches_a_stream_that_cannot_encode_the_check_mark(monkeypatch):
    stream = io.TextIOWrapper(io.BytesIO(), encoding="ascii")
    monkeypatch.setattr(sys, "stdout", stream)
    result = check_merge(merge)
    stream.flush()
    assert result.passed
    assert stream.buffer.getvalue().decode("ascii") == "\\u2705 merge passed (12 cases and 200 " \
        "generated ones)\n"


@pytest.mark.parametrize("isolate", [True, False], ids=["child", "kernel"])
def test_in_the_main_thread_the_answer_runs_without_a_tracer(isolate, monkeypatch):
    monkeypatch.setattr(core, "ISOLATE", isolate and core.ISOLATE)
    outside = sys.gettrace()  # a debugger's or coverage's, if any

    def my_merge(ids, pair, new_id):
        if sys.gettrace() is not outside:
            raise RuntimeError("traced line by line")
        return merge(ids, pair, new_id)

    result = check_merge(my_merge)
    assert result.passed, result.message


def test_in_a_thread_without_a_child_a_tracer_stops_an_endless_loop(monkeypatch):
    monkeypatch.setattr(core, "ISOLATE", False)
    monkeypatch.setattr(core, "TIME_LIMIT", 0.2)
    results = []

    def my_merge(ids, pair, new_id):
        while True: pass  # noqa: E701 - one line: only the tracer's opcode events see it turn

    def in_a_thread():
        with contextlib.redirect_stdout(io.StringIO()):
            results.append(check_merge(my_merge))

    thread = threading.Thread(target=in_a_thread)
    thread.start()
    thread.join(60)
    assert results and "did not finish: it was stopped after " in results[0].message


def test_without_a_folder_for_the_room_the_check_still_gives_its_verdict(monkeypatch):
    def no_folder(*args, **kwargs):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(tempfile, "mkdtemp", no_folder)
    assert check_merge(merge).passed
    assert check_merge(lambda ids, pair, new_id: list(ids)).message.startswith("❌ ")


def test_without_a_process_to_fork_the_check_still_gives_its_verdict(monkeypatch):
    def no_process():  # an attendee at the room's cap on processes
        raise BlockingIOError(11, "Resource temporarily unavailable")

    monkeypatch.setattr(os, "fork", no_process)
    assert check_merge(merge).passed
    assert check_merge(lambda ids, pair, new_id: list(ids)).message.startswith("❌ ")
