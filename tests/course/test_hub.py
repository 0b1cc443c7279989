"""``bpe-workshop hub`` with real accounts, as in a room: run as root (CI is).

One hub for these tests, on 127.0.0.1 and a free port. Its homes go to a fresh folder under the
system's temporary folder, not ``tmp_path``: pytest's folders admit only their owner (and pytest
closes them again whenever any session starts), so attendees could not reach a home there. The
attendees' Python is the command's own default, ``/opt/bpe-workshop``, made on first use like
the proxy ``.ci/run`` installs. The accounts carry a random prefix; at the end their leftover
processes are ended by id, the accounts removed and the folder deleted. The client is the load
benchmark's (``benchmarks/bench_hub.py``): it logs in through the hub's login form and runs code
in kernels over the Jupyter kernel protocol. Two rooms, each made once per test process: one
where three attendees have trained and saved a model, one that a test restarts and whose
servers stop after a minute of quiet. No test needs another to have run first.
"""

import hashlib
import importlib.util
import os
import pwd
import shutil
import stat
import tempfile
import time
import uuid
from pathlib import Path

import pytest

from bpe_workshop import ByteLevelBPE

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
QUIET = f"{PREFIX}dee"  # the attendee of the room that restarts and culls
MEMORY_GB = 1.5  # each process's cap here; notebook 04's kernel maps about 0.4 GB
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
EDITED = "bpe-workshop/04_byte_level_bpe.ipynb"  # the notebook the attendees change


class Room:
    """A hub on a fresh folder; ``join`` logs an attendee in and opens a kernel."""

    def __init__(self, *options: str):
        self.folder = Path(tempfile.mkdtemp(prefix=f"{PREFIX}room-"))
        self.folder.chmod(0o711)  # attendees pass through to their homes, and see nothing else
        self.homes, self.options = self.folder / "homes", options
        self.attendees, self.kernels, self.trained = {}, {}, {}
        self.hub = bench_hub.Hub(self.homes, *options)
        self.password = self.hub.printed("attendees' password:")

    def join(self, name: str):
        if name in self.kernels:
            self.kernels.pop(name).close()
        attendee = bench_hub.Attendee(self.hub.url, name, self.password)
        assert attendee.login(), f"{name} could not log in"
        attendee.spawn()
        self.attendees[name], self.kernels[name] = attendee, attendee.kernel()
        return self.kernels[name]

    def restart(self) -> None:
        for kernel in self.kernels.values():
            kernel.close()
        self.kernels.clear()
        self.hub.stop()
        self.hub = bench_hub.Hub(self.homes, *self.options)

    def close(self, names: list[str]) -> None:
        for kernel in self.kernels.values():
            kernel.close()
        self.hub.stop()
        bench_hub.remove_accounts(names)
        shutil.rmtree(self.folder)


@pytest.fixture(scope="session")  # once per test process, whichever file it runs next
def room():
    """Three attendees, each with a model trained and saved in their home (``room.trained``:
    what each training cell printed)."""
    room = Room("--admin", ADMIN, "--memory", str(MEMORY_GB))
    try:
        for name in NAMES:
            room.trained[name] = room.join(name).run(TRAIN)
        yield room
    finally:
        room.close([*NAMES, ADMIN])


@pytest.fixture(scope="session")
def quiet_room():
    """A room whose servers stop after a minute of quiet (``--idle 1``)."""
    room = Room("--idle", "1")
    try:
        yield room
    finally:
        room.close([QUIET])


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


def test_a_wrong_password_is_refused(room):
    assert not bench_hub.Attendee(room.hub.url, f"{PREFIX}eve", "not-the-password").login()
    # the instructor's name needs the instructor's own password, not the room's
    assert not bench_hub.Attendee(room.hub.url, ADMIN, room.password).login()
    # an account of this machine that is not an attendee's is no name to log in with
    assert not bench_hub.Attendee(room.hub.url, "root", room.password).login()


def test_an_attendee_cannot_read_or_change_anothers_files(room):
    ada, ben = NAMES[0], NAMES[1]
    ben_model = next((room.homes / ben / "models").glob("*.model"))
    for code in (f"open({str(ben_model)!r}).read()",
                 f"import os; os.listdir({str(room.homes / ben)!r})",
                 f"open({str(room.homes / ben / 'mine.txt')!r}, 'w')"):
        cell = room.kernels[ada].run(code)
        assert (cell["status"], cell["ename"]) == ("error", "PermissionError"), code
    assert not (room.homes / ben / "mine.txt").exists()
    # nor through ben's server: ada's token does not open it
    answer = room.attendees[ada].server_api("GET", "/contents/models", user=ben)
    assert answer.status_code == 403


def test_the_instructor_sees_the_attendees_and_opens_their_servers(room):
    teacher = bench_hub.Attendee(room.hub.url, ADMIN, room.hub.printed("instructor's password:"))
    assert teacher.login()
    listed = {user["name"] for user in teacher.hub_api("GET", "/users").json()}
    assert set(NAMES) <= listed
    token = teacher.hub_api("POST", f"/users/{ADMIN}/tokens", json={"note": "t"}).json()
    teacher.token = token["token"]
    answer = teacher.server_api("GET", "/contents/models", user=NAMES[2])
    assert answer.status_code == 200
    assert [item["name"] for item in answer.json()["content"] if item["name"].endswith(".model")]


def test_a_cell_over_the_memory_limit_dies_alone(room):
    ada, ben = room.kernels[NAMES[0]], room.kernels[NAMES[1]]
    # 3 GB in 50 MB steps, twice the cap (bounded, so a missing cap fails the test and no more)
    runaway = ada.run("hog = []\nfor step in range(60):\n    hog.append(bytearray(50 * 2**20))")
    assert (runaway["status"], runaway["ename"]) == ("error", "MemoryError")
    # ada's kernel goes on with what it had, and so does ben's
    assert ada.run("del hog\nlen(tok.merges)")["output"] == "44"
    assert ben.run("len(tok.merges)")["output"] == "44"
    assert ben.run("x = bytearray(2**29); len(x)")["status"] == "ok"


def test_a_hub_restart_loses_no_file(quiet_room):
    kernel = quiet_room.join(QUIET)
    assert kernel.run(TRAIN)["status"] == "ok"
    edited = quiet_room.homes / QUIET / EDITED
    assert kernel.run(f"from pathlib import Path; p = Path({str(edited)!r}); "
                      "p.write_text(p.read_text().replace('Byte', 'BYTE', 1))")["status"] == "ok"
    before = {path: _sha(path) for path in sorted((quiet_room.homes / QUIET).rglob("*"))
              if path.is_file() and ("models" in path.parts or path.suffix == ".ipynb")}
    quiet_room.restart()
    assert quiet_room.hub.printed("attendees' password:") == quiet_room.password  # kept too
    kernel = quiet_room.join(QUIET)  # a new login: the series brought up to date, not overwritten
    assert {path: _sha(path) for path in before} == before and "BYTE" in edited.read_text()
    cell = kernel.run("from bpe_workshop import ByteLevelBPE; from pathlib import Path\n"
                      "len(ByteLevelBPE.load(next(Path.home().glob('models/*.model'))).merges)")
    assert cell["output"] == "44"


def test_an_idle_server_is_stopped_and_its_files_stay(quiet_room):
    quiet_room.join(QUIET)
    quiet_room.kernels.pop(QUIET).close()  # the attendee leaves: nothing runs or is connected
    attendee = quiet_room.attendees[QUIET]
    assert attendee.hub_api("GET", f"/users/{QUIET}").json()["servers"][""]["ready"]
    for _ in range(120):  # the culler looks every 15 s for a minute of quiet; 10 min at most
        if not attendee.hub_api("GET", f"/users/{QUIET}").json()["servers"]:
            break
        time.sleep(5)
    assert attendee.hub_api("GET", f"/users/{QUIET}").json()["servers"] == {}
    assert len(list((quiet_room.homes / QUIET / "bpe-workshop").glob("*.ipynb"))) == 10


def _sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()
