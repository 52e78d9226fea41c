"""net.remote_table (the client's Table protocol over sockets) and the host/join commands,
against a host running in a background thread on 127.0.0.1."""
from __future__ import annotations

import argparse
import time

import pytest

from engine.state import Bid, Phase, Play
from net.ai import AIProvider, FirstLegal
from net.cli import BackgroundHost, make_remote_app, parse_address
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
        assert table.submit(Bid(0, None))  # the hand is over: the host says why not
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
        events = drive(table, lambda t, ev: any(isinstance(e, Resynced) for e in ev),
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
