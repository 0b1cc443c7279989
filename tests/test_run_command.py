"""The README's run command (`make lab`) serves JupyterLab with the series, headless.

The test starts the very Makefile target a learner types, on a free port with a token and no
browser, fetches the served pages, and stops the server by its process group. `kill` of
`bpe-workshop start` alone (SIGTERM or SIGINT) stops JupyterLab too, by its own clean shutdown.
"""

import contextlib
import json
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def fetch(url: str) -> str:
    with urllib.request.urlopen(url, timeout=5) as response:
        return response.read().decode("utf-8")


@pytest.mark.skipif(shutil.which("make") is None, reason="make is not installed")
def test_make_lab_serves_the_series(tmp_path):
    if not (ROOT / ".venv" / ".installed").exists():
        pytest.skip("the run command is checked against the project's own .venv "
                    "(make test builds it)")
    port, token = free_port(), secrets.token_hex(16)
    # no --allow-root here: as root (this container, a classroom image) make lab adds it
    lab_args = (
        f"--no-browser --ip=127.0.0.1 --port={port} --IdentityProvider.token={token} "
        "--ServerApp.port_retries=0"
    )
    env = dict(os.environ, JUPYTER_RUNTIME_DIR=str(tmp_path / "runtime"))
    server = subprocess.Popen(
        ["make", "--no-print-directory", "lab", f"LAB_ARGS={lab_args}"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,
    )
    try:
        base = f"http://127.0.0.1:{port}"
        assert "started" in wait_for_status(server, base, token)
        listing = json.loads(fetch(f"{base}/api/contents?token={token}"))
        names = {item["name"] for item in listing["content"]}
        assert "00_why_tokenization.ipynb" in names  # the server is rooted at notebooks/
        page = fetch(f"{base}/lab/tree/00_why_tokenization.ipynb?token={token}")
        assert "JupyterLab" in page
    finally:
        stop(server)
    # the address printed is notebook 00's, not only the server's
    assert f"127.0.0.1:{port}/lab/tree/00_why_tokenization.ipynb?token=" in server.stdout.read()


def wait_for_status(server: subprocess.Popen, base: str, token: str) -> dict:
    """JupyterLab's /api/status once it answers (a deadline bounds a hang; speed is not tested)."""
    deadline = time.monotonic() + 90
    while True:
        try:
            return json.loads(fetch(f"{base}/api/status?token={token}"))
        except OSError:
            assert server.poll() is None, server.stdout.read()
            assert time.monotonic() < deadline, "JupyterLab did not start within 90 s"
            time.sleep(0.5)


# each signal, and what JupyterLab's own handler of it logs (not printed when it is killed)
@pytest.mark.parametrize(("signum", "handled"), [(signal.SIGTERM, "received signal 15, stopping"),
                                                 (signal.SIGINT, "Interrupted...")])
def test_a_signal_to_bpe_workshop_start_stops_jupyterlab(tmp_path, signum, handled):
    port, token = free_port(), secrets.token_hex(16)
    start = subprocess.Popen(
        [sys.executable, "-m", "bpe_workshop", "start", str(tmp_path / "course"), "--no-browser",
         f"--port={port}", "--", "--ip=127.0.0.1", f"--IdentityProvider.token={token}",
         "--ServerApp.port_retries=0"],
        cwd=tmp_path, env=dict(os.environ, JUPYTER_RUNTIME_DIR=str(tmp_path / "runtime")),
        stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        start_new_session=True)
    try:
        wait_for_status(start, f"http://127.0.0.1:{port}", token)
        os.kill(start.pid, signum)  # the command alone, as `kill PID` does
        start.wait(timeout=60)
        with pytest.raises(ProcessLookupError):  # nothing of it left, JupyterLab included
            os.killpg(start.pid, 0)
        said = start.stdout.read()  # subtle: only now, when no process holds the pipe open
        assert handled in said, said  # JupyterLab got the signal itself: it stops its kernels
        with pytest.raises(OSError):
            fetch(f"http://127.0.0.1:{port}/api/status?token={token}")
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(start.pid, signal.SIGKILL)  # whatever a failure left serving
        start.wait()


def stop(server: subprocess.Popen) -> None:
    """Stop make and the JupyterLab it started: they share one process group."""
    if server.poll() is not None:
        return
    os.killpg(server.pid, signal.SIGTERM)
    try:
        server.wait(timeout=20)
    except subprocess.TimeoutExpired:
        os.killpg(server.pid, signal.SIGKILL)
        server.wait()


@pytest.mark.skipif(shutil.which("make") is None, reason="make is not installed")
def test_a_venv_made_by_a_too_old_python_is_refused_with_the_way_out(tmp_path):
    shutil.copy(ROOT / "Makefile", tmp_path)
    shutil.copy(ROOT / "pyproject.toml", tmp_path)
    old = tmp_path / ".venv" / "bin" / "python"  # what `make ... PYTHON=python3.9` left behind
    old.parent.mkdir(parents=True)
    old.write_text("#!/bin/sh\n[ \"$1\" = -V ] && echo 'Python 3.9.18' && exit 0\n"
                   "[ \"$1 $2\" = '-m pip' ] && echo 'pip 23.0 (python 3.9)' && exit 0\n"  # it runs
                   "exit 1\n")
    old.chmod(0o755)
    done = subprocess.run(["make", "--no-print-directory", ".venv/.installed"], cwd=tmp_path,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode != 0
    assert ".venv was made with Python 3.9.18; the series needs Python 3.11" in done.stderr
    assert "Run: make clean, then the same make command with PYTHON=python3.11" in done.stderr
