"""``bpe-workshop hub``: the series for a room, on one JupyterHub; attendees need only a browser.

Run as root on an instructor's laptop or one cloud VM::

    sudo bpe-workshop hub --port 8000 --admin teacher

prints the address and the workshop's password. Attendees log in with any name and that
password. An attendee's first login, in order (``prepare_home``, the hub's pre-spawn step):

1. an account of this machine with the same name is made (``useradd``), its home
   ``HOMES/NAME`` readable by that attendee alone (mode 700);
2. ``bpe-workshop start ~/bpe-workshop --no-lab`` runs *as the attendee*: their own copy of the
   series, never written over by a later login (and root never writes into a home);
3. their own Jupyter server starts as the attendee, under a cap on the memory each process may
   map (``RLIMIT_AS``, inherited by every kernel it starts): a cell that asks for more gets
   ``MemoryError`` and the kernel, the attendee's other work and the room go on.

Attendees' servers run from an environment every account can run, made once by this command
under ``/opt`` with Debian's ``/usr/bin/python3`` (a Python under ``/root`` is closed to
other accounts). Idle kernels are shut down by their server and idle servers by
``jupyterhub-idle-culler`` (``--idle`` minutes, 60 by default); homes stay. The
instructor logs in with their own password; JupyterHub's admin page (``/hub/admin``) lists the
attendees and opens any attendee's server. The hub's state (its database, the passwords) sits
in ``HOMES/.hub`` (root only), so a restart keeps every account, file and password.

Left out: per-attendee CPU shares and a cap on the sum of an attendee's processes (cgroups, where
the machine offers them); logins that prove who is who (with one shared password, whoever types
an attendee's name gets that attendee's server: names keep attendees apart, not secrets).
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import os
import re
import secrets
import shutil
import socket
import stat
import subprocess
import sys
import tempfile
from importlib import metadata
from pathlib import Path
from urllib.parse import urlparse
from urllib.request import url2pathname

from bpe_workshop.course.series import FIRST

try:  # Unix's: a room is served from Linux; the other commands run on Windows too
    import fcntl
    import pwd
    import resource
except ImportError:
    fcntl = pwd = resource = None

NAME_PATTERN = r"^[a-z][a-z0-9_-]{0,30}$"  # an attendee's name is also their account's
SERIES_FOLDER = "bpe-workshop"  # in each home, as `bpe-workshop start` names it
INSTALL_HUB = 'pip install "bpe-workshop[hub]"'
INSTALL_PROXY = "npm install -g configurable-http-proxy"


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "hub", help="a classroom JupyterHub: attendees need only a browser and a password",
        description="Serve the series to a room from this machine (run as root). Each attendee "
                    "logs in with any name and the workshop's password and gets an account, a "
                    "home with their own copy of the series, and their own server and kernels.",
        epilog="example: sudo bpe-workshop hub --port 8000 --admin teacher --max-users 40")
    parser.add_argument("--port", type=int, default=8000, help="the room's port (default 8000)")
    parser.add_argument("--ip", default="0.0.0.0",
                        help="the address to listen on (default: every address of this machine)")
    parser.add_argument("--password", help="the attendees' shared password, 8 characters or "
                        "more (default: the last one used, or a new one, printed)")
    parser.add_argument("--admin", metavar="NAME", help="the instructor's name: the admin page "
                        "and every attendee's server, with a password of its own (printed)")
    parser.add_argument("--ssl-key", type=Path, help="TLS key file (with --ssl-cert): https")
    parser.add_argument("--ssl-cert", type=Path, help="TLS certificate file (with --ssl-key)")
    parser.add_argument("--max-users", type=int, default=40,
                        help="servers running at once; later logins wait (default 40)")
    parser.add_argument("--homes", type=Path, default=Path("/home/bpe-workshop"),
                        help="where attendees' homes live (default /home/bpe-workshop)")
    parser.add_argument("--memory", type=float, default=2.0, metavar="GB",
                        help="memory each of an attendee's processes may map (default 2 GB)")
    parser.add_argument("--idle", type=int, default=60, metavar="MINUTES",
                        help="stop a server idle this long; its files stay (default 60)")
    parser.add_argument("--env", type=Path, default=Path("/opt/bpe-workshop"),
                        help="the attendees' Python environment, made on first use "
                             "(default /opt/bpe-workshop)")
    parser.set_defaults(run=run)


def run(args) -> int:
    """Check, set up, print the room's address and passwords, then serve until stopped."""
    problem = _bad_options(args)
    if problem:
        print(f"bpe-workshop hub: {problem}", file=sys.stderr)
        return 2
    problem = _missing()
    if problem:
        print(f"bpe-workshop hub: {problem}", file=sys.stderr)
        return 1
    homes, state = args.homes.absolute(), args.homes.absolute() / ".hub"
    homes.mkdir(mode=0o711, parents=True, exist_ok=True)
    state.mkdir(mode=0o700, exist_ok=True)
    closed = _closed_ancestor(homes)
    if closed:
        print(f"bpe-workshop hub: attendees cannot reach their homes in {homes}: {closed} lets "
              "only its owner through; choose --homes under a folder everyone can pass "
              "through (the default, /home/bpe-workshop, is)", file=sys.stderr)
        return 1
    if not _attendee_env(args.env.absolute()):
        return 1
    secrets_file = state / "passwords.json"
    saved = json.loads(secrets_file.read_text()) if secrets_file.exists() else {}
    password = args.password or saved.get("password") or secrets.token_urlsafe(6)
    admin_password = saved.get("admin_password") or secrets.token_urlsafe(24)
    secrets_file.write_text(json.dumps({"password": password, "admin_password": admin_password}))
    settings = {"ip": args.ip, "port": args.port, "password": password, "admin": args.admin,
                "admin_password": admin_password, "max_users": args.max_users,
                "ssl_key": args.ssl_key and str(args.ssl_key.absolute()),
                "ssl_cert": args.ssl_cert and str(args.ssl_cert.absolute()),
                "homes": str(homes), "state": str(state), "env": str(args.env.absolute()),
                "memory": int(args.memory * 2**30), "idle": args.idle * 60}
    config = state / "jupyterhub_config.py"
    config.write_text("from bpe_workshop.course.hub import configure\n\n"
                      f"configure(c, {settings!r})\n")  # c: JupyterHub's config object
    scheme = "https" if args.ssl_key else "http"
    print(f"The room: {scheme}://{'<this machine>' if args.ip == '0.0.0.0' else args.ip}"
          f":{args.port}/\n  attendees' password: {password} (log in with any name: a-z, 0-9, "
          "- and _)")
    if args.admin:
        print(f"  instructor's password: {admin_password} (log in as {args.admin}; the admin "
              "page, /hub/admin, lists the attendees and opens their servers)")
    print(f"  homes in {homes}; each process up to {args.memory:g} GB; servers idle "
          f"{args.idle} min stop (files stay); at most {args.max_users} servers at once",
          flush=True)
    from jupyterhub.app import main as jupyterhub

    jupyterhub(["-f", str(config)])
    return 0


def _bad_options(args) -> str | None:
    """What is wrong with the command line, with the fix; None when nothing is."""
    if args.password is not None and len(args.password) < 8:
        return ("--password must be 8 characters or more (JupyterHub's rule); choose a longer "
                "one, or leave it out to get one printed")
    if (args.ssl_key is None) != (args.ssl_cert is None):
        return "--ssl-key and --ssl-cert go together: give both, or neither for http"
    if args.admin is not None and not re.fullmatch(NAME_PATTERN, args.admin):
        return (f"--admin {args.admin!r} cannot be an account name: use lowercase letters, "
                "digits, - and _, starting with a letter (e.g. teacher)")
    if min(args.max_users, args.idle, args.memory) <= 0:
        return "--max-users, --idle and --memory take numbers above 0 (e.g. --memory 2)"
    return None


def _missing() -> str | None:
    """What stops the hub on this machine, with the fix; None when nothing does."""
    if pwd is None:
        return (f"the classroom hub needs Linux (a cloud VM, a container or WSL), not "
                f"{sys.platform}: attendees become accounts of the machine")
    if os.geteuid() != 0:
        return ("run it as root (sudo, or in a VM or container): each attendee becomes an "
                "account of this machine, kept apart by file permissions, and only root can "
                "make accounts and start servers as them")
    try:
        metadata.version("jupyterhub")
        metadata.version("jupyterhub-idle-culler")
    except metadata.PackageNotFoundError:
        return f"JupyterHub is not installed; install it with: {INSTALL_HUB}"
    if shutil.which("configurable-http-proxy") is None:
        return f"JupyterHub's proxy is missing; install it with: {INSTALL_PROXY} (Node.js 20+)"
    return None


def _closed_ancestor(folder: Path) -> Path | None:
    """The first folder above ``folder`` that other accounts cannot pass through, if any."""
    for parent in reversed(folder.parents):
        if not parent.stat().st_mode & stat.S_IXOTH:
            return parent
    return None


def _attendee_env(env: Path) -> bool:
    """``_prepare_env`` with a lock: two hubs starting at once install once, not over each
    other (the tests can start two)."""
    env.parent.mkdir(parents=True, exist_ok=True)
    with open(env.parent / f".{env.name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        return _prepare_env(env)


def _prepare_env(env: Path) -> bool:
    """Make sure ``env`` holds this course and JupyterHub's server, runnable by every account.

    Made once with Debian's Python (``/usr/bin/python3``), from the same source as this
    install: the clone or wheel it came from, else the package index. ``True`` when ready.
    """
    source, version = _course_source(), metadata.version("jupyterhub")
    wanted = f"{source} jupyterhub=={version}\n"
    if Path(source).is_dir():  # a clone: install again when any of its files changed
        files = sorted(Path(folder, name) for folder, _, names in os.walk(
            Path(source, "bpe_workshop"), followlinks=True) for name in names  # notebooks too
            if not name.endswith(".pyc"))
        wanted += hashlib.sha256(repr([(str(f), f.stat().st_mtime_ns) for f in files]).encode()
                                 ).hexdigest()
    stamp = env / "bpe-workshop-hub.txt"  # what was installed, to redo it when that changes
    if not stamp.exists() or stamp.read_text() != wanted:
        python = Path("/usr/bin/python3")
        if not _runs_for_everyone([str(python), "-c", "import sys, venv, ensurepip; "
                                   "sys.exit(sys.version_info < (3, 11))"]):
            print(f"bpe-workshop hub: attendees need {python}, 3.11 or newer, with its venv "
                  "module; install it with: apt-get install python3 python3-venv",
                  file=sys.stderr)
            return False
        print(f"Installing the course for attendees into {env}, from {source} (once, a few "
              "minutes: the course's and JupyterHub's wheels, from pip's cache or the package "
              "index)", flush=True)
        with tempfile.TemporaryDirectory() as build:
            if Path(source).is_dir():  # pip builds in the folder: a copy keeps the clone clean
                for name in ("pyproject.toml", "README.md", "MANIFEST.in"):
                    shutil.copy(Path(source, name), build)
                shutil.copytree(Path(source, "bpe_workshop"), Path(build, "bpe_workshop"),
                                ignore=shutil.ignore_patterns("__pycache__"))  # links followed
                source = build
            old_umask = os.umask(0o022)  # every account reads and runs what is installed
            try:
                subprocess.run([str(python), "-m", "venv", str(env)], check=True)
                subprocess.run([str(env / "bin/python"), "-m", "pip", "install", "--quiet",
                                source, f"jupyterhub=={version}"], check=True)
            except subprocess.CalledProcessError as err:
                print(f"bpe-workshop hub: installing into {env} failed ({err}); see pip's "
                      "message above", file=sys.stderr)
                return False
            finally:
                os.umask(old_umask)
        stamp.write_text(wanted)
    if not _runs_for_everyone([str(env / "bin/jupyterhub-singleuser"), "--version"]):
        print(f"bpe-workshop hub: other accounts cannot run {env}/bin/jupyterhub-singleuser; "
              f"remove {env} and run this command again to make it afresh", file=sys.stderr)
        return False
    return True


def _course_source() -> str:
    """What pip installs for attendees: this clone, or the wheel file this install came from,
    else this version from the package index (``bpe-workshop==0.2.0``)."""
    clone = Path(__file__).parents[2]
    if (clone / "pyproject.toml").is_file():
        return str(clone)
    for distribution in metadata.distributions(name="bpe-workshop"):
        origin = json.loads(distribution.read_text("direct_url.json") or "{}").get("url", "")
        if origin.startswith("file://") and origin.endswith(".whl"):
            return url2pathname(urlparse(origin).path)
    return f"bpe-workshop=={metadata.version('bpe-workshop')}"


def _runs_for_everyone(command: list[str]) -> bool:
    """Whether ``command`` succeeds run as ``nobody``, an account with no rights of its own."""
    try:
        nobody = pwd.getpwnam("nobody")
        return subprocess.run(command, user=nobody.pw_uid, group=nobody.pw_gid, extra_groups=[],
                              capture_output=True, cwd="/").returncode == 0
    except (OSError, KeyError):  # missing, not executable, or no such account
        return False


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def configure(c, settings: dict) -> None:
    """Fill JupyterHub's config ``c`` for the room (called from ``HOMES/.hub``'s config file)."""
    from jupyterhub.authenticators.shared import SharedPasswordAuthenticator
    from jupyterhub.spawner import LocalProcessSpawner
    from tornado import web

    homes, state, env = Path(settings["homes"]), Path(settings["state"]), settings["env"]
    memory = settings["memory"]

    class RoomAuthenticator(SharedPasswordAuthenticator):
        def check_blocked_users(self, username, authentication=None):
            """Any name but an account of this machine's that is not an attendee's (such as
            root: its server would run as root)."""
            try:
                home = Path(pwd.getpwnam(username).pw_dir)
            except KeyError:
                return True
            if home.parent != homes:
                raise web.HTTPError(403, f"{username} is taken on this machine; log in with "
                                    "another name")
            return True

    class RoomSpawner(LocalProcessSpawner):
        def make_preexec_fn(self, name):
            become_attendee = super().make_preexec_fn(name)

            def preexec():  # in the new process, before the server starts
                resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
                become_attendee()

            return preexec

    scheme = "https" if settings["ssl_key"] else "http"
    c.JupyterHub.bind_url = f"{scheme}://{settings['ip']}:{settings['port']}/"
    c.JupyterHub.ssl_key = settings["ssl_key"] or ""
    c.JupyterHub.ssl_cert = settings["ssl_cert"] or ""
    c.JupyterHub.hub_port = _free_port()  # the hub's and proxy's own ports: any free ones
    c.ConfigurableHTTPProxy.api_url = f"http://127.0.0.1:{_free_port()}"
    c.ConfigurableHTTPProxy.pid_file = str(state / "proxy.pid")
    c.JupyterHub.db_url = f"sqlite:///{state / 'jupyterhub.sqlite'}"
    c.JupyterHub.cookie_secret_file = str(state / "cookie_secret")
    c.JupyterHub.active_server_limit = settings["max_users"]
    c.JupyterHub.authenticator_class = RoomAuthenticator
    c.Authenticator.allow_all = True
    c.Authenticator.username_pattern = NAME_PATTERN
    c.SharedPasswordAuthenticator.user_password = settings["password"]
    if settings["admin"]:
        c.Authenticator.admin_users = {settings["admin"]}
        c.SharedPasswordAuthenticator.admin_password = settings["admin_password"]
    c.JupyterHub.spawner_class = RoomSpawner
    c.Spawner.cmd = [f"{env}/bin/jupyterhub-singleuser"]
    c.Spawner.env_keep = ["LANG", "LC_ALL"]  # not the hub's PATH or Python
    c.Spawner.environment = {"PATH": f"{env}/bin:/usr/local/bin:/usr/bin:/bin",
                             "MALLOC_ARENA_MAX": "2"}  # fewer idle arenas under the cap
    c.Spawner.notebook_dir = "~"
    c.Spawner.default_url = f"/lab/tree/{SERIES_FOLDER}/{FIRST}"
    c.Spawner.start_timeout = c.Spawner.http_timeout = 300  # a room logs in all at once
    c.Spawner.args = [  # each notebook opened keeps a kernel: idle ones go, as idle servers do
        f"--MappingKernelManager.cull_idle_timeout={settings['idle']}",
        "--MappingKernelManager.cull_interval=60"]
    c.Spawner.pre_spawn_hook = _home_maker(homes, env)
    c.JupyterHub.services = [{"name": "idle-culler", "command": [
        sys.executable, "-m", "jupyterhub_idle_culler", f"--timeout={settings['idle']}",
        f"--cull-every={max(10, min(300, settings['idle'] // 4))}"]}]
    c.JupyterHub.load_roles = [{"name": "idle-culler", "services": ["idle-culler"], "scopes": [
        "list:users", "read:users:activity", "read:servers", "delete:servers"]}]


def _home_maker(homes: Path, env: str):
    """The pre-spawn step: an attendee's account and home, then their copy of the series."""
    accounts = asyncio.Lock()  # useradd edits /etc/passwd: one at a time

    async def prepare_home(spawner) -> None:
        name, home = spawner.user.name, homes / spawner.user.name
        async with accounts:
            try:
                pwd.getpwnam(name)
            except KeyError:
                await _run(spawner, ["useradd", "--create-home", "--home-dir", str(home),
                                     "--shell", "/bin/bash", "--user-group", name])
                home.chmod(0o700)
        account = pwd.getpwnam(name)
        await _run(spawner, [f"{env}/bin/bpe-workshop", "start", str(home / SERIES_FOLDER),
                             "--no-lab"], user=account.pw_uid, group=account.pw_gid,
                   extra_groups=[], cwd=home, env={"HOME": str(home), "PATH": f"{env}/bin"})

    return prepare_home


async def _run(spawner, command: list[str], **options) -> None:
    """Run ``command``, log what it printed, raise when it fails (the login then says so)."""
    process = await asyncio.create_subprocess_exec(
        *command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, **options)
    output = (await process.communicate())[0].decode(errors="replace").strip()
    spawner.log.info("%s: %s", command[0], output)
    if process.returncode:
        raise RuntimeError(f"{' '.join(command)} failed for {spawner.user.name}: {output}")
