"""LAN discovery over loopback only: the announcer sends unicast to 127.0.0.1."""
from __future__ import annotations

import asyncio
import socket

from net.discovery import Announcer, decode_announcement, discover, encode_announcement
from net.protocol import PROTOCOL_VERSION


def test_announcements_are_found_on_loopback():
    async def main():
        sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
        tables = [{"name": "Ann's table", "decks": 2, "free_seats": 3, "in_hand": False}]
        ann = Announcer(lambda: encode_announcement("Ann's table", 47999, tables),
                        addresses=["127.0.0.1"], port=port, interval=0.05)
        await ann.start()
        try:
            found = await discover(3.0, sock=sock, first=True)
        finally:
            await ann.close()
        assert len(found) == 1
        f = found[0]
        assert (f.address, f.port, f.name, f.protocol) == ("127.0.0.1", 47999, "Ann's table", PROTOCOL_VERSION)
        assert f.tables[0]["free_seats"] == 3 and "47999" in f.describe()
    asyncio.run(asyncio.wait_for(main(), 10))


def test_garbage_datagrams_are_ignored():
    assert decode_announcement(b"\xc1garbage", "127.0.0.1") is None
    assert decode_announcement(b"\x81\xa3app\xa3xyz", "127.0.0.1") is None
    assert decode_announcement(b"x" * 5000, "127.0.0.1") is None
    big = encode_announcement("n", 1, [{"name": "t" * 50, "free_seats": 1}] * 100)
    assert len(big) <= 1200 and decode_announcement(big, "127.0.0.1") is not None
