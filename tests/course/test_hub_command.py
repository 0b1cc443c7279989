"""``bpe-workshop hub`` refuses what cannot work, with the reason and the fix (no hub started)."""

import os
import subprocess
import sys

import pytest

from bpe_workshop.course.cli import main


def test_a_short_password_is_refused_with_jupyterhubs_rule(capsys, monkeypatch):
    monkeypatch.setenv("BPE_WORKSHOP_PASSWORD", "seven77")
    assert main(["hub", "--ip", "127.0.0.1"]) == 2
    assert "$BPE_WORKSHOP_PASSWORD must be 8 characters or more" in capsys.readouterr().err


def test_plain_http_beyond_this_machine_needs_its_own_option(capsys, monkeypatch):
    assert main(["hub"]) == 2  # every address of the machine, no TLS
    err = capsys.readouterr().err
    assert "--ip 0.0.0.0 without TLS would send passwords and notebooks across the network " \
           "in clear: give --ssl-key and --ssl-cert" in err and "--plain-http" in err
    monkeypatch.setattr(os, "geteuid", lambda: 1000)  # past the options, to the next check
    assert main(["hub", "--plain-http"]) == 1
    assert "run it as root" in capsys.readouterr().err


def test_an_idle_time_shorter_than_ten_minutes_is_refused(capsys):
    assert main(["hub", "--ip", "127.0.0.1", "--idle", "5"]) == 2
    assert "--idle must be 10 minutes or more" in capsys.readouterr().err


def test_a_port_out_of_range_is_refused_by_the_parser(capsys):
    for wrong in ("99999999", "0", "http"):
        with pytest.raises(SystemExit) as done:
            main(["hub", "--ip", "127.0.0.1", "--idle", "5", "--port", wrong])  # --idle 5:
            # a port let through is refused next, never served
        assert done.value.code == 2
        assert f"{wrong} is not a port: give a number from 1 to 65535" in capsys.readouterr().err


def test_a_key_without_a_certificate_is_refused(capsys, tmp_path):
    assert main(["hub", "--ssl-key", str(tmp_path / "room.key")]) == 2
    assert "--ssl-key and --ssl-cert go together" in capsys.readouterr().err


def test_an_instructor_name_that_cannot_be_an_account_is_refused(capsys):
    assert main(["hub", "--ip", "127.0.0.1", "--admin", "Dr Smith"]) == 2
    assert "--admin: Dr Smith cannot be a name here: use lowercase letters" in \
        capsys.readouterr().err


def test_not_root_is_refused_with_the_reason(capsys, monkeypatch):
    monkeypatch.setattr(os, "geteuid", lambda: 1000)
    assert main(["hub", "--ip", "127.0.0.1"]) == 1
    err = capsys.readouterr().err
    assert "run it as root" in err and "only root can make accounts" in err


def test_without_unix_modules_the_command_works_and_the_hub_says_what_it_needs(tmp_path):
    """As on Windows: no pwd, grp or resource. start and --help work; hub names Linux and
    root. (fcntl stays: the save lock takes msvcrt when os.name is "nt", which a Linux process
    cannot fake.)"""
    child = ("import sys\n"
             "for name in ('pwd', 'grp', 'resource'): sys.modules[name] = None\n"
             "from bpe_workshop.course.cli import main\n"
             f"assert main(['start', {str(tmp_path / 'course')!r}, '--no-lab']) == 0\n"
             "sys.exit(main(['hub', '--ip', '127.0.0.1']))\n")
    done = subprocess.run([sys.executable, "-c", child], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 1, done.stderr
    assert "run it as root on Linux (sudo, or in a cloud VM, a container or WSL)" in done.stderr
    assert (tmp_path / "course" / "00_why_tokenization.ipynb").is_file()


def test_the_hubs_own_ports_lie_below_the_first_any_account_may_take(tmp_path, monkeypatch):
    from bpe_workshop.course import hub

    first = tmp_path / "ip_unprivileged_port_start"  # the machine's, in /proc/sys/net/ipv4
    first.write_text("40000\n")  # (1024 on most machines, where only root may bind below it)
    monkeypatch.setattr(hub, "OPEN_PORTS", first)
    ports = hub._hub_ports("0a1b2c3d", 443)
    assert len(set(ports)) == 2 and all(20000 <= port < 40000 for port in ports), ports
    assert hub._hub_ports("0a1b2c3d", 443) == ports  # a restart finds the two its servers know
    assert hub._hub_ports("9f8e7d6c", 443) != ports  # another room, in its own order
    assert ports[0] not in hub._hub_ports("0a1b2c3d", ports[0])  # never the room's own port
    with pytest.raises(ValueError, match="--port 40000: any account may listen there while "
                       "the hub is down, and answer the room's address: choose one below 40000, "
                       "such as 443"):
        hub._hub_ports("0a1b2c3d", 40000)
    first.write_text("0\n")  # as in many containers: any account may listen on any port
    with pytest.raises(OSError, match="sysctl -w net.ipv4.ip_unprivileged_port_start=1024"):
        hub._hub_ports("0a1b2c3d", 443)
