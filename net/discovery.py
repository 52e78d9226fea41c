"""LAN discovery: hosts announce their tables by UDP, clients listen for the announcements.

An announcement is one UDP datagram (at most :data:`MAX_DATAGRAM` bytes) holding one msgpack
map (PROTOCOL.md "Discovery")::

    {"app": "hongwu", "protocol": 2, "name": "Ann's table", "port": 47470,
     "tables": [{"name": ..., "decks": 2, "free_seats": 3, "in_hand": false}, ...]}

sent every ``interval`` seconds to each configured address (default the limited broadcast
``255.255.255.255`` on :data:`~net.protocol.DISCOVERY_PORT`). The host's address is the
datagram's source address. Tests announce to ``127.0.0.1`` unicast only.
"""
from __future__ import annotations

import asyncio
import logging
import socket
from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

import msgpack

from .protocol import DISCOVERY_PORT, PROTOCOL_VERSION

log = logging.getLogger(__name__)

MAX_DATAGRAM = 1200
"""Largest announcement, in bytes (fits any LAN MTU)."""

APP = "hongwu"

DEFAULT_ANNOUNCE = ("255.255.255.255",)
"""Where hosts announce unless told otherwise (``--announce ADDR``)."""


def encode_announcement(name: str, port: int, tables: Sequence[dict[str, Any]]) -> bytes:
    """The datagram for a host called ``name`` listening on TCP ``port`` with ``tables``
    (``TableSummary`` maps; trimmed so the datagram fits :data:`MAX_DATAGRAM`)."""
    tables = list(tables)
    while True:
        data = msgpack.packb({"app": APP, "protocol": PROTOCOL_VERSION, "name": name,
                              "port": int(port), "tables": tables}, use_bin_type=True)
        if len(data) <= MAX_DATAGRAM or not tables:
            return data[:MAX_DATAGRAM]
        tables = tables[:-1]


@dataclass(frozen=True)
class Found:
    """A discovered host: ``address`` (IP text), ``port`` (TCP), ``name``, ``protocol``
    (version it speaks) and ``tables`` (``TableSummary`` maps)."""

    address: str
    port: int
    name: str
    protocol: int
    tables: tuple[dict[str, Any], ...] = field(default=())

    def describe(self) -> str:
        """One line for people: ``name  address:port  (free seats)``."""
        free = sum(int(t.get("free_seats", 0)) for t in self.tables)
        return f"{self.name}  {self.address}:{self.port}  ({free} free seat(s))"


def decode_announcement(data: bytes, address: str) -> Found | None:
    """Parse a datagram from ``address``; None for anything that is not an announcement."""
    if len(data) > MAX_DATAGRAM:
        return None
    try:
        doc = msgpack.unpackb(data, raw=False, strict_map_key=True)
    except Exception:
        return None
    if not isinstance(doc, dict) or doc.get("app") != APP:
        return None
    port, name, proto = doc.get("port"), doc.get("name"), doc.get("protocol")
    tables = doc.get("tables", [])
    if not (isinstance(port, int) and 0 < port < 65536 and isinstance(name, str)
            and isinstance(proto, int) and isinstance(tables, list)):
        return None
    return Found(address, port, name[:64], proto,
                 tuple(t for t in tables if isinstance(t, dict)))


class _Sender(asyncio.DatagramProtocol):
    def error_received(self, exc: Exception) -> None:  # pragma: no cover - network noise
        log.debug("announce error: %r", exc)


class Announcer:
    """Announces a host periodically.

    Arguments: ``payload`` (callable returning the current datagram bytes, e.g. a lambda over
    :func:`encode_announcement`); ``addresses`` (IP texts to send to); ``port`` (UDP port);
    ``interval`` seconds; ``source``: the local IPv4 address to send from (the datagrams'
    source, which clients join; ``""``: any, the outgoing interface's). Use :meth:`start` / :meth:`close` inside a running loop.
    """

    def __init__(self, payload: Callable[[], bytes], addresses: Sequence[str] = DEFAULT_ANNOUNCE,
                 port: int = DISCOVERY_PORT, interval: float = 2.0, source: str = "") -> None:
        self.payload = payload
        self.source = source
        self.addresses = tuple(addresses)
        self.port = port
        self.interval = interval
        self._transport: asyncio.DatagramTransport | None = None
        self._task: asyncio.Task[None] | None = None
        self.sent = 0

    async def start(self) -> None:
        """Open the UDP socket (broadcast allowed) and start announcing."""
        loop = asyncio.get_running_loop()
        sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_BROADCAST, 1)
        if self.source:
            try:
                sock.bind((self.source, 0))
            except OSError:
                sock.close()
                raise
        sock.setblocking(False)
        self._transport, _ = await loop.create_datagram_endpoint(_Sender, sock=sock)
        self._task = loop.create_task(self._run())

    async def _run(self) -> None:
        while True:
            self.announce_once()
            await asyncio.sleep(self.interval)

    def announce_once(self) -> None:
        """Send one announcement to every address now."""
        if self._transport is None:
            return
        try:
            data = self.payload()
        except Exception:  # pragma: no cover
            log.exception("could not build the announcement")
            return
        for addr in self.addresses:
            try:
                self._transport.sendto(data, (addr, self.port))
                self.sent += 1
            except OSError as exc:  # e.g. no broadcast route
                log.debug("announce to %s failed: %r", addr, exc)

    async def close(self) -> None:
        """Stop announcing and close the socket."""
        if self._task is not None:
            self._task.cancel()
            try:
                await self._task
            except (asyncio.CancelledError, Exception):
                pass
        if self._transport is not None:
            self._transport.close()


class _Listener(asyncio.DatagramProtocol):
    def __init__(self, found: dict[tuple[str, int], Found], event: asyncio.Event) -> None:
        self.found = found
        self.event = event

    def datagram_received(self, data: bytes, addr: tuple[str, int]) -> None:
        item = decode_announcement(data, addr[0])
        if item is not None:
            self.found[(item.address, item.port)] = item
            self.event.set()


async def discover(timeout: float = 2.5, *, port: int = DISCOVERY_PORT, bind: str = "0.0.0.0",
                   first: bool = False, sock: socket.socket | None = None) -> list[Found]:
    """Listen ``timeout`` seconds for announcements; return the hosts found (by arrival).

    ``bind``/``port``: where to listen (tests: ``"127.0.0.1"`` and a port of their own);
    ``sock``: an already bound UDP socket to use instead; ``first``: return as soon as one
    host is found. Raises ``OSError`` if the port cannot be bound.
    """
    loop = asyncio.get_running_loop()
    if sock is None:
        sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        if hasattr(socket, "SO_REUSEPORT"):
            try:
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
            except OSError:  # pragma: no cover
                pass
        sock.bind((bind, port))
    sock.setblocking(False)
    found: dict[tuple[str, int], Found] = {}
    event = asyncio.Event()
    transport, _ = await loop.create_datagram_endpoint(lambda: _Listener(found, event), sock=sock)
    try:
        if first:
            try:
                await asyncio.wait_for(event.wait(), timeout)
            except asyncio.TimeoutError:
                pass
        else:
            await asyncio.sleep(timeout)
    finally:
        transport.close()
    return list(found.values())
