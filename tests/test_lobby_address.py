"""The host's LAN lobby and ``hongwu host`` show only addresses the server really listens on:
the bound address when bound to one, this machine's LAN addresses for a wildcard (unit tests
of :func:`net.addresses.join_addresses` with made-up interface lists).  Real servers bind
127.0.0.1 only, on an ephemeral port; nothing is sent anywhere else."""
from __future__ import annotations

import argparse
import asyncio
import re
import socket

import pytest

from net import addresses
from net.addresses import announce_source, bound_hosts, interface_addresses, join_addresses
from net.ai import AIProvider
from net.cli import BackgroundHost
from net.discovery import discover
from net.server import ServerConfig
from net.testing import LOOPBACK, fast_table

LAN = ["127.0.1.1", "192.168.1.20", "10.0.0.3", "fe80::1%eth0", "2001:db8::2", "::1"]


# ------------------------------------------------------------------ the rule (pure)
def test_a_specific_bound_address_is_listed_alone():
    assert join_addresses(["127.0.0.1"], 5000, LAN) == ["127.0.0.1:5000"]
    assert join_addresses(["192.168.1.20"], 7, LAN) == ["192.168.1.20:7"]
    assert join_addresses(["::1"], 7, LAN) == ["[::1]:7"]
    assert join_addresses(["[::1]"], 7) == ["[::1]:7"]


def test_the_ipv4_wildcard_stands_for_this_machines_lan_ipv4_addresses():
    assert join_addresses(["0.0.0.0"], 47470, LAN) == ["192.168.1.20:47470", "10.0.0.3:47470"]
    # an asyncio "::" listener is IPv6 only: no IPv4 address, no link-local one, no loopback
    assert join_addresses(["::"], 5, LAN) == ["[2001:db8::2]:5"]
    assert join_addresses(["0.0.0.0", "::"], 5, LAN) == ["192.168.1.20:5", "10.0.0.3:5",
                                                         "[2001:db8::2]:5"]
    assert join_addresses(["0.0.0.0"], 5, ["192.168.1.20", "192.168.1.20"]) == ["192.168.1.20:5"]
    assert join_addresses(["0.0.0.0"], 5, ["not an address", "224.0.0.1"]) == ["127.0.0.1:5"]


def test_a_wildcard_without_lan_addresses_offers_loopback_only():
    assert join_addresses(["0.0.0.0"], 5, ["127.0.0.1", "127.0.1.1"]) == ["127.0.0.1:5"]
    assert join_addresses(["0.0.0.0"], 5) == ["127.0.0.1:5"]
    assert join_addresses(["::"], 5, ["192.168.1.20"]) == ["[::1]:5"]


def test_announcements_come_from_an_address_the_host_listens_on():
    assert announce_source(["0.0.0.0"]) == ""  # the outgoing interface's: 0.0.0.0 takes it
    assert announce_source(["0.0.0.0", "::"]) == ""
    assert announce_source(["192.168.1.20"]) == "192.168.1.20"
    assert announce_source(["::1", "127.0.0.1"]) == "127.0.0.1"
    assert announce_source(["::"]) is None and announce_source(["::1"]) is None  # IPv6 only


class FakeSocket:
    """What :func:`bound_hosts` reads of a listening socket."""

    def __init__(self, family: int, host: str, v6only: int = 1) -> None:
        self.family, self.host, self.v6only = family, host, v6only

    def getsockname(self) -> tuple:
        return (self.host, 5)

    def getsockopt(self, level: int, option: int) -> int:
        assert (level, option) == (socket.IPPROTO_IPV6, socket.IPV6_V6ONLY)
        return self.v6only


def test_bound_hosts_reads_the_sockets():
    with socket.socket() as s:
        s.bind((LOOPBACK, 0))
        assert bound_hosts([s]) == [LOOPBACK]
    assert bound_hosts([FakeSocket(socket.AF_INET6, "::", v6only=1)]) == ["::"]
    assert bound_hosts([FakeSocket(socket.AF_INET6, "::", v6only=0)]) == ["::", "0.0.0.0"]
    assert bound_hosts([FakeSocket(socket.AF_INET, "0.0.0.0"),
                        FakeSocket(socket.AF_INET6, "::", v6only=0)]) == ["0.0.0.0", "::"]


def test_interface_addresses_keeps_only_this_machines_addresses(monkeypatch):
    """The name lookup may name addresses that are not this machine's (a stale DNS entry):
    those are dropped (a socket cannot be bound to them).  No probe, no real lookup here."""
    monkeypatch.setattr(addresses, "_PROBES", {})

    def fake_lookup(name, port, family=0, *args):
        assert name == socket.gethostname()
        return [(socket.AF_INET, socket.SOCK_DGRAM, 0, "", (a, 0))
                for a in ("203.0.113.7", LOOPBACK)]
    monkeypatch.setattr(addresses.socket, "getaddrinfo", fake_lookup)
    assert interface_addresses([socket.AF_INET]) == [LOOPBACK]


# ------------------------------------------------------------------ real servers on 127.0.0.1
@pytest.fixture
def loopback_host():
    """A BackgroundHost bound on 127.0.0.1, any free port, no announcements."""
    host = BackgroundHost(ServerConfig(bind=LOOPBACK, port=0, tables=[fast_table()]),
                          AIProvider(use_plugins=False, user_plugins=False), announce=None)
    port = host.start()
    try:
        yield host, port
    finally:
        host.stop()


def test_a_loopback_host_lists_exactly_its_bound_address(loopback_host):
    host, port = loopback_host
    assert port != 0
    assert host.addresses == [f"127.0.0.1:{port}"] == host.server.addresses
    with socket.create_connection((LOOPBACK, port), timeout=5):
        pass  # the address listed is really listened on


def test_the_host_lobby_shows_exactly_the_bound_address(tmp_path, monkeypatch):
    pytest.importorskip("pygame")
    from game import i18n, settings
    from game.lan_cli import add_host_parser, make_host_app
    from net.cli import _ai_provider, host_config

    monkeypatch.setenv(settings.CONFIG_ENV, str(tmp_path / "config"))
    monkeypatch.setenv("HONGWU_STATE_DIR", str(tmp_path / "state"))
    ns = add_host_parser(argparse.ArgumentParser().add_subparsers()).parse_args([
        "--bind", "127.0.0.1", "--port", "0", "--no-discovery", "--no-user-plugins",
        "--lang", "en", "--speed", "instant", "--mute"])
    host = BackgroundHost(host_config(ns), _ai_provider(ns), None)
    port = host.start()
    app = make_host_app(host, port, ns)
    try:
        app.step()
        lobby = app.top
        assert type(lobby).__name__ == "LanScreen" and lobby.state == "lobby"
        assert lobby.handle.addresses == [f"127.0.0.1:{port}"]
        assert lobby._lobby_line() == f"Hosting on 127.0.0.1:{port} — others join with this address"
        i18n.set_language("zh")
        assert lobby._lobby_line() == f"主机地址 127.0.0.1:{port} —— 其他人用此地址加入"
    finally:
        i18n.set_language("en")
        app.close()
        host.stop()


def test_a_headless_host_prints_exactly_its_bound_address(capsys):
    from game.cli import main

    code = main(["host", "--headless", "--bind", "127.0.0.1", "--port", "0", "--no-discovery",
                 "--ai", "0=random", "--ai", "1=random", "--ai", "2=random", "--ai", "3=random",
                 "--hands", "1", "--ai-delay", "0", "--no-user-plugins"])
    out = capsys.readouterr().out
    assert code == 0, out
    port = re.search(r"^listening on 127\.0\.0\.1:(\d+)$", out, re.M).group(1)
    joins = re.findall(r"hongwu join (\S+)", out)
    assert joins == [f"127.0.0.1:{port}"], out
    assert f"players join with: hongwu join 127.0.0.1:{port} --name NAME\n" in out


def test_a_loopback_host_announces_from_its_bound_address():
    """The joiner's list names the datagram's source: the host's bound address."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
        sock.bind((LOOPBACK, 0))
        host = BackgroundHost(ServerConfig(bind=LOOPBACK, port=0, tables=[fast_table()]),
                              AIProvider(use_plugins=False, user_plugins=False),
                              announce=[LOOPBACK], announce_port=sock.getsockname()[1])
        port = host.start()
        try:
            assert host.announcer.source == LOOPBACK
            assert host.announcer._transport.get_extra_info("sockname")[0] == LOOPBACK
            found = asyncio.run(discover(5.0, sock=sock.dup(), first=True))
        finally:
            host.stop()
    assert [(f.address, f.port) for f in found] == [(LOOPBACK, port)]
