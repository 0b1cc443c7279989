"""A room under load: N simulated attendees on one ``bpe-workshop hub``, all at once.

    sudo .venv/bin/python benchmarks/bench_hub.py --users 20

starts the hub on 127.0.0.1 (a free port, homes in a fresh folder under /tmp), from an
environment every account can run, /opt/bpe-workshop-hub, made as the guide's commands make
/opt/hub (Debian's Python, this clone in place of the wheel file; again when the clone's files
change; this machine's own Python lives under /root, closed to attendees, and the hub refuses
to serve from it). Then N threads each play one attendee:
log in through the hub's own login page (HTTP form, like a browser), ask for their server, start
a kernel and run every code cell of notebook 04 through the Jupyter kernel protocol (the
server's REST API and the kernel's websocket). It prints spawn time (login to a server that
answers) and cell latency (request to reply) as p50/p95, the peak memory of each attendee's
processes (server and kernel) and of all of them together, sampled every half second, the CPU
time each attendee used, and every error. Each attendee logs in for the first time (the
workshop's password and a password of their own, one form post) and runs under the hub's
default limits per attendee (2 GB, 256 processes). With ``--bomb``, one more attendee runs a
memory bomb all along (4 processes of 600 MB under their 2 GB, again and again): the table then
shows the classmates' cell latency during the bomb and how many of the bomb's processes the
kernel killed. At the end the room is ended with ``bpe-workshop hub --stop`` and the accounts it
made (``bench-01``...) and their homes are removed.

The same client drives the tests (``tests/course/test_hub.py``): ``Hub`` starts and stops the
command, ``Attendee`` logs in, spawns and runs code. Needs root and configurable-http-proxy.
"""

from __future__ import annotations

import argparse
import fcntl
import functools
import json
import os
import pwd
import random
import re
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from pathlib import Path

import psutil
import requests
import websocket

from bpe_workshop.course.series import release_files

CLONE = Path(__file__).resolve().parents[1]
ENV = Path("/opt/bpe-workshop-hub")


@functools.cache  # looked at once per process: never reinstalled under a running room
def hub_env(env: Path = ENV) -> Path:
    """``env``, holding this clone with the [hub] extra, made as the guide makes ``/opt/hub``:
    ``/usr/bin/python3 -m venv``, then its pip. Made again when a file of the clone's package,
    data or notebooks changed since (a stamp file in ``env`` keeps their times)."""
    files = sorted(path for part in ("bpe_workshop", "data", "notebooks", "pyproject.toml")
                   for path in [CLONE / part, *(CLONE / part).rglob("*")]
                   if path.is_file() and path.suffix != ".pyc")
    wanted = str([(str(path), path.stat().st_mtime_ns) for path in files])
    stamp = env / "bench-hub-stamp.txt"  # what was installed, to redo it when that changes
    with open(f"{env}.lock", "w") as lock:  # two test processes install it once
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not stamp.exists() or stamp.read_text() != wanted:
            print(f"Installing {CLONE}[hub] into {env} (a few minutes the first time)",
                  file=sys.stderr, flush=True)
            old_umask = os.umask(0o022)  # every account reads and runs what is installed
            try:
                subprocess.run(["/usr/bin/python3", "-m", "venv", str(env)], check=True)
                subprocess.run([f"{env}/bin/python", "-m", "pip", "install", "--quiet",
                                f"{CLONE}[hub]"], check=True)
            finally:
                os.umask(old_umask)
            stamp.write_text(wanted)
    return env


class Hub:
    """``bpe-workshop hub`` on 127.0.0.1 in a subprocess, run by ``env``'s Python (see
    ``hub_env``), its output in ``log``."""

    def __init__(self, homes: Path, *options: str, env: Path = ENV,
                 password: str | None = None, port: int | None = None):
        self.homes, self.log = homes, homes.parent / f"{homes.name}-hub.log"
        self.port = port or free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.command = [f"{hub_env(env)}/bin/python", "-m", "bpe_workshop", "hub", "--homes",
                        str(homes)]
        environment = {**os.environ, "BPE_WORKSHOP_PASSWORD": password} if password else None
        # the log holds the printed passwords: root's alone (attendees pass through its folder)
        with open(os.open(self.log, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600), "ab") as log:
            # cwd /: -m would import the clone from its folder
            self.process = subprocess.Popen(
                [*self.command, "--ip", "127.0.0.1", "--port", str(self.port), *options],
                stdout=log, stderr=subprocess.STDOUT, env=environment, cwd="/")
        deadline = time.monotonic() + 300
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"the hub stopped: {self.log.read_text()[-3000:]}")
            try:
                if requests.get(f"{self.url}/hub/login", timeout=5).status_code == 200:
                    return
            except requests.ConnectionError:
                pass
            time.sleep(0.5)
        self.stop()
        raise RuntimeError(f"the hub did not answer: {self.log.read_text()[-3000:]}")

    def printed(self, label: str) -> str:
        """The word after ``label`` in what the hub printed last (e.g. a password)."""
        return re.findall(rf"{re.escape(label)} ([^\s;]+)", self.log.read_text())[-1]

    def stop(self) -> None:
        """SIGTERM, as Ctrl-C would: the hub and its proxy stop, attendees' servers go on."""
        self.process.send_signal(signal.SIGTERM)
        try:
            self.process.wait(timeout=120)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()

    def end(self) -> subprocess.CompletedProcess:
        """``bpe-workshop hub --stop``: the hub and every attendee's process end."""
        ended = subprocess.run([*self.command, "--stop"], capture_output=True, text=True,
                               timeout=120, cwd="/")
        self.process.wait(timeout=60)
        return ended


class Attendee:
    """One person in the room: a browser's cookies, then a token for the server's API.

    ``password`` is what goes in the login page's first box: the workshop's at a first login
    (with the attendee's ``own`` password in the second), their own password after."""

    def __init__(self, hub_url: str, name: str, password: str, own: str = ""):
        self.hub, self.name, self.password, self.own = hub_url, name, password, own
        self.session, self.token, self.refusal = requests.Session(), None, ""

    def login(self) -> bool:
        """Fill in the hub's login form; True when the hub let us in (else ``refusal``: the
        page the hub answered with)."""
        self.session.get(f"{self.hub}/hub/login", timeout=60).raise_for_status()
        answer = self.session.post(f"{self.hub}/hub/login", allow_redirects=False, timeout=120,
                                   data={"username": self.name, "password": self.password,
                                         "otp": self.own,
                                         "_xsrf": self.session.cookies.get("_xsrf", "")})
        self.refusal = "" if answer.status_code == 302 else answer.text
        return answer.status_code == 302

    def hub_api(self, method: str, path: str, **options) -> requests.Response:
        headers = ({"Authorization": f"token {self.token}"} if self.token else
                   {"X-XSRFToken": self.session.cookies.get("_xsrf", "")})
        return self.session.request(method, f"{self.hub}/hub/api{path}", headers=headers,
                                    timeout=120, **options)

    def spawn(self, timeout: float = 900) -> None:
        """Ask for this attendee's server and wait until it answers; then get an API token."""
        if self.token is None:
            answer = self.hub_api("POST", f"/users/{self.name}/tokens", json={"note": "room"})
            answer.raise_for_status()
            self.token = answer.json()["token"]
        started = self.hub_api("POST", f"/users/{self.name}/server")
        if started.status_code not in (201, 202, 400):  # 400: already running
            raise RuntimeError(f"{self.name}: spawn refused, {started.status_code} "
                               f"{started.text[:300]}")
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            server = self.hub_api("GET", f"/users/{self.name}").json()["servers"].get("", {})
            if server.get("ready"):
                return
            if not server.get("pending"):
                raise RuntimeError(f"{self.name}: the server failed to start")
            time.sleep(0.5)
        raise RuntimeError(f"{self.name}: no server after {timeout:.0f} s")

    def server_api(self, method: str, path: str, user: str | None = None, **options):
        """A call to a single-user server's REST API (this attendee's, or ``user``'s)."""
        return requests.request(method, f"{self.hub}/user/{user or self.name}/api{path}",
                                headers={"Authorization": f"token {self.token}"}, timeout=120,
                                **options)

    def kernel(self, kernel_id: str | None = None) -> Kernel:
        """A new kernel, or a connection to the running kernel ``kernel_id``."""
        if kernel_id is None:
            answer = self.server_api("POST", "/kernels", json={"name": "python3"})
            answer.raise_for_status()
            kernel_id = answer.json()["id"]
        ws_url = self.hub.replace("http", "ws", 1)
        return Kernel(f"{ws_url}/user/{self.name}/api/kernels/{kernel_id}/channels",
                      self.token, kernel_id)


class Kernel:
    """A kernel's websocket: send code, collect its output until the kernel is idle again."""

    def __init__(self, url: str, token: str, kernel_id: str):
        self.socket = websocket.create_connection(url, timeout=600,
                                                  header=[f"Authorization: token {token}"])
        self.session, self.id = uuid.uuid4().hex, kernel_id

    def run(self, code: str, timeout: float = 600) -> dict:
        """Run ``code``; {"status": "ok"/"error"/"died", "ename", "output", "seconds"}
        ("died": the kernel was killed, e.g. by its attendee's memory limit, and restarts)."""
        msg_id, started = uuid.uuid4().hex, time.perf_counter()
        self.socket.send(json.dumps({
            "header": {"msg_id": msg_id, "msg_type": "execute_request", "username": "room",
                       "session": self.session, "date": "", "version": "5.3"},
            "parent_header": {}, "metadata": {}, "channel": "shell", "buffers": [],
            "content": {"code": code, "silent": False, "store_history": True,
                        "user_expressions": {}, "allow_stdin": False, "stop_on_error": True}}))
        reply, idle, output = None, False, []
        deadline = time.monotonic() + timeout
        while reply is None or not idle:
            self.socket.settimeout(max(0.1, deadline - time.monotonic()))
            frame = self.socket.recv()
            if not isinstance(frame, str):
                continue  # a binary frame: widget buffers
            message = json.loads(frame)
            if message["content"].get("execution_state") in ("restarting", "dead"):
                return {"status": "died", "ename": None, "output": "".join(output),
                        "seconds": time.perf_counter() - started}
            if message["parent_header"].get("msg_id") != msg_id:
                continue
            kind, content = message["header"]["msg_type"], message["content"]
            if kind == "execute_reply":
                reply = content
            elif kind == "status":
                idle = content["execution_state"] == "idle"
            elif kind == "stream":
                output.append(content["text"])
            elif kind == "error":
                output.append(f"{content['ename']}: {content['evalue']}")
            elif kind in ("execute_result", "display_data"):
                output.append(content["data"].get("text/plain", ""))
        return {"status": reply["status"], "ename": reply.get("ename"),
                "output": "".join(output), "seconds": time.perf_counter() - started}

    def close(self) -> None:
        self.socket.close()


def free_port() -> int:
    """A free port for a room, below 512: the hub takes none from 1024 up (any account could
    take it while the hub is down), and its own two lie from 512 to 1023."""
    for number in random.sample(range(100, 512), 412):
        with socket.socket() as probe:
            try:
                probe.bind(("127.0.0.1", number))
            except OSError:
                continue
            return number
    raise OSError("no free port below 512 for a room")


def remove_accounts(names: list[str]) -> None:
    """End what is left of these accounts' processes (by id), then delete the accounts."""
    for name in names:
        try:
            uid = pwd.getpwnam(name).pw_uid
        except KeyError:
            continue
        left = [p for p in psutil.process_iter(["uids"]) if p.info["uids"].real == uid]
        for process in left:
            process.kill()
        psutil.wait_procs(left, timeout=10)
        subprocess.run(["userdel", name], check=False, capture_output=True)


def notebook_code(name: str = "04_byte_level_bpe.ipynb") -> list[str]:
    cells = json.loads(release_files()[name].decode("utf-8"))["cells"]
    return ["".join(cell["source"]) for cell in cells if cell["cell_type"] == "code"]


class MemorySampler(threading.Thread):
    """Every half second: resident memory of each named account's processes, and the peaks."""

    def __init__(self, names: list[str]):
        super().__init__(daemon=True)
        self.names, self.peak, self.peak_total = set(names), dict.fromkeys(names, 0), 0
        self.cpu = dict.fromkeys(names, 0.0)  # seconds of CPU used so far (user + system)
        self.done = threading.Event()

    def run(self) -> None:
        while not self.done.wait(0.5):
            now, cpu = dict.fromkeys(self.names, 0), dict.fromkeys(self.names, 0.0)
            for process in psutil.process_iter(["username", "memory_info", "cpu_times"]):
                name = process.info["username"]
                if name in now and process.info["memory_info"]:
                    now[name] += process.info["memory_info"].rss
                    cpu[name] += process.info["cpu_times"].user + process.info["cpu_times"].system
            for name, rss in now.items():
                self.peak[name] = max(self.peak[name], rss)
                self.cpu[name] = max(self.cpu[name], cpu[name])
            self.peak_total = max(self.peak_total, sum(now.values()))


def play(hub: Hub, name: str, password: str, cells: list[str], start: threading.Barrier,
         results: dict) -> None:
    """One attendee's morning: log in, get a server, run notebook 04; errors are recorded."""
    attendee, record = Attendee(hub.url, name, password, own=f"{name}-own"), results[name]
    start.wait()
    began = time.perf_counter()
    try:
        if not attendee.login():
            raise RuntimeError("login refused")
        attendee.spawn()
        attendee.server_api("GET", "/status").raise_for_status()
        record["spawn"] = time.perf_counter() - began
        kernel = attendee.kernel()
        for number, code in enumerate(cells, 1):
            cell = kernel.run(code)
            record["cells"].append(cell["seconds"])
            if cell["status"] != "ok":
                record["errors"].append(f"cell {number}: {cell['output'][-300:]}")
        kernel.close()
    except Exception as err:  # every failure is a finding: print it, keep the others going
        record["errors"].append(f"{type(err).__name__}: {err}")


BOMB = """
import subprocess, sys
hogs = [subprocess.Popen([sys.executable, "-c", "import time; hog = b'x' * (600 * 2**20); "
                          "time.sleep(5)"]) for _ in range(4)]
print(sum(hog.wait() == -9 for hog in hogs))
"""


def bomb(hub: Hub, password: str, done: threading.Event, record: dict) -> None:
    """An attendee whose cell starts 4 processes of 600 MB under a 2 GB limit, until ``done``."""
    attendee = Attendee(hub.url, "bench-bomb", password, own="bench-bomb-own")
    try:
        if not attendee.login():
            raise RuntimeError("login refused")
        attendee.spawn()
        kernel = attendee.kernel()
        while not done.is_set():
            cell = kernel.run(BOMB)
            record["rounds"] += 1
            record["killed"] += int(cell["output"] or 0) if cell["status"] == "ok" else 0
    except Exception as err:
        record["errors"].append(f"{type(err).__name__}: {err}")


def percentiles(values: list[float]) -> str:
    if len(values) < 2:
        return "n/a"
    # 5% steps, within the values measured: cuts[9] is p50, cuts[18] p95
    cuts = statistics.quantiles(values, n=20, method="inclusive")
    return f"{cuts[9]:.2f} / {cuts[18]:.2f}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--users", type=int, default=5, help="attendees at once (default 5)")
    parser.add_argument("--bomb", action="store_true",
                        help="one more attendee runs a memory bomb all along")
    parser.add_argument("--env", type=Path, default=ENV, help="the hub's environment, made with "
                        f"Debian's Python when missing or older than the clone (default {ENV})")
    args = parser.parse_args()
    if os.geteuid() != 0:
        print("bench_hub: skipped, it needs root (the hub makes one account per attendee)")
        return 0
    names = [f"bench-{number:02}" for number in range(1, args.users + 1)]
    cells, password = notebook_code(), "bench-" + uuid.uuid4().hex[:8]
    room = Path(tempfile.mkdtemp(prefix="bench-hub-"))
    room.chmod(0o711)
    hub = Hub(room / "homes", "--max-users", str(args.users + 1), env=args.env,
              password=password)
    sampler = MemorySampler([*names, "bench-bomb"])
    results = {name: {"spawn": None, "cells": [], "errors": []} for name in names}
    bombed, done = {"rounds": 0, "killed": 0, "errors": []}, threading.Event()
    try:
        sampler.start()
        if args.bomb:
            bomber = threading.Thread(target=bomb, args=(hub, password, done, bombed))
            bomber.start()
            while not bombed["rounds"] and not bombed["errors"]:
                time.sleep(1)  # the bomb goes off before the room logs in
        start = threading.Barrier(len(names))
        threads = [threading.Thread(target=play, args=(hub, name, password, cells, start,
                                                       results)) for name in names]
        began = time.perf_counter()
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        wall = time.perf_counter() - began
        done.set()
        if args.bomb:
            bomber.join()
    finally:
        done.set()
        sampler.done.set()
        hub.end()
        remove_accounts([*names, "bench-bomb"])
        subprocess.run(["rm", "-rf", str(room)], check=False)
    spawns = [r["spawn"] for r in results.values() if r["spawn"] is not None]
    latencies = [seconds for r in results.values() for seconds in r["cells"]]
    errors = [f"{name}: {error}" for name, r in results.items() for error in r["errors"]]
    errors += [f"bench-bomb: {error}" for error in bombed["errors"]]
    per_attendee = sorted(sampler.peak[name] for name in names)
    print(f"{args.users} attendees{' and a memory bomb' if args.bomb else ''}, notebook 04 "
          f"({len(cells)} code cells each), limits per attendee 2 GB and 256 processes, "
          f"{os.cpu_count()} cores, {wall:.0f} s in all")
    print(f"  spawn time p50 / p95      {percentiles(spawns)} s ({len(spawns)} servers)")
    print(f"  cell latency p50 / p95    {percentiles(latencies)} s ({len(latencies)} cells)")
    print(f"  peak memory per attendee  {per_attendee[len(per_attendee) // 2] / 2**20:.0f} MB "
          f"median, {per_attendee[-1] / 2**20:.0f} MB max")
    print(f"  peak memory in all        {sampler.peak_total / 2**30:.2f} GB")
    print(f"  CPU per attendee          {statistics.median(sampler.cpu[n] for n in names):.1f}"
          " s median (server and kernel: start-up and notebook 04)")
    if args.bomb:
        print(f"  the bomb                  {bombed['rounds']} rounds of 4 x 600 MB, "
              f"{bombed['killed']} processes killed in its group, peak "
              f"{sampler.peak['bench-bomb'] / 2**30:.2f} GB")
    print(f"  errors                    {len(errors)}")
    for error in errors:
        print(f"    {error}")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
