"""net.remote_table (the client's Table protocol over sockets) and the host/join commands,
against a host running in a background thread on 127.0.0.1."""
from __future__ import annotations

import argparse
import time

import pytest

from engine.state import Bid, Phase, Play
from net.ai import AIProvider, FirstLegal
from game.lan_cli import make_remote_app
from net.cli import BackgroundHost, parse_address
from net.remote_table import RemoteTable, Resynced
from net.server import ServerConfig
from net.testing import fast_table


@pytest.fixture
def host():
    """A host with AI seats 1..3 (first-legal AIs), seat 0 free, on 127.0.0.1:0."""
    cfg = ServerConfig(bind="127.0.0.1", port=0, rate=10_000, burst=10_000, tables=[
        fast_table(ai_seats={1: "first-legal", 2: "first-legal", 3: "first-legal"})])
    h = BackgroundHost(cfg, AIProvider(use_plugins=False, user_plugins=False), announce=None)
    port = h.start()
    h.port = port
    yield h
    h.stop()


def drive(table: RemoteTable, until, limit_s: float = 20.0, strict: bool = True) -> list:
    """Poll like the client does, playing first-legal moves for the own seat (``strict``:
    every move must be accepted; else refusals while the link is down are tolerated)."""
    events = []
    end = time.monotonic() + limit_s
    while time.monotonic() < end:
        events += table.poll()
        if until(table, events):
            return events
        v = table.view()
        if v.my_turn:
            reason = table.submit(FirstLegal(table.seat).act(v))
            if strict:
                assert reason is None
            elif reason is not None:
                time.sleep(0.01)
        else:
            time.sleep(0.002)
    raise AssertionError("condition not reached in time")


def test_remote_table_plays_hands_like_a_local_table(host):
    table = RemoteTable("127.0.0.1", host.port, "Ann", seat=0)
    try:
        assert table.seat == 0 and table.token
        assert table.view().phase is Phase.DEAL  # lobby placeholder before the first hand
        assert table.ready() is None
        assert table.wait_for_hand(10)
        events = drive(table, lambda t, ev: t.view().phase is Phase.SETTLE)
        kinds = [e.kind for e in events]
        assert kinds[0] == "hand_started" and kinds[-1] == "hand_settled"
        assert all(e.cards is None for e in events if e.kind == "cards_dealt" and e.seat != 0)
        assert sum(table.totals()) == 0 and table.hand_no == 1
        assert table.names[1] == "first-legal AI"
        assert table.submit(Bid(1, None)) == "that seat is not yours"
        over = table.submit(Bid(0, None))  # the hand is over: the host says why not
        assert over and getattr(over, "code", None) == "hand_over"
        assert table.next_hand() is None
        drive(table, lambda t, ev: t.hand_no == 2 and t.view().phase is Phase.SETTLE)
    finally:
        table.close()


def test_illegal_submit_returns_the_engine_reason(host):
    table = RemoteTable("127.0.0.1", host.port, "Ann", seat=0)
    try:
        table.ready()
        assert table.wait_for_hand(10)
        drive(table, lambda t, ev: t.view().phase is Phase.PLAY and t.view().my_turn)
        v = table.view()
        held = set(v.hand)
        from engine.cards import ALL_CARDS
        missing = next(c for c in ALL_CARDS if c not in held)
        reason = table.submit(Play(0, (missing,)))
        assert reason and "hold" in reason
    finally:
        table.close()


def test_a_refused_submit_is_a_coded_refusal_translated_as_in_local_play(host):
    """RemoteTable.submit returns the engine's Refusal (code, params, English), which
    reason_text shows in Chinese exactly as for the same refusal in local play."""
    from engine.cards import ALL_CARDS
    from engine.refusals import Refusal
    from engine.state import IllegalAction
    from game import i18n
    from game.text import reason_text

    table = RemoteTable("127.0.0.1", host.port, "Ann", seat=0)
    try:
        table.ready()
        assert table.wait_for_hand(10)
        drive(table, lambda t, ev: t.view().phase is Phase.PLAY and t.view().my_turn)
        held = set(table.view().hand)
        action = Play(0, (next(c for c in ALL_CARDS if c not in held),))

        def engine_says():  # the same action refused by the host's own engine (no change)
            try:
                host.server.rooms[0].game.apply(action)
            except IllegalAction as exc:
                return exc.reason
        local = host.call(engine_says)
        reason = table.submit(action)
        assert isinstance(reason, Refusal) and isinstance(local, Refusal)
        assert (reason.code, reason.params, str(reason)) == (local.code, local.params, str(local))
        assert reason.code == "not_held"
        try:
            i18n.set_language("zh")
            zh = reason_text(reason)
            assert zh == reason_text(local)  # exactly what local play shows
            assert zh != str(reason) and zh != reason_text(str(reason))
            assert zh.startswith("你手里没有足够的")
        finally:
            i18n.set_language("en")
    finally:
        table.close()


def test_remote_table_reconnects_with_its_token(host):
    table = RemoteTable("127.0.0.1", host.port, "Ann", seat=0)
    try:
        table.ready()
        assert table.wait_for_hand(10)
        drive(table, lambda t, ev: t.view().phase is Phase.PLAY and t.view().trick_no >= 2)

        def drop():
            for s in host.server.sessions:
                if s.seat == 0:
                    s.writer.transport.abort()
        host.call(drop)
        drive(table, lambda t, ev: any(isinstance(e, Resynced) for e in ev),
              strict=False)
        assert table.connected and table.seat == 0
        notes = " ".join(table.notices())
        assert "reconnected" in notes
        drive(table, lambda t, ev: t.view().phase is Phase.SETTLE, strict=False)
    finally:
        table.close()


def test_remote_app_runs_frames_with_the_auto_toggle(host):
    pytest.importorskip("pygame")
    table = RemoteTable("127.0.0.1", host.port, "Ann", seat=0)
    try:
        table.ready()
        assert table.wait_for_hand(10)
        ns = argparse.Namespace(hands=1, lang="en", speed="instant", fullscreen=False, mute=True)
        app = make_remote_app(table, ns)
        assert ("auto", "托管 off") in app._toolbar_items()
        app._on_toolbar("auto")
        end = time.monotonic() + 20
        while time.monotonic() < end and not table.auto:
            app.step([])
            time.sleep(0.005)
        assert table.auto  # the host confirmed auto-play: the AI now plays seat 0
        end = time.monotonic() + 20
        while time.monotonic() < end and table.view().phase is not Phase.SETTLE:
            app.step([])
        assert table.view().phase is Phase.SETTLE
    finally:
        table.close()


def test_join_headless_command_plays_and_saves_the_token(host, tmp_path, monkeypatch, capsys):
    from game.cli import main

    monkeypatch.setenv("HONGWU_STATE_DIR", str(tmp_path))
    code = main(["join", f"127.0.0.1:{host.port}", "--name", "bot", "--headless", "--hands", "1",
                 "--no-user-plugins", "--ai-budget", "1"])
    out = capsys.readouterr().out
    assert code == 0, out
    assert "joined 127.0.0.1" in out and "hand 1:" in out
    assert (tmp_path / "lan_tokens.json").exists()


def test_host_headless_command_runs_hands_with_ai_seats(capsys):
    from game.cli import main

    code = main(["host", "--headless", "--bind", "127.0.0.1", "--port", "0", "--no-discovery",
                 "--ai", "0=random", "--ai", "1=random", "--ai", "2=random", "--ai", "3=random",
                 "--hands", "1", "--ai-delay", "0", "--no-user-plugins"])
    assert code == 0
    assert "hosting 'Hong Wu' on 127.0.0.1:" in capsys.readouterr().out


@pytest.mark.parametrize("text, expected", [
    ("10.0.0.5", ("10.0.0.5", 47470)), ("host:1234", ("host", 1234)),
    ("[::1]:99", ("::1", 99)), ("::1", ("::1", 47470))])
def test_parse_address(text, expected):
    assert parse_address(text) == expected


def test_parse_address_rejects_bad_ports():
    with pytest.raises(argparse.ArgumentTypeError):
        parse_address("host:99999")


def test_remote_table_scene_shows_the_hosts_turn_countdown(monkeypatch):
    """The host's turn timer (``Turn.timeout``) is shown on the plate of the seat to act, and
    after the prompt on the local player's turn; a local game has no such countdown."""
    pytest.importorskip("pygame")
    from game.scenes import hud
    from net.server import Timers

    cfg = ServerConfig(bind="127.0.0.1", port=0, rate=10_000, burst=10_000, tables=[
        fast_table(ai_seats={2: "first-legal", 3: "first-legal"},
                   timers=Timers(bid=40, trump=40, bury=60, play=40))])
    h = BackgroundHost(cfg, AIProvider(use_plugins=False, user_plugins=False), announce=None)
    port = h.start()
    ann = RemoteTable("127.0.0.1", port, "Ann", seat=0)
    bob = RemoteTable("127.0.0.1", port, "Bob", seat=1)
    texts: list[str] = []
    draw_text = hud.draw_text

    def record(surf, text, *args, **kw):
        texts.append(text)
        return draw_text(surf, text, *args, **kw)

    monkeypatch.setattr(hud, "draw_text", record)
    try:
        assert ann.ready() is None and bob.ready() is None
        assert ann.wait_for_hand(10)
        ns = argparse.Namespace(hands=1, lang="en", speed="instant", fullscreen=False, mute=True)
        app = make_remote_app(ann, ns)
        scene = app.scene
        assert scene.remote_timers
        seen: dict[int, tuple[int, str]] = {}
        end = time.monotonic() + 30
        while len(seen) < 2:
            assert time.monotonic() < end, f"countdowns seen: {seen}"
            app.step([])
            v = scene.view
            cd = scene.countdown
            if cd is not None and cd[0] == v.to_act and cd[0] not in seen:
                texts.clear()
                scene.invalidate()
                scene.frame()  # a full redraw of the static layer
                assert 0 < cd[1] <= 40
                assert f"{cd[1]} s" in texts, texts  # the badge on the acting seat's plate
                seen[cd[0]] = (cd[1], scene.message)
            for t in (ann, bob):
                tv = t.view()
                if tv.my_turn and t.seat in seen:
                    assert t.submit(FirstLegal(t.seat).act(tv)) is None
            time.sleep(0.005)
        assert seen[0][1].endswith(f"({seen[0][0]} s left)")  # after Ann's own prompt
        assert "s left" not in seen[1][1]  # Bob's turn: no countdown in Ann's prompt
        app.close()
    finally:
        ann.close()
        bob.close()
        h.stop()


def test_local_games_have_no_host_countdown():
    """Without a host the scene shows no turn countdown; the trump panel keeps its 30 s."""
    pytest.importorskip("pygame")
    from tests.client_driver import make_app

    app = make_app(("human", "random", "random", "random"))
    try:
        for _ in range(5):
            app.step([])
        assert not app.scene.remote_timers and app.scene.countdown is None
        assert app.scene.panels["trump"].seconds_left(0.0) == 30  # the trump countdown as before
    finally:
        app.close()
