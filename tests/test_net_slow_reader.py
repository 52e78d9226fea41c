"""The one slow-reader rule and rate limits counted on arrival (PROTOCOL.md section 9), over
real sockets on 127.0.0.1: a client that stops reading is dropped when more than
``max_write_buffer`` bytes wait in the host for it, every time; a client that stopped reading
for a while and sends under the rate limit is never cut off for a backlog it did not send
faster than allowed. Every wait bounded."""
from __future__ import annotations

import asyncio
import contextlib
import socket

from net import framing, protocol
from net.protocol import PROTOCOL_VERSION
from net.testing import LOOPBACK, close_all, connect, fast_table, running_server

AI = "first-legal"
SMALL = 4096  # bytes of socket buffer on either side: the OS hides little of the backlog


def run(coro, timeout: float = 90.0):
    return asyncio.run(asyncio.wait_for(coro, timeout))


async def until(pred, timeout: float = 20.0, what: str = "condition") -> None:
    end = asyncio.get_running_loop().time() + timeout
    while not pred():
        if asyncio.get_running_loop().time() > end:
            raise AssertionError(f"timed out waiting for {what}")
        await asyncio.sleep(0.01)


async def small_window_connection(port: int):
    """A connection whose receive buffer is small (set before connecting)."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, SMALL)
    sock.setblocking(False)
    await asyncio.wait_for(asyncio.get_running_loop().sock_connect(sock, (LOOPBACK, port)), 5)
    return await asyncio.open_connection(sock=sock)


def hello(msgid: int, name: str) -> bytes:
    return framing.encode(protocol.request(msgid, "hello", {
        "protocol": PROTOCOL_VERSION, "name": name, "observer": True}))


def session_named(srv, name):
    return next((s for s in srv.sessions if s.name == name), None)


def test_a_reader_that_stops_reading_is_dropped_at_the_documented_point_every_time():
    """An observer of an all-AI table that plays hand after hand, never reading: dropped
    (SLOW_CONSUMER) as soon as more than max_write_buffer bytes wait in the host, i.e.
    with at most one more frame than the limit waiting, in each of three runs."""
    limit = 128 * 1024

    async def main():
        table = fast_table(ai_seats={i: AI for i in range(4)})
        async with running_server([table], max_write_buffer=limit) as srv:
            for attempt in range(3):
                name = f"sloth{attempt}"
                reader, writer = await small_window_connection(srv.port)
                writer.transport.pause_reading()  # this client never reads
                writer.write(hello(1, name))
                await until(lambda: session_named(srv, name) is not None, what="the hello")
                session = session_named(srv, name)
                await until(lambda: session.closing, what=f"the drop of {name}")
                assert session.slow_drop is not None, f"{name} closed for another reason"
                assert limit < session.slow_drop <= limit + srv.config.max_frame
                writer.transport.abort()
            watcher = await connect(srv, "reads", observer=True)  # others carry on
            assert "time" in await watcher.call("ping")
            await close_all([watcher])
    run(main())


def test_a_reader_that_paused_then_sends_42_requests_a_second_is_not_cut_off():
    """The host reads (and charges the rate limit) as requests arrive, also while the client
    is not reading its answers. 126 pings at about 42/s, under a 50/s limit with bursts of
    20, all answered, none refused, once the client reads again."""
    async def main():
        table = fast_table(ai_seats={i: AI for i in range(4)}, max_hands=8)
        async with running_server([table], rate=50.0, burst=20.0, flood=20.0,
                                  send_buffer=SMALL) as srv:
            room = srv.rooms[0]
            reader, writer = await small_window_connection(srv.port)
            writer.transport.pause_reading()
            writer.write(hello(1, "pauser"))
            await until(lambda: room.hand_no == 8 and not room.in_hand, 60, "eight hands")
            session = session_named(srv, "pauser")
            waiting = session.writer.transport.get_write_buffer_size()
            assert waiting > 64 * 1024, "the backlog is too small to show anything"
            pings = [framing.encode(protocol.request(100 + i, "ping", {})) for i in range(126)]
            for data in pings:  # ~42 a second, never faster
                writer.write(data)
                await asyncio.sleep(1 / 42)
            writer.transport.resume_reading()
            dec = framing.Decoder()
            answers = {}
            end = asyncio.get_running_loop().time() + 30
            while len(answers) < len(pings) and asyncio.get_running_loop().time() < end:
                data = await asyncio.wait_for(reader.read(65536), 10)
                assert data, "the host closed the connection"
                for doc in dec.feed(data):
                    assert doc[:2] != [2, "goodbye"], doc
                    if doc[0] == protocol.RESPONSE and doc[1] >= 100:
                        answers[doc[1]] = doc
            assert len(answers) == len(pings)
            assert all(a[2] is None for a in answers.values()), [
                a[2]["name"] for a in answers.values() if a[2] is not None][:3]
            with contextlib.suppress(Exception):
                writer.close()
    run(main())


def test_a_steady_flood_is_cut_off_although_a_token_comes_back_now_and_then():
    """3,000 pings a second against 50/s: a token refills every 20 ms, and the refusals in
    between (about 60) stay under ``flood`` (100), yet the refusals add up and the flood is
    cut (FLOOD), instead of being answered for ever."""
    async def main():
        async with running_server([fast_table()], rate=50.0, burst=20.0, flood=100.0) as srv:
            reader, writer = await asyncio.open_connection(LOOPBACK, srv.port)
            writer.write(hello(1, "flood"))
            ping = framing.encode(protocol.request(7, "ping", {}))
            dec = framing.Decoder()
            docs = []

            async def read_all():
                while True:
                    data = await reader.read(65536)
                    if not data:
                        return
                    docs.extend(dec.feed(data))
            reading = asyncio.ensure_future(read_all())
            for _ in range(300):  # at most 3 s
                if reading.done():
                    break
                writer.write(ping * 30)
                await asyncio.sleep(0.01)
            await asyncio.wait_for(reading, 10)
            byes = [d for d in docs if d[:2] == [2, "goodbye"]]
            assert byes and byes[0][2]["error"]["name"] == "FLOOD"
            writer.close()
    run(main())
