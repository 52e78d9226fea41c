"""A LAN client records its hands from what it saw (a real host on 127.0.0.1, a RemoteTable)."""
from __future__ import annotations

import time

import pytest

from engine import replay as R
from engine.state import Game, Phase, first_legal_action
from game.career import Recorder, Store
from net.ai import AIProvider, FirstLegal
from net.cli import BackgroundHost
from net.remote_table import RemoteTable
from net.server import ServerConfig
from net.testing import fast_table


def test_replay_from_every_seats_view_reproduces():
    for seed in range(10):
        g = Game.new(seed=seed)
        while not g.is_over:
            g.apply(first_legal_action(g.view(g.to_act)))
        for seat in range(4):
            rep = R.parse("\n".join(R.lines_from_view(g.view(seat), seat=seat)))
            assert rep.header["start"] == "after_auction" and rep.header["seed"] is None
            assert R.verify(rep).settlement == g.settlement
            assert "(not seen from this seat)" in "\n".join(R.text_lines(rep))
    with pytest.raises(ValueError):
        R.lines_from_view(Game.new(seed=1).view(0))


@pytest.fixture
def host():
    cfg = ServerConfig(bind="127.0.0.1", port=0, rate=10_000, burst=10_000, tables=[
        fast_table(ai_seats={0: "first-legal", 1: "first-legal", 3: "first-legal"})])
    h = BackgroundHost(cfg, AIProvider(use_plugins=False, user_plugins=False), announce=None)
    h.port = h.start()
    yield h
    h.stop()


def test_lan_client_records_its_hand(host, tmp_path):
    store = Store.open(tmp_path / "hongwu.db")
    store.create_profile("Bo")
    rec = Recorder(store, "Bo")
    table = RemoteTable("127.0.0.1", host.port, "Bo", seat=2)
    try:
        assert table.seat == 2 and table.ready() is None and table.wait_for_hand(10)
        settled = None
        end = time.monotonic() + 20
        while time.monotonic() < end and settled is None:
            for ev in table.poll():
                if ev.kind == "hand_settled":
                    settled = ev.settlement
            v = table.view()
            if settled is None and v.my_turn:
                assert table.submit(FirstLegal(2).act(v)) is None
            time.sleep(0.002)
        assert settled is not None and table.view().phase is Phase.SETTLE
        r = rec.hand_finished(table, settled)
        assert r is not None and rec.hand_finished(table, settled) is None  # once
        (record,) = store.records(store.profile("Bo").id)
        assert record.seat == 2 and record.seats[2] == "Bo" and record.my_points == settled.game_points[2]
        assert R.verify(R.parse(store.replay_text(record.id))).settlement.game_points == settled.game_points
    finally:
        table.close()
        store.close()


def test_join_window_records_for_its_profile(host, tmp_path):
    """The join window (make_remote_app) with a profile's recorder, seat 2 on auto-play (托管)."""
    import argparse

    pytest.importorskip("pygame")
    from game.lan_cli import make_remote_app

    store = Store.open(tmp_path / "hongwu.db")
    store.create_profile("Cy")
    table = RemoteTable("127.0.0.1", host.port, "Cy", seat=2)
    try:
        table.ready()
        assert table.wait_for_hand(10)
        ns = argparse.Namespace(hands=1, lang="en", speed="instant", fullscreen=False, mute=True,
                                career_recorder=Recorder(store, "Cy"))
        app = make_remote_app(table, ns)
        app._on_toolbar("auto")
        end = time.monotonic() + 30
        while time.monotonic() < end and app.hands_done < 1:
            app.step([])
            time.sleep(0.002)
        assert app.hands_done == 1
        (record,) = store.records(store.profile("Cy").id)
        assert record.seat == 2 and record.seats[2] == "Cy"
        assert app.results[0].endswith("[" + ",".join(f"{g:+d}" for g in record.game_points) + "]")
        assert R.verify(R.parse(store.replay_text(record.id))).settlement.game_points == record.game_points
    finally:
        table.close()
        store.close()


def test_a_staked_lan_table_records_the_hosts_coins(tmp_path):
    """``hongwu host --stake``: the joining client's record carries the coins the host clamped
    (Settlement.coins), at the table's stake, and they count in the profile's daily ledger."""
    from engine.coins import HAND_CAP, clamp_coins
    from game.career.coins_day import local_day

    stake = 10_000_000
    cfg = ServerConfig(bind="127.0.0.1", port=0, rate=10_000, burst=10_000, tables=[
        fast_table(stake=stake, ai_seats={0: "first-legal", 1: "first-legal", 3: "first-legal"})])
    h = BackgroundHost(cfg, AIProvider(use_plugins=False, user_plugins=False), announce=None)
    port = h.start()
    store = Store.open(tmp_path / "hongwu.db")
    store.create_profile("Di")
    rec = Recorder(store, "Di")  # no local stake: the host's table has one
    table = RemoteTable("127.0.0.1", port, "Di", seat=2)
    try:
        assert table.stake == stake and table.ready() is None and table.wait_for_hand(10)
        table.set_auto(True)
        settled = None
        end = time.monotonic() + 30
        while time.monotonic() < end and settled is None:
            for ev in table.poll():
                if ev.kind == "hand_settled":
                    settled = ev.settlement
            time.sleep(0.005)
        assert settled is not None
        coins = table.coins(table.view().hand_no)
        gp = settled.game_points
        assert coins == (0, 0, clamp_coins(gp[2] * stake), 0)  # AIs get none; Di's clamped
        assert abs(coins[2]) <= HAND_CAP
        r = rec.hand_finished(table, settled)
        assert r is not None and r.coins == coins[2]
        (record,) = store.records(store.profile("Di").id)
        assert record.stake == stake and tuple(record.coins) == coins and record.my_coins == coins[2]
        assert store.day_net(store.profile("Di").id, local_day()) == coins[2]
        assert store.profile("Di").coins == coins[2]
    finally:
        table.close()
        store.close()
        h.stop()
