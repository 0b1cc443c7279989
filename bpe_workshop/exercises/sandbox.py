"""The sandbox: the one room where a learner's code runs, and the guard around it.

A :class:`Room` runs the checker's lines around each call of the answer in a child forked on Linux
and macOS, in a temporary working directory and a process group of its own, holding no file or
socket of the kernel's but stdio, forked before any expected value exists; it sends back bytes read
as Python's own types and nothing else. Whatever the answer does there (``os._exit``, a call stuck
in C, a grandchild holding the channel, deleting files, writing to every pipe or socket, replacing
the checker's functions), the kernel and the learner's folder are untouched and the checker decides
the verdict from data. Elsewhere (Windows, ``fork=False``) the calls run in this process, their
replies read the same way. :func:`guarded` is the time limit. Left out: in this process, code
that catches ``BaseException`` and loops on, and threads the answer leaves running.
"""

from __future__ import annotations

import contextlib
import gc
import io
import os
import pickle
import shutil
import signal
import socket
import sys
import tempfile
import threading
import time
import types
import warnings
from collections import Counter, OrderedDict, defaultdict
from collections.abc import Callable

HONEST = (Counter, defaultdict, OrderedDict)  # subclasses of dict whose == is dict's own
PLAIN = {(kind.__module__, kind.__name__) for kind in (  # what a reply may be built of
    int, float, complex, str, bytes, bytearray, list, dict, set, frozenset, tuple, bool, *HONEST)}
PLAIN.add(("builtins", "Ellipsis"))


class TimeUp(BaseException):
    """Raised in the learner's code past the time limit (``except Exception:`` cannot stop it)."""


_guards: list[tuple[float, object]] = []  # the guards now running: (deadline, a token of its own)


def guarded(func: Callable, *args, time_limit: float):
    """``func(*args)``, stopped with :class:`TimeUp` after ``time_limit`` seconds.

    An alarm where there is one (POSIX, the main thread): it stops a call stuck in C as well
    (``time.sleep(100)``) and costs nothing while the code runs. Elsewhere (Windows, a thread) a
    line tracer, put back after, which slows the code it watches (benchmarks/bench_checkers.py).
    ``sys.stdout`` and ``sys.stderr`` are put back too. Guards nest: an inner one never outlives
    the one around it.

    >>> def forever():
    ...     while True: pass
    >>> guarded(forever, time_limit=0.1)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    bpe_workshop.exercises.sandbox.TimeUp: stopped after ... s
    """
    started = time.monotonic()
    deadline = min([started + time_limit, *(guard[0] for guard in _guards)])
    own_file = func.__code__.co_filename if type(func) is types.FunctionType else None  # no call
    me = (deadline, object())  # unequal to every other guard, even one with the same deadline

    def time_up(signum=None, frame=None):
        if frame is not None and frame.f_code is guarded.__code__:
            return  # subtle: never in a guard's own clean-up; the alarm comes again in 0.25 s
        if me in _guards and (now := time.monotonic()) > deadline - 0.05:
            late = ", when a step in C that cannot be interrupted ended" * (now > deadline + 1)
            raise TimeUp(f"stopped after {now - started:.1f} s{late}")
        if not _guards:  # an alarm late from a guard that has ended
            signal.setitimer(signal.ITIMER_REAL, 0)

    def tracer(frame, event, arg):
        if time.monotonic() > deadline:
            time_up()
        if event == "call" and frame.f_code.co_filename == own_file:
            # subtle: `while True: pass` on one line gives no line events, so in the learner's
            # own cell every instruction is traced; elsewhere lines are enough
            frame.f_trace_opcodes = True
        return tracer  # trace the lines of every frame, so a loop anywhere is caught

    alarm = hasattr(signal, "setitimer") and threading.current_thread() is threading.main_thread()
    previous_tracer, streams = sys.gettrace(), (sys.stdout, sys.stderr)
    if alarm:
        previous_handler = signal.signal(signal.SIGALRM, time_up)
        signal.setitimer(signal.ITIMER_REAL, max(deadline - started, 1e-3), 0.25)
    else:
        sys._getframe().f_trace = None  # an outer guard's tracer must not stop this one's cleanup
        sys.settrace(tracer)
    _guards.append(me)
    try:
        return func(*args)
    finally:  # subtle: no Python call in here (a new frame could be stopped by TimeUp)
        sys.settrace(previous_tracer)
        sys.stdout, sys.stderr = streams
        _guards.remove(me)
        if alarm:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, previous_handler)
            if _guards:  # the guard around this one keeps its own alarm
                signal.setitimer(signal.ITIMER_REAL, max(_guards[-1][0] - time.monotonic(), 1e-3),
                                 0.25)


def safely(work: Callable, *args, limit: float, failed: Callable[[BaseException], object]):
    """``work(*args)`` within ``limit`` seconds, or ``failed(error)`` if it raises or runs out of
    time: the one way the checker touches the learner's code and objects."""
    try:
        return guarded(work, *args, time_limit=limit)
    except KeyboardInterrupt:
        raise
    except BaseException as err:  # noqa: BLE001 - the learner's code or object, any failure
        return failed(err)


class _Plain(pickle.Unpickler):
    def find_class(self, module: str, name: str):
        if (module, name) in PLAIN:
            return super().find_class(module, name)
        raise pickle.UnpicklingError(f"it holds an object made by {name}, not plain data")


def plain(data: bytes) -> object:
    """``data`` unpickled when it holds Python's own types only; else UnpicklingError.

    >>> plain(pickle.dumps({"a": [1, (2.0, b"x")]}))
    {'a': [1, (2.0, b'x')]}
    """
    return _Plain(io.BytesIO(data)).load()


class Room(contextlib.AbstractContextManager):
    """Where the answer runs: :meth:`ask` calls ``getattr(target, name)(*args)`` in a child forked
    here when ``fork`` (else in this process) and reads its value as plain data; ``stream`` (a
    text stream) gets what is printed there, ``printed`` is what it kept and ``count`` how many
    characters were printed, ``lost`` says why the child stopped replying: ``stuck`` (no reply
    in the time given: a call stuck in C) or ``ended`` (the process ended, or sent what is not
    plain data). The child answers request after request until the room is closed, then ends
    with its process group and every thread the answer started; its temporary working directory
    is removed.

    >>> with Room([3, 1, 2], stream=io.StringIO(), fork=True) as room:
    ...     room.ask("index", 2, until=time.monotonic() + 5), room.lost
    (2, '')
    """

    def __init__(self, target: object, *, stream: io.StringIO, fork: bool):
        self.target, self.stream, self.pid = target, stream, None
        self.lost, self.printed, self.count = "", "", 0
        if not fork:
            return
        made = []  # how to undo what was made, if no child can be had
        gc.freeze()  # the child's collector leaves the kernel's objects alone: fewer pages copied
        try:
            self.channel, there = socket.socketpair()
            made += [self.channel.close, there.close]
            self.folder = tempfile.mkdtemp(prefix="bpe-check-")
            made.append(lambda: shutil.rmtree(self.folder, ignore_errors=True))
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", DeprecationWarning)  # the kernel's threads
                self.pid = os.fork()
        except OSError:  # no socket, folder or process (an attendee at the room's cap on
            for undo in made:  # processes) to be had: the calls run in this process
                undo()
            return
        finally:
            gc.unfreeze()
        if self.pid == 0:  # the child: never returns
            try:
                os.closerange(3, there.fileno())  # the kernel's sockets and files: out of
                os.closerange(there.fileno() + 1, os.sysconf("SC_OPEN_MAX"))  # the answer's reach
                os.setpgid(0, 0)  # its grandchildren end with it
                os.chdir(self.folder)  # the files it writes or deletes are its own
                requests = there.makefile("rb")
                while True:  # until the checker closes the channel: then load raises EOFError
                    request = pickle.load(requests)  # noqa: S301 - the checker's own
                    try:
                        reply = self._reply(*request)
                    except KeyboardInterrupt:
                        reply = "interrupt"
                    there.sendall(pickle.dumps(reply, protocol=5))
            finally:
                os._exit(0)
        there.close()
        self.replies = self.channel.makefile("rb")
        with contextlib.suppress(OSError):
            os.setpgid(self.pid, self.pid)

    def __exit__(self, *exc) -> None:
        if self.pid:
            self.replies.close()
            self.channel.close()
            for kill in (os.killpg, os.kill):  # the group, and the child had it no group yet
                with contextlib.suppress(OSError):
                    kill(self.pid, signal.SIGKILL)
            os.waitpid(self.pid, 0)
            shutil.rmtree(self.folder, ignore_errors=True)

    def ask(self, name: str, *args, until: float) -> object:
        """``target.name(*args)``'s value, read as plain data; None, with ``lost`` set, if the
        child does not answer by ``until`` (or did not before)."""
        def sent() -> object:  # one pickle ends by itself: nothing after it is read
            self.channel.settimeout(max(until - time.monotonic(), 1e-3))
            self.channel.sendall(pickle.dumps((name, args), protocol=5))
            return _Plain(self.replies).load()

        with contextlib.suppress(Exception):  # else bytes the answer wrote itself, or none
            reply = plain(pickle.dumps(self._reply(name, args), protocol=5)) if not self.pid else (
                None if self.lost else safely(sent, limit=max(until - time.monotonic(), 0) + 0.1,
                                              failed=lambda err: None))  # also a byte a second
            if reply == "interrupt":
                raise KeyboardInterrupt
            value, text, count = reply
            if type(text) is str and type(count) is int:
                self.printed, self.count = text, count
                return value
        self.lost = self.lost or ("stuck" if time.monotonic() >= until else "ended")
        return None

    def _reply(self, name: str, args: tuple) -> tuple:
        """``target.name(*args)``, and what has been printed."""
        with contextlib.redirect_stdout(self.stream), contextlib.redirect_stderr(self.stream):
            value = getattr(self.target, name)(*args)
        return value, self.stream.getvalue(), getattr(self.stream, "count", 0)

