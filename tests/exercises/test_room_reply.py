"""The answer's process replies with one pickle, read as it comes: a reply the answer forges a byte
at a time cannot keep the checker waiting past the check's time. Its only socket is that channel:
the kernel's own connections are closed there, so no answer can write into them."""

from __future__ import annotations

import contextlib
import io
import os
import socket
import stat
import threading
import time

import pytest

from bpe_workshop import merge
from bpe_workshop.exercises import core
from bpe_workshop.exercises.nb04 import check_merge


def trickles_a_long_reply_into_the_checkers_channel(ids, pair, new_id):
    """Writes the start of a pickle announcing a million bytes, then one byte every 0.2 s."""
    sockets = [fd for fd in range(3, 256)
               if not os.path.isdir(f"/proc/self/fd/{fd}") and _is_socket(fd)]

    def trickle():
        for fd in sockets:
            os.write(fd, b"\x80\x05\x95" + (10**6).to_bytes(8, "little"))  # PROTO 5, FRAME 10**6
        while True:
            for fd in sockets:
                os.write(fd, b"x")
            time.sleep(0.2)

    threading.Thread(target=trickle, daemon=True).start()
    time.sleep(0.1)  # the announcement goes out before the reply
    return merge(ids, pair, new_id)


def _is_socket(fd: int) -> bool:
    with contextlib.suppress(OSError):
        return stat.S_ISSOCK(os.fstat(fd).st_mode)
    return False


@pytest.mark.skipif(not core.ISOLATE, reason="the room is a forked child: os.fork")
def test_a_reply_trickled_a_byte_at_a_time_ends_with_the_checks_time(monkeypatch):
    monkeypatch.setattr(core, "CHECK_LIMIT", 2.0)
    results = []

    def checking():
        with contextlib.redirect_stdout(io.StringIO()):
            results.append(check_merge(trickles_a_long_reply_into_the_checkers_channel))

    thread = threading.Thread(target=checking, daemon=True)  # so that a regression fails, not hangs
    thread.start()
    thread.join(60)
    assert results, "the checker still waits for the trickled reply"
    message = results[0].message
    assert message.startswith("❌ trickles_a_long_reply_into_the_checkers_channel([], (1, 2), 256) "
                              "did not finish: it ran on past 2 s inside one step that Python "
                              "cannot interrupt"), message


@pytest.mark.skipif(not core.ISOLATE, reason="the room is a forked child: os.fork")
def test_the_answer_cannot_write_into_a_socket_of_the_kernel():
    kernels, peer = socket.socketpair()  # stands for one of the kernel's connections

    def writes_into_the_kernels_socket(ids, pair, new_id):
        with contextlib.suppress(OSError):  # a descriptor closed in the answer's process
            os.write(kernels.fileno(), b"junk")
        return merge(ids, pair, new_id)

    with contextlib.redirect_stdout(io.StringIO()):
        result = check_merge(writes_into_the_kernels_socket)
    peer.setblocking(False)
    with pytest.raises(BlockingIOError):  # nothing arrived: the answer's copy was closed
        print("the kernel's socket received", peer.recv(100))
    assert result.passed, result.message
    kernels.close()
    peer.close()
