"""Titles 等级 at LAN tables (PROTOCOL.md version 3, ``hello.title`` and ``Seat.title``): a real
host on 127.0.0.1 relays a joining client's title to the other clients, whose name plates show
it; a client speaking version 2 is still served and never sees a title; a too-long title is
refused."""
from __future__ import annotations

import asyncio
import time

import pytest

from net.ai import AIProvider
from net.cli import BackgroundHost
from net.client import Client, RemoteError
from net.remote_table import RemoteTable
from net.server import ServerConfig
from net.testing import fast_table


@pytest.fixture
def host():
    cfg = ServerConfig(bind="127.0.0.1", port=0, rate=10_000, burst=10_000, tables=[
        fast_table(ai_seats={0: "first-legal", 1: "first-legal"})])
    h = BackgroundHost(cfg, AIProvider(use_plugins=False, user_plugins=False), announce=None)
    h.port = h.start()
    yield h
    h.stop()


def _titles_in(obj) -> list:
    """Every ``title`` key anywhere in a decoded message (for the version 2 client)."""
    if isinstance(obj, dict):
        return [v for k, v in obj.items() if k == "title" and k != "name"] + [
            t for v in obj.values() for t in _titles_in(v)]
    if isinstance(obj, list):
        return [t for v in obj for t in _titles_in(v)]
    return []


async def _hello(port: int, **params):
    c = await Client.connect("127.0.0.1", port)
    try:
        welcome = await c.call("hello", {"name": "x", "observer": True, **params})
        return c, welcome
    except BaseException:
        await c.close()
        raise


def test_a_title_reaches_the_other_clients_and_their_plates(host):
    ann = RemoteTable("127.0.0.1", host.port, "Ann", seat=2, title="穿鞋\x07 ")
    bo = None
    try:
        async def older_and_newer():
            old, w2 = await _hello(host.port, protocol=2, title="ignored")  # version 2: no title anywhere
            try:
                assert not _titles_in(w2)
                new, w3 = await _hello(host.port, protocol=3)
                try:
                    seats = w3["snapshot"]["table"]["seats"]
                    assert seats[2]["title"] == "穿鞋" and "title" not in seats[0]  # cleaned; AIs have none
                    with pytest.raises(RemoteError) as err:
                        await _hello(host.port, protocol=3, title="x" * 17)
                    assert err.value.name == "BAD_PARAMS"
                    # a table change reaches both: the version 2 session still without titles
                    ann.ready(True)
                    _m, p2 = await old.wait_for(lambda m, p: m == "table", timeout=5)
                    _m, p3 = await new.wait_for(lambda m, p: m == "table", timeout=5)
                    assert not _titles_in(p2) and p3["table"]["seats"][2]["title"] == "穿鞋"
                finally:
                    await new.close()
            finally:
                await old.close()

        asyncio.run(asyncio.wait_for(older_and_newer(), 20))
        bo = RemoteTable("127.0.0.1", host.port, "Bo", seat=3)  # gives no title: still served
        assert bo.titles() == ("", "", "穿鞋", "")
        pygame = pytest.importorskip("pygame")
        from game import fonts
        from game.app import App, Options

        assert bo.ready(True) is None and bo.wait_for_hand(10)
        app = App(Options(lang="en", audio=False, save_settings=False, user_plugins=False, speed="instant",
                          size=(800, 480)), table=bo)
        drawn: list[str] = []
        real = fonts.render

        def spy(text, size, color, bold=False):
            drawn.append(str(text))
            return real(text, size, color, bold)

        fonts.render = spy
        try:
            end = time.monotonic() + 10
            while time.monotonic() < end and "· Shoes" not in drawn:
                app.scene.invalidate()
                app.step()
                time.sleep(0.01)
        finally:
            fonts.render = real
        assert "· Shoes" in drawn  # Ann's title, in English, on her plate in Bo's window
        assert app._seat_titles() == ["", "", "Shoes", ""]
        app.close()
        bo = None
    finally:
        ann.close()
        if bo is not None:
            bo.close()
