"""The host's admission and budget rules: who may connect, how fast, and how much may wait.

Plain rules kept out of :mod:`net.server` so that each is small and testable (PROTOCOL.md
section 9, "Limits"):

- :class:`Bucket`: a token bucket (requests per session, chat lines per session and per
  table), charged when a message arrives.
- :func:`admit`: the connection caps. Per address: at most ``max_per_address`` connections
  and ``max_prehello_per_address`` of them not yet past ``hello``; all told,
  ``max_connections``. A connection beyond a cap takes the place of the oldest connection that
  has not said hello (that one is closed with TIMEOUT); only when there is none to take the
  place of is the newcomer refused. So idle sockets never keep a real client out.
- :func:`hello_reserve_ok`: ``token_reserve`` places of ``max_connections`` are kept for
  hellos carrying a reconnect token (or the host key), so a player coming back always gets in.
- :func:`fix_send_buffer`: the host-side socket buffer of every connection is set to a fixed
  size, so the slow-reader rule (more than ``max_write_buffer`` bytes waiting *in the host*
  for one session: dropped with SLOW_CONSUMER) applies at the same point every time.
"""
from __future__ import annotations

import socket
from dataclasses import dataclass
from typing import Any, Iterable, Protocol


class Bucket:
    """A token bucket: ``rate`` tokens per second, at most ``burst`` saved up (starts full).

    :meth:`take` at time ``now`` (seconds, any monotonic clock) spends one token if there is
    one and says whether there was. A ``rate`` of 0 or less means no limit.

    >>> b = Bucket(1.0, 2.0, now=0.0)
    >>> [b.take(0.0), b.take(0.0), b.take(0.0), b.take(1.0)]
    [True, True, False, True]
    """

    __slots__ = ("rate", "burst", "tokens", "last")

    def __init__(self, rate: float, burst: float, now: float) -> None:
        self.rate = float(rate)
        self.burst = max(1.0, float(burst))
        self.tokens = self.burst
        self.last = now

    def has(self, now: float) -> bool:
        """Whether a token is there at time ``now`` (nothing spent)."""
        if self.rate <= 0:
            return True
        self.tokens = min(self.burst, self.tokens + max(0.0, now - self.last) * self.rate)
        self.last = now
        return self.tokens >= 1.0

    def take(self, now: float) -> bool:
        """Spend one token at time ``now``; False (nothing spent) when the bucket is empty."""
        if not self.has(now):
            return False
        if self.rate > 0:
            self.tokens -= 1.0
        return True


class Peer(Protocol):
    """What :func:`admit` reads of a connection: its ``sid`` (a growing number: smaller is
    older), ``address`` (the peer's IP address text), ``welcomed`` (past ``hello``) and
    ``closing``."""

    sid: int
    address: str
    closing: bool

    @property
    def welcomed(self) -> bool: ...


@dataclass(frozen=True)
class Caps:
    """The connection caps (see the module text): ``max_connections`` in all,
    ``max_per_address`` and ``max_prehello_per_address`` per peer address, ``token_reserve``
    places kept for hellos with a token."""

    max_connections: int
    max_per_address: int
    max_prehello_per_address: int
    token_reserve: int


@dataclass(frozen=True)
class Admission:
    """The answer of :func:`admit`: ``ok`` (accept the newcomer), ``evict`` (connections to
    close first, oldest first, to make room) and ``reason`` (why the newcomer is refused, or
    why the evicted are closed)."""

    ok: bool
    evict: tuple[Any, ...] = ()
    reason: str = ""


def admit(address: str, live: Iterable[Peer], caps: Caps) -> Admission:
    """Whether a new connection from ``address`` may be accepted next to the ``live`` ones
    (connections already closing are not counted), and which not-yet-welcomed connections
    must make room for it. Never evicts a connection that has said hello."""
    peers = [p for p in live if not p.closing]
    mine = [p for p in peers if p.address == address]
    evict: list[Any] = []

    def oldest_waiting(among: list[Any]) -> Any:
        waiting = [p for p in among if not p.welcomed and p not in evict]
        return min(waiting, key=lambda p: p.sid) if waiting else None

    checks = (
        (mine, caps.max_per_address, "too many connections from your address"),
        ([p for p in mine if not p.welcomed], caps.max_prehello_per_address,
         "too many connections from your address waiting for hello"),
        (peers, caps.max_connections, "too many connections"),
    )
    for group, cap, reason in checks:
        if cap <= 0:
            continue
        while len([p for p in group if p not in evict]) >= cap:
            victim = oldest_waiting(group)
            if victim is None:
                return Admission(False, (), reason)
            evict.append(victim)
    return Admission(True, tuple(evict), "room for a newer connection")


def hello_reserve_ok(welcomed: int, caps: Caps, with_token: bool) -> bool:
    """Whether a hello may be accepted when ``welcomed`` sessions are already past hello:
    a hello without a token (a new player or observer) only while fewer than
    ``max_connections - token_reserve`` are (the reserve is at most a quarter of
    ``max_connections``); a reconnect (token) or the host always."""
    if with_token or caps.max_connections <= 0:
        return True
    reserve = min(caps.token_reserve, caps.max_connections // 4)  # a small host keeps most
    return welcomed < caps.max_connections - reserve


def fix_send_buffer(sock: socket.socket | None, size: int) -> None:
    """Set the operating system's send buffer of ``sock`` to ``size`` bytes (0: leave the
    system's self-tuning alone). A fixed size turns off the kernel's growing it, which would
    otherwise hide megabytes of a non-reading client's backlog from the host's count."""
    if sock is None or size <= 0:
        return
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, int(size))
    except OSError:  # pragma: no cover - a platform without the option
        pass
