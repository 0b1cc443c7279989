"""``bpe-workshop hub``: the series for a room, on one JupyterHub; attendees need only a browser.

Run as root on an instructor's laptop or a cloud VM (``register``'s example), it prints the
address and the passwords. The Littlest JupyterHub's security model, on JupyterHub's own parts
(the guide's *Running a room* says what each means for a room):

- **Logins** (``jupyterhub-firstuseauthenticator``): the workshop password admits a name with no
  account yet (an account's, the instructor's), once, with the attendee's own, alone from then on.
- **Accounts** (``LocalAuthenticator.create_system_users``): each attendee is an account this
  hub made (``useradd``, group ``bpe-attendees``, home ``HOMES/NAME`` of mode 700), never another.
- **Apart**: kernels talk through files; hub, proxy and servers over TLS, the hub's and room's
  ports root's; servers read no config from home, write to no terminal; the instructor opens none.
- **Limits** (control groups v1, written here): an attendee's processes share ``--memory``,
  ``--max-processes`` and an equal CPU share; stopping a server ends them all.
- **One hub per state folder** (``HOMES/.hub``, root only, locked for the hub's life): Ctrl-C
  keeps servers and kernels for the next start; ``--stop`` ends the room. **Culling**
  (``jupyterhub-idle-culler``): servers stop idle ``--idle`` minutes, or at ``--max-age``.

Left out: what the guide leaves to the machine (disk quotas, a firewall), and a domain per
attendee (``subdomain_host``), so what their servers serve shares the hub's address.
"""

from __future__ import annotations

import contextlib
import dbm
import hashlib
import json
import os
import random
import re
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from types import SimpleNamespace

from bpe_workshop.course.series import FIRST, FOLDER, folder_argument, port

try:  # Unix's: a room is served from Linux; the other commands run on Windows too
    import fcntl
    import grp
    import pwd
except ImportError:
    fcntl = grp = pwd = None

NAME_PATTERN = r"^[a-z][a-z0-9_-]{0,30}$"  # an attendee's name is also their account's
GROUP = "bpe-attendees"  # every account this hub made, and only those
CGROUPS = Path("/sys/fs/cgroup")  # v1: one folder per controller; ours under bpe-workshop/ROOM
RUN = Path("/run/bpe-workshop")  # ROOM/NAME: an attendee's certificates and kernels' sockets
PASSWORD_VARIABLE = "BPE_WORKSHOP_PASSWORD"  # the workshop password, never on a command line
SHORTEST = 8  # characters of any password of the room (FirstUseAuthenticator's minimum)
LOCAL = ("127.0.0.1", "localhost", "::1")
OPEN_PORTS = Path("/proc/sys/net/ipv4/ip_unprivileged_port_start")  # any account's, from it up


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "hub", help="a classroom JupyterHub: attendees need only a browser and a password",
        description="Serve the series to a room from this machine (run as root): each "
                    "attendee gets an account, a home, their own server and limits. The "
                    f"workshop password is ${PASSWORD_VARIABLE}, else the last one, else new.",
        epilog="example: sudo bpe-workshop hub --port 443 --ssl-key KEY --ssl-cert CERT "
               "--admin teacher --max-users 40")
    for option, kind, default, metavar, text in (  # the room's address, size and limits
            ("--port", port, 443, "PORT", "the room's port, below 1024"),
            ("--ip", str, "0.0.0.0", "IP", "the address to listen on; 0.0.0.0 is every address "
             "of this machine (without TLS, --plain-http too)"),
            ("--admin", str, None, "NAME", "the instructor's name, with a password of its own"),
            ("--ssl-key", Path, None, "KEY", "TLS key file (with --ssl-cert): https"),
            ("--ssl-cert", Path, None, "CERT", "TLS certificate file (with --ssl-key)"),
            ("--max-users", int, 40, "N", "servers running at once; later logins wait"),
            ("--homes", folder_argument, "/home/bpe-workshop", "FOLDER", "attendees' homes"),
            ("--memory", float, 2.0, "GB", "memory each attendee's processes share"),
            ("--max-processes", int, 256, "N", "processes and threads of each attendee"),
            ("--idle", int, 60, "MINUTES", "stop a server idle this long, 10 or more"),
            ("--max-age", int, 600, "MINUTES", "stop a server running this long")):
        parser.add_argument(option, type=kind, default=default, metavar=metavar,
                            help=text + (f" (default {default})" if default else ""))
    parser.add_argument("--plain-http", action="store_true", help="serve unencrypted http "
                        "beyond this machine: passwords and notebooks cross in clear")
    parser.add_argument("--stop", action="store_true", help="end the room for good: the hub "
                        "and every process of every attendee (homes stay)")
    parser.set_defaults(run=run)


def run(args) -> int:
    """Check, set up, print the room's address and passwords, then serve until stopped."""
    _check_options(args)
    _check_machine()
    homes, state = args.homes, args.homes / ".hub"  # absolute, as every FOLDER
    homes.mkdir(mode=0o711, parents=True, exist_ok=True)
    state.mkdir(mode=0o700, exist_ok=True)
    room = hashlib.sha256(str(state).encode()).hexdigest()[:8]  # its control groups' folder
    if args.stop:
        names = [path.name for path in _groups(room, "", ["pids"])[0].glob("*/")]
        for name in [*sorted(names, key=".hub".__ne__), ""]:  # the hub first; "": the room's
            _end_group(room, name)
        shutil.rmtree(RUN / room, ignore_errors=True)  # certificates and sockets of servers
        print(f"The room in {homes} is stopped: no process of its hub or attendees is left")
        return 0
    lock = open(state / "hub.pid", "a+")  # noqa: SIM115 (held until this process ends)
    try:
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        lock.seek(0)
        raise OSError(f"another hub (process {lock.read().strip()}) serves {homes}; one hub per "
                      f"room: use it, or end it with: bpe-workshop hub --homes {homes} "
                      "--stop") from None
    lock.truncate(0)
    print(os.getpid(), file=lock, flush=True)
    _write_groups(room, ".hub", {"pids": {"cgroup.procs": os.getpid()}})  # --stop ends the hub,
    # its proxy and culler. subtle: the room weighs against the machine's other processes as
    # its attendees would alone, not as one (2**18: the kernel's maximum)
    for folder in ("", room):  # all rooms' group, then this room's
        _write_groups(folder, "", {"cpu": {"cpu.shares": min(1024 * args.max_users, 2**18)}})
    _check_attendees_can_run(homes)
    subprocess.run(["groupadd", "--force", "--system", GROUP], check=True)
    from jupyterhub.app import JupyterHub
    from traitlets.config import Config

    saved_file = state / "passwords.json"
    saved = json.loads(saved_file.read_text()) if saved_file.exists() else {}
    saved = {"admin_password": secrets.token_urlsafe(24), **saved,
             "password": os.environ.get(PASSWORD_VARIABLE) or saved.get("password")
             or secrets.token_urlsafe(6)}
    saved_file.write_text(json.dumps(saved))
    config = Config()  # JupyterHub's configuration, as a config file's ``c``
    configure(config, args, saved, room)
    url = config.JupyterHub.bind_url
    print(f"The room: {url.replace('0.0.0.0', '<this machine>')}\n  attendees' password: "
          f"{saved['password']} (first login only: any name of a-z, 0-9, - and _, this "
          f"password, and a new password of their own, {SHORTEST} characters or more, in the "
          "second box; later, their own password alone)"
          + (f"\n  instructor's password: {saved['admin_password']} (log in as {args.admin}; "
             "/hub/admin lists the attendees)" if args.admin else "")
          + ("\n  PLAIN HTTP: passwords, cookies, notebooks and code cross the network in "
             "clear" if url.startswith("http:") and args.ip not in LOCAL else ""))
    print(f"  homes in {homes}; each attendee: {args.memory:g} GB of memory, "
          f"{args.max_processes} processes, an equal CPU share; servers idle {args.idle} min or "
          f"running {args.max_age} min stop (files stay); at most {args.max_users} at once\n"
          "  Ctrl-C stops the hub and keeps attendees' servers (start it again to resume); "
          f"bpe-workshop hub --homes {homes} --stop ends the room", flush=True)
    os.chdir(state)  # JupyterHub's database, cookie secret, proxy's pid and passwords.dbm go here
    JupyterHub.instance(config=config).launch_instance([])  # []: not this command's arguments
    return 0


def _check_options(args) -> None:
    """Refuse a command line that cannot work (ValueError), with the fix."""
    if len(os.environ.get(PASSWORD_VARIABLE) or "-" * SHORTEST) < SHORTEST:
        raise ValueError(f"${PASSWORD_VARIABLE} must be {SHORTEST} characters or more, as every "
                         "password of the room: choose a longer one, or unset it for a new one")
    if (args.ssl_key is None) != (args.ssl_cert is None):
        raise ValueError("--ssl-key and --ssl-cert go together: give both, or neither for http")
    if not (args.ssl_key or args.ip in LOCAL or args.plain_http or args.stop):
        raise ValueError(f"--ip {args.ip} without TLS would send passwords and notebooks across "
                         "the network in clear: give --ssl-key and --ssl-cert, or --ip "
                         "127.0.0.1 behind your own https proxy, or --plain-http to accept that")
    if args.admin is not None and not re.fullmatch(NAME_PATTERN, args.admin):
        raise ValueError(f"--admin: {_not_ours(args.admin, args.homes)}")  # the rule's sentence
    if min(args.max_users, args.memory, args.max_processes, args.max_age) <= 0:
        raise ValueError("--max-users, --memory, --max-processes and --max-age must be above 0")
    if args.idle < 10:
        raise ValueError("--idle must be 10 minutes or more: a shorter one stops attendees who "
                         "are reading or thinking (and any computation silent that long)")


def _check_machine() -> None:
    """Refuse a machine the hub cannot serve from (OSError), with the fix."""
    if pwd is None or os.geteuid() != 0:  # pwd: Unix's (and Linux's control groups, below)
        raise OSError("run it as root on Linux (sudo, or in a cloud VM, a container or WSL): "
                      "each attendee becomes an account of this machine, kept apart by file "
                      "permissions, and only root can make accounts and start servers as them")
    if not all((CGROUPS / name / "cgroup.procs").exists() for name in ("memory", "pids", "cpu")):
        raise OSError(f"per-attendee limits need control groups v1 (memory, pids and cpu under "
                      f"{CGROUPS}), which this machine does not offer; on a machine run by "
                      "systemd, The Littlest JupyterHub gives each attendee a systemd unit instead")


def _check_attendees_can_run(homes: Path) -> None:
    """Refuse (OSError) a room whose attendees could not start a server, which runs from this
    command's environment, ``sys.prefix``, as them, in their homes. One try covers each way it
    fails (no JupyterHub; a Python under a folder closed to others, as ``/root``; homes under a
    folder only its owner passes through): ``jupyterhub-singleuser --version`` run as ``nobody``
    (an account with no rights of its own) from ``homes``."""
    server = Path(sys.prefix, "bin", "jupyterhub-singleuser")
    try:
        nobody = pwd.getpwnam("nobody")  # env --chdir: cwd= would enter homes as root, first
        subprocess.run(["env", "--chdir", homes, server, "--version"], user=nobody.pw_uid,
                       group=nobody.pw_gid, extra_groups=[], capture_output=True, check=True)
    except (OSError, KeyError, subprocess.CalledProcessError):  # missing, closed, or failed
        raise OSError(f"other accounts cannot run {server} from {homes}: either this Python has "
                      "no JupyterHub or is in a folder closed to them (install the hub as the "
                      "guide does: /usr/bin/python3 -m venv /opt/hub, then its [hub] extra), or "
                      f"a folder above {homes} lets only its owner through (choose --homes "
                      "under folders everyone passes through, as /home/bpe-workshop)") from None


def _hub_ports(room: str, port: int) -> list[int]:
    """Two free ports only root may take, below ``OPEN_PORTS`` (1024 unless changed) as the room's
    ``port`` must be, for the hub and its proxy's API: no attendee's code can take one while the
    hub is down. In the room's own order: a restart finds the same two while they stay free."""
    first = int(OPEN_PORTS.read_text()) if OPEN_PORTS.exists() else 1024
    if port >= first > 0:
        raise ValueError(f"--port {port}: any account may listen there while the hub is down, "
                         f"and answer the room's address: choose one below {first}, such as "
                         f"{min(443, first - 1)}")
    free, order = [], random.Random(room).sample(range(first // 2, first), first - first // 2)
    for number in (number for number in order if number != port):
        with socket.socket() as probe, contextlib.suppress(OSError):
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as the hub binds
            probe.bind(("127.0.0.1", number))
            free.append(number)
        if len(free) == 2:
            return free
    raise OSError(f"any account may listen on ports from {first} up, so none of the hub's own "
                  "can be kept from attendees: sysctl -w net.ipv4.ip_unprivileged_port_start=1024"
                  " (in a container: docker run --sysctl net.ipv4.ip_unprivileged_port_start=1024)")


def _groups(room: str, name: str, controllers=("memory", "pids", "cpu")) -> list[Path]:
    """``name``'s control group folders in ``room``, one per controller (``name=""``: the
    room's own group; ``room=""`` too: the group of all rooms)."""
    return [CGROUPS / controller / "bpe-workshop" / room / name for controller in controllers]


def _write_groups(room: str, name: str, files: dict[str, dict[str, int]]) -> None:
    """Write ``files`` (controller -> file name -> number) into ``name``'s control groups in
    ``room``, made when missing: ``{"pids": {"pids.max": 20}}`` caps the group at 20
    processes; ``{"pids": {"cgroup.procs": os.getpid()}}`` moves this process in, and its
    children are born there."""
    for group, values in zip(_groups(room, name, files), files.values()):
        group.mkdir(parents=True, exist_ok=True)
        for file, value in values.items():
            (group / file).write_text(str(value))


def _end_group(room: str, name: str) -> None:
    """Kill every process in ``name``'s group (``setsid`` ones too), then remove its folders."""
    procs = _groups(room, name, ["pids"])[0] / "cgroup.procs"
    for _ in range(200):  # a few rounds: a process may fork while its group is emptied
        pids = procs.read_text().split() if procs.exists() else []
        if not pids:
            break
        for pid in pids:
            with contextlib.suppress(ProcessLookupError):
                os.kill(int(pid), signal.SIGKILL)
        time.sleep(0.05)
    for group in _groups(room, name):
        with contextlib.suppress(OSError):  # gone already, or a zombie not yet reaped
            group.rmdir()


def _not_ours(name: str, homes: Path) -> str | None:
    """Why ``name`` cannot be an attendee's account in the room of ``homes``; None when it can.
    Asked before useradd or the password store sees the name: ``../x`` would make a home outside
    the room. Ours: in the group and with a home in ``homes`` (not another room's attendee)."""
    if not re.fullmatch(NAME_PATTERN, name):
        return (f"{name} cannot be a name here: use lowercase letters, digits, - and _, "
                "starting with a letter (e.g. ada)")
    try:
        account, gid = pwd.getpwnam(name), grp.getgrnam(GROUP).gr_gid
    except KeyError:
        return None  # no account yet: the hub makes one
    ours = gid in os.getgrouplist(name, account.pw_gid) and Path(account.pw_dir).parent == homes
    return None if ours else (f"{name} is an account of this machine that this hub did not "
                              "make; log in with another name")


def configure(c, args, saved: dict, room: str) -> None:
    """Fill JupyterHub's config ``c`` for the room from the command line's ``args``, the
    ``saved`` passwords, and ``room``, the name of its control groups' folder."""
    from firstuseauthenticator import FirstUseAuthenticator
    from jupyterhub.auth import LocalAuthenticator
    from jupyterhub.spawner import LocalProcessSpawner
    from tornado import httpserver, web

    homes, admin, prefix = args.homes, args.admin, Path(sys.prefix)  # prefix: the attendees' too
    Path(prefix, "etc/jupyter/migrated").touch()  # jupyter_core's mark, which servers cannot write
    failures = {}  # (name, address) -> (failed logins in a row, time.monotonic() of the last)

    class RoomAuthenticator(FirstUseAuthenticator, LocalAuthenticator):
        def __init__(self, **kwargs):
            super().__init__(**kwargs)
            if admin:  # the instructor's password is the one printed at each start
                self.reset_password(admin, saved["admin_password"])

        async def authenticate(self, handler, data):
            """Their own password; at a first login, the room's (a known name: the instructor's)."""
            name, own = self.normalize_username(data["username"]), data.get("otp", "")
            ip = handler.request.headers.get("X-Forwarded-For", "").rpartition(",")[2].strip()
            count, last = failures.get((name, ip), (0, 0.0))  # ip: what the hub's proxy saw
            with dbm.open(self.dbm_path, "c", 0o600) as db:
                first = name.encode() not in db
            wait = round(last + 60 - time.monotonic()) if count >= 5 else 0
            problem = (f"{count} failed logins in a row for {name}: try again in {wait} s"
                       if wait > 0 else _not_ours(name, homes))
            again = first and not problem and (self._user_exists(name) or  # FirstUse's: in the
                self.system_user_exists(SimpleNamespace(name=name)))  # hub's users, or an account
            key = saved["admin_password" if again else "password"]  # deleted, added or renamed
            if not problem and first and not secrets.compare_digest(
                    data["password"].encode(), key.encode()):
                problem = "Invalid username or password."
            elif not problem and len((own if first else data["password"]).encode()) > 72:
                problem = "a password is 72 bytes at most (bcrypt's limit): choose a shorter one"
            elif not problem and first and len(own) < SHORTEST:
                problem = (f"{name} is new here: type the workshop's password, and a password "
                           f"of your own ({SHORTEST} characters or more) in the second box")
            elif not problem and first and not self.system_user_exists(SimpleNamespace(name=name)):
                try:  # the account now: a failed useradd is said on the login page, not a 500
                    self.add_system_user(SimpleNamespace(name=name))
                except RuntimeError as err:  # useradd's words, and what to do
                    problem = f"No account could be made for {name} ({err}); tell the instructor"
                    subprocess.run(["userdel", name], capture_output=True)  # a half-made one
            answer = None if problem else await super().authenticate(  # FirstUse stores a
                handler, {**data, "password": own} if first else data)  # first one, or checks
            if wait <= 0:
                failures[name, ip] = (0, 0.0) if answer else (count + 1, time.monotonic())
            handler.custom_login_error = problem or ""
            return answer
    limits = {"memory": {"memory.limit_in_bytes": int(args.memory * 2**30)},  # each attendee's;
              "pids": {"pids.max": args.max_processes}, "cpu": {}}  # cpu: an equal share

    class RoomSpawner(LocalProcessSpawner):
        def make_preexec_fn(self, name):
            become_attendee = super().make_preexec_fn(name)

            def preexec():  # in the new process, still root: the attendee's groups and limits
                _write_groups(room, name, {controller: {**values, "cgroup.procs": os.getpid()}
                                           for controller, values in limits.items()})
                become_attendee()  # then the server, and all it starts, is born there

            return preexec

        async def stop(self, now=False):
            await super().stop(now=now)
            _end_group(room, self.user.name)  # what the server left: kernels, setsid, forks

        async def move_certs(self, paths):  # (internal_ssl's: before each start)
            """internal_ssl's certificates, at each start, in the root-made folder of the
            kernels' sockets: JupyterHub's own method copies them home as root, through links."""
            if problem := _not_ours(self.user.name, homes):  # one the admin page added or
                raise web.HTTPError(403, problem)  # renamed (as root, say): never started
            account, folder = pwd.getpwnam(self.user.name), RUN / room / self.user.name
            shutil.rmtree(folder, ignore_errors=True)  # a link inside is removed, not followed
            folder.mkdir(mode=0o700, parents=True)
            moved = {key: shutil.copy(path, folder) for key, path in paths.items()}
            for path in [*moved.values(), folder]:  # the folder last: no link swapped in before
                os.chown(path, account.pw_uid, account.pw_gid, follow_symlinks=False)
            return moved

    c.JupyterHub.bind_url = f"{'https' if args.ssl_key else 'http'}://{args.ip}:{args.port}/"
    c.JupyterHub.ssl_key = str(args.ssl_key.absolute()) if args.ssl_key else ""
    c.JupyterHub.ssl_cert = str(args.ssl_cert.absolute()) if args.ssl_cert else ""
    c.JupyterHub.hub_port, proxy_port = _hub_ports(room, args.port)
    c.ConfigurableHTTPProxy.api_url = f"https://127.0.0.1:{proxy_port}"
    c.JupyterHub.cleanup_servers = False  # a restart keeps servers and kernels: --stop ends them
    c.JupyterHub.active_server_limit = args.max_users
    c.JupyterHub.last_activity_interval = 60
    httpserver.HTTPServer.configure(None, max_body_size=2**20)  # the hub reads 1 MB at most
    c.JupyterHub.authenticator_class = RoomAuthenticator
    c.Authenticator.username_pattern = NAME_PATTERN
    c.Authenticator.request_otp = True  # the login page's second box: a first login's own
    c.Authenticator.otp_prompt = "Your own password (first login only):"
    c.FirstUseAuthenticator.min_password_length = SHORTEST
    c.LocalAuthenticator.create_system_users = True
    c.LocalAuthenticator.add_user_cmd = [  # JupyterHub appends the name
        "useradd", "--create-home", "--home-dir", f"{homes}/USERNAME", "--key", "HOME_MODE=0700",
        "--shell", "/bin/bash", "--user-group", "--groups", GROUP]
    c.JupyterHub.spawner_class = RoomSpawner
    c.LocalProcessSpawner.popen_kwargs = {"stdin": subprocess.DEVNULL,  # not the hub's terminal
                                          "stdout": subprocess.DEVNULL, "stderr": subprocess.STDOUT}
    c.Spawner.cmd = [  # as the attendee, in their limits: output to ~/.server.log (never a pipe;
        # `command`: a folder there fails alone), ~/.tmp, the series, the server, its settings
        "/bin/sh", "-c", '[ -p ~/.server.log ] || command exec >>~/.server.log 2>&1; '
        'mkdir -p "$TMPDIR"; bpe-workshop start --no-lab; L="$HOME/.jupyter/lab"; '
        'export JUPYTERLAB_SETTINGS_DIR="$L/user-settings" '
        'JUPYTERLAB_WORKSPACES_DIR="$L/workspaces"; exec jupyterhub-singleuser "$@"', "server"]
    c.Spawner.env_keep = ["LANG", "LC_ALL"]  # not the hub's PATH or Python
    c.Spawner.environment = {  # the attendee's own /tmp; their kernels' sockets (move_certs)
        "PATH": f"{prefix}/bin:/usr/local/bin:/usr/bin:/bin", "JUPYTERHUB_ACTIVITY_INTERVAL": "60",
        "JUPYTER_CONFIG_DIR": f"{prefix}/etc/jupyter",  # root's: no page settings from home
        "TMPDIR": lambda spawner: str(homes / spawner.user.name / ".tmp"),
        "JUPYTER_RUNTIME_DIR": lambda spawner: str(RUN / room / spawner.user.name)}
    c.Spawner.default_url = f"/lab/tree/{FOLDER}/{FIRST}"
    c.Spawner.start_timeout = c.Spawner.http_timeout = 300  # a room logs in all at once
    c.Spawner.args = [  # idle kernels go, as idle servers do; kernels talk through files, not ports
        f"--MappingKernelManager.cull_idle_timeout={args.idle * 60}",
        "--MappingKernelManager.cull_interval=60", "--KernelManager.transport=ipc"]
    c.Spawner.disable_user_config = True  # no config file or extension from the home
    c.JupyterHub.internal_ssl = True  # TLS inside: whoever takes the hub's port hears nothing
    c.JupyterHub.services = [{"name": "idle-culler", "command": [
        sys.executable, "-m", "jupyterhub_idle_culler", f"--timeout={args.idle * 60}",
        f"--max-age={args.max_age * 60}", "--cull-every=60", "--ssl-enabled=true"]}]
    c.JupyterHub.load_roles = [{"name": "idle-culler", "services": ["idle-culler"], "scopes": [
        "list:users", "read:users:activity", "read:servers", "delete:servers"]}, {
        "name": "instructor", "users": [admin] if admin else [], "scopes": [  # not
            "admin-ui", "admin:users", "admin:servers"]}]  # access:servers: see the guide
