"""Where players can join a host: only at addresses its listening sockets really accept.

- :func:`join_addresses` is the rule, a pure function: the ``HOST:PORT`` texts for the hosts
  the sockets are bound to, a wildcard (``0.0.0.0``, ``::``) standing for this machine's own
  addresses of that family.
- :func:`announce_source` is where LAN announcements are sent from, so that their source
  address (which clients join) is one the host listens on.
- :func:`bound_hosts` reads what a listener's sockets are bound to (``getsockname``).
- :func:`interface_addresses` lists this machine's addresses with the standard library only,
  sending nothing: the name lookup of the host name plus the source address the routing table
  picks for a UDP socket ``connect()``-ed to a few private / documentation addresses (a UDP
  connect sends no packet), each kept only if a socket can be bound to it (so it is local).

The LAN lobby (``game.scenes.lan``) and ``hongwu host`` (``net.cli``) show these addresses.
"""
from __future__ import annotations

import ipaddress
import socket
from typing import Any, Iterable, Sequence

WILDCARD_V4 = "0.0.0.0"
WILDCARD_V6 = "::"

# Destinations for the UDP connect() probe: nothing is ever sent to them; connect() only asks
# the routing table which local address would be used. Documentation ranges (TEST-NET-1,
# 2001:db8::/32: the default route) first, then the private ranges (a LAN route, if any).
_PROBES = {
    socket.AF_INET: ("192.0.2.1", "10.0.0.1", "172.16.0.1", "192.168.0.1", "192.168.1.1"),
    socket.AF_INET6: ("2001:db8::1", "fd00::1"),
}


def _host_part(text: str) -> str:
    """``text`` without IPv6 brackets and surrounding blanks."""
    return text.strip().strip("[]")


def _usable(address: str, version: int) -> bool:
    """True when ``address`` is an IP of ``version`` other machines can reach it at: not
    loopback, unspecified or multicast; for IPv6 not link-local (that needs a scope)."""
    try:
        ip = ipaddress.ip_address(address.split("%", 1)[0])
    except ValueError:
        return False
    if ip.version != version or ip.is_loopback or ip.is_unspecified or ip.is_multicast:
        return False
    return not (version == 6 and ip.is_link_local)


def _with_port(host: str, port: int) -> str:
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"


def join_addresses(bound: Sequence[str], port: int, local: Iterable[str] = ()) -> list[str]:
    """The ``HOST:PORT`` texts players can join a host at (``hongwu join HOST:PORT``), never
    one its sockets do not listen on.

    ``bound``: the hosts the listening sockets are bound to (see :func:`bound_hosts`);
    ``port``: the TCP port; ``local``: this machine's addresses (see
    :func:`interface_addresses`), only used for wildcards.  A specific bound address is listed
    as it is.  ``0.0.0.0`` stands for the IPv4 addresses in ``local``, ``::`` for the IPv6 ones
    (an asyncio ``::`` socket is IPv6 only), loopback and IPv6 link-local left out: others
    cannot use them.  When wildcards find no such address, the loopback address of the first
    one's family (only this machine can join then).  No duplicates; IPv6 in brackets.

    >>> join_addresses(["127.0.0.1"], 5000, ["192.168.1.20"])
    ['127.0.0.1:5000']
    >>> join_addresses(["0.0.0.0"], 5, ["127.0.1.1", "192.168.1.20", "fe80::1", "2001:db8::2"])
    ['192.168.1.20:5']
    >>> join_addresses(["::"], 5, ["192.168.1.20", "2001:db8::2"]), join_addresses(["0.0.0.0"], 5)
    (['[2001:db8::2]:5'], ['127.0.0.1:5'])
    """
    local = [_host_part(a) for a in local]
    out: list[str] = []
    wildcards: list[str] = []
    for raw in bound:
        host = _host_part(raw)
        if host in (WILDCARD_V4, WILDCARD_V6, ""):
            wildcards.append(host or WILDCARD_V4)
            version = 6 if host == WILDCARD_V6 else 4
            hosts = [a for a in local if _usable(a, version)]
        else:
            hosts = [host]
        for h in hosts:
            text = _with_port(h, port)
            if text not in out:
                out.append(text)
    if not out and wildcards:
        out.append(_with_port("::1" if wildcards[0] == WILDCARD_V6 else "127.0.0.1", port))
    return out


def announce_source(bound: Sequence[str]) -> str | None:
    """The local IPv4 address to send LAN announcements from for a host whose sockets are
    bound to ``bound`` (see :func:`bound_hosts`): ``""`` (any: the outgoing interface's
    address, listened on by ``0.0.0.0``) for an IPv4 wildcard, else the first bound IPv4
    address; None when no socket accepts IPv4 (announcements are IPv4, and clients join the
    address they come from: announcing would name an address nobody listens on).

    >>> announce_source(["0.0.0.0"]), announce_source(["127.0.0.1"]), announce_source(["::"])
    ('', '127.0.0.1', None)
    """
    hosts = [_host_part(h) for h in bound]
    if any(h in (WILDCARD_V4, "") for h in hosts):
        return ""
    for h in hosts:
        try:
            if ipaddress.ip_address(h).version == 4:
                return h
        except ValueError:
            continue
    return None


def bound_hosts(sockets: Iterable[Any]) -> list[str]:
    """The hosts listening ``sockets`` (``socket.socket`` or asyncio's ``TransportSocket``) are
    bound to, from ``getsockname()``; a dual-stack ``::`` socket (``IPV6_V6ONLY`` off) also
    gives ``0.0.0.0``."""
    out: list[str] = []
    for s in sockets:
        host = s.getsockname()[0]
        hosts = [host]
        if s.family == socket.AF_INET6 and host == WILDCARD_V6:
            try:
                if not s.getsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY):
                    hosts.append(WILDCARD_V4)
            except (OSError, AttributeError):  # pragma: no cover - no such option here
                pass
        out.extend(h for h in hosts if h not in out)
    return out


def _is_local(address: str, family: int) -> bool:
    """True when a socket can be bound to ``address`` (so it is one of this machine's)."""
    try:
        with socket.socket(family, socket.SOCK_DGRAM) as s:
            s.bind((address, 0))
        return True
    except OSError:
        return False


def interface_addresses(families: Iterable[int] = (socket.AF_INET, socket.AF_INET6)) -> list[str]:
    """This machine's IP addresses of ``families`` (best effort, standard library only, no
    packet sent): the routed source addresses first, then those the host name resolves to;
    each checked by binding a socket to it.  May be empty (no network)."""
    found: list[str] = []
    for family in families:
        candidates: list[str] = []
        for probe in _PROBES.get(family, ()):
            try:
                with socket.socket(family, socket.SOCK_DGRAM) as s:
                    s.connect((probe, 9))  # UDP: picks a route and source address, sends nothing
                    candidates.append(s.getsockname()[0])
            except OSError:
                continue
        try:
            infos = socket.getaddrinfo(socket.gethostname(), None, family, socket.SOCK_DGRAM)
        except (OSError, UnicodeError):
            infos = []
        candidates.extend(str(info[4][0]) for info in infos)
        for a in candidates:
            if a not in found and _is_local(a, family):
                found.append(a)
    return found


def listening_addresses(sockets: Iterable[Any], port: int,
                        bound: Sequence[str] | None = None) -> list[str]:
    """:func:`join_addresses` for a listener's ``sockets`` on ``port`` (or its ``bound``
    hosts when already read); this machine's addresses are only looked up when a socket is
    bound to a wildcard."""
    bound = bound_hosts(sockets) if bound is None else bound
    wild = any(_host_part(h) in (WILDCARD_V4, WILDCARD_V6, "") for h in bound)
    return join_addresses(bound, port, interface_addresses() if wild else ())
