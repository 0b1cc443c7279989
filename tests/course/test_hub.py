"""``bpe-workshop hub`` with real accounts, as in a room: run as root (CI is).

Each room is a hub on 127.0.0.1 and a free port. Its homes go to a fresh folder under the
system's temporary folder, not ``tmp_path``: pytest's folders admit only their owner (and pytest
closes them again whenever any session starts), so attendees could not reach a home there. The
hub runs from ``/opt/bpe-workshop-hub``, an environment every account can run, made (once, and
again when the clone changed) as the guide's commands make ``/opt/hub``: the tests' own Python
lives under ``/root``, and attendees' servers run the hub's. The accounts carry a random prefix;
at the end each room is ended with ``bpe-workshop hub --stop`` (no process of it is left), the
accounts removed and the folder deleted. The client is the load benchmark's
(``benchmarks/bench_hub.py``): it logs in through the hub's login form and runs code in kernels
over the Jupyter kernel protocol. Three rooms, each made once per test process: one where three
attendees have trained and saved a model (limits of 1 GB and 200 processes each), one that a
test restarts, one whose servers stop after a minute; and one on the machine's own ``/home`` for
the one test that needs it (only its ``.hub`` and log are removed after). No test needs another
to have run first.
"""

import ast
import contextlib
import hashlib
import importlib.util
import os
import pwd
import shutil
import stat
import subprocess
import sys
import tempfile
import textwrap
import threading
import time
import uuid
from pathlib import Path

import psutil
import pytest
import requests

from bpe_workshop import ByteLevelBPE
from bpe_workshop.course import hub

_BENCH = Path(__file__).parents[2] / "benchmarks" / "bench_hub.py"
_spec = importlib.util.spec_from_file_location("bench_hub", _BENCH)
bench_hub = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(bench_hub)

pytestmark = [pytest.mark.hub, pytest.mark.xdist_group("hub")]
if os.geteuid() != 0:
    pytestmark.append(pytest.mark.skip(reason="the hub makes accounts: run as root (CI does)"))
elif shutil.which("configurable-http-proxy") is None:
    pytestmark.append(pytest.mark.skip(reason="npm install -g configurable-http-proxy"))

PREFIX = f"bt{uuid.uuid4().hex[:4]}-"  # accounts no one else has (one prefix per process)
NAMES = [f"{PREFIX}ada", f"{PREFIX}ben", f"{PREFIX}cy"]
ADMIN = f"{PREFIX}teacher"
QUIET = f"{PREFIX}dee"  # the attendee of the room that restarts
CULLED = f"{PREFIX}fay"  # the attendee of the room whose servers stop after a minute
LEAVER = f"{PREFIX}eli"  # an attendee whose server is stopped
MEMORY_GB, MAX_PROCESSES = 1, 200  # each attendee's, in the first room
TRAIN = """
from pathlib import Path
from bpe_workshop import ByteLevelBPE
from bpe_workshop.files.corpora import load_english
tok = ByteLevelBPE.train(load_english()[:20000], vocab_size=300)
models = Path.home() / "models"
models.mkdir(exist_ok=True)
tok.save(models / "book300")
print(Path.home(), sorted(path.name for path in models.iterdir()))
"""
SERIES = "bpe-workshop"  # the series' copy in each home
EDITED = f"{SERIES}/04_byte_level_bpe.ipynb"  # the notebook the attendees change


class Room:
    """A hub on a fresh folder; ``join`` logs an attendee in and opens a kernel."""

    def __init__(self, *options: str, homes: Path | None = None):
        self.folder = Path(tempfile.mkdtemp(prefix=f"{PREFIX}room-"))
        self.folder.chmod(0o711)  # attendees pass through to their homes, and see nothing else
        self.homes, self.options = homes or self.folder / "homes", options
        self.attendees, self.kernels, self.trained, self.own = {}, {}, {}, {}
        self.password = f"room-{uuid.uuid4().hex[:8]}"  # given as the command is: in $ENV
        self.hub = bench_hub.Hub(self.homes, *options, password=self.password)

    def join(self, name: str):
        """Log in (the first time with the workshop's password and a new one of our own,
        later with our own alone), start the server, open a kernel."""
        if name in self.kernels:
            self.kernels.pop(name).close()
        if name in self.own:
            attendee = bench_hub.Attendee(self.hub.url, name, self.own[name])
        else:
            self.own[name] = f"{name}-{uuid.uuid4().hex[:8]}"
            attendee = bench_hub.Attendee(self.hub.url, name, self.password, own=self.own[name])
        assert attendee.login(), f"{name} could not log in"
        attendee.spawn()
        self.attendees[name], self.kernels[name] = attendee, attendee.kernel()
        return self.kernels[name]

    def stop_server(self, name: str) -> None:
        """Stop ``name``'s server, as their Hub Control Panel would, and wait until it is gone."""
        if name in self.kernels:
            self.kernels.pop(name).close()
        attendee = self.attendees[name]
        assert attendee.hub_api("DELETE", f"/users/{name}/server").status_code in (202, 204)
        for _ in range(60):
            if not attendee.hub_api("GET", f"/users/{name}").json()["servers"]:
                return
            time.sleep(1)

    def restart(self, while_down=lambda: None) -> None:
        """Stop the hub as Ctrl-C would, call ``while_down``, start the hub again; servers and
        kernels run on."""
        for kernel in self.kernels.values():
            kernel.close()
        self.hub.stop()
        while_down()
        self.hub = bench_hub.Hub(self.homes, *self.options, port=self.hub.port)

    def close(self, names: list[str]) -> None:
        for kernel in self.kernels.values():
            kernel.close()
        self.hub.end()
        bench_hub.remove_accounts(names)
        shutil.rmtree(self.folder)
        if not self.homes.is_relative_to(self.folder):  # the machine's own homes: ours only
            shutil.rmtree(self.homes / ".hub")
            self.hub.log.unlink()


@pytest.fixture(scope="session")  # once per test process, whichever file it runs next
def room():
    """Three attendees, each with a model trained and saved in their home (``room.trained``:
    what each training cell printed)."""
    room = Room("--admin", ADMIN, "--memory", str(MEMORY_GB), "--max-processes",
                str(MAX_PROCESSES))
    try:
        for name in NAMES:
            room.trained[name] = room.join(name).run(TRAIN)
        yield room
    finally:
        room.close([*NAMES, ADMIN, LEAVER])


@pytest.fixture(scope="session")
def quiet_room():
    """A room that a test restarts."""
    room = Room()
    try:
        yield room
    finally:
        room.close([QUIET])


@pytest.fixture
def machine_room():
    """A room whose homes are the machine's own, ``--homes /home``, as on a cloud VM."""
    if Path("/home/.hub").exists():
        raise RuntimeError("a hub's state is in /home/.hub already: this test would take over "
                           "its room; run it on a machine with no room in /home")
    room = Room(homes=Path("/home"))
    try:
        yield room
    finally:
        room.close([])


@pytest.fixture(scope="session")
def culled_room():
    """A room whose servers stop after a minute (``--max-age 1``)."""
    room = Room("--max-age", "1")
    try:
        yield room
    finally:
        room.close([CULLED])


def test_three_attendees_each_train_and_save_a_model_in_their_own_home(room):
    for name in NAMES:
        cell = room.trained[name]
        assert cell["status"] == "ok", cell["output"]
        home = room.homes / name
        assert cell["output"].startswith(str(home))
        account = pwd.getpwnam(name)
        assert Path(account.pw_dir) == home
        assert stat.S_IMODE(home.stat().st_mode) == 0o700
        assert (home / EDITED).stat().st_uid == account.pw_uid
        model = next((home / "models").glob("book300*.model"))
        assert model.stat().st_uid == account.pw_uid
        assert len(ByteLevelBPE.load(model).merges) == 300 - 256


def test_each_attendees_temporary_files_are_their_own(room):
    """``TMPDIR`` is ``~/.tmp``, made by the server's command as the attendee: Python's
    temporary files and tiktoken's cache go there, never to a ``/tmp`` all attendees share."""
    for name in NAMES:
        cell = room.kernels[name].run("import tempfile\nprint(tempfile.gettempdir())")
        folder = cell["output"].strip()
        assert folder == str(room.homes / name / ".tmp"), cell
        assert Path(folder).stat().st_uid == pwd.getpwnam(name).pw_uid


def test_a_wrong_password_is_refused(room):
    new = f"{PREFIX}eve"
    assert not bench_hub.Attendee(room.hub.url, new, "not-the-password", own="eves-own-1").login()
    # the instructor's name needs the instructor's own password, not the room's
    assert not bench_hub.Attendee(room.hub.url, ADMIN, room.password, own="mine-now-1").login()
    # a new name with the workshop's password alone is told what else to type
    first = bench_hub.Attendee(room.hub.url, new, room.password)
    assert not first.login() and "a password of your own" in first.refusal


def test_after_the_first_login_only_the_attendees_own_password_opens_their_account(room):
    ada, ben = NAMES[0], NAMES[1]
    # a classmate's name with the workshop's password (and any "own" one) is refused
    probe = bench_hub.Attendee(room.hub.url, ben, room.password, own="taking-bens-1")
    assert not probe.login()
    assert not bench_hub.Attendee(room.hub.url, ben, room.own[ada]).login()  # ada's own: no
    assert bench_hub.Attendee(room.hub.url, ben, room.own[ben]).login()  # ben's own: yes
    # and ada's token opens neither ben's server nor his page on the hub
    assert room.attendees[ada].server_api("GET", "/contents", user=ben).status_code == 403
    assert room.attendees[ada].hub_api("GET", f"/users/{ben}").status_code in (403, 404)


def test_a_deleted_attendee_is_opened_again_by_the_instructors_password_alone(room):
    """Deleting a user on the admin page forgets their password, to set a new one; the workshop
    password once opened the name then, and with it the attendee's files, to anyone."""
    name = f"{PREFIX}kai"
    room.join(name).run("open('mine.txt', 'w').write('KAI-ONLY')")
    teacher = bench_hub.Attendee(room.hub.url, ADMIN, room.hub.printed("instructor's password:"))
    assert teacher.login()
    room.kernels.pop(name).close()
    assert teacher.hub_api("DELETE", f"/users/{name}/server").status_code in (202, 204)
    for _ in range(60):
        if teacher.hub_api("DELETE", f"/users/{name}").status_code == 204:
            break
        time.sleep(1)  # a server that is still stopping
    try:
        taker = bench_hub.Attendee(room.hub.url, name, room.password, own="taking-kai-1")
        assert not taker.login()  # the workshop password no longer opens it
        again = bench_hub.Attendee(room.hub.url, name, room.hub.printed("instructor's password:"),
                                   own="kai-anew-123")
        assert again.login()
        again.spawn()
        assert again.kernel().run("print(open('mine.txt').read())")["output"] == "KAI-ONLY\n"
    finally:
        teacher.hub_api("DELETE", f"/users/{name}/server")
        bench_hub.remove_accounts([name])


def test_five_failed_logins_in_a_row_make_a_name_wait(room):
    name = f"{PREFIX}gus"
    own = "gus-own-pass"
    try:
        assert bench_hub.Attendee(room.hub.url, name, room.password, own=own).login()
        for number in range(5):  # each from an address of its own choosing: not one it takes
            guesser = bench_hub.Attendee(room.hub.url, name, "guessing-123")
            guesser.session.headers["X-Real-Ip"] = f"10.0.0.{number}"
            assert not guesser.login()
        waiting = bench_hub.Attendee(room.hub.url, name, own)  # the right password, too soon
        assert not waiting.login() and "5 failed logins in a row" in waiting.refusal
    finally:
        bench_hub.remove_accounts([name])


def test_an_existing_account_of_the_machine_is_never_served(room):
    """Not root, and not an account whose home lies among the attendees' (the old rule let
    those in): only accounts this hub made."""
    name = f"{PREFIX}sam"
    subprocess.run(["useradd", "--create-home", "--home-dir", str(room.homes / name), name],
                   check=True)
    try:
        for login in (name, "root"):
            probe = bench_hub.Attendee(room.hub.url, login, room.password, own="anything-1")
            assert not probe.login()
            assert f"{login} is an account of this machine that this hub did not make" in (
                probe.refusal)
        teacher = bench_hub.Attendee(room.hub.url, ADMIN,
                                     room.hub.printed("instructor's password:"))
        assert teacher.login()
        for login in (name, "daemon"):  # the admin page's "add users" posts this; its
            assert teacher.hub_api("POST", "/users", json={"usernames": [login]}).ok  # name
            answer = teacher.hub_api("POST", f"/users/{login}/server")  # is never served
            assert answer.status_code == 403 and "this hub did not make" in answer.text
            teacher.hub_api("DELETE", f"/users/{login}")
        added = f"{PREFIX}ren"  # an attendee the admin page adds (the hub makes its account),
        assert teacher.hub_api("POST", "/users", json={"usernames": [added]}).ok  # then renames:
        assert teacher.hub_api("PATCH", f"/users/{added}", json={"name": "daemon"}).ok
        answer = teacher.hub_api("POST", "/users/daemon/server")  # that account is not served
        assert answer.status_code == 403 and "this hub did not make" in answer.text
        teacher.hub_api("DELETE", "/users/daemon")
        uid = pwd.getpwnam(name).pw_uid
        assert not [p for p in psutil.process_iter(["uids"]) if p.info["uids"].real == uid]
        daemon = pwd.getpwnam("daemon").pw_uid  # the machine's own may run; no server of ours
        assert not [p for p in psutil.process_iter(["uids", "cmdline", "status"])
                    if p.info["uids"].real == daemon and p.info["status"] != "zombie"
                    and "jupyterhub-singleuser" in " ".join(p.info["cmdline"] or [])]
    finally:
        bench_hub.remove_accounts([name, f"{PREFIX}ren"])


def test_with_the_machines_homes_an_existing_account_is_refused_and_its_files_unread(
        machine_room):
    """``--homes /home``: an account of the machine whose home is where attendees' go (as
    ``ubuntu``'s is on a cloud VM) is not served, and nothing reads or adds to its home."""
    name, home = f"{PREFIX}ubu", machine_room.homes / f"{PREFIX}ubu"
    subprocess.run(["useradd", "--create-home", name], check=True)  # home: /home/NAME
    try:
        account = pwd.getpwnam(name)
        assert Path(account.pw_dir) == home
        private = home / "private.txt"
        private.write_text("the account's own secret")
        os.chown(private, account.pw_uid, account.pw_gid)
        private.chmod(0o600)
        written = private.stat().st_mtime_ns  # an access time before it: a read would move it
        os.utime(private, ns=(written - 3600 * 10**9, written))
        before = sorted(path.name for path in home.iterdir())
        probe = bench_hub.Attendee(machine_room.hub.url, name, machine_room.password,
                                   own="anything-1")
        assert not probe.login()
        assert f"{name} is an account of this machine that this hub did not make" in (
            probe.refusal)
        assert sorted(path.name for path in home.iterdir()) == before  # no series, no .tmp
        assert private.stat().st_atime_ns == written - 3600 * 10**9
        assert not [p for p in psutil.process_iter(["uids"])
                    if p.info["uids"].real == account.pw_uid]
    finally:
        bench_hub.remove_accounts([name])
        shutil.rmtree(home)


def test_a_failed_useradd_reaches_the_attendee_as_a_sentence(room):
    """useradd fails for real: the new name's home is a link to a folder that does not exist,
    so useradd cannot make it (it exits 12)."""
    name = f"{PREFIX}hal"
    home = room.homes / name
    home.symlink_to(room.folder / "nowhere" / name)
    try:
        probe = bench_hub.Attendee(room.hub.url, name, room.password, own="hals-own-1")
        assert not probe.login()
        assert f"No account could be made for {name}" in probe.refusal
        assert "cannot create directory" in probe.refusal  # useradd's own words
        assert "tell the instructor" in probe.refusal
        with pytest.raises(KeyError):  # useradd left the account half made: it is gone, so
            pwd.getpwnam(name)  # a try after the instructor's fix starts afresh
    finally:
        bench_hub.remove_accounts([name])
        home.unlink()


def test_a_name_outside_the_rule_makes_no_account_and_no_folder(room):
    """Checked before useradd: a name with '/' or '..' would make a home in a classmate's home,
    or anywhere on the machine, and stand in the way of the classmate's own."""
    ben = NAMES[1]
    names = [f"{ben}/planted", f"{PREFIX}q/../../escape", f"{PREFIX}x.y", f"{PREFIX}née"]
    for name in names:
        probe = bench_hub.Attendee(room.hub.url, name, room.password, own="odd-own-pass")
        assert not probe.login(), name
        assert "cannot be a name here" in probe.refusal, (name, probe.refusal)
    assert not (room.homes / ben / "planted").exists()
    assert not (room.homes.parent / "escape").exists()
    for name in names:
        with pytest.raises(KeyError):
            pwd.getpwnam(name)


def test_a_password_over_bcrypts_72_bytes_is_refused_and_makes_no_account(room):
    name = f"{PREFIX}lena"
    probe = bench_hub.Attendee(room.hub.url, name, room.password, own="L" * 80)
    assert not probe.login()
    assert "72 bytes at most" in probe.refusal, probe.refusal
    with pytest.raises(KeyError):  # so nobody can take the name with the workshop password
        pwd.getpwnam(name)
    later = bench_hub.Attendee(room.hub.url, NAMES[0], "A" * 80)  # an attendee's later login
    assert not later.login()
    assert "72 bytes at most" in later.refusal, later.refusal


def test_an_attendee_cannot_read_or_change_anothers_files(room):
    ada, ben = NAMES[0], NAMES[1]
    ben_model = next((room.homes / ben / "models").glob("*.model"))
    for code in (f"open({str(ben_model)!r}).read()",
                 f"import os; os.listdir({str(room.homes / ben)!r})",
                 f"open({str(room.homes / ben / 'mine.txt')!r}, 'w')",
                 f"import os; os.listdir({str(room.homes / '.hub')!r})"):  # the passwords'
        cell = room.kernels[ada].run(code)
        assert (cell["status"], cell["ename"]) == ("error", "PermissionError"), code
    assert not (room.homes / ben / "mine.txt").exists()
    # nor through ben's server: ada's token does not open it
    answer = room.attendees[ada].server_api("GET", "/contents/models", user=ben)
    assert answer.status_code == 403


def test_the_instructor_sees_the_attendees_servers_but_does_not_open_them(room):
    """Opening an attendee's server ran a trusted notebook of theirs as the instructor (a probe:
    it made the attendee an admin); the instructor lists, starts and stops servers, no more."""
    teacher = bench_hub.Attendee(room.hub.url, ADMIN, room.hub.printed("instructor's password:"))
    assert teacher.login()
    assert teacher.session.get(f"{room.hub.url}/hub/admin", timeout=60).status_code == 200
    listed = {user["name"]: user for user in teacher.hub_api("GET", "/users").json()}
    assert set(NAMES) <= set(listed) and not listed[NAMES[2]]["admin"]
    token = teacher.hub_api("POST", f"/users/{ADMIN}/tokens", json={"note": "t"}).json()
    teacher.token = token["token"]
    assert teacher.hub_api("GET", f"/users/{NAMES[2]}").json()["servers"][""]["ready"]
    assert teacher.server_api("GET", "/contents/models", user=NAMES[2]).status_code == 403
    assert teacher.hub_api("PATCH", f"/users/{NAMES[2]}", json={"admin": True}).status_code == 403
    moved = f"{PREFIX}vex"  # the instructor renamed: no newcomer takes the name, and its role
    assert teacher.hub_api("PATCH", f"/users/{ADMIN}", json={"name": moved}).ok
    try:
        assert not bench_hub.Attendee(room.hub.url, moved, room.password, own="vex-own-12").login()
    finally:
        assert teacher.hub_api("PATCH", f"/users/{moved}", json={"name": ADMIN}).ok


def test_four_processes_over_the_attendees_memory_limit_die_alone(room):
    """4 processes of 400 MB under ada's 1 GB: the kernel kills some of them, in ada's group
    only; ben's cell, running meanwhile, finishes and answers."""
    ada, ben = room.kernels[NAMES[0]], room.kernels[NAMES[1]]
    hogs = ("import subprocess, sys\n"
            "hogs = [subprocess.Popen([sys.executable, '-c', 'import time; "
            "hog = b\"x\" * (400 * 2**20); time.sleep(15)']) for _ in range(4)]\n"
            "print(sorted(hog.wait() for hog in hogs))")
    cells = {}
    runaway = threading.Thread(target=lambda: cells.setdefault("ada", ada.run(hogs)))
    runaway.start()
    time.sleep(3)  # the hogs are growing
    classmate = ben.run("import time\nfor step in range(10):\n    time.sleep(1)\n"
                        "    print(len(tok.merges) + step)")
    runaway.join()
    assert (classmate["status"], classmate["output"].split()) == (
        "ok", [str(44 + step) for step in range(10)])
    codes = eval(cells["ada"]["output"])  # [-9, -9, 0, 0]: killed, killed, ended on time
    assert -9 in codes and 0 in codes, cells["ada"]
    assert ada.run("len(tok.merges)")["output"] == "44"  # ada's kernel and its state go on


def test_a_process_bomb_stops_at_the_attendees_cap_and_the_room_answers(room):
    ada, ben = room.kernels[NAMES[0]], room.kernels[NAMES[1]]
    bomb = ada.run("import os, time\nchildren, refused = [], 0\nfor _ in range(600):\n"
                   "    try:\n        pid = os.fork()\n    except BlockingIOError:\n"
                   "        refused += 1\n        continue\n    if pid == 0:\n"
                   "        time.sleep(30)\n        os._exit(0)\n    children.append(pid)\n"
                   "for pid in children:\n    os.kill(pid, 9)\n    os.waitpid(pid, 0)\n"
                   "print(len(children), refused)")
    started, refused = map(int, bomb["output"].split())
    assert started < MAX_PROCESSES and refused == 600 - started > 0, bomb
    assert ben.run("len(tok.merges)")["output"] == "44"
    assert requests.get(f"{room.hub.url}/hub/login", timeout=30).status_code == 200


def test_a_stopped_server_leaves_no_process_of_its_attendee(room):
    kernel = room.join(LEAVER)
    started = kernel.run("import subprocess\n"  # its own session: not the server's to end
                         "subprocess.Popen(['setsid', 'sleep', '600']).pid")
    assert started["status"] == "ok"
    uid = pwd.getpwnam(LEAVER).pw_uid
    assert psutil.Process(int(started["output"])).uids().real == uid
    room.kernels.pop(LEAVER).close()
    attendee = room.attendees[LEAVER]
    assert attendee.hub_api("DELETE", f"/users/{LEAVER}/server").status_code in (202, 204)
    for _ in range(60):  # the server stops; killed processes are reaped a moment later
        left = [p for p in psutil.process_iter(["uids"]) if p.info["uids"].real == uid]
        if not left and not attendee.hub_api("GET", f"/users/{LEAVER}").json()["servers"]:
            break
        time.sleep(1)
    assert left == []


def test_a_second_hub_on_the_same_homes_refuses_and_names_the_first(room):
    second = subprocess.run(
        [sys.executable, "-m", "bpe_workshop", "hub", "--ip", "127.0.0.1", "--port",
         str(bench_hub.free_port()), "--homes", str(room.homes)],
        capture_output=True, text=True, timeout=120)
    assert second.returncode == 1
    assert (f"another hub (process {room.hub.process.pid}) serves {room.homes}"
            in second.stderr)
    assert requests.get(f"{room.hub.url}/hub/login", timeout=30).status_code == 200


def test_the_workshop_password_is_on_no_processs_command_line(room):
    command_lines = [" ".join(p.info["cmdline"] or []) for p in psutil.process_iter(["cmdline"])]
    assert any("bpe_workshop hub" in line for line in command_lines)
    assert not [line for line in command_lines if room.password in line]


def test_the_hub_refuses_a_large_request_before_reading_it(room):
    answer = requests.post(f"{room.hub.url}/hub/login", data=b"x" * (8 * 2**20), timeout=60,
                           headers={"Content-Type": "application/x-www-form-urlencoded"})
    assert answer.status_code >= 400  # the hub hung up after its 1 MB; the proxy says so
    assert requests.get(f"{room.hub.url}/hub/login", timeout=30).status_code == 200


def test_a_hub_restart_keeps_files_and_a_kernels_variables(quiet_room):
    kernel = quiet_room.join(QUIET)
    assert kernel.run(TRAIN)["status"] == "ok"
    edited = quiet_room.homes / QUIET / EDITED
    assert kernel.run(f"from pathlib import Path; p = Path({str(edited)!r}); "
                      "p.write_text(p.read_text().replace('Byte', 'BYTE', 1))")["status"] == "ok"
    before = {path: _sha(path) for path in sorted((quiet_room.homes / QUIET).rglob("*"))
              if path.is_file() and ("models" in path.parts or path.suffix == ".ipynb")}
    assert kernel.run("answer = 41")["status"] == "ok"
    quiet_room.restart()
    assert quiet_room.hub.printed("attendees' password:") == quiet_room.password  # kept too
    attendee = quiet_room.attendees[QUIET]
    kernel = attendee.kernel(kernel.id)  # the same kernel, through the new hub
    assert kernel.run("answer + 1")["output"] == "42"
    assert kernel.run("len(tok.merges)")["output"] == "44"
    kernel.close()
    kernel = quiet_room.join(QUIET)  # a new login: the series brought up to date, not overwritten
    assert {path: _sha(path) for path in before} == before and "BYTE" in edited.read_text()
    cell = kernel.run("from bpe_workshop import ByteLevelBPE; from pathlib import Path\n"
                      "len(ByteLevelBPE.load(next(Path.home().glob('models/*.model'))).merges)")
    assert cell["output"] == "44"


def test_while_the_hub_is_down_no_attendee_can_take_its_or_its_proxys_port(quiet_room):
    """An attendee's code that took the proxy's API port while the hub restarted, with the
    attendee's own server certificate, once heard the proxy's token (and could reroute
    logins): the hub's and the proxy's own ports are now ones only root may listen on."""
    quiet_room.join(QUIET)
    hub_process = psutil.Process(quiet_room.hub.process.pid)  # and its proxy:
    proxy, = [child for child in hub_process.children()
              if "configurable-http-proxy" in " ".join(child.cmdline())]
    ports = {listening.laddr.port for process in (hub_process, proxy)
             for listening in process.net_connections("tcp") if listening.status == "LISTEN"}
    ports.discard(quiet_room.hub.port)  # the room's own, which the instructor chooses
    assert len(ports) == 2, ports  # the hub's, and the proxy's API
    python, attendee = f"{bench_hub.hub_env()}/bin/python", pwd.getpwnam(QUIET)
    tries = {}

    def take_the_ports():  # as the attendee's code would, while the hub is down
        for port in ports:
            take = ("import socket; s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, "
                    f"socket.SO_REUSEADDR, 1); s.bind(('127.0.0.1', {port}))")  # as a hub would
            tries[port] = [subprocess.run([python, "-c", take], user=account.pw_uid,
                                          capture_output=True, text=True)
                           for account in (attendee, pwd.getpwnam("root"))]

    quiet_room.restart(while_down=take_the_ports)
    for port, (as_attendee, as_root) in tries.items():
        assert "PermissionError" in as_attendee.stderr, (port, as_attendee.stderr)
        assert as_root.returncode == 0, (port, as_root.stderr)  # free: root alone may take it
    assert quiet_room.join(QUIET).run("1 + 1")["output"] == "2"  # and the room answers again


def test_a_server_past_its_max_age_is_stopped_and_its_files_stay(culled_room):
    culled_room.join(CULLED)
    attendee, series = culled_room.attendees[CULLED], culled_room.homes / CULLED / SERIES
    notebooks = sorted(series.glob("*.ipynb"))
    assert len(notebooks) >= 10
    assert attendee.hub_api("GET", f"/users/{CULLED}").json()["servers"][""]["ready"]
    for _ in range(120):  # the culler looks every minute; 10 min at most
        if not attendee.hub_api("GET", f"/users/{CULLED}").json()["servers"]:
            break
        time.sleep(5)
    assert attendee.hub_api("GET", f"/users/{CULLED}").json()["servers"] == {}
    assert sorted(series.glob("*.ipynb")) == notebooks


def _sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _refused(python: str, homes: Path) -> subprocess.CompletedProcess:
    """``bpe-workshop hub`` on ``homes``, run by ``python``; after it, ``--stop`` removes the
    room's control groups (the refusal leaves the hub's own, empty)."""
    command = [python, "-m", "bpe_workshop", "hub", "--homes", str(homes)]
    try:
        return subprocess.run([*command, "--ip", "127.0.0.1", "--port",
                               str(bench_hub.free_port())], capture_output=True, text=True,
                              timeout=60, cwd="/")  # a refusal comes in seconds
    finally:
        subprocess.run([*command, "--stop"], capture_output=True, timeout=120, cwd="/")


def test_a_hub_run_by_a_python_other_accounts_cannot_run_is_refused():
    """This process's Python lives under ``/root`` (mode 700), as CI's does: attendees could
    not start a server from it, so the hub refuses before it serves, and says how to install."""
    folder = Path(tempfile.mkdtemp(prefix=f"{PREFIX}closed-"))
    folder.chmod(0o711)  # the homes are reachable: only the Python is closed
    try:
        done = _refused(sys.executable, folder / "homes")
        assert done.returncode == 1, done.stdout + done.stderr
        assert (f"other accounts cannot run {sys.prefix}/bin/jupyterhub-singleuser from "
                f"{folder / 'homes'}: either this Python has no JupyterHub or is in a folder "
                "closed to them (install the hub as the guide does: /usr/bin/python3 -m venv "
                "/opt/hub" in done.stderr)
        assert "choose --homes under folders everyone passes through" in done.stderr
    finally:
        shutil.rmtree(folder)


def test_homes_attendees_cannot_pass_through_to_are_refused():
    """The hub's Python is open to every account, but the homes are under a folder only root
    passes through: no attendee could reach their home, so the hub refuses."""
    folder = Path(tempfile.mkdtemp(prefix=f"{PREFIX}shut-"))  # mode 700, as mkdtemp makes it
    python = f"{bench_hub.hub_env()}/bin/python"
    try:
        done = _refused(python, folder / "homes")
        assert done.returncode == 1, done.stdout + done.stderr
        assert (f"other accounts cannot run {bench_hub.ENV}/bin/jupyterhub-singleuser from "
                f"{folder / 'homes'}" in done.stderr)
        assert f"or a folder above {folder / 'homes'} lets only its owner through" in done.stderr
    finally:
        shutil.rmtree(folder)


def test_a_python_without_jupyterhub_is_refused(monkeypatch):
    """The check itself, run for real as ``nobody``, on an environment every account can enter
    but that has no JupyterHub server in it (its ``bin`` holds Python alone)."""
    folder = Path(tempfile.mkdtemp(prefix=f"{PREFIX}bare-"))
    folder.chmod(0o755)
    (folder / "bin").mkdir()
    (folder / "bin" / "python").symlink_to("/usr/bin/python3")
    (folder / "homes").mkdir(mode=0o711)
    monkeypatch.setattr(sys, "prefix", str(folder))
    try:
        with pytest.raises(OSError, match="either this Python has no JupyterHub"):
            hub._check_attendees_can_run(folder / "homes")
    finally:
        shutil.rmtree(folder)


def test_a_kernel_talks_through_files_a_classmate_cannot_reach(room):
    """Kernels on TCP would let any account of the machine subscribe to a classmate's output:
    here they use files in a folder of the attendee's own that root made. A classmate who
    subscribes to every port the attendee listens on (as an attendee probing the room did)
    hears nothing of their cell."""
    ada, ben = NAMES[0], NAMES[1]
    ada_kernel, ben_kernel = room.join(ada), room.join(ben)
    cell = ada_kernel.run("from ipykernel.kernelapp import IPKernelApp\n"
                          "app = IPKernelApp.instance()\nprint(app.transport, app.ip)")
    transport, path = cell["output"].split()
    folder = Path(path).parent
    assert transport == "ipc" and folder.name == ada and folder.parent.parent == hub.RUN, cell
    peek = ben_kernel.run(f"import os\nos.listdir({str(folder)!r})")
    assert peek["status"] == "error" and peek["ename"] == "PermissionError", peek
    uid, ports = pwd.getpwnam(ada).pw_uid, set()
    for connection in psutil.net_connections("tcp"):
        with contextlib.suppress(psutil.Error):  # a process that ended meanwhile
            if connection.status == "LISTEN" and connection.pid and \
                    psutil.Process(connection.pid).uids().real == uid:
                ports.add(connection.laddr.port)
    listening = ben_kernel.run(
        "import time, zmq\nsubs = []\n"
        f"for port in {sorted(ports)}:\n"
        "    subs.append(zmq.Context.instance().socket(zmq.SUB))\n"
        "    subs[-1].setsockopt(zmq.SUBSCRIBE, b'')\n"
        "    subs[-1].connect(f'tcp://127.0.0.1:{port}')\ntime.sleep(1)")
    assert listening["status"] == "ok" and ports, (listening, ports)
    assert ada_kernel.run("print('ada-secret-answer')")["output"] == "ada-secret-answer\n"
    heard = ben_kernel.run("heard = [s.recv_multipart() for s in subs for _ in range(50)\n"
                           "         if s.poll(40)]\nprint(b'ada-secret' in repr(heard).encode())")
    assert heard["output"] == "False\n", heard


def test_the_hub_proxy_and_servers_talk_over_tls(room):
    """A classmate who takes the hub's port while it restarts hears a TLS handshake that only
    the room's own certificates complete, never a server's token."""
    cell = room.join(NAMES[0]).run("import os\nprint(os.environ['JUPYTERHUB_API_URL'])")
    assert cell["output"].startswith("https://127.0.0.1:"), cell


def test_an_attendee_of_another_room_is_refused(room):
    """In the attendees' group, but with a home in another room's folder: not this room's."""
    name, other = f"{PREFIX}oto", Path(tempfile.mkdtemp(prefix=f"{PREFIX}other-"))
    subprocess.run(["useradd", "--create-home", "--home-dir", str(other / name), "--groups",
                    "bpe-attendees", name], check=True)
    try:
        probe = bench_hub.Attendee(room.hub.url, name, room.password, own="taking-otos-1")
        assert not probe.login()
        assert f"{name} is an account of this machine that this hub did not make" in (
            probe.refusal)
    finally:
        bench_hub.remove_accounts([name])
        shutil.rmtree(other)


def test_an_attendees_own_jupyter_config_and_links_are_not_followed(room):
    """A server config in ``~/.jupyter`` could add pages on the hub's own address, whose
    script acts as whoever opens them: the room's servers never read it, nor JupyterLab's page
    settings there (a script of the attendee's in their own page). And ``~/.jupyterhub``
    made a link to a folder of root's: JupyterHub's own staging of the server's certificates
    (as root, in the home) would hand that folder to the attendee; the room's never goes there."""
    name = f"{PREFIX}ivy"
    marker, roots = room.homes / name / "config-was-read", room.folder / "roots"
    roots.mkdir(mode=0o755)
    config = f"open({str(marker)!r}, 'w').close()\n"  # it would leave a file, if read
    page = '{"fullStaticUrl": "https://example.org/an-attendees-script"}'  # JupyterLab's
    try:
        written = room.join(name).run(
            "from pathlib import Path\njupyter = Path.home() / '.jupyter'\n"
            "(jupyter / 'labconfig').mkdir(parents=True)\n"
            f"(jupyter / 'jupyter_server_config.py').write_text({config!r})\n"
            f"(jupyter / 'labconfig' / 'page_config.json').write_text({page!r})\n"
            f"(Path.home() / '.jupyterhub').symlink_to({str(roots)!r})")
        assert written["status"] == "ok", written
        room.stop_server(name)
        assert room.join(name).run("1 + 1")["output"] == "2"  # a server started since
        assert not marker.exists()
        assert roots.stat().st_uid == 0 and not any(roots.iterdir())
        token = {"Authorization": f"token {room.attendees[name].token}"}
        lab = requests.get(f"{room.hub.url}/user/{name}/lab", timeout=60, headers=token)
        assert lab.status_code == 200 and "jupyter-config-data" in lab.text
        assert "an-attendees-script" not in lab.text  # the page's settings are not the home's
        theme = requests.put(  # but the attendee's own JupyterLab settings still save, at home
            f"{room.hub.url}/user/{name}/lab/api/settings/@jupyterlab/apputils-extension:themes",
            json={"raw": '{"theme": "JupyterLab Dark"}'}, timeout=60, headers=token)
        assert theme.status_code == 204, theme.text
        saved = room.homes / name / ".jupyter/lab/user-settings/@jupyterlab/apputils-extension"
        assert "JupyterLab Dark" in (saved / "themes.jupyterlab-settings").read_text()
    finally:
        if name in room.kernels:
            room.kernels.pop(name).close()
        room.attendees[name].hub_api("DELETE", f"/users/{name}/server")
        bench_hub.remove_accounts([name])


def test_no_attendee_reaches_the_hubs_terminal(room):
    """Servers once inherited the hub's terminal (stdin, stdout, stderr): a cell read what the
    instructor typed there and wrote lines of its own. The bench's hub writes to its log, its
    terminal here: neither a kernel nor its server holds that file, nor the hub's stdin."""
    held = room.join(NAMES[1]).run(textwrap.dedent("""
        import os
        held = set()
        for pid in ("self", os.getppid()):  # the kernel, and its server
            for fd in os.listdir(f"/proc/{pid}/fd"):
                try:
                    held.add(os.readlink(f"/proc/{pid}/fd/{fd}"))
                except OSError:
                    pass  # the listing's own descriptor, closed since
        print(sorted(held))"""))
    assert held["status"] == "ok", held
    hubs = {os.readlink(f"/proc/{room.hub.process.pid}/fd/{fd}") for fd in (0, 1, 2)}
    assert str(room.hub.log) in hubs
    assert not (hubs - {"/dev/null"}) & set(ast.literal_eval(held["output"]))
    log = room.homes / NAMES[1] / ".server.log"  # where it writes instead, the copy's line too
    assert str(log) in held["output"] and f"/{NAMES[1]}/{SERIES}" in log.read_text()


def test_a_pipe_or_a_folder_in_place_of_the_servers_log_stalls_no_start(room):
    """A pipe at ``~/.server.log`` once froze the whole hub (its start opened it, as root's
    Popen waited) and a folder there stopped the server for good: now both start, unlogged."""
    name = f"{PREFIX}fio"
    try:
        for make in ("os.mkfifo(log)", "os.mkdir(log)"):
            cell = room.join(name).run(f"import os\nlog = os.path.expanduser('~/.server.log')\n"
                                       f"if os.path.lexists(log):\n    os.unlink(log)\n{make}")
            assert cell["status"] == "ok", cell
            room.stop_server(name)
            kernel = room.join(name)
            assert kernel.run("1 + 1")["output"] == "2"  # started again, and the hub answers
            assert requests.get(f"{room.hub.url}/hub/login", timeout=30).status_code == 200
            assert kernel.run("import os\nlog = os.path.expanduser('~/.server.log')\n"
                              "os.rmdir(log) if os.path.isdir(log) else os.unlink(log)"
                              )["status"] == "ok"
    finally:
        room.attendees[name].hub_api("DELETE", f"/users/{name}/server")
        bench_hub.remove_accounts([name])


def test_the_hubs_own_group_is_one_no_attendee_can_be_named(room):
    """An attendee named ``hub`` once took over the hub's control group (its limits, and its
    end when their server stopped): the hub's is ``.hub``, which no name of the rule makes."""
    groups = Path(f"/proc/{room.hub.process.pid}/cgroup").read_text()
    assert "/bpe-workshop/" in groups and all(
        line.endswith("/.hub") for line in groups.splitlines() if "/bpe-workshop/" in line)
    assert hub._not_ours(".hub", room.homes) is not None  # the rule refuses the name
