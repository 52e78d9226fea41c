"""X-ray 透视 at LAN tables (PROTOCOL.md ``xray``, section 7): real sockets on 127.0.0.1, the
host's AI seats played by the built-in plugins (``basic`` gives reasoning).

The rule under test: the host sends an AI seat's reasoning only at a learners' table (the host
opened it with ``xray``; the Table map says so), only to sessions that asked, only for seats
of kind ``ai`` (never a human seat in 托管), and only after the decision's own events.
Everywhere else nothing is sent and the request is refused."""
from __future__ import annotations

import asyncio
import time

import pytest

from net import protocol
from net.client import RemoteError
from net.protocol import ErrorCode, check_fields
from net.server import Room, Server, ServerConfig
from net.testing import close_all, connect, fast_table, running_server

AI3 = {1: "basic", 2: "basic", 3: "basic"}
DECISION_EVENTS = {"bid_made", "trump_chosen", "kitty_buried", "cards_played"}


async def _collect(client, until_settled: bool = True, limit_s: float = 60.0) -> list[tuple[str, dict]]:
    """Every notification until the hand settles (bounded in time and count)."""
    out = []
    end = time.monotonic() + limit_s
    while time.monotonic() < end and len(out) < 20_000:
        method, params = await client.next_notification(timeout=max(0.1, end - time.monotonic()))
        out.append((method, params))
        if until_settled and method == "event" and params["event"]["kind"] == "hand_settled":
            return out
    raise AssertionError("the hand did not settle in time")


def _check_after_decisions(stream: list[tuple[str, dict]]) -> list[dict]:
    """The reasoning notifications of one session's stream, each checked to follow the
    events of its own seat's decision."""
    seen_events = 0
    last_decision: dict | None = None
    out = []
    for method, params in stream:
        if method == "event":
            seen_events = params["n"] + 1
            ev = params["event"]
            if ev["kind"] in DECISION_EVENTS:
                last_decision = ev
        elif method == "reasoning":
            check_fields(params, protocol.NOTIFICATIONS["reasoning"])
            assert params["events"] == seen_events  # sent after the decision's events
            assert last_decision is not None and last_decision["seat"] == params["seat"]
            assert 1 <= len(params["candidates"]) <= protocol.REASONING_MAX
            out.append(params)
    return out


def test_learners_table_sends_ai_reasoning_after_decisions_only_to_askers():
    async def main():
        async with running_server([fast_table(xray=True, ai_seats=AI3)], use_plugins=True) as server:
            me = await connect(server, "Ann", seat=0)
            watcher = await connect(server, "Bo", observer=True)
            quiet = await connect(server, "Cy", observer=True)
            try:
                assert me.welcome["snapshot"]["table"]["xray"] is True  # everyone sees it is on
                check_fields(me.welcome["snapshot"]["table"], protocol.STRUCTS["Table"])
                assert (await me.call("xray", {"on": True})) == {"on": True}
                assert (await watcher.call("xray", {"on": True})) == {"on": True}
                # Ann's own seat is auto-played (托管): its candidates are her cards, never sent
                await me.call("auto", {"on": True})
                await me.call("ready", {"ready": True})
                streams = await asyncio.gather(_collect(me), _collect(watcher), _collect(quiet))
            finally:
                await close_all([me, watcher, quiet])
            return streams

    mine, watched, quiet = asyncio.run(main())
    got = _check_after_decisions(mine)
    assert got, "the basic AIs give reasoning"
    assert {r["seat"] for r in got} <= {1, 2, 3}  # AI seats only: never seat 0 in 托管
    assert {r["seat"] for r in got} == {1, 2, 3}
    plays = [e for m, e in mine if m == "event" and e["event"]["kind"] == "cards_played" and e["event"]["seat"] != 0]
    assert len(got) >= len(plays)  # one after each AI play (and its bids, trump, bury)
    assert _check_after_decisions(watched) == got  # an observer that asked gets the same
    assert not [p for m, p in quiet if m == "reasoning"]  # a session that did not ask: nothing


def test_ordinary_table_refuses_xray_and_sends_nothing():
    async def main():
        async with running_server([fast_table(ai_seats=AI3)], use_plugins=True) as server:
            me = await connect(server, "Ann", seat=0)
            try:
                assert "xray" not in me.welcome["snapshot"]["table"]
                tables = await me.call("tables")
                assert all("xray" not in t for t in tables)
                with pytest.raises(RemoteError) as err:
                    await me.call("xray", {"on": True})
                assert err.value.code == ErrorCode.FORBIDDEN and "--xray" in err.value.message
                assert (await me.call("xray", {"on": False})) == {"on": False}  # off: always fine
                await me.call("auto", {"on": True})
                await me.call("ready", {"ready": True})
                return await _collect(me)
            finally:
                await close_all([me])

    stream = asyncio.run(main())
    assert not [p for m, p in stream if m == "reasoning"]
    assert any(m == "event" and p["event"]["kind"] == "cards_played" and p["event"]["seat"] == 1
               for m, p in stream)


def test_xray_tables_are_never_staked_and_are_listed():
    with pytest.raises(ValueError, match="staked"):
        Room(Server(ServerConfig(bind="127.0.0.1", port=0)), fast_table(xray=True, stake=5))

    async def main():
        async with running_server([fast_table(xray=True)]) as server:
            c = await connect(server, "Ann", observer=True)
            try:
                return await c.call("tables")
            finally:
                await close_all([c])

    (summary,) = asyncio.run(main())
    check_fields(summary, protocol.STRUCTS["TableSummary"])
    assert summary["xray"] is True


def test_xray_needs_hello_and_a_bool():
    async def main():
        from net.client import Client

        async with running_server([fast_table(xray=True)]) as server:
            raw = await Client.connect("127.0.0.1", server.port, timeout=5)
            try:
                with pytest.raises(RemoteError) as before:
                    await raw.call("xray", {"on": True})
                await raw.hello("Ann", observer=True)
                with pytest.raises(RemoteError) as bad:
                    await raw.call("xray", {"on": "yes"})
                return before.value.code, bad.value.code
            finally:
                await raw.close(2.0)

    assert asyncio.run(main()) == (ErrorCode.HELLO_REQUIRED, ErrorCode.BAD_PARAMS)


def _host(**table):
    from net.ai import AIProvider
    from net.cli import BackgroundHost

    cfg = ServerConfig(bind="127.0.0.1", port=0, rate=10_000, burst=10_000,
                       tables=[fast_table(ai_seats=AI3, **table)])
    h = BackgroundHost(cfg, AIProvider(use_plugins=True, user_plugins=False), announce=None)
    h.port = h.start()
    return h


def _play_hand(table, limit_s=60.0):
    from engine.state import Phase
    from net.ai import FirstLegal

    end = time.monotonic() + limit_s
    assert table.ready() is None and table.wait_for_hand(10)
    while time.monotonic() < end:
        table.poll()
        v = table.view()
        if v.phase is Phase.SETTLE:
            return
        if v.my_turn:
            assert table.submit(FirstLegal(table.seat).act(v)) is None
        else:
            time.sleep(0.002)
    raise AssertionError("the hand did not settle in time")


def test_remote_table_and_the_client_panels_show_the_hosts_reasoning():
    """The pygame client's X-ray reads a LAN learners' table's reasoning (RemoteTable)."""
    from game.scenes import xray
    from net.remote_table import RemoteTable

    h = _host(xray=True)
    try:
        table = RemoteTable("127.0.0.1", h.port, "Ann", seat=0)
        try:
            assert table.xray_table and table.reasoning_by_seat() == {}
            assert table.set_xray(True) is None
            _play_hand(table)
            end = time.monotonic() + 10
            while len(table.reasoning_by_seat()) < 3 and time.monotonic() < end:
                time.sleep(0.01)
            got = table.reasoning_by_seat()
            assert set(got) == {1, 2, 3}
            for seat, cands in got.items():
                assert all(isinstance(c.action, str) and isinstance(c.value, float) for c in cands)
            shown = xray.reasoning_by_seat(table)
            assert shown == {s: r[:xray.MAX_SHOWN] for s, r in got.items()}
            assert table.set_xray(False) is None and table.reasoning_by_seat() == {}
        finally:
            table.close()
    finally:
        h.stop()


def test_remote_table_without_xray_is_refused():
    from game.scenes import xray
    from net.remote_table import RemoteTable

    h = _host()
    try:
        table = RemoteTable("127.0.0.1", h.port, "Ann", seat=0)
        try:
            assert not table.xray_table
            assert table.set_xray(True) and table.last_error == "FORBIDDEN"
            _play_hand(table)
            assert table.reasoning_by_seat() == {} and xray.reasoning_by_seat(table) == {}
        finally:
            table.close()
    finally:
        h.stop()


def test_window_client_draws_the_hosts_reasoning(tmp_path, monkeypatch):
    """The pygame client (SDL dummy) at a LAN learners' table: X-ray on in its settings asks
    the host; the AI seats' panels are drawn beside their plates, off the trick area."""
    import argparse

    pygame = pytest.importorskip("pygame")
    from game import settings
    from game.lan_cli import make_remote_app
    from game.scenes import xray
    from net.remote_table import RemoteTable

    monkeypatch.setenv(settings.CONFIG_ENV, str(tmp_path / "config"))
    h = _host(xray=True, ai_delay_s=0.05, auto_delay_s=0.05)  # a hand of a few seconds: no settlement yet
    try:
        table = RemoteTable("127.0.0.1", h.port, "Ann", seat=0)
        ns = argparse.Namespace(hands=1, renderer=None, lang="en", speed="instant", fullscreen=False, mute=True,
                                max_frames=None, plugin_dir=[], no_user_plugins=True, career_recorder=None)
        app = make_remote_app(table, ns)
        try:
            app.set_xray(True)  # the setting: the client asks the host
            assert table._xray_wanted
            assert table.set_auto(True) is None and table.ready() is None
            end = time.monotonic() + 60
            while time.monotonic() < end and len(table.reasoning_by_seat()) < 3:
                app.step([])
                time.sleep(0.005)
            assert set(table.reasoning_by_seat()) == {1, 2, 3}
            sc = app.scene
            for _ in range(200):  # the host plays on: compare a frame drawn between two equal states
                before = xray.panels(sc.layout, sc.view, table)
                sc.invalidate()
                app.step([])
                shown = xray.panels(sc.layout, sc.view, table)
                if shown == before and len(shown) == 3:
                    break
            assert {s for s, _r, _c in shown} == {1, 2, 3}
            for _s, r, cands in shown:
                assert cands and not r.colliderect(sc.layout.trick_area)
            border = {tuple(app.window.get_at((r.centerx, r.y)))[:3] for _s, r, _c in shown}
            assert border <= {(90, 120, 160), tuple(xray.ACCENT)}
            app.set_xray(False)  # off: the host stops, the panels go
            assert table.reasoning_by_seat() == {} and xray.panels(sc.layout, sc.view, table) == []
        finally:
            app.close()
            table.close()
    finally:
        h.stop()


def test_window_client_at_an_ordinary_table_says_why_nothing_shows(tmp_path, monkeypatch):
    import argparse

    pytest.importorskip("pygame")
    from game import settings
    from game.i18n import _
    from game.lan_cli import make_remote_app
    from net.remote_table import RemoteTable

    monkeypatch.setenv(settings.CONFIG_ENV, str(tmp_path / "config"))
    h = _host()
    try:
        table = RemoteTable("127.0.0.1", h.port, "Ann", seat=0)
        ns = argparse.Namespace(hands=1, renderer=None, lang="en", speed="instant", fullscreen=False, mute=True,
                                max_frames=None, plugin_dir=[], no_user_plugins=True, career_recorder=None)
        app = make_remote_app(table, ns)
        try:
            app.step([])
            app.set_xray(True)
            assert not table._xray_wanted  # not even asked: the table says it shows nothing
            texts = [t.text for t in app.scene.toasts]
            assert _("This host shows no AI reasoning: X-ray works at learners' tables (hongwu host --xray)") in texts
        finally:
            app.close()
            table.close()
    finally:
        h.stop()


def _host_args(*extra: str):
    import argparse

    from game.lan_cli import add_host_parser

    sub = argparse.ArgumentParser().add_subparsers()
    return add_host_parser(sub).parse_args([
        "--bind", "127.0.0.1", "--port", "0", "--no-discovery", "--no-user-plugins",
        "--ai-delay", "0", "--lang", "en", "--speed", "instant", "--mute", *extra])


def test_host_xray_flag_marks_the_table_and_the_lobby_says_so(tmp_path, monkeypatch, capsys):
    pytest.importorskip("pygame")
    from game import settings
    from game.i18n import _
    from game.lan_cli import make_host_app
    from game.scenes import lan
    from net.cli import BackgroundHost, _ai_provider, host_config, run_host

    monkeypatch.setenv(settings.CONFIG_ENV, str(tmp_path / "config"))
    monkeypatch.setenv("HONGWU_STATE_DIR", str(tmp_path / "state"))
    assert host_config(_host_args()).tables[0].xray is False  # off by default
    assert run_host(_host_args("--xray", "--stake", "5", "--headless")) == 2
    assert "--xray" in capsys.readouterr().err
    ns = _host_args("--xray")
    assert host_config(ns).tables[0].xray is True
    drawn: list[str] = []
    real = lan.draw_text
    monkeypatch.setattr(lan, "draw_text", lambda surf, text, *a, **k: (drawn.append(text), real(surf, text, *a, **k))[1])
    host = BackgroundHost(host_config(ns), _ai_provider(ns), None)
    port = host.start()
    app = make_host_app(host, port, ns)
    try:
        end = time.monotonic() + 20
        while time.monotonic() < end and not (type(app.top).__name__ == "LanScreen" and app.top.state == "lobby"):
            app.step()
        app.top.invalidate()
        app.step()
        assert app.top.table.xray_table
        assert any(_("Learners' table: X-ray shows the AI seats' candidates") in t for t in drawn)
    finally:
        app.close()
        host.stop()
