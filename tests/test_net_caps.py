"""Connection caps (net/limits.py, PROTOCOL.md section 9): one peer holding hundreds of idle
sockets that never say hello cannot keep new players, observers or reconnecting players out.
Real sockets on 127.0.0.1 (and 127.0.0.2 as a second address on the loopback); every
socket is closed at the end and every wait bounded."""
from __future__ import annotations

import asyncio
import contextlib
import resource
import socket

import pytest

from net import framing, protocol
from net.client import RemoteError
from net.limits import Admission, Caps, admit, hello_reserve_ok
from net.testing import LOOPBACK, close_all, connect, fast_table, running_server

ATTACKER = "127.0.0.2"
IDLE = 560


def run(coro, timeout: float = 90.0):
    return asyncio.run(asyncio.wait_for(coro, timeout))


def needs_fds(n: int) -> None:
    """Skip unless this process may open ``n`` more files (both ends of each socket are ours)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < n and hard >= n:
        resource.setrlimit(resource.RLIMIT_NOFILE, (n, hard))
        soft = n
    if soft < n:
        pytest.skip(f"needs {n} file descriptors, the limit is {soft}")


async def until(pred, timeout: float = 10.0, what: str = "condition") -> None:
    end = asyncio.get_running_loop().time() + timeout
    while not pred():
        if asyncio.get_running_loop().time() > end:
            raise AssertionError(f"timed out waiting for {what}")
        await asyncio.sleep(0.01)


async def idle_sockets(port: int, count: int, source: str) -> list[asyncio.StreamWriter]:
    """``count`` connections from ``source`` that never send anything."""
    out = []
    for _ in range(count):
        _, writer = await asyncio.wait_for(
            asyncio.open_connection(LOOPBACK, port, local_addr=(source, 0)), 5)
        out.append(writer)
    return out


def close_writers(writers) -> None:
    for w in writers:
        with contextlib.suppress(Exception):
            w.transport.abort()


def from_address(srv, address: str, welcomed: bool | None = None) -> int:
    return sum(1 for s in srv.sessions if s.address == address and not s.closing
               and (welcomed is None or s.welcomed == welcomed))


@pytest.mark.parametrize("source", [ATTACKER, LOOPBACK])
def test_560_idle_sockets_do_not_keep_players_observers_or_reconnects_out(source):
    """Default caps. The idle sockets come from another address, or from the very address
    the real clients use: either way each newcomer takes the place of the oldest idle one."""
    needs_fds(4 * IDLE)

    async def main():
        async with running_server([fast_table()], hello_timeout=30.0) as srv:
            room = srv.rooms[0]
            leaver = await connect(srv, "comes-back", seat=0)
            token = leaver.welcome["token"]
            await leaver.close()
            await until(lambda: room.seats[0].session is None, what="the drop")
            idle = await idle_sockets(srv.port, IDLE, source)
            try:
                await until(lambda: from_address(srv, source, welcomed=False)
                            <= srv.config.max_prehello_per_address, what="the evictions")
                newcomer = await connect(srv, "new", seat=1)
                watcher = await connect(srv, "watcher", observer=True)
                back = await connect(srv, "comes-back", token=token)
                assert newcomer.welcome["seat"] == 1
                assert watcher.welcome["seat"] is None
                assert back.welcome["resumed"] and back.welcome["seat"] == 0
                assert "time" in await watcher.call("ping")
                await close_all([newcomer, watcher, back])
            finally:
                close_writers(idle)
    run(main())


def test_a_full_host_keeps_places_for_reconnects():
    """Small caps, so that welcomed sessions fill the host: new hellos stop at
    max_connections - token_reserve; a reconnect still gets in, past idle sockets too."""
    needs_fds(200)

    async def main():
        async with running_server([fast_table()], max_connections=16, token_reserve=4,
                                  max_per_address=0, max_prehello_per_address=0,
                                  hello_timeout=30.0) as srv:
            room = srv.rooms[0]
            leaver = await connect(srv, "comes-back", seat=0)
            token = leaver.welcome["token"]
            others = [await connect(srv, f"w{i}", observer=True) for i in range(11)]
            assert srv.welcomed_count() == 12 == 16 - 4
            with pytest.raises(RemoteError) as e:  # no token: the reserve is not for it
                await connect(srv, "late", observer=True)
            assert e.value.name == "SHUTDOWN"
            await leaver.close()
            await until(lambda: room.seats[0].session is None, what="the drop")
            idle = await idle_sockets(srv.port, 30, ATTACKER)  # fill every place left
            try:
                await until(lambda: len([s for s in srv.sessions if not s.closing]) <= 16,
                            what="the evictions")
                back = await connect(srv, "comes-back", token=token)
                assert back.welcome["resumed"] and back.welcome["seat"] == 0
                host = await connect(srv, "host", observer=True, host_key=srv.host_key)
                assert host.welcome["host"]
                await close_all([back, host])
            finally:
                close_writers(idle)
                await close_all(others)
    run(main())


def test_per_address_cap_refuses_when_no_idle_socket_can_make_room():
    async def main():
        async with running_server([fast_table()], max_per_address=3) as srv:
            clients = [await connect(srv, f"w{i}", observer=True) for i in range(3)]
            reader, writer = await asyncio.wait_for(asyncio.open_connection(LOOPBACK, srv.port), 5)
            dec = framing.Decoder()
            docs = []
            while True:
                data = await asyncio.wait_for(reader.read(65536), 5)
                if not data:
                    break
                docs.extend(dec.feed(data))
            assert docs[0][:2] == [2, "goodbye"]
            assert docs[0][2]["error"]["name"] == "SHUTDOWN"
            assert "address" in docs[0][2]["error"]["message"]
            writer.close()
            await close_all(clients)
    run(main())


class P:
    """A stand-in connection for the pure admission rule."""

    def __init__(self, sid, address, welcomed=False):
        self.sid, self.address, self.welcomed, self.closing = sid, address, welcomed, False


def test_admission_rule_evicts_the_oldest_waiting_never_a_welcomed_session():
    caps = Caps(max_connections=4, max_per_address=3, max_prehello_per_address=2,
                token_reserve=1)
    a1, a2, a3 = P(1, "a"), P(2, "a", True), P(3, "a")
    assert admit("b", [a1, a2, a3], caps) == Admission(True, (), "room for a newer connection")
    verdict = admit("a", [a1, a2, a3], caps)
    assert verdict.ok and verdict.evict == (a1,)
    full = [P(1, "a", True), P(2, "b", True), P(3, "c", True), P(4, "d", True)]
    assert not admit("e", full, caps).ok
    full[2].closing = True
    assert admit("e", full, caps).ok
    assert hello_reserve_ok(2, caps, with_token=False)
    assert not hello_reserve_ok(4, caps, with_token=False)
    assert hello_reserve_ok(10, caps, with_token=True)
