"""``bpe-workshop hub`` with real accounts, as in a room: run as root (CI is).

One hub for the module, on 127.0.0.1 and a free port. Its homes go to a fresh folder under the
system's temporary folder, not ``tmp_path``: pytest's folders admit only their owner (and pytest
closes them again whenever any session starts), so attendees could not reach a home there. The
attendees' Python is the command's own default, ``/opt/bpe-workshop``, made on first use like
the proxy ``.ci/run`` installs. The accounts carry a random prefix; at the end their leftover
processes are ended by id, the accounts removed and the folder deleted. The client is the load
benchmark's (``benchmarks/bench_hub.py``): it logs in through the hub's login form and runs code
in kernels over the Jupyter kernel protocol. The tests run in order and share the kernels.
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

PREFIX = f"bt{uuid.uuid4().hex[:4]}-"  # accounts no one else has
NAMES = [f"{PREFIX}ada", f"{PREFIX}ben", f"{PREFIX}cy"]
ADMIN = f"{PREFIX}teacher"
MEMORY_GB = 1.5  # each process's cap here; notebook 04's kernel maps about 0.4 GB
TRAIN = """
from pathlib import Path
from bpe_workshop import ByteLevelBPE
from bpe_workshop.files.corpora import load_english
tok = ByteLevelBPE.train(load_english()[:20000], vocab_size=300)
models = Path.home() / "models"
models.mkdir()
tok.save(models / "book300")
print(Path.home(), sorted(path.name for path in models.iterdir()))
"""


class Room:
    """The hub, the attendees (logged in and spawned) and one kernel each."""

    def __init__(self, folder: Path):
        self.homes = folder / "homes"
        self.hub = bench_hub.Hub(self.homes, "--admin", ADMIN, "--memory", str(MEMORY_GB))
        self.password = self.hub.printed("attendees' password:")
        self.attendees, self.kernels = {}, {}

    def join(self, name: str):
        attendee = bench_hub.Attendee(self.hub.url, name, self.password)
        assert attendee.login(), f"{name} could not log in"
        attendee.spawn()
        self.attendees[name], self.kernels[name] = attendee, attendee.kernel()
        return self.kernels[name]


@pytest.fixture(scope="module")
def room():
    folder = Path(tempfile.mkdtemp(prefix=f"{PREFIX}room-"))
    folder.chmod(0o711)  # attendees pass through to their homes, and see nothing else
    room = None
    try:
        room = Room(folder)
        yield room
    finally:
        if room is not None:
            for kernel in room.kernels.values():
                kernel.close()
            room.hub.stop()
        bench_hub.remove_accounts([*NAMES, ADMIN])
        shutil.rmtree(folder)


def test_three_attendees_each_train_and_save_a_model_in_their_own_home(room):
    for name in NAMES:
        cell = room.join(name).run(TRAIN)
        assert cell["status"] == "ok", cell["output"]
        home = room.homes / name
        assert cell["output"].startswith(str(home))
        account = pwd.getpwnam(name)
        assert Path(account.pw_dir) == home
        assert stat.S_IMODE(home.stat().st_mode) == 0o700
        assert (home / "bpe-workshop" / "04_byte_level_bpe.ipynb").stat().st_uid == account.pw_uid
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


def test_a_hub_restart_loses_no_file(room):
    ada = NAMES[0]
    edited = room.homes / ada / "bpe-workshop" / "04_byte_level_bpe.ipynb"
    assert room.kernels[ada].run(
        f"from pathlib import Path; p = Path({str(edited)!r}); "
        "p.write_text(p.read_text().replace('Byte', 'BYTE', 1))")["status"] == "ok"
    before = {path: _sha(path) for path in sorted(room.homes.rglob("*"))
              if path.is_file() and ("models" in path.parts or path.suffix == ".ipynb")}
    for kernel in room.kernels.values():
        kernel.close()
    room.kernels.clear()
    room.hub.stop()
    room.hub = bench_hub.Hub(room.homes, "--admin", ADMIN, "--idle", "1")  # for the next test
    assert room.hub.printed("attendees' password:") == room.password  # the room keeps its password
    kernel = room.join(ada)  # a new login: the series is brought up to date, never overwritten
    after = {path: _sha(path) for path in before}
    assert after == before and "BYTE" in edited.read_text()
    cell = kernel.run("from bpe_workshop import ByteLevelBPE; from pathlib import Path\n"
                      "len(ByteLevelBPE.load(next(Path.home().glob('models/*.model'))).merges)")
    assert cell["output"] == "44"



def test_an_idle_server_is_stopped_and_its_files_stay(room):
    ada = NAMES[0]
    room.kernels.pop(ada).close()  # ada leaves: nothing runs, nothing is connected
    attendee = room.attendees[ada]
    for _ in range(120):  # the culler looks every 15 s for a minute of quiet; 10 min at most
        if not attendee.hub_api("GET", f"/users/{ada}").json()["servers"]:
            break
        time.sleep(5)
    assert attendee.hub_api("GET", f"/users/{ada}").json()["servers"] == {}
    assert len(ByteLevelBPE.load(next((room.homes / ada / "models").glob("*.model"))).merges) == 44
    assert "BYTE" in (room.homes / ada / "bpe-workshop" / "04_byte_level_bpe.ipynb").read_text()


def _sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()
