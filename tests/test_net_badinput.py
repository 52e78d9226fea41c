"""Bad input over real sockets on 127.0.0.1: oversized frames, garbage bytes, malformed
messages, unknown methods, wrong types, out-of-turn and illegal actions, floods. Each gets an
error answer or a closed connection; the server and the other players carry on."""
from __future__ import annotations

import asyncio

import msgpack
import pytest

from net import codec, framing, protocol
from net.ai import FirstLegal
from net.bot import Bot
from net.client import Client, RemoteError
from net.protocol import PROTOCOL_VERSION
from net.testing import LOOPBACK, close_all, connect, fast_table, running_server, seat_four


def run(coro, timeout: float = 60.0):
    return asyncio.run(asyncio.wait_for(coro, timeout))


async def raw(srv):
    return await asyncio.wait_for(asyncio.open_connection(LOOPBACK, srv.port), 5)


async def read_until_closed(reader, timeout=5.0):
    """Every document the server sends until it closes the connection."""
    dec = framing.Decoder()
    docs = []
    async def loop():
        while True:
            data = await reader.read(65536)
            if not data:
                return
            docs.extend(dec.feed(data))
    await asyncio.wait_for(loop(), timeout)
    return docs


def goodbye_of(docs):
    byes = [d for d in docs if d[:2] == [2, "goodbye"]]
    assert len(byes) == 1, docs
    return byes[0][2]["error"]["name"]


async def assert_server_still_serves(srv):
    c = await connect(srv, "check", observer=True)
    assert "time" in await c.call("ping")
    await c.close()


@pytest.mark.parametrize("payload, name", [
    (b"\xc1\xc1\xc1\xc1", "BAD_BYTES"),
    (msgpack.packb(42), "BAD_MESSAGE"),
    (msgpack.packb({"method": "hello"}), "BAD_MESSAGE"),
    (msgpack.packb([7, 1, "ping", {}]), "BAD_MESSAGE"),
    (msgpack.packb([0, -1, "ping", {}]), "BAD_MESSAGE"),
    (msgpack.packb([0, 2**40, "ping", {}]), "BAD_MESSAGE"),
    (msgpack.packb([0, 1, 99, {}]), "BAD_MESSAGE"),
    (msgpack.packb([0, 1, "ping"]), "BAD_MESSAGE"),
    (msgpack.packb({1: 2}), "BAD_BYTES"),
    (b"\x91" * 3000 + b"\xc0", "BAD_BYTES"),
], ids=["c1", "int", "map", "type7", "msgid-neg", "msgid-big", "method-int", "short",
        "int-key", "deep"])
def test_undecodable_or_malformed_documents_close_the_connection(payload, name):
    async def main():
        async with running_server() as srv:
            reader, writer = await raw(srv)
            writer.write(payload)
            docs = await read_until_closed(reader)
            assert goodbye_of(docs) == name
            writer.close()
            await assert_server_still_serves(srv)
    run(main())


@pytest.mark.parametrize("payload, words", [
    (b"\xc1\xc1\xc1\xc1", "FormatError: not msgpack"),
    (b"\x91" * 3000 + b"\xc0", "StackError: nested too deeply"),
    (msgpack.packb({1: 2}), "ValueError: int is not allowed for map key"),
], ids=["c1", "deep", "int-key"])
def test_bad_bytes_goodbye_gives_a_reason(payload, words):
    """The BAD_BYTES goodbye names the error and says what it means, even when msgpack's
    exception has no message of its own."""
    async def main():
        async with running_server() as srv:
            reader, writer = await raw(srv)
            writer.write(payload)
            byes = [d for d in await read_until_closed(reader) if d[:2] == [2, "goodbye"]]
            writer.close()
            err = byes[0][2]["error"]
            assert err["name"] == "BAD_BYTES"
            assert words in err["message"], err
            assert not err["message"].rstrip().endswith(":"), err
    run(main())


def test_describe_decode_error_never_ends_empty():
    class Mystery(Exception):
        """Something odd happened."""

    class Bare(Exception):
        pass

    assert framing.describe_decode_error(Mystery()) == "Mystery: Something odd happened"
    assert framing.describe_decode_error(Bare()) == "Bare: no details"


def test_oversized_frame_closes_only_that_connection():
    async def main():
        async with running_server(max_frame=4096) as srv:
            other = await connect(srv, "other")
            reader, writer = await raw(srv)
            writer.write(framing.encode(protocol.request(1, "chat", {"text": "x" * 10_000}),
                                        max_frame=1 << 20))
            docs = await read_until_closed(reader)
            assert goodbye_of(docs) == "FRAME_TOO_LARGE"
            # huge length headers: an array of 2**30 items is refused at once, a 1 GB string
            # as soon as more than the frame limit of it has arrived
            for data in (b"\xdd\x40\x00\x00\x00", b"\xdb\x40\x00\x00\x00" + b"a" * 5000):
                reader, writer = await raw(srv)
                writer.write(data)
                assert goodbye_of(await read_until_closed(reader)) == "FRAME_TOO_LARGE"
            assert "time" in await other.call("ping")
            await other.close()
    run(main())


def test_bad_requests_get_error_answers_and_the_connection_stays():
    async def main():
        async with running_server() as srv:
            c = await Client.connect(LOOPBACK, srv.port)
            with pytest.raises(RemoteError) as e:
                await c.call("snapshot")
            assert e.value.name == "HELLO_REQUIRED"
            with pytest.raises(RemoteError) as e:
                await c.call("no_such_method")
            assert e.value.name == "UNKNOWN_METHOD"
            bad_hellos = [
                {"protocol": "1", "name": "a"},
                {"protocol": PROTOCOL_VERSION},
                {"protocol": PROTOCOL_VERSION, "name": "a", "extra": 1},
                {"protocol": PROTOCOL_VERSION, "name": "a" * 100},
                {"protocol": PROTOCOL_VERSION, "name": "a", "seat": 7},
                {"protocol": PROTOCOL_VERSION, "name": "a", "observer": "yes"},
            ]
            for params in bad_hellos:
                with pytest.raises(RemoteError) as e:
                    await c.call("hello", params)
                assert e.value.name == "BAD_PARAMS", params
            fut = c.send_request("hello", None)
            c.send_raw(framing.encode([0, 77, "hello", "not a map"]))
            with pytest.raises(RemoteError):
                await asyncio.wait_for(fut, 5)
            await c.hello("a")
            with pytest.raises(RemoteError) as e:
                await c.hello("a")
            assert e.value.name == "ALREADY_HELLO"
            for method, params in [("play", {"cards": "10H"}), ("play", {"cards": ["1H"]}),
                                   ("play", {"cards": [10]}), ("bid", {"amount": True}),
                                   ("bid", {}), ("trump", {"suit": "X"}),
                                   ("ready", {"ready": 1}), ("chat", {"text": "x" * 500}),
                                   ("sit", {"seat": -1}), ("fill", {"seat": 0})]:
                with pytest.raises(RemoteError) as e:
                    await c.call(method, params)
                assert e.value.name == "BAD_PARAMS", (method, params)
            # notifications and responses from a client are ignored, not fatal
            c.send_raw(framing.encode([2, "whatever", {}]) + framing.encode([1, 5, None, 1]))
            assert "time" in await c.call("ping")
            await c.close()
    run(main())


def test_version_mismatch_is_answered_then_closed():
    async def main():
        async with running_server() as srv:
            c = await Client.connect(LOOPBACK, srv.port)
            with pytest.raises(RemoteError) as e:
                await c.call("hello", protocol=PROTOCOL_VERSION + 1, name="future")
            assert e.value.name == "VERSION_MISMATCH"
            await asyncio.wait_for(c.closed.wait(), 5)
            assert c.goodbye["name"] == "VERSION_MISMATCH"
    run(main())


def test_out_of_turn_wrong_phase_and_illegal_actions_carry_reasons():
    async def main():
        async with running_server() as srv:
            clients = await seat_four(srv)
            with pytest.raises(RemoteError) as e:
                await clients[0].call("bid", amount=None)
            assert e.value.name == "NO_HAND"
            for c in clients:
                await c.call("ready", ready=True)
            room = srv.rooms[0]
            await asyncio.sleep(0.05)
            g = room.game
            first = g.to_act
            other = clients[(first + 1) % 4]
            with pytest.raises(RemoteError) as e:
                await other.call("bid", amount=None)
            assert e.value.name == "NOT_YOUR_TURN"
            with pytest.raises(RemoteError) as e:
                await clients[first].call("play", cards=["BJ"])
            assert e.value.name == "WRONG_PHASE"
            with pytest.raises(RemoteError) as e:
                await clients[first].call("bid", amount=65 + 3)  # not a multiple of 5
            assert e.value.name == "ILLEGAL_ACTION" and e.value.message
            # the first bidder bids, everyone else passes: it is dealer
            await clients[first].call("bid", amount=60)
            for k in (1, 2, 3):
                await clients[(first + k) % 4].call("bid", amount=None)
            dealer = clients[first]
            await dealer.call("trump", suit="H")
            hand = codec.view_out(room.game.view(first))["hand"]
            with pytest.raises(RemoteError) as e:
                await dealer.call("bury", cards=hand[:3])
            assert e.value.name == "ILLEGAL_ACTION" and "8" in e.value.message
            await dealer.call("bury", cards=hand[:8])
            held = set(codec.view_out(room.game.view(first))["hand"])
            missing = next(c for c in ["BJ", "SJ", "AS", "AH", "2C", "3D", "KD"] if c not in held)
            with pytest.raises(RemoteError) as e:
                await dealer.call("play", cards=[missing])
            assert e.value.name == "ILLEGAL_ACTION" and "hold" in e.value.message
            await close_all(clients)
    run(main())


def test_a_flood_is_rate_limited_then_cut_off_while_the_table_plays_on():
    async def main():
        async with running_server([fast_table("A")], rate=20.0, burst=40.0, flood=100.0) as srv:
            clients = await seat_four(srv)
            flooder = await connect(srv, "flooder", observer=True)
            bots = [Bot(c, FirstLegal(i), hands=1) for i, c in enumerate(clients)]
            tasks = [asyncio.ensure_future(b.run(30)) for b in bots]
            futs = []
            for i in range(400):
                try:
                    futs.append(flooder.send_request("ping", {}))
                except ConnectionError:
                    break
            results = await asyncio.gather(*futs, return_exceptions=True)
            names = [getattr(r, "name", None) for r in results]
            assert "RATE_LIMITED" in names
            await asyncio.wait_for(flooder.closed.wait(), 5)
            assert flooder.goodbye["name"] == "FLOOD"
            # the seated players were not disturbed: the hand finishes normally
            await asyncio.gather(*tasks)
            assert all(b.hands_done == 1 and not b.errors for b in bots)
            await close_all(clients)
    run(main())


def test_silent_connections_time_out_and_connection_limit_holds():
    async def main():
        async with running_server(hello_timeout=0.3, max_connections=2) as srv:
            reader, writer = await raw(srv)
            assert goodbye_of(await read_until_closed(reader)) == "TIMEOUT"
            a = await connect(srv, "a")
            b = await connect(srv, "b")
            reader, writer = await raw(srv)
            docs = await read_until_closed(reader)
            assert goodbye_of(docs) == "SHUTDOWN"
            await close_all([a, b])
    run(main())


def test_a_client_that_never_reads_is_dropped():
    async def main():
        async with running_server(max_write_buffer=64 * 1024) as srv:
            reader, writer = await raw(srv)
            transport = writer.transport
            transport.pause_reading()  # this client never reads what it is sent
            writer.write(framing.encode(protocol.request(1, "hello", {
                "protocol": PROTOCOL_VERSION, "name": "sloth"})))
            req = framing.encode(protocol.request(2, "tables", {}))
            for _ in range(200):  # answers pile up on the server's side
                if transport.is_closing():
                    break
                writer.write(req * 500)
                await asyncio.sleep(0.01)
                if srv.sessions and all(s.closing for s in srv.sessions):
                    break
            for _ in range(200):
                if not srv.sessions:
                    break
                await asyncio.sleep(0.01)
            assert not srv.sessions
            writer.close()
            await assert_server_still_serves(srv)
    run(main())
